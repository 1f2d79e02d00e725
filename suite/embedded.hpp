#pragma once
#include <string>
#include <vector>

namespace bx {
struct EmbeddedFile {
  std::string path;  // relative to the repository root, e.g. vectors/field25519/ops.json
  std::string content;
};
// The vector files as they were at build time (cmake/embed_vectors.cmake).
const std::vector<EmbeddedFile>& embedded_vectors();
// The embedded copy of `rel`; InputError if this build has none.
const std::string& embedded_file(const std::string& rel);
}  // namespace bx
