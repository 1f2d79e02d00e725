// `bitexact bench ecvrf`: every selected variant and plugin in interleaved rounds (the order rotates each
// round) on a realistic key (a fixed SHA-512-derived secret, never an all-zero scalar: an all-zero key
// inflates an ECVRF miner's rate by 1.45x), the same nonces for all in a round. Parity on every round:
// every contender's hit list (nonce and score) equals its place's first contender's (the oracle variant on
// a GPU, the first host variant on the CPU), whose first hits are re-judged by the golden model. On a GPU:
// 2^22 nonces, target 2^50 (about 2^8 hits), MH/s of kernel time, the share of the IMAD or DFMA ceiling the
// field products take, registers and local memory per kernel; --pick names the fastest variant that passed
// the selftest on each card (a per-card autotune done safely). On the CPU (host variants and host plugins,
// the plugin's time its calls alone): 4096 nonces, target 2^58 (about 64 hits).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <thread>

#include "cli/json_out.hpp"
#include "cli/bench_harness.hpp"
#include "cli/bench_record.hpp"
#include "cli/ecvrf/ecvrf.hpp"
#include "cli/ecvrf/golden.hpp"
#include "cli/selftest.hpp"
#include "gpu/ecvrf/variants.hpp"
#if defined(BX_HAVE_CUDA)
#include "gpu/kernels/ecvrf_kernels.hpp"
#endif

namespace bx::ecvrf_family {

namespace {

bool same(const std::vector<Hit>& a, const std::vector<Hit>& b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](const Hit& x, const Hit& y) { return x.nonce == y.nonce && x.score == y.score; });
}

// Interleaved rounds over `list` (each place's first contender is its parity reference) on [lo(round),
// +nonces) at `target`; returns the per-contender seconds and parity. run(c, lo, seconds) searches.
RoundTimes rounds(const RunContext& ctx, const std::vector<Impl>& list, const Job& job, uint64_t nonces, uint64_t target) {
  const auto lo_of = [&](int round) { return (uint64_t(1) << 40) + uint64_t(round) * nonces; };
  std::vector<Contender<std::vector<Hit>>> cs;
  for (const Impl& c : list)
    cs.push_back({c.label(), [&, c](int round, double& secs) { return c.search(job, lo_of(round), nonces, target, &secs); }, c.where});
  const double expected = double(nonces) * double(target) / 18446744073709551616.0;
  const auto parity = [&](int round, const std::vector<std::vector<Hit>>& got) {
    std::vector<std::string> bad;
    for (size_t j = 0; j < list.size(); ++j) {
      size_t r0 = 0;  // the first contender on the same place; each place's first against the list's first
      while (list[r0].device != list[j].device) ++r0;
      if (j == r0) r0 = 0;
      if (j != r0 && !same(got[j], got[r0]))
        bad.push_back(list[j].label() + " reports " + std::to_string(got[j].size()) + " hits, " + list[r0].label() + " " +
                      std::to_string(got[r0].size()) + " (different lists)");
    }
    if (got[0].empty()) bad.push_back("no hit where about " + std::to_string(int(expected)) + " are expected");
    // The reference contender's first hits, judged by the golden model.
    std::vector<uint64_t> ns;
    for (size_t k = 0; k < got[0].size() && k < 4; ++k) ns.push_back(got[0][k].nonce);
    const auto gold = golden_job_betas(G::vrf_key(job.sk), job.header, ns);
    for (size_t k = 0; k < ns.size(); ++k)
      if (!gold[k] || G::score(*gold[k]) != got[0][k].score)
        bad.push_back(list[0].label() + " hit " + std::to_string(ns[k]) + " disagrees with the golden model");
    std::printf("round %d: %zu hits, parity %s\n", round, got[0].size(), bad.empty() ? "OK" : "FAILED");
    return bad;
  };
  return run_interleaved<std::vector<Hit>>(ctx.rounds, cs, parity);
}

