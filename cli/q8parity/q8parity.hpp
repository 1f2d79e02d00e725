// q8parity in the CLI: problem inputs (seeded random and the spec's special values), the places a variant
// runs on (the CPU through gpu/q8parity/host_run.hpp, every GPU through the kernels), bitwise comparison
// with hex reports, and the selftest, verify, bench and oracle entry points.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "cli/family.hpp"
#include "suite/hex.hpp"
#include "suite/implementation.hpp"
#include "gpu/q8parity/host_run.hpp"
#include "reference/q8parity/q8_ref.hpp"
#include "suite/q8parity/judge.hpp"
#include "suite/q8parity/inputs.hpp"
#include "suite/q8parity/plugin_ops.hpp"

namespace bx::q8parity {

namespace R = ref::q8;
using q8::kVariantCount;
using q8::kVariants;
using q8::Op;

// The value every output starts as before a run (finite, far from any result of the inputs drawn here):
// an output a variant never writes stays this and differs from the reference.
inline const float kPoison = q8::float_of(0x7f7fdeadu);

// The inputs (MatvecInput, NormInput, random_*), reference_matvec and reference_rmsnorm, and the float32
// byte forms: suite/q8parity/inputs.hpp.

// reference_matvec over the machine's cores (rows are independent): for the large checks.
std::vector<float> reference_matvec_parallel(const MatvecInput& in);

// A place: the CPU (device -1) or GPU `device`.
struct Place {
  std::string where;  // "cpu", "gpu0", ...
  int device = -1;
};
std::vector<Place> places(const DeviceSelection& sel);
std::vector<float> run_matvec(size_t v, const Place& p, const MatvecInput& in);
// "" when variant v's matvec for ntok tokens runs on p; else why not ("not in this build: BX_Q8_KERNELS=one"):
// such a case is listed as not provided, never run as a failure nor counted as a pass.
std::string matvec_not_in_build(size_t v, const Place& p, int ntok);
std::vector<float> run_rmsnorm(size_t v, const Place& p, const NormInput& in);
q8::GrResult run_gr(size_t v, const Place& p, const R::GrInputs& in, double* seconds = nullptr);

// The judge (suite/q8parity/judge.hpp): bitwise with NaNs as a class, or a characterised NMSE bound.
using suite::q8parity::Diff;
using suite::q8parity::describe;
using suite::q8parity::diff;
using suite::q8parity::float_hex;
using suite::q8parity::nmse_problem;
// The negative control's verdict: among the outputs whose reference value is finite (inf and NaN rows
// are equal under any order), how many differ. It passes when at least half of them do.
struct ControlVerdict {
  size_t differ = 0, finite = 0;
  bool ok() const { return finite > 0 && 2 * differ >= finite; }
};
ControlVerdict judge_control(const std::vector<float>& got, const std::vector<float>& want);

// Variant names ("all", "matvec", a full name or its part after "q8parity/") -> indices into kVariants.
std::vector<size_t> parse_variants(const std::vector<std::string>& names);

// True where this build's host code that runs variants was compiled without contraction and with
// subnormals kept (the probe lives in a translation unit of cli/q8parity, built with its flags).
bool host_build_rules_hold(std::string* problem);

SelftestReport selftest(const SelftestOptions& opt);

// Every loaded plugin's q8parity implementation on the selected places (host ones on the CPU), plugins.cpp.
// A plugin's q8parity implementation (suite::Implementation: "q8parity/<name>", place, library) and its ops.
struct PluginEntry : suite::Implementation {
  suite::q8parity::PluginQ8 ops;
};
std::vector<PluginEntry> plugin_impls(const DeviceSelection& sel);
// seconds: when not null, the call's own seconds are added (bench).
std::vector<float> plugin_matvec(const PluginEntry& im, const MatvecInput& in, double* seconds = nullptr);
std::vector<float> plugin_rmsnorm(const PluginEntry& im, const NormInput& in);

struct VerifyOptions {
  size_t rows = 4099, k = 4096;
  std::vector<int> ntoks = {1, 2, 3, 4, 5, 6, 7, 8};
  uint64_t seed = 1;
  bool special = false;
  std::vector<size_t> variants;
  // A real model's weights: a Q8_0 tensor of a GGUF file (rows and K from its shape), activations from an
  // F32/F16 tensor of the same file (x_tensor; its token count caps ntok) or seeded.
  std::string gguf, tensor, x_tensor;
};
// The matvec input of a verify run: seeded, or from the GGUF file (InputError naming file, tensor, offset).
MatvecInput verify_input(const VerifyOptions& o, int max_tok);
int run_verify(const RunContext& ctx, const VerifyOptions& opt);

struct BenchOptions {
  size_t rows = 128256, k = 4096;  // a vocabulary projection (Llama 3 output layer): 558 MB, 11x the H200 L2
  std::vector<int> ntoks = {1, 2, 3, 4, 5, 6, 7, 8};
  int reps = 10;                  // launches per timed sample
};
int run_bench(const RunContext& ctx, const BenchOptions& opt);

OracleHandler oracle(const DeviceSelection& sel);
// Offline cases (cases.cpp): the matvec and rmsnorm vectors and seeded random matvec cases, bitwise.
std::vector<suite::cases::CaseSpec> cases(const std::string& tier, uint64_t seed, json* notes);

}  // namespace bx::q8parity
