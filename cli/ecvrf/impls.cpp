// ecvrf implementations as the engine sees them: each built-in host variant, each built-in device variant
// and each plugin is a suite::Implementation with its search, so verify and bench run and name them the
// same way.
#include <chrono>

#include "cli/ecvrf/ecvrf.hpp"
#if defined(BX_HAVE_CUDA)
#include "gpu/kernels/ecvrf_kernels.hpp"
#endif

namespace bx::ecvrf_family {

Impl host_impl(const HostAttempt& a) {
  Impl im;
  im.name = a.variant;
  im.search = [a](const Job& job, uint64_t lo, uint64_t n, uint64_t target, double* seconds) {
    const auto t0 = std::chrono::steady_clock::now();
    auto h = host_search(a, job, lo, n, target);
    *seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return h;
  };
  return im;
}

Impl device_impl(const std::string& variant, int dev, int passes) {
  Impl im;
  im.name = variant;
  im.where = suite::Implementation::place_of(dev);
  im.device = dev;
#if defined(BX_HAVE_CUDA)
  im.search = [variant, dev, passes](const Job& job, uint64_t lo, uint64_t n, uint64_t target, double* seconds) {
    kern::EcvrfSearchOptions o;
    o.target = target;
    o.passes = passes;
    kern::EcvrfSearchStats st;
    const kern::EcvrfJob j{job.x, job.pk, job.header};
    std::vector<Hit> h;
    for (const kern::EcvrfHit& x : kern::ecvrf_search(dev, variant, j, lo, n, o, &st)) h.push_back({x.nonce, x.score});
    *seconds += st.kernel_seconds;
    return h;
  };
#else
  (void)passes;
  throw InputError("ecvrf: this build has no CUDA kernels");
#endif
  return im;
}

Impl plugin_impl(const PluginEntry& p) {
  Impl im;
  static_cast<suite::Implementation&>(im) = p;
  if (p.ops.search)
    im.search = [p](const Job& job, uint64_t lo, uint64_t n, uint64_t target, double* seconds) {
      return plugin_search(p, job, lo, n, target, seconds);
    };
  return im;
}

}  // namespace bx::ecvrf_family
