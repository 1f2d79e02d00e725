// `bitexact verify md5z`: every selected variant on every selected device beside md5z/plain over the
// same bases and ranges, through the search-verify driver (suite/search_verify.hpp): every reported
// index and every index of the probe windows is re-hashed with OpenSSL on the CPU, and a reported zero
// count must equal OpenSSL's.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <thread>

#include "cli/md5z/md5z.hpp"
#include "cli/progress.hpp"
#include "cli/run_result.hpp"
#include "suite/search_verify.hpp"

namespace bx::md5z {
namespace {

// OpenSSL zero counts of `idx` for one base, on every core.
std::vector<int8_t> judge(const Message& base, const std::vector<uint32_t>& idx) {
  std::vector<int8_t> z(idx.size());
  const unsigned nt = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> th;
  for (unsigned t = 0; t < nt; ++t)
    th.emplace_back([&, t] {
      ref::md5z::CandidateHasher h(base);
      for (size_t j = t; j < idx.size(); j += nt) z[j] = int8_t(h.zeros(idx[j]));
    });
  for (auto& t : th) t.join();
  return z;
}

}  // namespace

int run_verify(const RunContext& ctx, const VerifyOptions& declared) {
  const DeviceSelection& devices = ctx.devices;
  // This run's part of the declared index range (the whole of it unless sharded).
  VerifyOptions o = declared;
  const RangePart part = ctx.shard.part(declared.hi - declared.lo);
  o.lo = declared.lo + part.offset;
  o.hi = o.lo + part.size;
  const auto t0 = std::chrono::steady_clock::now();
  // md5z/plain on the first selected GPU (else on the CPU) first: the row every other is read beside.
  const bool oracle_gpu = !devices.gpus.empty();
  std::vector<Impl> rows = {make_impl(md5::kPlain, oracle_gpu, oracle_gpu ? devices.gpus[0] : -1)};
  for (auto& im : impls(o.variants, devices))
    if (!(im.variant == md5::kPlain && im.where == rows[0].where)) rows.push_back(im);
  search::add_plugin_rows(rows, plugin_impls(devices), "md5z");
  if (!rows[0].search) throw InputError("verify md5z: this build has no CUDA kernels");
  const uint64_t per_base = o.hi - o.lo;
  std::printf("verify md5z: %zu base(s) x [%llu, %llu) = %.4g candidates per implementation, threshold %d\n",
              o.bases.size(), (unsigned long long)o.lo, (unsigned long long)o.hi, double(per_base) * o.bases.size(),
              o.threshold);
  std::printf("judge: OpenSSL MD5 of every reported index on %u CPU thread(s)\n", std::max(1u, std::thread::hardware_concurrency()));
  if (devices.gpus.empty() && gpu_count() == 0) std::printf("no GPU found: CPU (host) runs of the variants only\n");
  RunResult res;
  res.family = "md5z";
  res.mode = "search";
  res.params = {{"threshold", o.threshold}, {"bases", json::array()}, {"plant", o.plant}};
  for (auto& base : o.bases) res.params["bases"].push_back(to_hex(base.data(), 52));
  if (o.seeded_bases) res.seeds = {{"bases", o.bases_seed}};
  res.unit = "index";
  res.range_lo = std::to_string(declared.lo);
  res.range_size = declared.hi - declared.lo;
  res.covered = part;
  std::vector<md5::TunnelBase> tunnels;
  for (size_t b = 0; b < o.bases.size(); ++b) tunnels.push_back(prepare(o.bases[b], "base " + std::to_string(b)));
  std::vector<search::Searcher> searchers;
  for (const Impl& im : rows)
    searchers.push_back({im.label(), false, [&, im](size_t job, double* seconds) {
                           search::Hits hits;
                           for (uint64_t h : im.search(tunnels[job], o.lo, o.hi, o.threshold, seconds))
                             hits.push_back({md5::hit_index(h) - o.lo, uint64_t(md5::hit_zeros(h))});
                           return hits;
                         }});
  search::Plan plan;
  plan.family = "md5z";
  plan.unit = "index";
  plan.unit_counter = "candidates";
  plan.judge = "OpenSSL";
  plan.value_name = "zeros";
  plan.count = per_base;
  plan.part_offset = part.offset;
  plan.jobs = o.bases.size();
  plan.job_fields = [&](size_t job) { return json{{"base", to_hex(o.bases[job].data(), 52)}}; };
  plan.unit_text = [&](size_t, uint64_t at) { return std::to_string(o.lo + at); };
  plan.decide = [&](size_t job, const std::vector<uint64_t>& at) {
    std::vector<uint32_t> idx;
    for (uint64_t off : at) idx.push_back(uint32_t(o.lo + off));
    const auto zeros = judge(o.bases[job], idx);
    std::vector<search::Verdict> v(at.size());
    for (size_t i = 0; i < at.size(); ++i)
      if (zeros[i] >= o.threshold) v[i] = search::Verdict::hit_with(uint64_t(zeros[i]));
    return v;
  };
  plan.explain = [&](size_t job, uint64_t at) {
    ref::md5z::CandidateHasher h(o.bases[job]);
    const uint32_t index = uint32_t(o.lo + at);
    return "message " + to_hex(h.message(index).data(), 52) + ", digest " + ref::md5z::digest_hex(h.digest(index));
  };
  // Independent of every implementation (also of a launch plan they share): OpenSSL over windows at the
  // range ends and at each 2^31 boundary inside, so a range that wraps or skips there shows up as missing.
  plan.windows = search::probe_windows(per_base, 4096, search::carries_inside(o.lo, per_base, 31, 4));
  plan.plant = o.plant;
  std::printf("probe: OpenSSL brute force of %zu window(s) of <= 4096 indices per base (range ends, 2^31 boundaries)\n",
              plan.windows.size());
  Progress prog("verify md5z", rows.size() * o.bases.size(), !ctx.quiet);
  size_t done = 0;
  const auto out = search::run(plan, searchers, res, [&](const std::string& who) { prog.update(++done, who); });
  prog.finish();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double expected = double(per_base) * o.bases.size() * std::pow(16.0, -o.threshold);
  std::printf("expected about %.0f hits at 16^-%d; wall %.1f s\n", expected, o.threshold, wall);
  const bool ok = judged_something(ctx, res, out.true_hits, "--range, --bases or lower --threshold") && out.pass;
  std::printf("verify md5z %s\n", ok ? "PASSED" : "FAILED");
  res.pass = ok;
  res.details["wall_seconds"] = wall;
  emit_result(ctx, res);
  return ok ? 0 : 1;
}

}  // namespace bx::md5z
