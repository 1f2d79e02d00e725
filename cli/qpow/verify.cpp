// bitexact verify qpow: every selected variant and every loaded plugin searches the same range, through
// the search-verify driver (suite/search_verify.hpp): the reference re-hashes every nonce anyone reports
// and every nonce of the probe windows (the range's ends, each 2^64..2^512 carry inside, the first 64
// multiples of 2^32). Exact variants must show 0 mismatches, 0 duplicates, 0 missing; a characterised
// (lossy) variant's counts are reported as measured, each of its hits confirmed or rejected.
#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "cli/progress.hpp"
#include "cli/run_result.hpp"
#include "cli/qpow/qpow.hpp"
#include "suite/search_verify.hpp"

namespace bx::qpow {

namespace {

// Offsets of the carries inside the part: every multiple of 2^64, 2^128, 2^224, 2^256 and 2^512 after lo
// (the carries the shortcuts must not cross; the first of each) and the first 64 multiples of 2^32.
std::vector<uint64_t> carries(const Int& lo, uint64_t count) {
  auto out = search::carries_inside(uint64_t(lo % (Int(1) << 64)), count, 32, 64);
  for (int e : {64, 128, 224, 256, 512}) {
    const Int step = Int(1) << e;
    const Int c = ((lo + step - 1) / step) * step - lo;
    if (c > 0 && c < Int(count)) out.push_back(uint64_t(c));
  }
  return out;
}

}  // namespace

int run_verify(const RunContext& ctx, const VerifyOptions& declared) {
  // This run's part of the declared nonce range (the whole of it unless sharded).
  VerifyOptions o = declared;
  const RangePart part = ctx.shard.part(declared.count);
  o.lo = (declared.lo + part.offset) % (Int(1) << 512);
  o.count = part.size;
  auto all = impls(o.variants, ctx.devices);
  search::add_plugin_rows(all, plugin_impls(ctx.devices), "qpow");
  if (all.empty()) throw InputError("verify qpow: no selected variant runs on the selected devices");
  const Hash8 tw = to_words(o.target);
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
  std::printf("verify qpow: %zu header(s), nonces [%s, +%llu), target %s\n", o.headers.size(), u512_hex(o.lo).c_str(),
              (unsigned long long)o.count, words_hex(tw).c_str());
  auto request = [&](size_t job) { return search_request(o.headers[job], o.lo, o.count, o.target); };
  std::vector<search::Searcher> searchers;
  for (const Impl& im : all)
    searchers.push_back({im.label(), im.lossy, [&, im](size_t job, double* seconds) {
                           search::Hits hits;
                           for (uint64_t off : im.search(request(job), seconds)) hits.push_back({off, 0});
                           return hits;
                         }});
  search::Plan plan;
  plan.family = "qpow";
  plan.unit = "nonce";
  plan.unit_counter = "nonces";
  plan.judge = "reference";
  plan.count = o.count;
  plan.part_offset = part.offset;
  plan.jobs = o.headers.size();
  plan.job_fields = [&](size_t job) { return json{{"header", to_hex(o.headers[job].data(), 32)}}; };
  plan.unit_text = [&](size_t, uint64_t at) { return u512_hex((o.lo + at) % (Int(1) << 512)); };
  plan.decide = [&](size_t job, const std::vector<uint64_t>& at) {  // nonce 0 is never valid
    std::vector<search::Verdict> v(at.size());
    const size_t chunk = size_t(1) << 16;  // big integers of a chunk at a time (a wide --probe judges millions)
    for (size_t from = 0; from < at.size(); from += chunk) {
      std::vector<Int> nonces;
      for (size_t i = from; i < std::min(at.size(), from + chunk); ++i) nonces.push_back((o.lo + at[i]) % (Int(1) << 512));
      const auto hashes = reference_hashes(o.headers[job], nonces);
      for (size_t i = 0; i < nonces.size(); ++i)
        if (nonces[i] != 0 && ref::qpow::hash_meets_target(hashes[i], o.target)) v[from + i] = search::Verdict::hit_with(0);
    }
    return v;
  };
  plan.explain = [&](size_t job, uint64_t at) {
    const Int n = (o.lo + at) % (Int(1) << 512);
    return "hash " + words_hex(to_words(reference_hashes(o.headers[job], {n})[0]));
  };
  plan.windows = search::probe_windows(o.count, o.probe, carries(o.lo, o.count));
  plan.plant = o.plant;
  Progress prog("verify qpow", all.size() * o.headers.size(), !ctx.quiet);
  size_t done = 0;
  const auto out = search::run(plan, searchers, res, [&](const std::string& who) { prog.update(++done, who); });
  prog.finish();
  const bool ok = judged_something(ctx, res, out.true_hits, "--nonces or lower --difficulty") && out.pass;
  std::printf("\nverify qpow %s\n", ok ? "PASSED" : "FAILED");
  res.pass = ok;
  emit_result(ctx, res);
  return ok ? 0 : 1;
}

}  // namespace bx::qpow