std::map<std::string, double> rates(const std::vector<Impl>& list, const RoundTimes& rt, uint64_t nonces) {
  std::map<std::string, double> rate;
  for (const Impl& c : list) {
    std::vector<double> r;
    for (double s : rt.seconds.at(c.label())) r.push_back(double(nonces) / s);
    rate[c.label()] = median(r);
  }
  return rate;
}

// The CPU: every selected host variant and host plugin.
bool bench_cpu(const RunContext& ctx, const BenchOptions& o, const Job& job, const std::vector<PluginEntry>& plugins,
               std::vector<BenchRow>& rows) {
  const uint64_t target = uint64_t(1) << 58;
  std::vector<Impl> list;
  for (const HostAttempt& a : host_attempts())
    if (suite::variant_wanted(o.variants, a.variant)) list.push_back(host_impl(a));
  for (const PluginEntry& im : plugins)
    if (im.device < 0) list.push_back(plugin_impl(im));
  if (list.empty()) {
    std::string globs;
    for (const auto& g : o.variants) globs += (globs.empty() ? "" : " ") + g;
    throw InputError("bench ecvrf: no host variant or plugin matches --variant '" + globs + "' on the CPU (see `bitexact list`)");
  }
  std::printf("bench ecvrf on the CPU: %d rounds, %llu nonces per contender per round, key pk=%s (%s), target 2^58\n",
              ctx.rounds, (unsigned long long)o.cpu_nonces, to_hex(job.pk).c_str(), job.scalar_kind.c_str());
  const RoundTimes rt = rounds(ctx, list, job, o.cpu_nonces, target);
  const auto rate = rates(list, rt, o.cpu_nonces);
  const double first = rate.at(list[0].label());
  std::printf("host variants run on every core (%u threads); a plugin's search runs as the plugin runs it\n",
              std::max(1u, std::thread::hardware_concurrency()));
  std::printf("\n%-44s %9s %9s\n", "variant", "kH/s", "vs first");
  for (const Impl& c : list) {
    std::printf("%-44s %9.2f %9.3f\n", c.label().c_str(), rate.at(c.label()) / 1e3, rate.at(c.label()) / first);
    rows.push_back({c.name, c.where, c.origin(), "", "MH/s",
                    per_round_rates(rt.seconds.at(c.label()), double(o.cpu_nonces), 1e6)});
  }
  std::printf("parity on every round (CPU): %s\n", rt.parity ? "OK" : "FAILED");
  return rt.parity;
}

