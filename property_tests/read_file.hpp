// Tests read checked-in and external files whole; a missing file reads as "" (the caller decides
// whether that is a failure or a NOT RUN).
#pragma once
#include <fstream>
#include <sstream>
#include <string>

#include "cli/paths.hpp"

namespace bx::test {
inline std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}
// A file of the repository, by its path relative to the root.
inline std::string read_repo_file(const std::string& rel) { return read_file(bx::source_dir() + "/" + rel); }
}  // namespace bx::test
