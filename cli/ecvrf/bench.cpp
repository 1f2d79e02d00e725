// `bitexact bench ecvrf`: every selected GPU variant in interleaved rounds (the order rotates each round)
// on a realistic key (a fixed SHA-512-derived secret, never an all-zero scalar: an all-zero
// key inflates an ECVRF miner's rate by 1.45x), the same nonces for all in a round, a target of 2^50 (about 2^8 hits per
// 2^22 nonces). Parity on every round: every variant's hit list (nonce and score) equals the oracle
// variant's, whose hits are re-judged by the golden model. Reports MH/s (kernel time), the ratio to the
// best, registers and local memory per kernel. --pick names the fastest variant that passed the selftest
// on each card (a per-card autotune done safely: a variant that fails its selftest is never picked).
#include <algorithm>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>

#include "cli/json_out.hpp"
#include "cli/bench_harness.hpp"
#include "cli/ecvrf/ecvrf.hpp"
#include "cli/ecvrf/golden.hpp"
#include "cli/selftest.hpp"
#include "gpu/ecvrf/variants.hpp"
#if defined(BX_HAVE_CUDA)
#include "gpu/kernels/ecvrf_kernels.hpp"
#endif

namespace bx::ecvrf_family {

int run_bench(const RunContext& ctx, const BenchOptions& o) {
#if defined(BX_HAVE_CUDA)
  if (ctx.devices.gpus.empty()) throw InputError("bench ecvrf: needs a GPU (--device gpu): the CPU variants run at kH/s");
  const std::string oracle = ecvrf::OracleVariant::name();
  const Job job = make_jobs({}, 1, "")[0];
  const kern::EcvrfJob kjob{job.x, job.pk, job.header};
  const uint64_t target = uint64_t(1) << 50;
  struct C {
    std::string variant;
    int dev;
    std::string label() const { return variant + "@gpu" + std::to_string(dev); }
  };
  std::vector<C> list;
  for (int dev : ctx.devices.gpus) {
    list.push_back({oracle, dev});  // first: the parity reference of the round
    for (const auto& v : kern::ecvrf_device_variants())
      if (v.name != oracle && std::any_of(o.variants.begin(), o.variants.end(), [&](const std::string& p) {
            return p == "all" || variant_matches(p, v.name);
          }))
        list.push_back({v.name, dev});
  }
  // Selftest first (quick tier, golden model), per card: --pick only considers variants that passed.
  std::map<std::string, bool> passed;
  if (o.pick) {
    SelftestOptions so;
    so.devices.cpu = false;
    so.devices.gpus = ctx.devices.gpus;
    const SelftestReport rep = selftest(so);
    for (const SelftestRow& r : rep.rows) passed[r.variant + "@" + r.where] = r.ok();
  }
  std::printf("bench ecvrf: %d rounds, %llu nonces per variant per round, key pk=%s (%s), target 2^50\n", ctx.rounds,
              (unsigned long long)o.nonces, to_hex(job.pk).c_str(), job.scalar_kind.c_str());
  const auto lo_of = [&](int round) { return (uint64_t(1) << 40) + uint64_t(round) * o.nonces; };
  std::vector<Contender<std::vector<Hit>>> cs;
  for (const C& c : list)
    cs.push_back({c.label(), [&, c](int round, double& secs) {
                    kern::EcvrfSearchOptions so;
                    so.target = target;
                    kern::EcvrfSearchStats st;
                    std::vector<Hit> h;
                    for (const auto& x : kern::ecvrf_search(c.dev, c.variant, kjob, lo_of(round), o.nonces, so, &st))
                      h.push_back({x.nonce, x.score});
                    secs += st.kernel_seconds;
                    return h;
                  }});
  const auto parity = [&](int round, const std::vector<std::vector<Hit>>& got) {
    std::vector<std::string> bad;
    const auto same = [](const std::vector<Hit>& a, const std::vector<Hit>& b) {
      return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](const Hit& x, const Hit& y) {
               return x.nonce == y.nonce && x.score == y.score;
             });
    };
    for (size_t j = 0; j < list.size(); ++j) {
      size_t r0 = 0;  // the oracle on the same card (its first contender); each card's oracle against card 0's
      while (list[r0].dev != list[j].dev) ++r0;
      if (j == r0) r0 = 0;
      if (j != r0 && !same(got[j], got[r0]))
        bad.push_back(list[j].label() + " reports " + std::to_string(got[j].size()) + " hits, " + list[r0].label() + " " +
                      std::to_string(got[r0].size()) + " (different lists)");
    }
    if (got[0].empty()) bad.push_back("no hit where about " + std::to_string(o.nonces >> 14) + " are expected");
    // The oracle's first hits, judged by the golden model.
    std::vector<uint64_t> nonces;
    for (size_t k = 0; k < got[0].size() && k < 4; ++k) nonces.push_back(got[0][k].nonce);
    const auto gold = golden_job_betas(G::vrf_key(job.sk), job.header, nonces);
    for (size_t k = 0; k < nonces.size(); ++k)
      if (!gold[k] || G::score(*gold[k]) != got[0][k].score) bad.push_back("oracle hit " + std::to_string(nonces[k]) + " disagrees with the golden model");
    std::printf("round %d: %zu hits, parity %s\n", round, got[0].size(), bad.empty() ? "OK" : "FAILED");
    return bad;
  };
  const RoundTimes rt = run_interleaved<std::vector<Hit>>(ctx.rounds, cs, parity);
  std::map<std::string, double> rate;
  double best_rate = 0;
  for (const C& c : list) {
    std::vector<double> r;
    for (double s : rt.seconds.at(c.label())) r.push_back(double(o.nonces) / s);
    rate[c.label()] = median(r);
    best_rate = std::max(best_rate, rate[c.label()]);
  }
  const double ceiling = kern::imad_ceiling(ctx.devices.gpus[0]);
  const double fp64_ceiling = kern::dfma_ceiling(ctx.devices.gpus[0]);
  std::printf("IMAD issue ceiling (microbenchmark, gpu%d): %.2f T/s. IMAD %% = attempts/s x (muls x %.0f + sqrs x %.0f) / "
              "ceiling: the share of the ceiling the field products alone take (fe32's PTX counts; other layouts differ)\n",
              ctx.devices.gpus[0], ceiling / 1e12, kFe32ImadPerMul, kFe32ImadPerSqr);
  std::printf("DFMA issue ceiling: %.2f T/s. FP64 %% (fe51s-ptx rows) = attempts/s x (muls x %.0f + sqrs x %.0f) / ceiling: the "
              "share of the FP64 pipe its field products take\n",
              fp64_ceiling / 1e12, kFe51sFp64PerMul, kFe51sFp64PerSqr);
  std::map<std::pair<std::string, bool>, FieldOps> ops;  // (strategy, folded)
  for (const char* t : {ecvrf::DoubleAdd::tag, ecvrf::Window4::tag, ecvrf::Wnaf5::tag, ecvrf::JoyeTunstall::tag})
    for (bool folded : {false, true}) ops[{t, folded}] = field_ops_per_attempt(t, job, folded);
  std::printf("\n%-44s %9s %8s %11s %7s %7s %-40s\n", "variant", "MH/s", "vs best", "mul+sqr/att", "IMAD %", "FP64 %",
              "kernels: registers / local bytes");
  nlohmann::ordered_json js = nlohmann::ordered_json::array();
  std::map<int, std::pair<std::string, double>> pick;
  for (const C& c : list) {
    std::string kinfo;
    nlohmann::ordered_json kj = nlohmann::ordered_json::object();
    for (const auto& k : kern::ecvrf_kernel_info(c.variant)) {
      kinfo += k.kernel + " " + std::to_string(k.registers) + "/" + std::to_string(k.local_bytes) + " ";
      kj[k.kernel] = {{"registers", k.registers}, {"local_bytes", k.local_bytes}};
    }
    const double mh = rate[c.label()] / 1e6;
    std::string tag;
    bool folded = false, fp64 = false;
    for (const auto& v : kern::ecvrf_device_variants())
      if (v.name == c.variant) tag = v.strategy, folded = v.folded, fp64 = v.layout == "fe51s" && v.backend == "ptx";
    const FieldOps& f = ops[{tag, folded}];
    const double imad = fp64 ? 0 : rate[c.label()] * (f.mul * kFe32ImadPerMul + f.sqr * kFe32ImadPerSqr) / ceiling;
    const double fp64_share = fp64 ? rate[c.label()] * (f.mul * kFe51sFp64PerMul + f.sqr * kFe51sFp64PerSqr) / fp64_ceiling : 0;
    char fo[32], im[16] = "-", fp[16] = "-";
    std::snprintf(fo, sizeof fo, "%.0f+%.0f", f.mul, f.sqr);
    if (!fp64) std::snprintf(im, sizeof im, "%.1f%%", 100 * imad);
    if (fp64) std::snprintf(fp, sizeof fp, "%.1f%%", 100 * fp64_share);
    std::printf("%-44s %9.3f %8.3f %11s %7s %7s %-40s\n", c.label().c_str(), mh, rate[c.label()] / best_rate, fo, im, fp,
                kinfo.c_str());
    js.push_back({{"variant", c.variant}, {"device", c.dev}, {"mh_per_s", mh}, {"field_muls", f.mul}, {"field_sqrs", f.sqr},
                  {"imad_fraction_field_products", imad}, {"fp64_fraction_field_products", fp64_share}, {"kernels", kj}});
    if (o.pick && passed.count(c.label()) && passed[c.label()] && rt.parity &&
        (!pick.count(c.dev) || pick[c.dev].second < mh))
      pick[c.dev] = {c.variant, mh};
  }
  std::printf("parity on every round: %s\n", rt.parity ? "OK" : "FAILED");
  if (o.pick)
    for (int dev : ctx.devices.gpus) {
      if (pick.count(dev))
        std::printf("pick gpu%d (%s): %s at %.3f MH/s (passed its selftest and parity)\n", dev, gpu_name(dev).c_str(),
                    pick[dev].first.c_str(), pick[dev].second);
      else
        std::printf("pick gpu%d: none (no variant passed its selftest and parity)\n", dev);
    }
  if (ctx.json) {
    json_out::put({"bench", "ecvrf"}, js);
    json_out::put({"seeds", "bench ecvrf"}, "key pk " + to_hex(job.pk) + ", nonces from 2^40 + round * nonces");
  }
  return rt.parity ? 0 : 1;
#else
  (void)ctx, (void)o;
  throw InputError("bench ecvrf: this build has no CUDA kernels");
#endif
}

}  // namespace bx::ecvrf_family
