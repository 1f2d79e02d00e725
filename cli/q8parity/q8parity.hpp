// q8parity in the CLI: problem inputs (seeded random and the spec's special values), the implementations
// (every variant on the CPU through gpu/q8parity/host_run.hpp and on every GPU through the kernels, and
// the plugins' ones), bitwise comparison with hex reports, and the selftest, verify, bench and oracle entry
// points.
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "cli/family.hpp"
#include "suite/hex.hpp"
#include "suite/implementation.hpp"
#include "gpu/q8parity/host_run.hpp"
#include "reference/q8parity/q8_ref.hpp"
#include "suite/q8parity/judge.hpp"
#include "suite/q8parity/inputs.hpp"

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

// A q8parity implementation (suite::Implementation: name, place, origin): a built-in variant on one place
// or a plugin's implementation on one place, with the callables of the family's operations (empty where
// not provided) and its contract. Selftest, verify, bench and the oracle iterate one list of them.
struct Impl : suite::Implementation {
  size_t variant = kVariantCount;  // a built-in variant's row of kVariants (plugins: kVariantCount)
  // The operations it answers for: a built-in variant's one; a plugin's, those of the C ABI (matvec and
  // rmsnorm), each a selftest row "<name> [op]" of its own, "not provided" where its callable is empty.
  std::vector<Op> ops;
  // As declared: q8::kBitExact (the canonical order bit for bit), "characterised" (a plugin's NMSE bound
  // against the canonical order), q8::kBetweenVariants (the gr read: bitwise equal to gr/plain on the same
  // place, within NMSE 1e-7 of float64) or q8::kMustDiffer (the negative control: must differ).
  std::string contract = q8::kBitExact;
  double nmse_bound = 0;  // characterised: the bound (0: bitwise)
  // ntok x rows (token-major) for in.ntok tokens; adds the seconds of the call to *seconds when not null
  // (a plugin's: its call alone, without copies).
  std::function<std::vector<float>(const MatvecInput&, double* seconds)> matvec;
  std::function<std::vector<float>(const NormInput&)> rmsnorm;
  std::function<q8::GrResult(const R::GrInputs&, double* seconds)> gr;
  // "" where its operation at ntok tokens runs here; else why not ("matvec at ntok 3 (kernel not in this
  // build: BX_Q8_KERNELS=one)"): selftest lists such a case as not provided and bench as not timed, never
  // a failure nor a pass (verify and the oracle call the kernel and report its error line). Empty: always runs.
  std::function<std::string(int ntok)> missing;

  bool answers(Op op) const { return std::find(ops.begin(), ops.end(), op) != ops.end(); }
  bool negative() const { return contract == q8::kMustDiffer; }
  bool characterised() const { return nmse_bound > 0; }
  std::string not_in_build(int ntok) const { return missing ? missing(ntok) : std::string(); }
  // How a selftest failure names it: "q8parity/matvec/... on cpu", "q8parity/q8-c@cpu (characterised)".
  std::string who() const { return builtin() ? name + " on " + where : label() + (characterised() ? " (characterised)" : ""); }
};
// Built-in variant v on device (-1: the CPU, through gpu/q8parity/host_run.hpp; else the kernels).
Impl make_impl(size_t v, int device);
// The selected built-in variants on every selected place (place by place, in the order given), then every
// loaded plugin's q8parity implementations on the selected places (host ones on the CPU).
std::vector<Impl> impls(const std::vector<size_t>& variants, const DeviceSelection& sel);

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