#if defined(BX_HAVE_CUDA)
// Every selected GPU: its oracle variant first (the parity reference), the selected variants, device plugins.
bool bench_gpus(const RunContext& ctx, const BenchOptions& o, const Job& job, const std::vector<PluginEntry>& plugins,
                std::vector<BenchRow>& rows, std::map<std::string, nlohmann::ordered_json>& ceilings) {
  const std::string oracle = ecvrf::OracleVariant::name();
  const uint64_t target = uint64_t(1) << 50;
  std::vector<Impl> list;
  for (int dev : ctx.devices.gpus) {
    list.push_back(device_impl(oracle, dev));
    for (const auto& v : kern::ecvrf_device_variants())
      if (v.name != oracle && suite::variant_wanted(o.variants, v.name)) list.push_back(device_impl(v.name, dev));
    for (const PluginEntry& im : plugins)
      if (im.device == dev) list.push_back(plugin_impl(im));
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
  const RoundTimes rt = rounds(ctx, list, job, o.nonces, target);
  const auto rate = rates(list, rt, o.nonces);
  double best_rate = 0;
  for (const auto& [label, r] : rate) best_rate = std::max(best_rate, r);
  const double ceiling = kern::imad_ceiling(ctx.devices.gpus[0]);
  const double fp64_ceiling = kern::dfma_ceiling(ctx.devices.gpus[0]);
  ceilings["gpu" + std::to_string(ctx.devices.gpus[0])] = {{"imad_per_s", ceiling}, {"dfma_per_s", fp64_ceiling}};
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
  std::map<int, std::pair<std::string, double>> pick;
  for (const Impl& c : list) {
    const double mh = rate.at(c.label()) / 1e6;
    std::string kinfo = c.builtin() ? "" : c.origin();
    nlohmann::ordered_json kj = nlohmann::ordered_json::object();
    char fo[32] = "-", im[16] = "-", fp[16] = "-";
    double imad = 0, fp64_share = 0;
    if (c.builtin()) {
      for (const auto& k : kern::ecvrf_kernel_info(c.name)) {
        kinfo += k.kernel + " " + std::to_string(k.registers) + "/" + std::to_string(k.local_bytes) + " ";
        kj[k.kernel] = {{"registers", k.registers}, {"local_bytes", k.local_bytes}};
      }
      std::string tag;
      bool folded = false, fp64 = false;
      for (const auto& v : kern::ecvrf_device_variants())
        if (v.name == c.name) tag = v.strategy, folded = v.folded, fp64 = v.layout == "fe51s" && v.backend == "ptx";
      const FieldOps& f = ops.at({tag, folded});
      imad = fp64 ? 0 : rate.at(c.label()) * (f.mul * kFe32ImadPerMul + f.sqr * kFe32ImadPerSqr) / ceiling;
      fp64_share = fp64 ? rate.at(c.label()) * (f.mul * kFe51sFp64PerMul + f.sqr * kFe51sFp64PerSqr) / fp64_ceiling : 0;
      std::snprintf(fo, sizeof fo, "%.0f+%.0f", f.mul, f.sqr);
      if (!fp64) std::snprintf(im, sizeof im, "%.1f%%", 100 * imad);
      if (fp64) std::snprintf(fp, sizeof fp, "%.1f%%", 100 * fp64_share);
    }
    std::printf("%-44s %9.3f %8.3f %11s %7s %7s %-40s\n", c.label().c_str(), mh, rate.at(c.label()) / best_rate, fo, im, fp,
                kinfo.c_str());
    BenchRow row{c.name, c.where, c.origin(), "", "MH/s",
                 per_round_rates(rt.seconds.at(c.label()), double(o.nonces), 1e6)};
    row.windows = rt.windows.at(c.label());
    row.detail = {{"imad_fraction_field_products", imad}, {"fp64_fraction_field_products", fp64_share}, {"kernels", kj}};
    rows.push_back(std::move(row));
    if (o.pick && passed.count(c.label()) && passed[c.label()] && rt.parity && (!pick.count(c.device) || pick[c.device].second < mh))
      pick[c.device] = {c.name, mh};
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
  return rt.parity;
}
#endif

}  // namespace

int run_bench(const RunContext& ctx, const BenchOptions& o) {
  const Job job = make_jobs({}, 1, "")[0];
  const std::vector<PluginEntry> plugins =
      timeable(plugin_impls(ctx.devices), "search", [](const PluginEntry& im) { return bool(im.ops.search); });
  std::vector<BenchRow> rows;
  std::map<std::string, nlohmann::ordered_json> ceilings;
  bool ok = true;
  if (!ctx.devices.gpus.empty()) {
#if defined(BX_HAVE_CUDA)
    ok = bench_gpus(ctx, o, job, plugins, rows, ceilings) && ok;
#else
    throw InputError("bench ecvrf: this build has no CUDA kernels");
#endif
  }
  if (ctx.devices.cpu) ok = bench_cpu(ctx, o, job, plugins, rows) && ok;
  put_bench("ecvrf", ctx.rounds, ok, ceilings, rows);
  if (ctx.json) json_out::put({"seeds", "bench ecvrf"}, "key pk " + to_hex(job.pk) + ", nonces from 2^40 + round * nonces");
  return ok ? 0 : 1;
}

}  // namespace bx::ecvrf_family
