// Files the user names on the command line (--result, merge inputs, --gguf): what is wrong with a path is
// said in one line (missing, a directory, not readable, not writable), before any work starts.
#pragma once
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "suite/hex.hpp"

namespace bx {
// Throws InputError unless `path` is a regular file that can be opened for reading.
inline void require_readable_file(const std::string& path, const std::string& what) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const auto st = fs::status(path, ec);
  if (!fs::exists(st)) throw InputError(what + " " + path + ": no such file");
  if (fs::is_directory(st)) throw InputError(what + " " + path + ": is a directory, not a file");
  if (!fs::is_regular_file(st)) throw InputError(what + " " + path + ": not a regular file");
  if (!std::ifstream(path, std::ios::binary)) throw InputError(what + " " + path + ": cannot be read (permissions?)");
}
// The whole file, after require_readable_file.
inline std::string read_input_file(const std::string& path, const std::string& what) {
  require_readable_file(path, what);
  std::ifstream f(path, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  if (f.bad()) throw InputError(what + " " + path + ": read error");
  return s.str();
}
// The JSON document in `path` (J: nlohmann::json or ordered_json), after read_input_file; a file that is not
// JSON is "<what> <path>: not JSON (<parser's reason>)".
template <class J>
J read_json_file(const std::string& path, const std::string& what) {
  const std::string text = read_input_file(path, what);
  try {
    return J::parse(text);
  } catch (const typename J::exception& e) {
    throw InputError(what + " " + path + ": not JSON (" + std::string(e.what()) + ")");
  }
}
// Throws InputError unless `path` can be created or overwritten as a file (checked before a long run).
inline void require_writable_file(const std::string& path, const std::string& what) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw InputError(what + " " + path + ": is a directory, not a file");
  const fs::path parent = fs::path(path).parent_path();
  if (!parent.empty() && !fs::is_directory(parent, ec)) throw InputError(what + " " + path + ": no such directory " + parent.string());
  const bool existed = fs::exists(path, ec);
  if (!std::ofstream(path, std::ios::binary | std::ios::app)) throw InputError(what + " " + path + ": cannot be written");
  if (!existed) fs::remove(path, ec);
}
}  // namespace bx
