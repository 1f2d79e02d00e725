#pragma once
#include <string>
#include "cli/registry.hpp"

namespace bx {
struct BenchOptions {
  DeviceSelection devices;
  int rounds = 3;
  int iters = 4096;
  bool json = false;
};
// Interleaved rounds of mul and sqr chains for every implementation; parity across implementations and a
// reference spot check on every round. GPU rates are set against the measured IMAD issue ceiling.
int run_bench(const BenchOptions& opt);
}  // namespace bx
