// Where the repository and the shared external vector files are: the environment (BX_SOURCE_DIR,
// BX_SHARED_DIR) wins over the paths compiled in, so a binary built elsewhere still finds them.
#pragma once
#include <cstdlib>
#include <string>

namespace bx {
inline std::string source_dir() {
  const char* e = std::getenv("BX_SOURCE_DIR");
  return e && *e ? e : BX_SOURCE_DIR;
}
inline std::string shared_dir() {
  const char* e = std::getenv("BX_SHARED_DIR");
#if defined(BX_SHARED_DIR)
  return e && *e ? e : BX_SHARED_DIR;
#else
  return e && *e ? e : source_dir() + "/../shared";
#endif
}
}  // namespace bx
