// `bitexact verify md5z`: every selected variant on every selected device against md5z/plain over the
// same bases and ranges; every reported index is re-hashed with OpenSSL on the CPU.
//   mismatch : a reported (index, zeros) whose zero count differs from OpenSSL's (incl. a non-hit)
//   duplicate: an index reported twice by one implementation
//   missing  : an index that OpenSSL confirms as a hit (any implementation found it) that one did not report
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <iterator>
#include <nlohmann/json.hpp>
#include <thread>

#include "cli/md5z/md5z.hpp"
#include "cli/progress.hpp"
#include "cli/run_result.hpp"

namespace bx::md5z {
namespace {

struct Row {
  Impl impl;
  uint64_t hits = 0, mismatches = 0, duplicates = 0, missing = 0, candidates = 0;
  double seconds = 0;
};

// OpenSSL zero counts of `idx` (sorted, unique) for one base, on every core.
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

void report_mismatch(const Message& base, uint32_t index, const std::vector<Row>& rows,
                     const std::vector<std::vector<uint64_t>>& lists, int ref_zeros) {
  ref::md5z::CandidateHasher h(base);
  const auto msg = h.message(index);
  std::fprintf(stderr, "MISMATCH md5z search base=%s index=%u (0x%08x)\n  message = %s\n  OpenSSL digest = %s zeros = %d\n",
               to_hex(base.data(), 52).c_str(), index, index, to_hex(msg.data(), 52).c_str(),
               ref::md5z::digest_hex(h.digest(index)).c_str(), ref_zeros);
  for (size_t r = 0; r < rows.size(); ++r) {
    auto it = std::lower_bound(lists[r].begin(), lists[r].end(), md5::pack_hit(index, 0));
    std::string got = "not reported";
    if (it != lists[r].end() && md5::hit_index(*it) == index) got = "zeros = " + std::to_string(md5::hit_zeros(*it));
    std::fprintf(stderr, "  %-22s %s\n", rows[r].impl.label().c_str(), got.c_str());
  }
}

}  // namespace

std::vector<ListCounts> compare_hit_lists(const std::vector<std::vector<uint64_t>>& lists, int threshold,
                                          const std::function<std::vector<int8_t>(const std::vector<uint32_t>&)>& zeros_of,
                                          uint64_t* true_hits, const std::vector<uint32_t>& probed_hits) {
  // Every index anyone reported or the brute-force probe found, sorted and unique (a linear merge).
  std::vector<uint32_t> idx = probed_hits, one, merged;
  for (auto& l : lists) {
    one.clear();
    for (uint64_t h : l)
      if (one.empty() || one.back() != md5::hit_index(h)) one.push_back(md5::hit_index(h));
    merged.clear();
    std::set_union(idx.begin(), idx.end(), one.begin(), one.end(), std::back_inserter(merged));
    idx.swap(merged);
  }
  const auto zref = zeros_of(idx);
  uint64_t all_true = 0;
  for (int8_t z : zref) all_true += z >= threshold;
  if (true_hits) *true_hits = all_true;
  std::vector<ListCounts> out(lists.size());
  for (size_t r = 0; r < lists.size(); ++r) {
    ListCounts& c = out[r];
    uint64_t reported_true = 0;
    size_t pos = 0;
    for (size_t k = 0; k < lists[r].size(); ++k) {
      const uint32_t i = md5::hit_index(lists[r][k]);
      if (k && md5::hit_index(lists[r][k - 1]) == i) {
        ++c.duplicates;
        c.duplicated.push_back(i);
        continue;
      }
      while (idx[pos] != i) ++pos;
      ++c.hits;
      reported_true += zref[pos] >= threshold;
      if (zref[pos] != md5::hit_zeros(lists[r][k]) || zref[pos] < threshold) {  // wrong count, or not a hit at all
        ++c.mismatches;
        c.mismatched.push_back({i, zref[pos]});
      }
    }
    // A true hit this list did not report is missing; one reported with a wrong count is a mismatch.
    c.missing = all_true - reported_true;
    if (c.missing)  // which ones: a walk of the judged indices against this (sorted) list
      for (size_t j = 0, k = 0; j < idx.size(); ++j) {
        while (k < lists[r].size() && md5::hit_index(lists[r][k]) < idx[j]) ++k;
        if (zref[j] >= threshold && !(k < lists[r].size() && md5::hit_index(lists[r][k]) == idx[j])) c.missed.push_back(idx[j]);
      }
  }
  return out;
}

int run_verify(const RunContext& ctx, const VerifyOptions& declared) {
  const DeviceSelection& devices = ctx.devices;
  // This run's part of the declared index range (the whole of it unless sharded).
  VerifyOptions o = declared;
  const RangePart part = ctx.shard.part(declared.hi - declared.lo);
  o.lo = declared.lo + part.offset;
  o.hi = o.lo + part.size;
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<Row> rows;
  // The oracle: md5z/plain on the first selected GPU, else on the CPU.
  const bool oracle_gpu = !devices.gpus.empty();
  rows.push_back({make_impl(md5::kPlain, oracle_gpu, oracle_gpu ? devices.gpus[0] : -1)});
  for (auto& im : impls(o.variants, devices))
    if (!(im.variant == md5::kPlain && im.where == rows[0].impl.where)) rows.push_back({im});
  if (!rows[0].impl.search) throw InputError("verify md5z: this build has no CUDA kernels");
  if (!o.plant.empty() && rows.size() < 2)
    throw InputError("--plant needs an implementation besides the oracle " + rows[0].impl.label() + " (add --variant or a device)");
  const uint64_t per_base = o.hi - o.lo;
  std::printf("verify md5z: %zu base(s) x [%llu, %llu) = %.4g candidates per implementation, threshold %d\n",
              o.bases.size(), (unsigned long long)o.lo, (unsigned long long)o.hi, double(per_base) * o.bases.size(),
              o.threshold);
  std::printf("oracle: %s; judge: OpenSSL MD5 of every reported index on %u CPU thread(s)\n",
              rows[0].impl.label().c_str(), std::max(1u, std::thread::hardware_concurrency()));
  if (devices.gpus.empty() && gpu_count() == 0) std::printf("no GPU found: CPU (host) runs of the variants only\n");
  // Independent of every implementation (also of a launch plan they share): OpenSSL brute force over
  // windows at the range ends and at each 2^31 boundary inside; its hits join the union, so a range
  // that wraps or skips there shows up as missing.
  const uint64_t W = 4096;
  std::vector<std::pair<uint64_t, uint64_t>> windows = {{o.lo, std::min(o.hi, o.lo + W)}, {o.hi - std::min(W, o.hi - o.lo), o.hi}};
  for (uint64_t b = (o.lo >> 31 << 31) + (uint64_t(1) << 31); b < o.hi; b += uint64_t(1) << 31)
    windows.push_back({std::max(o.lo, b - W / 2), std::min(o.hi, b + W / 2)});
  std::printf("probe: OpenSSL brute force of %zu window(s) of <= %llu indices per base (range ends, 2^31 boundaries)\n",
              windows.size(), (unsigned long long)W);
  uint64_t true_hits = 0, shown = 0;
  json disagreements = json::array();
  RunResult res;
  Progress prog("verify md5z", per_base * o.bases.size(), !ctx.quiet);
  for (size_t b = 0; b < o.bases.size(); ++b) {
    const auto tb = prepare(o.bases[b], "base " + std::to_string(b));
    std::vector<std::vector<uint64_t>> lists(rows.size());
    for (size_t r = 0; r < rows.size(); ++r) {
      lists[r] = rows[r].impl.search(tb, o.lo, o.hi, o.threshold, &rows[r].seconds);
      if (!std::is_sorted(lists[r].begin(), lists[r].end()))  // searches return hits in index order
        throw std::logic_error(rows[r].impl.label() + ": hits not in index order");
      rows[r].candidates += per_base;
    }
    if (b == 0 && !o.plant.empty()) {
      auto& l = lists[rows.size() > 1 ? 1 : 0];
      if (l.empty()) throw InputError("--plant: the first base has no hit in this range at this threshold");
      if (o.plant == "duplicate") l.insert(l.begin() + l.size() / 2, l[l.size() / 2]);
      else if (o.plant == "missing") l.erase(l.begin() + l.size() / 2);
      else if (o.plant == "mismatch") l[l.size() / 2] = md5::pack_hit(md5::hit_index(l[l.size() / 2]), md5::hit_zeros(l[l.size() / 2]) + 1);
      else throw InputError("--plant: expected duplicate, missing or mismatch, got '" + o.plant + "'");
      std::printf("planted one %s in the list of %s (this run must FAIL)\n", o.plant.c_str(), rows[rows.size() > 1 ? 1 : 0].impl.label().c_str());
    }
    std::vector<uint32_t> probed;
    for (auto [wlo, whi] : windows)
      for (auto& h : ref::md5z::search(o.bases[b], wlo, whi, o.threshold)) probed.push_back(h.index);
    std::sort(probed.begin(), probed.end());
    probed.erase(std::unique(probed.begin(), probed.end()), probed.end());
    uint64_t base_true = 0;
    const auto counts = compare_hit_lists(lists, o.threshold, [&](const std::vector<uint32_t>& idx) { return judge(o.bases[b], idx); },
                                          &base_true, probed);
    true_hits += base_true;
    const std::string base_hex = to_hex(o.bases[b].data(), 52);
    for (size_t r = 0; r < rows.size(); ++r) {
      const std::string who = result_label(rows[r].impl.label());
      for (auto& [i, z] : counts[r].mismatched) {
        const auto it = std::lower_bound(lists[r].begin(), lists[r].end(), md5::pack_hit(i, 0));
        disagreements.push_back({{"implementation", who}, {"kind", "mismatch"}, {"base", base_hex}, {"index", i},
                                 {"reported_zeros", md5::hit_zeros(*it)}, {"openssl_zeros", z}});
      }
      for (uint32_t i : counts[r].duplicated)
        disagreements.push_back({{"implementation", who}, {"kind", "duplicate"}, {"base", base_hex}, {"index", i}});
      for (uint32_t i : counts[r].missed)
        disagreements.push_back({{"implementation", who}, {"kind", "missing"}, {"base", base_hex}, {"index", i}});
      for (uint64_t hit : lists[r]) res.add_fold(who, "hit_fold", {b, hit});  // base, index and zeros of every hit
      rows[r].hits += counts[r].hits;
      rows[r].mismatches += counts[r].mismatches;
      rows[r].duplicates += counts[r].duplicates;
      rows[r].missing += counts[r].missing;
      for (auto& [i, z] : counts[r].mismatched)
        if (shown++ < 5) report_mismatch(o.bases[b], i, rows, lists, z);
    }
    prog.update(per_base * (b + 1), "base " + std::to_string(b + 1) + "/" + std::to_string(o.bases.size()));
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double expected = double(per_base) * o.bases.size() * std::pow(16.0, -o.threshold);
  std::printf("\n%-22s %12s %10s %10s %10s %12s %12s %10s  %s\n", "implementation", "hits", "mismatch", "duplicate", "missing",
              "cand/s", "hits/s", "seconds", "verdict");
  bool ok = true;
  res.family = "md5z";
  res.mode = "search";
  res.params = {{"threshold", o.threshold}, {"bases", json::array()}, {"plant", o.plant}};
  for (auto& base : o.bases) res.params["bases"].push_back(to_hex(base.data(), 52));
  if (o.seeded_bases) res.seeds = {{"bases", o.bases_seed}};
  res.unit = "index";
  res.range_lo = std::to_string(declared.lo);
  res.range_size = declared.hi - declared.lo;
  res.covered = part;
  res.disagreements = std::move(disagreements);
  res.counts["OpenSSL"] = {{"confirmed_hits", true_hits}};
  for (auto& r : rows) {
    const bool pass = r.mismatches == 0 && r.duplicates == 0 && r.missing == 0;
    ok = ok && pass;
    std::printf("%-22s %12llu %10llu %10llu %10llu %12.4g %12.4g %10.2f  %s\n", r.impl.label().c_str(),
                (unsigned long long)r.hits, (unsigned long long)r.mismatches, (unsigned long long)r.duplicates,
                (unsigned long long)r.missing, r.seconds > 0 ? double(r.candidates) / r.seconds : 0.0,
                r.seconds > 0 ? double(r.hits) / r.seconds : 0.0, r.seconds,
                pass ? "PASS" : "FAIL");
    const std::string who = result_label(r.impl.label());
    res.implementations.push_back(who);
    res.add_counts(who, {{"hits", r.hits}, {"mismatches", r.mismatches}, {"duplicates", r.duplicates}, {"missing", r.missing},
                         {"candidates", r.candidates}});
    res.seconds[who] = r.seconds;
  }
  std::printf("confirmed hits (OpenSSL): %llu (expected about %.0f at 16^-%d); wall %.1f s\n",
              (unsigned long long)true_hits, expected, o.threshold, wall);
  ok = judged_something(ctx, res, true_hits, "--range, --bases or lower --threshold") && ok;
  std::printf("verify md5z %s\n", ok ? "PASSED" : "FAILED");
  res.pass = ok;
  res.details["probe_windows"] = windows.size();
  res.details["wall_seconds"] = wall;
  emit_result(ctx, res);
  return ok ? 0 : 1;
}

}  // namespace bx::md5z
