// q8parity shared CLI pieces (the seeded inputs: suite/q8parity/inputs.cpp): places, runs, bitwise diffs, variant names, the host probe.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "cli/q8parity/q8parity.hpp"
#include "suite/variant_filter.hpp"
#if defined(BX_HAVE_CUDA)
#include "gpu/kernels/q8parity_kernels.hpp"
#endif

namespace bx::q8parity {

std::vector<Place> places(const DeviceSelection& sel) {
  std::vector<Place> out;
  if (sel.cpu) out.push_back({"cpu", -1});
  for (int d : sel.gpus) out.push_back({"gpu" + std::to_string(d), d});
  return out;
}

#if defined(BX_HAVE_CUDA)
#define BX_Q8_GPU(expr) return expr
#else
#define BX_Q8_GPU(expr) throw InputError("q8parity: this build has no CUDA kernels")
#endif

std::vector<float> run_matvec(size_t v, const Place& p, const MatvecInput& in) {
  if (p.device < 0) return q8::matvec_host(kVariants[v], in.w.data(), in.rows, in.k, in.x.data(), in.ntok, kPoison);
  BX_Q8_GPU(kern::q8_matvec_gpu(p.device, v, in.w.data(), in.rows, in.k, in.x.data(), in.ntok, kPoison));
}
std::string matvec_not_in_build([[maybe_unused]] size_t v, const Place& p, [[maybe_unused]] int ntok) {
#if defined(BX_HAVE_CUDA)
  if (p.device >= 0 && !kern::q8_matvec_compiled(v, ntok))
    return "matvec at ntok " + std::to_string(ntok) + " (kernel not in this build: BX_Q8_KERNELS=one)";
#else
  (void)p;
#endif
  return "";
}
std::vector<float> run_rmsnorm(size_t v, const Place& p, const NormInput& in) {
  const float* w = in.has_w ? in.w.data() : nullptr;
  if (p.device < 0) return q8::rmsnorm_host(kVariants[v], in.x.data(), w, in.n, in.nrows, in.w_period, in.eps);
  BX_Q8_GPU(kern::q8_rmsnorm_gpu(p.device, v, in.x.data(), w, in.n, in.nrows, in.w_period, in.eps, kPoison));
}
q8::GrResult run_gr(size_t v, const Place& p, const R::GrInputs& in, [[maybe_unused]] double* seconds) {
  const q8::GrProblem pr = problem_of(in);
  if (p.device < 0) return q8::gr_host(kVariants[v], pr);
  BX_Q8_GPU(kern::q8_gr_gpu(p.device, v, pr, kPoison, seconds));
}

ControlVerdict judge_control(const std::vector<float>& got, const std::vector<float>& want) {
  ControlVerdict c;
  if (got.size() != want.size()) return c;
  for (size_t i = 0; i < want.size(); ++i)
    if (std::isfinite(want[i])) {
      ++c.finite;
      c.differ += !R::same_bits(got[i], want[i]);
    }
  return c;
}

std::vector<size_t> parse_variants(const std::vector<std::string>& names) {
  // The shared filter, plus an op name ("matvec", "rmsnorm", "gr") selecting every variant of that op.
  std::vector<std::string> all, globs;
  for (size_t v = 0; v < kVariantCount; ++v) all.push_back(kVariants[v].name);
  for (const auto& n : names) {
    bool op = false;
    for (const auto& full : all) op = op || full.substr(full.find('/') + 1).rfind(n + "/", 0) == 0;
    globs.push_back(op ? "q8parity/" + n + "/*" : n);
  }
  return suite::select_variants(globs, all, "q8parity");
}

bool host_build_rules_hold(std::string* problem) {
  // The same probes as the reference's, here in a translation unit that runs the variants' host code.
  volatile float va = 1.0f + 0x1p-12f, vb = 1.0f + 0x1p-12f, vc = -(1.0f + 0x1p-11f), vt = FLT_MIN;
  const float a = va, b = vb, c = vc, t = vt;
  const float fused = a * b + c, half = t * 0.5f;
  std::string p;
  if (fused != 0.0f) p += "cli/q8parity compiled with contraction (a*b+c fused); ";
  if (!(half != 0.0f && std::fpclassify(half) == FP_SUBNORMAL)) p += "cli/q8parity flushes subnormals; ";
  if (!R::built_without_contraction()) p += "reference/q8parity compiled with contraction; ";
  if (!R::built_without_ftz()) p += "reference/q8parity flushes subnormals; ";
  if (problem) *problem = p;
  return p.empty();
}

}  // namespace bx::q8parity
