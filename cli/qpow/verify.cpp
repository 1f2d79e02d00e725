// bitexact verify qpow: every selected variant searches the same range; every nonce anyone reports is
// re-hashed by the reference on all cores, plus a reference brute-force probe window at each carry inside
// the range (and at its ends). Exact variants must show 0 mismatches, 0 duplicates, 0 missing; a lossy
// (characterised) variant's counts are reported as measured, each of its hits confirmed or rejected.
#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <set>

#include "cli/progress.hpp"
#include "cli/run_result.hpp"
#include "cli/qpow/qpow.hpp"

namespace bx::qpow {

namespace {
// Offsets of the probe windows: the range's ends, the 2^64, 2^128, 2^224, 2^256 and 2^512 carries inside it,
// and each multiple of 2^32 inside it (the first 64).
std::vector<std::pair<uint64_t, uint64_t>> probe_windows(const Int& lo, uint64_t count, uint64_t width) {
  std::vector<std::pair<uint64_t, uint64_t>> w;
  auto add = [&](uint64_t a, uint64_t b) {
    if (b > count) b = count;
    if (a < b) w.push_back({a, b});
  };
  add(0, width);
  add(count > width ? count - width : 0, count);
  for (int e : {64, 128, 224, 256, 512}) {  // the carries the shortcuts must not cross, always probed
    const Int step = Int(1) << e;
    const Int c = ((lo + step - 1) / step) * step - lo;
    if (c > 0 && c < Int(count)) {
      const uint64_t off = uint64_t(c);
      add(off > width / 2 ? off - width / 2 : 0, off + width / 2);
    }
  }
  const Int step = Int(1) << 32;
  Int first = ((lo + step - 1) / step) * step;
  for (int k = 0; k < 64; ++k) {
    const Int c = first + Int(k) * step - lo;
    if (c >= Int(count)) break;
    const uint64_t off = uint64_t(c);
    add(off > width / 2 ? off - width / 2 : 0, off + width / 2);
  }
  std::sort(w.begin(), w.end());
  std::vector<std::pair<uint64_t, uint64_t>> merged;
  for (auto x : w) {
    if (!merged.empty() && x.first <= merged.back().second) merged.back().second = std::max(merged.back().second, x.second);
    else merged.push_back(x);
  }
  return merged;
}
}  // namespace

int run_verify(const RunContext& ctx, const VerifyOptions& declared) {
  // This run's part of the declared nonce range (the whole of it unless sharded).
  VerifyOptions o = declared;
  const RangePart part = ctx.shard.part(declared.count);
  o.lo = (declared.lo + part.offset) % (Int(1) << 512);
  o.count = part.size;
  auto all = impls(o.variants, ctx.devices);
  for (Impl& im : plugin_impls(ctx.devices)) {
    if (!im.search) throw InputError("verify qpow: " + im.label() + " does not provide search (not provided: the range cannot be judged)");
    all.push_back(std::move(im));
  }
  if (all.empty()) throw InputError("verify qpow: no selected variant runs on the selected devices");
  const Hash8 tw = to_words(o.target);
  bool failed = false;
  RunResult res;
  res.family = "qpow";
  res.mode = "search";
  res.params = {{"headers", json::array()}, {"target", words_hex(tw)}, {"probe", o.probe}, {"plant", o.plant}};
  for (const Header& h : o.headers) res.params["headers"].push_back(to_hex(h.data(), 32));
  if (o.seeded_headers) res.seeds = {{"headers", o.headers_seed}};
  res.unit = "nonce";
  const std::string lo_hex = u512_hex(declared.lo);  // 0x and the digits from the first non-zero one
  res.range_lo = "0x" + lo_hex.substr(std::min(lo_hex.find_first_not_of('0'), lo_hex.size() - 1));
  res.range_size = declared.count;
  res.covered = part;
  for (const Impl& im : all) res.implementations.push_back(result_label(im.label()));
  uint64_t valid_total = 0, probed_total = 0;
  Progress prog("verify qpow", all.size() * o.headers.size(), !ctx.quiet);
  size_t done = 0;
  std::printf("verify qpow: %zu header(s), nonces [%s, +%llu), target %s\n", o.headers.size(), u512_hex(o.lo).c_str(),
              (unsigned long long)o.count, words_hex(tw).c_str());
  for (size_t hi = 0; hi < o.headers.size(); ++hi) {
    const Header& h = o.headers[hi];
    SearchRequest rq{};
    std::copy(h.begin(), h.end(), rq.header);
    rq.lo = to_u512(o.lo);
    rq.count = o.count;
    std::copy(tw.begin(), tw.end(), rq.target);
    std::vector<std::vector<uint64_t>> lists;
    std::vector<double> secs;
    for (const Impl& im : all) {
      double s = 0;
      lists.push_back(im.search(rq, &s));
      secs.push_back(s);
      prog.update(++done, im.label());
    }
    // A list out of order is a failure of its own (the counts below rely on sorted lists).
    std::vector<bool> unsorted(all.size());
    for (size_t k = 0; k < all.size(); ++k) unsorted[k] = !std::is_sorted(lists[k].begin(), lists[k].end());
    std::set<uint64_t> reported;
    if (!o.plant.empty()) {  // the verdict's self-check: the planted offset is always judged
      for (size_t k = 0; k < all.size(); ++k)
        if (!all[k].lossy) {
          auto& l = lists[k];
          if ((o.plant == "duplicate" || o.plant == "missing") && l.empty())
            throw InputError("--plant " + o.plant + ": " + all[k].label() + " found no hit to plant it on (lower the difficulty)");
          if (o.plant == "duplicate") l.push_back(l.front());
          if (o.plant == "missing") {
            reported.insert(l.front());
            l.erase(l.begin());
          }
          if (o.plant == "mismatch") {
            uint64_t x = 0;
            while (x < o.count && std::binary_search(l.begin(), l.end(), x)) ++x;
            if (x == o.count) throw InputError("--plant mismatch: every nonce of the range is a hit (raise the difficulty)");
            l.push_back(x);
          }
          std::sort(l.begin(), l.end());
          std::printf("planted one %s in %s\n", o.plant.c_str(), all[k].label().c_str());
          break;
        }
    }
    // The reference's verdict on every reported offset and on the probe windows; an offset outside the
    // range is never valid.
    for (auto& l : lists) reported.insert(l.begin(), l.end());
    std::vector<uint64_t> judged(reported.begin(), reported.end());
    std::vector<Int> nonces;
    for (uint64_t off : judged) nonces.push_back((o.lo + off) % (Int(1) << 512));
    const auto hashes = reference_hashes(h, nonces);
    std::set<uint64_t> valid;
    for (size_t i = 0; i < judged.size(); ++i)
      if (judged[i] < o.count && nonces[i] != 0 && ref::qpow::hash_meets_target(hashes[i], o.target)) valid.insert(judged[i]);
    uint64_t probed = 0;
    for (auto [a, b] : probe_windows(o.lo, o.count, o.probe)) {
      for (uint64_t off : reference_hits(h, o.lo + a, b - a, o.target)) valid.insert(a + off);
      probed += b - a;
    }
    valid_total += valid.size();
    probed_total += probed;
    std::printf("\nheader %s: %zu nonce(s) reported, %zu valid by the reference (%llu probed by brute force)\n",
                to_hex(h.data(), 32).c_str(), judged.size(), valid.size(), (unsigned long long)probed);
    std::printf("%-40s %-6s %9s %10s %10s %8s %10s\n", "implementation", "", "hits", "mismatches", "duplicates", "missing", "MH/s");
    for (size_t k = 0; k < all.size(); ++k) {
      const auto& l = lists[k];
      uint64_t mism = 0, dup = 0, miss = 0;
      const std::string who = result_label(all[k].label());
      auto disagree = [&](const char* kind, uint64_t off) {
        res.disagreements.push_back({{"implementation", who}, {"kind", kind}, {"header", to_hex(h.data(), 32)},
                                     {"nonce", u512_hex((o.lo + off) % (Int(1) << 512))}});
      };
      for (size_t i = 0; i < l.size(); ++i) {
        res.add_fold(who, "hit_fold", {hi, part.offset + l[i]});  // header and offset in the declared range
        if (i && l[i] == l[i - 1]) ++dup, disagree("duplicate", l[i]);
        if (!valid.count(l[i])) ++mism, disagree("mismatch", l[i]);
      }
      for (uint64_t v : valid)
        if (!std::binary_search(l.begin(), l.end(), v)) ++miss, disagree("missing", v);
      const bool lossy = all[k].lossy;
      if (unsorted[k]) std::printf("%s: hit list out of order\n", all[k].label().c_str());
      const bool ok = mism == 0 && dup == 0 && miss == 0 && !unsorted[k];
      if (!ok && !lossy) failed = true;
      const double rate = secs[k] > 0 ? double(o.count) / secs[k] / 1e6 : 0;
      std::printf("%-40s %-6s %9zu %10llu %10llu %8llu %10.1f%s\n", all[k].label().c_str(), lossy ? "char." : "", l.size(),
                  (unsigned long long)mism, (unsigned long long)dup, (unsigned long long)miss, rate,
                  lossy ? "  (characterised: every hit re-checked; rejected = mismatches, lost = missing)" : (ok ? "" : "  FAILED"));
      res.add_counts(who, {{"hits", l.size()}, {"mismatches", mism}, {"duplicates", dup}, {"missing", miss}, {"nonces", o.count}});
      res.add_seconds(who, secs[k]);
      if (lossy) res.details["characterised"].push_back(who);
    }
  }
  prog.finish();
  res.counts["reference"] = {{"valid", valid_total}};
  res.details["probed"] = probed_total;
  if (!judged_something(ctx, res, valid_total, "--nonces or lower --difficulty")) failed = true;
  std::printf("\nverify qpow %s\n", failed ? "FAILED" : "PASSED");
  res.pass = !failed;
  emit_result(ctx, res);
  return failed ? 1 : 0;
}

}  // namespace bx::qpow
