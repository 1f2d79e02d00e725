// q8parity shared CLI pieces (the seeded inputs: suite/q8parity/inputs.cpp): the implementations (built-in
// variants on every place and the plugins', one Impl each), bitwise diffs, variant names, the host probe.
#include <algorithm>
#include <cfloat>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "cli/q8parity/q8parity.hpp"
#include "suite/q8parity/plugin_ops.hpp"
#include "suite/variant_filter.hpp"
#if defined(BX_HAVE_CUDA)
#include "gpu/kernels/q8parity_kernels.hpp"
#endif

namespace bx::q8parity {

namespace {
#if defined(BX_HAVE_CUDA)
#define BX_Q8_GPU(expr) return expr
// "" when the matvec kernel of variant v at ntok tokens is in this build.
std::string kernel_absent(size_t v, int ntok) {
  return kern::q8_matvec_compiled(v, ntok) ? ""
                                           : "matvec at ntok " + std::to_string(ntok) + " (kernel not in this build: BX_Q8_KERNELS=one)";
}
#else
#define BX_Q8_GPU(expr) throw InputError("q8parity: this build has no CUDA kernels")
#endif

// Variant v's operations on device (-1: the host).
std::vector<float> matvec_on(size_t v, int device, const MatvecInput& in) {
  if (device < 0) return q8::matvec_host(kVariants[v], in.w.data(), in.rows, in.k, in.x.data(), in.ntok, kPoison);
  BX_Q8_GPU(kern::q8_matvec_gpu(device, v, in.w.data(), in.rows, in.k, in.x.data(), in.ntok, kPoison));
}
std::vector<float> rmsnorm_on(size_t v, int device, const NormInput& in) {
  const float* w = in.has_w ? in.w.data() : nullptr;
  if (device < 0) return q8::rmsnorm_host(kVariants[v], in.x.data(), w, in.n, in.nrows, in.w_period, in.eps);
  BX_Q8_GPU(kern::q8_rmsnorm_gpu(device, v, in.x.data(), w, in.n, in.nrows, in.w_period, in.eps, kPoison));
}
q8::GrResult gr_on(size_t v, int device, const R::GrInputs& in, [[maybe_unused]] double* seconds) {
  const q8::GrProblem pr = problem_of(in);
  if (device < 0) return q8::gr_host(kVariants[v], pr);
  BX_Q8_GPU(kern::q8_gr_gpu(device, v, pr, kPoison, seconds));
}
}  // namespace

Impl make_impl(size_t v, int device) {
  const q8::VariantRow& row = kVariants[v];
  Impl im;
  im.name = row.name;
  im.where = suite::Implementation::place_of(device);
  im.device = device;
  im.variant = v;
  im.ops = {row.op};
  im.contract = row.contract;
  switch (row.op) {
    case Op::matvec:
      im.matvec = [v, device](const MatvecInput& in, double* seconds) {
        const auto t0 = std::chrono::steady_clock::now();
        std::vector<float> y = matvec_on(v, device, in);
        if (seconds) *seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        return y;
      };
#if defined(BX_HAVE_CUDA)
      if (device >= 0) im.missing = [v](int ntok) { return kernel_absent(v, ntok); };
#endif
      break;
    case Op::rmsnorm: im.rmsnorm = [v, device](const NormInput& in) { return rmsnorm_on(v, device, in); }; break;
    case Op::gr:
      im.gr = [v, device](const R::GrInputs& in, double* seconds) { return gr_on(v, device, in, seconds); };
#if defined(BX_HAVE_CUDA)
      // The device gr runs the canonical matvec kernel at the case's token count: absent from a one-kernel build.
      if (device >= 0)
        im.missing = [](int ntok) {
          const std::string why = kernel_absent(q8::kMatvecCanonical, ntok);
          return why.empty() ? why : "gr's " + why;
        };
#endif
      break;
  }
  return im;
}

std::vector<Impl> impls(const std::vector<size_t>& variants, const DeviceSelection& sel) {
  std::vector<Impl> out;
  for (int d : place_devices(sel))
    for (size_t v : variants) out.push_back(make_impl(v, d));
  // The plugins' implementations, converted: their contract from their table, their ops bound to a call site.
  for (const auto& [p, dev] : suite::plugin_places("q8parity", sel.cpu, sel.gpus, [](const suite::PluginImpl& p) { suite::q8parity::adapt(p); })) {
    const suite::q8parity::PluginQ8 q = suite::q8parity::adapt(p, dev);
    Impl im;
    static_cast<suite::Implementation&>(im) = {"q8parity/" + p.name, suite::Implementation::place_of(dev), dev, p.path};
    im.ops = {Op::matvec, Op::rmsnorm};
    im.contract = q.characterised ? "characterised" : q8::kBitExact;
    im.nmse_bound = q.characterised ? q.nmse_bound : 0;
    if (q.matvec)
      im.matvec = [f = q.matvec](const MatvecInput& in, double* seconds) { return f(in.w, in.x, in.rows, in.k, uint32_t(in.ntok), seconds); };
    if (q.rmsnorm)
      im.rmsnorm = [f = q.rmsnorm](const NormInput& in) {
        return f(in.x, in.has_w ? in.w : std::vector<float>{}, in.n, in.nrows, in.w_period, in.eps);
      };
    out.push_back(std::move(im));
  }
  return out;
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
