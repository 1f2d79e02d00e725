// `bitexact verify ecvrf`: every selected variant's hits over [lo, lo + count) for each key beside the
// oracle variant (fe51-portable/da/fused/k1: on the first GPU when one is selected, else on the CPU),
// through the search-verify driver (suite/search_verify.hpp): the golden model judges every reported nonce
// and every nonce of the probe windows (both range ends and the 2^32 boundaries inside), and a reported
// score must equal the golden one. --all-betas N compares every beta (not only hits) of N nonces per key
// between each GPU variant and the oracle in device memory, and judges the disagreements and a sample by
// the golden model.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>

#include "cli/ecvrf/ecvrf.hpp"
#include "cli/ecvrf/golden.hpp"
#include "cli/numbers.hpp"
#include "cli/progress.hpp"
#include "cli/run_result.hpp"
#include "cli/selftest.hpp"
#include "suite/search_verify.hpp"
#include "gpu/ecvrf/variants.hpp"
#if defined(BX_HAVE_CUDA)
#include "gpu/kernels/ecvrf_kernels.hpp"
#endif

namespace bx::ecvrf_family {
namespace {

const std::string kOracle = ecvrf::OracleVariant::name();

}  // namespace

std::vector<Job> make_jobs(const std::vector<std::string>& sk_hex, int keys, const std::string& header_hex) {
  std::vector<Bytes32> sks;
  for (size_t i = 0; i < sk_hex.size(); ++i) sks.push_back(bytes32_from_hex(sk_hex[i], "--sk #" + std::to_string(i + 1)));
  for (int i = 0; i < keys; ++i) {  // SHA-512("bitexact ecvrf key" || LE32(i))[0..31]: fixed, realistic keys
    std::vector<uint8_t> m{'b', 'i', 't', 'e', 'x', 'a', 'c', 't', ' ', 'e', 'c', 'v', 'r', 'f', ' ', 'k', 'e', 'y'};
    for (int b = 0; b < 4; ++b) m.push_back(uint8_t(i >> (8 * b)));
    const Bytes64 h = G::sha512(m);
    Bytes32 sk;
    std::copy(h.begin(), h.begin() + 32, sk.begin());
    sks.push_back(sk);
  }
  if (sks.empty()) throw InputError("verify ecvrf: give --sk HEX or --keys N");
  const Bytes32 header = header_hex.empty() ? Bytes32{} : bytes32_from_hex(header_hex, "--header");
  std::vector<Job> jobs;
  for (size_t i = 0; i < sks.size(); ++i) {
    const G::VrfKey key = G::vrf_key(sks[i]);
    // Even keys search with x, odd ones with x mod L (the same Gamma: both must be supported).
    jobs.push_back({sks[i], bytes_of(i % 2 ? key.x_mod_l : key.x), key.pk, header, i % 2 ? "x mod L" : "x"});
  }
  return jobs;
}

int run_verify(const RunContext& ctx, const VerifyOptions& declared) {
  const DeviceSelection& devices = ctx.devices;
  // This run's part of the declared nonce range (the whole of it unless sharded); --all-betas keeps the
  // declared LO and splits its own N by the same plan (all_betas.cpp).
  VerifyOptions o = declared;
  const RangePart part = ctx.shard.part(declared.count);
  o.lo = declared.lo + part.offset;
  o.count = part.size;
  if (o.target == 0) throw InputError("--target: 0 admits no nonce (hit iff score < target)");
  if (devices.cpu && o.count > 4096)
    throw InputError("verify ecvrf: a run on the CPU takes at most 4096 nonces per key (use --device gpu for more)");
#if !defined(BX_HAVE_CUDA)
  if (!devices.gpus.empty()) throw InputError("verify ecvrf: this build has no CUDA kernels");
#endif
  std::vector<std::string> gpu_variants;
#if defined(BX_HAVE_CUDA)
  for (const auto& v : kern::ecvrf_device_variants()) gpu_variants.push_back(v.name);
#endif
  const auto selected = [&](const std::string& v) { return suite::variant_wanted(o.variants, v); };
  std::vector<Impl> rows;
  const bool oracle_gpu = !devices.gpus.empty();
  if (oracle_gpu && std::find(gpu_variants.begin(), gpu_variants.end(), kOracle) == gpu_variants.end())
    throw InputError("verify ecvrf: the oracle " + kOracle + " is not in this build's kernels");
  if (oracle_gpu) rows.push_back(device_impl(kOracle, devices.gpus[0], o.passes));
  for (const HostAttempt& a : host_attempts())  // the oracle first: on the CPU when no GPU is selected
    if (a.variant == kOracle && !oracle_gpu) rows.push_back(host_impl(a));
  if (devices.cpu)
    for (const HostAttempt& a : host_attempts())
      if (selected(a.variant) && !(a.variant == kOracle && !oracle_gpu)) rows.push_back(host_impl(a));
  for (int dev : devices.gpus)
    for (const auto& v : gpu_variants)
      if (selected(v) && !(v == kOracle && dev == devices.gpus[0])) rows.push_back(device_impl(v, dev, o.passes));
  if (rows.size() < 2 && o.variants != std::vector<std::string>{"all"} && o.variants != std::vector<std::string>{kOracle})
    throw InputError("verify ecvrf: no variant matches --variant on the selected devices");
  const std::vector<Job> jobs = make_jobs(o.sk_hex, o.keys, o.header_hex);
  std::printf("verify ecvrf: %zu key(s) x nonces [%llu, +%llu), target %llu (hit iff score < target), %zu implementation(s)\n",
              jobs.size(), (unsigned long long)o.lo, (unsigned long long)o.count, (unsigned long long)o.target, rows.size());
  std::printf("judge: the golden model (reference/ecvrf) on %u CPU thread(s)\n", std::max(1u, std::thread::hardware_concurrency()));
  // Probe windows: both ends and the first 64 2^32 boundaries strictly inside.
  uint64_t unprobed = 0;  // 2^32 boundaries past the first 64 (a range of more than 2^38 nonces)
  const auto boundaries = search::carries_inside(o.lo, o.count, 32, 64, &unprobed);
  RunResult res;
  res.family = "ecvrf";
  res.mode = declared.all_betas ? "search+all-betas" : "search";
  res.params = {{"pks", json::array()}, {"header", declared.header_hex}, {"target", o.target}, {"passes", o.passes},
                {"probe", o.probe}, {"plant", o.plant}, {"all_betas", declared.all_betas}, {"all_betas_base", o.all_betas_base}};
  for (const Job& job : jobs) res.params["pks"].push_back(to_hex(job.pk) + " (" + job.scalar_kind + ")");
  res.unit = "nonce";
  res.range_lo = std::to_string(declared.lo);
  res.range_size = declared.count;
  res.covered = part;
  for (const PluginEntry& p : plugin_impls(devices)) {
    if (!p.ops.search) throw InputError("verify ecvrf: " + p.label() + " does not provide search (not provided: the range cannot be judged)");
    rows.push_back(plugin_impl(p));
  }
  std::vector<search::Searcher> searchers;
  for (const Impl& im : rows)
    searchers.push_back({im.label(), false, [&, im](size_t job, double* seconds) {
                           search::Hits hits;  // a nonce below lo wraps to an offset past the part: outside
                           for (const Hit& h : im.search(jobs[job], o.lo, o.count, o.target, seconds)) hits.push_back({h.nonce - o.lo, h.score});
                           return hits;
                         }});
  search::Plan plan;
  plan.family = "ecvrf";
  plan.unit = "nonce";
  plan.unit_counter = "attempts";
  plan.judge = "golden model";
  plan.value_name = "score";
  plan.count = o.count;
  plan.part_offset = part.offset;
  plan.jobs = jobs.size();
  plan.job_fields = [&](size_t job) { return json{{"pk", to_hex(jobs[job].pk)}}; };
  plan.unit_text = [&](size_t, uint64_t at) { return std::to_string(o.lo + at); };
  auto betas_of = [&](size_t job, const std::vector<uint64_t>& at) {
    std::vector<uint64_t> nonces;
    for (uint64_t off : at) nonces.push_back(o.lo + off);
    return golden_job_betas(G::vrf_key(jobs[job].sk), jobs[job].header, nonces);
  };
  plan.decide = [&](size_t job, const std::vector<uint64_t>& at) {
    const auto betas = betas_of(job, at);
    std::vector<search::Verdict> v(at.size());
    for (size_t i = 0; i < at.size(); ++i)
      if (betas[i] && G::score(*betas[i]) < o.target) v[i] = search::Verdict::hit_with(G::score(*betas[i]));
    return v;
  };
  plan.explain = [&](size_t job, uint64_t at) {
    const auto beta = betas_of(job, {at})[0];
    return beta ? "beta " + to_hex(beta->data(), 64) + ", score " + std::to_string(G::score(*beta)) : std::string("no beta (alpha rejected)");
  };
  plan.windows = search::probe_windows(o.count, o.probe, boundaries);
  plan.plant = o.plant;
  std::printf("probe: the golden model over %zu window(s) of <= %llu nonces per key (range ends, 2^32 boundaries)%s\n",
              plan.windows.size(), (unsigned long long)o.probe,
              unprobed ? (", " + std::to_string(unprobed) + " later 2^32 boundaries NOT probed").c_str() : "");
  Progress prog("verify ecvrf", jobs.size() * rows.size(), !ctx.quiet);
  size_t steps = 0;
  const auto out = search::run(plan, searchers, res, [&](const std::string& who) { prog.update(++steps, who); });
  prog.finish();
  // A run that compared no hit proves nothing about the hit lists. One shard of a run may hold none (hits
  // are rare by design): it passes on its probe windows and says so, and its true_hits of 0 adds to the
  // merge's; an unsharded run with none fails.
  bool ok = judged_something(ctx, res, out.true_hits, "--target or --nonces") && out.pass;
  if (declared.all_betas && (out.true_hits > 0 || ctx.shard.active())) ok = all_betas(ctx, declared, jobs, res) && ok;
  std::printf("verify ecvrf %s\n", ok ? "PASSED" : "FAILED");
  res.pass = ok;
  emit_result(ctx, res);
  return ok ? 0 : 1;
}

}  // namespace bx::ecvrf_family
