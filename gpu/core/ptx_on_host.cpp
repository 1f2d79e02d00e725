#include <cstdio>
#include <cstdlib>
#include "gpu/core/carry.hpp"

namespace bx {
void ptx_backend_called_on_host() {
  std::fprintf(stderr, "bitexact: internal error: a PTX-backend function ran on the host\n");
  std::abort();
}
}  // namespace bx
