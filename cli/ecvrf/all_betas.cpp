// `verify ecvrf --all-betas N`: every beta (not only hits) of N nonces per key, each GPU variant against
// the oracle variant (or --all-betas-base), compared in device memory (kern::ecvrf_compare_betas). Every disagreement (up to
// 16 per variant) and a sample of 8 nonces at the range start are judged by the golden model, so a
// difference says which side is wrong and equal betas are tied to the reference.
#include <cstdio>

#include "cli/ecvrf/ecvrf.hpp"
#include "cli/ecvrf/golden.hpp"
#include "cli/run_result.hpp"
#include "cli/selftest.hpp"
#include "gpu/ecvrf/variants.hpp"
#if defined(BX_HAVE_CUDA)
#include "gpu/kernels/ecvrf_kernels.hpp"
#endif

namespace bx::ecvrf_family {

bool all_betas(const RunContext& ctx, const VerifyOptions& o, const std::vector<Job>& jobs, RunResult& res) {
#if defined(BX_HAVE_CUDA)
  if (ctx.devices.gpus.empty()) {
    std::printf("all-betas: FAILED: needs a GPU (--device gpu)\n");
    return false;
  }
  const std::string oracle = o.all_betas_base.empty() ? ecvrf::OracleVariant::name() : o.all_betas_base;
  // From --nonces LO, independent of its COUNT; a shard takes the same part of it as of the search range.
  const RangePart part = ctx.shard.part(o.all_betas);
  const uint64_t n = part.size, lo = o.lo + part.offset;
  res.details["all_betas"] = {{"lo", o.lo}, {"size", o.all_betas}, {"covered", {{"offset", part.offset}, {"size", part.size}}}};
  bool ok = true;
  std::printf("\nall-betas: %llu nonces per key from %llu, every GPU variant against %s, beta for beta on the device\n",
              (unsigned long long)n, (unsigned long long)lo, oracle.c_str());
  std::printf("%-44s %14s %10s %8s %9s\n", "implementation", "betas", "differing", "sample", "Mbeta/s");
  for (int dev : ctx.devices.gpus)
    for (const auto& v : kern::ecvrf_device_variants()) {
      if (v.name == oracle) continue;
      if (!suite::variant_wanted(o.variants, v.name)) continue;
      uint64_t compared = 0, differing = 0, sample_ok = 0, sample_n = 0;
      double secs = 0;
      for (const Job& job : jobs) {
        const kern::EcvrfJob j{job.x, job.pk, job.header};
        const kern::EcvrfBetaDiff d = kern::ecvrf_compare_betas(dev, oracle, v.name, j, lo, n, o.passes, 16);
        compared += d.compared;
        differing += d.differing;
        secs += d.kernel_seconds;
        // The sample and every kept disagreement, judged by the golden model on the variant's betas.
        std::vector<uint64_t> nonces;
        const size_t ns = size_t(std::min<uint64_t>(8, n));  // the sample; then the disagreements
        for (size_t k = 0; k < ns; ++k) nonces.push_back(lo + k);
        for (uint64_t off : d.first) nonces.push_back(lo + off);
        const auto gold = golden_job_betas(G::vrf_key(job.sk), job.header, nonces);
        for (size_t k = 0; k < nonces.size(); ++k) {
          uint8_t beta[64], valid = 0;
          kern::ecvrf_betas(dev, v.name, j, nonces[k], 1, o.passes, beta, &valid);
          const bool same = gold[k] ? valid && std::equal(beta, beta + 64, gold[k]->begin()) : !valid;
          if (k < ns) {
            ++sample_n;
            sample_ok += same;
          }
          if (!same || k >= ns)
            res.disagreements.push_back({{"implementation", v.name + "@gpu"}, {"kind", k < ns ? "sample" : "beta"},
                                         {"base", oracle}, {"pk", to_hex(job.pk)}, {"nonce", nonces[k]},
                                         {"golden", gold[k] ? to_hex(gold[k]->data(), 64) : "none"},
                                         {"variant", valid ? to_hex(beta, 64) : "none"}});
          if (!same || k >= ns)
            std::fprintf(stderr, "all-betas %s@gpu%d key %s nonce %llu: golden %s\n  variant %s\n", v.name.c_str(), dev,
                         to_hex(job.pk).c_str(), (unsigned long long)nonces[k],
                         gold[k] ? to_hex(gold[k]->data(), 64).c_str() : "none", valid ? to_hex(beta, 64).c_str() : "none");
        }
      }
      ok = ok && differing == 0 && sample_ok == sample_n;
      const std::string who = v.name + "@gpu (all-betas vs " + oracle + ")";
      res.implementations.push_back(who);
      res.counts[who] = {{"betas", compared}, {"differing", differing}};
      res.seconds[who] = secs;
      res.details["all_betas"]["samples"][v.name] = std::to_string(sample_ok) + "/" + std::to_string(sample_n);
      std::printf("%-44s %14llu %10llu %4llu/%-3llu %9.3f\n", (v.name + "@gpu" + std::to_string(dev)).c_str(),
                  (unsigned long long)compared, (unsigned long long)differing, (unsigned long long)sample_ok,
                  (unsigned long long)sample_n, secs > 0 ? double(compared) / secs / 1e6 : 0.0);
    }
  return ok;
#else
  (void)ctx, (void)o, (void)jobs, (void)res;
  std::printf("all-betas: FAILED: this build has no CUDA kernels\n");
  return false;
#endif
}

}  // namespace bx::ecvrf_family
