// The ecvrf family's parts (cli/ecvrf): variant names, the selftest (CPU rows: the per-item pipeline of
// gpu/ecvrf on the host for every layout x scalar strategy; GPU rows: every compiled kernel pipeline),
// verify, bench and the oracle.
#pragma once
#include <string>

#include "cli/run_result.hpp"
#include "cli/family.hpp"
#include "suite/hex.hpp"
#include "suite/implementation.hpp"
#include <functional>
#include "gpu/ecvrf/scalar.hpp"
#include "gpu/field25519/layouts.hpp"
#include "suite/ecvrf/host.hpp"
#include "suite/ecvrf/plugin_ops.hpp"

namespace bx::ecvrf_family {

// Variant names, the host variants (for_each_host_variant, host_attempts), Job, Hit and host_search:
// suite/ecvrf/host.hpp.

// --sk keys (hex) then --keys N fixed ones (SHA-512 of a label and the index); even ones search with x,
// odd ones with x mod L.
std::vector<Job> make_jobs(const std::vector<std::string>& sk_hex, int keys, const std::string& header_hex);

struct VerifyOptions {
  std::vector<std::string> sk_hex;
  int keys = 0;
  std::string header_hex;
  uint64_t lo = 0, count = 0, target = 0;
  std::vector<std::string> variants{"all"};
  int passes = 12;
  uint64_t probe = 512;
  uint64_t all_betas = 0;  // nonces per key compared beta for beta on the device (0: off)
  std::string all_betas_base;  // the variant they are compared with (empty: the oracle)
  std::string plant;
};
int run_verify(const RunContext& ctx, const VerifyOptions& o);
// verify ecvrf --vectors ROOT: the point vector files through every selected GPU pipeline (verify_vectors.cpp).
int run_verify_vectors(const RunContext& ctx, const std::string& root, const std::vector<std::string>& variant_globs);
// all_betas.cpp: adds its counts, disagreements and details to `res`.
bool all_betas(const RunContext& ctx, const VerifyOptions& o, const std::vector<Job>& jobs, RunResult& res);

struct BenchOptions {
  std::vector<std::string> variants{"all"};
  uint64_t nonces = uint64_t(1) << 22;  // per variant per round on a GPU
  uint64_t cpu_nonces = 4096;           // per variant per round on the CPU (host variants and plugins)
  bool pick = false;
};
int run_bench(const RunContext& ctx, const BenchOptions& o);
// Field multiplications and squarings of one attempt with strategy `tag` (op_count.cpp).
struct FieldOps {
  double mul, sqr;
};
FieldOps field_ops_per_attempt(const std::string& tag, const Job& job, bool folded);
constexpr double kFe32ImadPerMul = 112, kFe32ImadPerSqr = 88;  // op_count.cpp
constexpr double kFe51sFp64PerMul = 85, kFe51sFp64PerSqr = 50;  // op_count.cpp

SelftestReport selftest(const SelftestOptions& opt);
struct Golden;
// Every loaded plugin's ecvrf implementation on the selected places (host ones on the CPU), plugins.cpp.
struct PluginEntry : suite::Implementation {  // "ecvrf/<name>", its place and library
  suite::ecvrf::PluginEcvrf ops;
};
std::vector<PluginEntry> plugin_impls(const DeviceSelection& sel);
// A plugin's search of one job (a breach of the search contract printed; the judge sees the list as reported);
// the calls' own seconds added to *seconds when not null.
std::vector<Hit> plugin_search(const PluginEntry& im, const Job& job, uint64_t lo, uint64_t count, uint64_t target,
                               double* seconds = nullptr);
void plugin_rows(const SelftestOptions& opt, const Golden& gold, SelftestReport& rep);

// An ecvrf implementation as verify and bench run it (impls.cpp): a built-in variant on its place or a
// plugin, with its search: every hit (nonce, score < target) of [lo, lo + n) as reported, adding the
// search's own seconds (a kernel's event time, a plugin's calls, a host search's wall time).
struct Impl : suite::Implementation {
  std::function<std::vector<Hit>(const Job&, uint64_t lo, uint64_t n, uint64_t target, double* seconds)> search;  // empty: not provided
};
Impl host_impl(const HostAttempt& a);
Impl device_impl(const std::string& variant, int dev, int passes = 12);  // CUDA builds; throws InputError otherwise
Impl plugin_impl(const PluginEntry& p);
void gpu_rows(const SelftestOptions& opt, const Golden& gold, SelftestReport& rep);  // selftest_gpu.cpp
OracleHandler oracle(const DeviceSelection& sel);
// Offline cases (cases.cpp): the decoder vectors and scores at the nonce's word carry, as oracle requests.
std::vector<suite::cases::CaseSpec> cases(const std::string& tier, uint64_t seed, json* notes);

}  // namespace bx::ecvrf_family
