// `bitexact verify ecvrf`: every selected variant's hits over [lo, lo + count) for each key against the
// oracle variant (fe51-portable/da/fused/k1: on the first GPU when one is selected, else on the CPU), and
// every reported nonce re-judged by the golden model on all CPU cores:
//   mismatch : a reported (nonce, score) whose golden score differs or is not below the target
//   duplicate: a nonce reported twice by one implementation
//   missing  : a nonce the golden model confirms as a hit (reported by anyone, or found by the probe) that
//              one implementation did not report
// The probe is the golden model alone over windows at both range ends and at every 2^32 boundary inside,
// so a slice plan that all variants share cannot hide a nonce there. --all-betas N compares every beta
// (not only hits) of N nonces per key between each GPU variant and the oracle in device memory, and
// judges the disagreements and a sample by the golden model.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <set>
#include <thread>

#include "cli/ecvrf/ecvrf.hpp"
#include "cli/ecvrf/golden.hpp"
#include "cli/numbers.hpp"
#include "cli/progress.hpp"
#include "cli/run_result.hpp"
#include "cli/selftest.hpp"
#include "gpu/ecvrf/variants.hpp"
#if defined(BX_HAVE_CUDA)
#include "gpu/kernels/ecvrf_kernels.hpp"
#endif

namespace bx::ecvrf_family {
namespace {

const std::string kOracle = ecvrf::OracleVariant::name();

struct Impl {
  std::string variant;
  int device = -1;  // -1: the CPU (host variant)
  std::string label() const { return variant + "@" + (device < 0 ? std::string("cpu") : "gpu" + std::to_string(device)); }
};
struct Row {
  Impl impl;
  uint64_t hits = 0, mismatches = 0, duplicates = 0, missing = 0, attempts = 0;
  double seconds = 0;
};

// A host variant over a range, on every core (per-attempt code of gpu/ecvrf on the CPU).
std::vector<Hit> host_search(const HostAttempt& a, const Job& job, uint64_t lo, uint64_t n, uint64_t target) {
  const unsigned nt = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::vector<Hit>> part(nt);
  std::vector<std::thread> th;
  for (unsigned t = 0; t < nt; ++t)
    th.emplace_back([&, t] {
      for (uint64_t i = t; i < n; i += nt) {
        const auto alpha = G::job_alpha(job.header, lo + i);
        uint8_t beta[64];
        if (a.run(beta, job.pk.data(), alpha.data(), int(alpha.size()), job.x) < 0) continue;
        Bytes64 b;
        std::copy(beta, beta + 64, b.begin());
        if (G::score(b) < target) part[t].push_back({lo + i, G::score(b)});
      }
    });
  for (auto& x : th) x.join();
  std::vector<Hit> all;
  for (auto& p : part) all.insert(all.end(), p.begin(), p.end());
  std::sort(all.begin(), all.end(), [](const Hit& x, const Hit& y) { return x.nonce < y.nonce; });
  return all;
}

std::vector<Hit> search_of(const Impl& im, const Job& job, uint64_t lo, uint64_t n, uint64_t target, int passes,
                           double* seconds) {
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<Hit> h;
  if (im.device < 0) {
    for (const HostAttempt& a : host_attempts())
      if (a.variant == im.variant) h = host_search(a, job, lo, n, target);
  } else {
#if defined(BX_HAVE_CUDA)
    kern::EcvrfSearchOptions o;
    o.target = target;
    o.passes = passes;
    kern::EcvrfSearchStats st;
    kern::EcvrfJob j{job.x, job.pk, job.header};
    for (const kern::EcvrfHit& x : kern::ecvrf_search(im.device, im.variant, j, lo, n, o, &st)) h.push_back({x.nonce, x.score});
#else
    (void)passes;
#endif
  }
  *seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return h;
}

void report_mismatch(const Job& job, uint64_t nonce, const std::optional<Bytes64>& beta, const std::vector<Row>& rows,
                     const std::vector<std::vector<Hit>>& lists) {
  std::fprintf(stderr, "MISMATCH ecvrf search pk=%s header=%s nonce=%llu\n  golden beta = %s score = %s\n",
               to_hex(job.pk).c_str(), to_hex(job.header).c_str(), (unsigned long long)nonce,
               beta ? to_hex(beta->data(), 64).c_str() : "none", beta ? std::to_string(G::score(*beta)).c_str() : "-");
  for (size_t r = 0; r < rows.size(); ++r) {
    std::string got = "not reported";
    for (const Hit& h : lists[r])
      if (h.nonce == nonce) got = "score " + std::to_string(h.score);
    std::fprintf(stderr, "  %-40s %s\n", rows[r].impl.label().c_str(), got.c_str());
  }
}

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
  std::vector<std::string> cpu_variants;
  for (const HostAttempt& a : host_attempts()) cpu_variants.push_back(a.variant);
  const auto selected = [&](const std::string& v) {
    return std::any_of(o.variants.begin(), o.variants.end(),
                       [&](const std::string& p) { return p == "all" || variant_matches(p, v); });
  };
  std::vector<Row> rows;
  const bool oracle_gpu = !devices.gpus.empty();
  if (oracle_gpu && std::find(gpu_variants.begin(), gpu_variants.end(), kOracle) == gpu_variants.end())
    throw InputError("verify ecvrf: the oracle " + kOracle + " is not in this build's kernels");
  rows.push_back({{kOracle, oracle_gpu ? devices.gpus[0] : -1}});
  if (devices.cpu)
    for (const auto& v : cpu_variants)
      if (selected(v) && !(v == kOracle && !oracle_gpu)) rows.push_back({{v, -1}});
  for (int dev : devices.gpus)
    for (const auto& v : gpu_variants)
      if (selected(v) && !(v == kOracle && dev == devices.gpus[0])) rows.push_back({{v, dev}});
  if (rows.size() < 2 && o.variants != std::vector<std::string>{"all"} && o.variants != std::vector<std::string>{kOracle})
    throw InputError("verify ecvrf: no variant matches --variant on the selected devices");
  if (!o.plant.empty() && rows.size() < 2) throw InputError("--plant needs an implementation besides the oracle");
  const std::vector<Job> jobs = make_jobs(o.sk_hex, o.keys, o.header_hex);
  std::printf("verify ecvrf: %zu key(s) x nonces [%llu, +%llu), target %llu (hit iff score < target), %zu implementation(s)\n",
              jobs.size(), (unsigned long long)o.lo, (unsigned long long)o.count, (unsigned long long)o.target, rows.size());
  std::printf("oracle: %s; judge: the golden model (reference/ecvrf) on %u CPU thread(s)\n", rows[0].impl.label().c_str(),
              std::max(1u, std::thread::hardware_concurrency()));
  // Probe windows: both ends and every 2^32 boundary strictly inside.
  const uint64_t W = std::min<uint64_t>(o.probe, o.count);
  std::vector<std::pair<uint64_t, uint64_t>> windows = {{o.lo, W}, {o.lo + (o.count - W), W}};
  const uint64_t last = o.lo + (o.count - 1);
  uint64_t unprobed = 0;  // 2^32 boundaries past the first 64 (a range of more than 2^38 nonces)
  for (uint64_t b = (o.lo >> 32) + 1; b <= (last >> 32) && b < (uint64_t(1) << 32); ++b) {
    if (windows.size() >= 66) {
      ++unprobed;
      continue;
    }
    const uint64_t at = b << 32, from = std::max(o.lo, at - std::min<uint64_t>(at, W / 2));
    windows.push_back({from, std::min<uint64_t>(W, last - from + 1)});
  }
  std::printf("probe: the golden model over %zu window(s) of <= %llu nonces per key (range ends, 2^32 boundaries)%s\n",
              windows.size(), (unsigned long long)W,
              unprobed ? (", " + std::to_string(unprobed) + " later 2^32 boundaries NOT probed").c_str() : "");
  uint64_t true_hits = 0;
  bool plant_done = false;
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
  for (const Row& r : rows) res.implementations.push_back(result_label(r.impl.label()));
  Progress prog("verify ecvrf", jobs.size() * rows.size(), !ctx.quiet);
  uint64_t steps = 0;
  for (const Job& job : jobs) {
    std::vector<std::vector<Hit>> lists(rows.size());
    for (size_t r = 0; r < rows.size(); ++r) {
      lists[r] = search_of(rows[r].impl, job, o.lo, o.count, o.target, o.passes, &rows[r].seconds);
      rows[r].attempts += o.count;
      prog.update(++steps, rows[r].impl.label());
    }
    if (!o.plant.empty() && !plant_done) {
      auto& l = lists[1];
      if (l.empty()) throw InputError("--plant: the first key has no hit in this range at this target");
      const size_t m = l.size() / 2;
      if (o.plant == "duplicate") l.insert(l.begin() + long(m), l[m]);
      else if (o.plant == "missing") l.erase(l.begin() + long(m));
      else if (o.plant == "mismatch") l[m].score ^= 1;
      else throw InputError("--plant: expected duplicate, missing or mismatch, got '" + o.plant + "'");
      std::printf("planted one %s in the list of %s (this run must FAIL)\n", o.plant.c_str(), rows[1].impl.label().c_str());
      plant_done = true;
    }
    // The union of every reported nonce and every probed one, judged once.
    const auto in_range = [&](uint64_t n) { return n >= o.lo && n - o.lo < o.count; };
    std::set<uint64_t> judged;
    for (const auto& l : lists)
      for (const Hit& h : l)
        if (in_range(h.nonce)) judged.insert(h.nonce);
    for (const auto& [from, n] : windows)
      for (uint64_t j = 0; j < n; ++j) judged.insert(from + j);
    const std::vector<uint64_t> idx(judged.begin(), judged.end());
    const auto betas = golden_job_betas(G::vrf_key(job.sk), job.header, idx);
    std::map<uint64_t, uint64_t> truth;  // true hits: nonce -> score
    std::map<uint64_t, std::optional<Bytes64>> beta_of;
    for (size_t i = 0; i < idx.size(); ++i) {
      beta_of[idx[i]] = betas[i];
      if (betas[i] && G::score(*betas[i]) < o.target) truth[idx[i]] = G::score(*betas[i]);
    }
    true_hits += truth.size();
    std::set<uint64_t> shown;
    for (size_t r = 0; r < rows.size(); ++r) {
      Row& row = rows[r];
      uint64_t reported_true = 0;
      auto disagree = [&](const char* kind, uint64_t nonce, const std::string& reported) {
        const auto t = truth.find(nonce);
        res.disagreements.push_back({{"implementation", result_label(row.impl.label())}, {"kind", kind}, {"pk", to_hex(job.pk)},
                                     {"nonce", nonce}, {"reported", reported},
                                     {"golden_score", t == truth.end() ? "not a hit" : std::to_string(t->second)}});
      };
      for (size_t k = 0; k < lists[r].size(); ++k) {
        const Hit& h = lists[r][k];
        if (k && lists[r][k - 1].nonce == h.nonce) {
          ++row.duplicates;
          disagree("duplicate", h.nonce, std::to_string(h.score));
          continue;
        }
        ++row.hits;
        res.add_fold(result_label(row.impl.label()), "hit_fold", {uint64_t(&job - jobs.data()), h.nonce, uint64_t(h.score)});
        if (!in_range(h.nonce)) {  // outside the searched range: wrong whatever its score
          ++row.mismatches;
          disagree("outside the range", h.nonce, std::to_string(h.score));
          std::fprintf(stderr, "MISMATCH %s reported nonce %llu outside [%llu, +%llu)\n", row.impl.label().c_str(),
                       (unsigned long long)h.nonce, (unsigned long long)o.lo, (unsigned long long)o.count);
          continue;
        }
        const auto t = truth.find(h.nonce);
        if (t != truth.end()) ++reported_true;
        if (t == truth.end() || t->second != h.score) {
          ++row.mismatches;
          disagree("mismatch", h.nonce, std::to_string(h.score));
          if (shown.insert(h.nonce).second && shown.size() <= 8) report_mismatch(job, h.nonce, beta_of[h.nonce], rows, lists);
        }
      }
      row.missing += truth.size() - reported_true;
      if (truth.size() != reported_true)
        for (const auto& [n, s] : truth) {
          (void)s;
          if (std::any_of(lists[r].begin(), lists[r].end(), [&](const Hit& h) { return h.nonce == n; })) continue;
          disagree("missing", n, "not reported");
          if (shown.insert(n).second && shown.size() <= 8) report_mismatch(job, n, beta_of[n], rows, lists);
        }
    }
  }
  prog.finish();
  bool ok = true;
  std::printf("\n%-44s %10s %9s %9s %9s %12s %9s\n", "implementation", "hits", "mismatch", "duplicate", "missing", "attempts", "MH/s");
  for (const Row& r : rows) {
    ok = ok && r.mismatches == 0 && r.duplicates == 0 && r.missing == 0;
    std::printf("%-44s %10llu %9llu %9llu %9llu %12llu %9.3f\n", r.impl.label().c_str(), (unsigned long long)r.hits,
                (unsigned long long)r.mismatches, (unsigned long long)r.duplicates, (unsigned long long)r.missing,
                (unsigned long long)r.attempts, r.seconds > 0 ? double(r.attempts) / r.seconds / 1e6 : 0.0);
  }
  std::printf("true hits (golden model, union of every list and the probe): %llu\n", (unsigned long long)true_hits);
  for (const Row& r : rows) {
    const std::string who = result_label(r.impl.label());
    res.add_counts(who, {{"hits", r.hits}, {"mismatches", r.mismatches}, {"duplicates", r.duplicates}, {"missing", r.missing},
                         {"attempts", r.attempts}});
    res.seconds[who] = r.seconds;
  }
  res.counts["golden model"] = {{"true_hits", true_hits}};
  res.details["probe_windows"] = windows.size();
  // A run that compared no hit proves nothing about the hit lists. One shard of a run may hold none (hits
  // are rare by design): it passes on its probe windows and says so, and its true_hits of 0 adds to the
  // merge's; an unsharded run with none fails.
  ok = judged_something(ctx, res, true_hits, "--target or --nonces") && ok;
  if (declared.all_betas && (true_hits > 0 || ctx.shard.active())) ok = all_betas(ctx, declared, jobs, res) && ok;
  std::printf("verify ecvrf %s\n", ok ? "PASSED" : "FAILED");
  res.pass = ok;
  emit_result(ctx, res);
  return ok ? 0 : 1;
}

}  // namespace bx::ecvrf_family
