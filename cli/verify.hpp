#pragma once
#include <cstdint>
#include "cli/registry.hpp"

namespace bx {
struct VerifyOptions {
  DeviceSelection devices;
  double ops = 1e10;       // operations to check per layout
  uint64_t seed = 0xb01c;  // operand stream seed
  uint64_t first = 0;      // first draw index (resume point)
  int sample_shift = 20;   // one draw in 2^shift is judged by the reference
};
// Bulk differential check of field25519: every implementation on the same counter-based operand stream,
// disagreements and a random sample judged with the reference. Returns 0 only with no disagreement.
int run_verify_field(const VerifyOptions& opt);
}  // namespace bx
