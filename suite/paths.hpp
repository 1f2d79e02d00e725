// Where the repository's files are: the environment (BX_SOURCE_DIR) wins over the path compiled in, so a
// binary built elsewhere still finds them. Vendored third-party data lives under third_party/ in the
// repository; BX_WYCHEPROOF_DIR may point the tests at a newer copy of the Wycheproof files.
#pragma once
#include <cstdlib>
#include <string>

namespace bx {
inline std::string env_or(const char* name, const std::string& fallback) {
  const char* e = std::getenv(name);
  return e && *e ? e : fallback;
}
inline std::string source_dir() { return env_or("BX_SOURCE_DIR", BX_SOURCE_DIR); }
inline std::string wycheproof_dir() { return env_or("BX_WYCHEPROOF_DIR", source_dir() + "/third_party/wycheproof"); }
}  // namespace bx
