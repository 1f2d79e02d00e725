// `bitexact vectors generate|check` over every family's vector files (Family::vector_files,
// generate_vectors, check_vectors). A file under vectors/ that no family owns is a problem too.
#pragma once
#include <map>
#include <string>
#include <vector>

namespace bx::vectors {

// relative path -> exact content of every deterministic file of the named family (empty: all).
std::map<std::string, std::string> generate_all(const std::string& family = "");
// One line per problem (empty: all good).
std::vector<std::string> check_all(const std::string& root, const std::string& family = "");
// The tree `vectors check` reads: --root when given, else the current directory when it holds
// vectors/, else an installed share/bitexact beside the binary, else the source tree compiled in.
std::string resolve_root(const std::string& root_option);

}  // namespace bx::vectors
