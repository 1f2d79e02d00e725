// The parts of the field25519 family (cli/field25519/family.cpp puts them behind the Family interface).
#pragma once
#include <cstdint>

#include "cli/family.hpp"
#include "cli/field25519/impls.hpp"

namespace bx::field25519 {

SelftestReport selftest(const SelftestOptions& opt);

struct VerifyOptions {
  double ops = 1e10;       // operations to check per layout (CPU only and not given: 2e6)
  bool ops_given = false;
  bool force = false;      // run on the CPU even when the estimate is past a few minutes
  uint64_t seed = 0xb01c;  // operand stream seed
  uint64_t first = 0;      // first draw index (resume point)
  int sample_shift = 20;   // one draw in 2^shift is judged by the reference
};
// Bulk differential check: every implementation on the same counter-based operand stream,
// disagreements and a random sample judged with the reference. Returns 0 only with no disagreement.
int run_verify(const RunContext& ctx, const VerifyOptions& opt);

struct BenchOptions {
  int iters = 4096;  // dependent operations per GPU thread
};
// Interleaved rounds of mul and sqr chains for every implementation; parity across implementations and
// a reference spot check on every round. GPU rates are set against the measured IMAD issue ceiling.
int run_bench(const RunContext& ctx, const BenchOptions& opt);

// Oracle requests "fe25519.OP" and "x25519" (cli/field25519/oracle.cpp).
OracleHandler oracle(const DeviceSelection& sel);

// Offline cases (cli/field25519/cases.cpp): every op case of the vectors (quick), and 256 seeded random
// operand pairs per op drawn like verify's (full), as "fe25519.OP" oracle requests.
std::vector<suite::cases::CaseSpec> cases(const std::string& tier, uint64_t seed, json* notes);

}  // namespace bx::field25519
