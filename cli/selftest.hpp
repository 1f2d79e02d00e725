#pragma once
#include <cstdint>
#include "cli/registry.hpp"

namespace bx {
struct SelftestOptions {
  bool full = false;  // --full: larger random batch, every iterated X25519 vector
  DeviceSelection devices;
  uint64_t seed = 0x5e1f7e57;
  bool json = false;
};
// Every implementation against the embedded vectors, then a seeded random differential batch against
// the reference. Prints a table; returns 0 only if everything passed.
int run_selftest(const SelftestOptions& opt);
}  // namespace bx
