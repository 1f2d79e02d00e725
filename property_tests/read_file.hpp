// Tests read checked-in and vendored files whole. A file the repository is supposed to hold is required:
// require_file fails the test (never skips it) when the file is missing or empty.
#pragma once
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "suite/paths.hpp"

namespace bx::test {
inline std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}
// A file of the repository, by its path relative to the root.
inline std::string read_repo_file(const std::string& rel) { return read_file(bx::source_dir() + "/" + rel); }
// The whole text of a file that must exist; an empty result has already failed the test, so callers
// `ASSERT_FALSE(text.empty())` or return.
inline std::string require_file(const std::string& path) {
  std::string text = read_file(path);
  if (text.empty()) ADD_FAILURE() << path << " is missing or empty: it is part of the repository (a missing input fails)";
  return text;
}
inline std::string wycheproof_file(const std::string& name) { return require_file(bx::wycheproof_dir() + "/" + name); }
}  // namespace bx::test
