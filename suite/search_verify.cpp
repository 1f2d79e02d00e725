#include "suite/search_verify.hpp"

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <stdexcept>

#include "suite/hex.hpp"  // InputError

namespace bx::search {
namespace {

bool by_position(const Hit& a, const Hit& b) { return a.at < b.at; }

std::string verdict_text(const Plan& plan, const Verdict& v) {
  if (!v.hit()) return "not a hit";
  return plan.value_name.empty() ? "hit" : "hit, " + plan.value_name + " " + std::to_string(v.value);
}

std::string reported_text(const Plan& plan, const Hits& list, uint64_t at) {
  const auto it = std::lower_bound(list.begin(), list.end(), Hit{at, 0}, by_position);
  if (it == list.end() || it->at != at) return "not reported";
  return plan.value_name.empty() ? "reported" : "reported, " + plan.value_name + " " + std::to_string(it->value);
}

// One planted error in `list` (sorted); `extra` gets a position the judge must still decide.
void plant_error(const Plan& plan, const std::string& label, Hits& list, std::vector<uint64_t>& extra) {
  std::vector<size_t> inside;  // hits of the part (a list may hold positions outside it)
  for (size_t k = 0; k < list.size(); ++k)
    if (list[k].at < plan.count) inside.push_back(k);
  const bool on_a_hit = plan.plant != "mismatch" || !plan.value_name.empty();
  if (on_a_hit && inside.empty())
    throw InputError("--plant " + plan.plant + ": " + label + " found no hit in the first job to plant it on (lower the difficulty or widen the range)");
  const size_t m = on_a_hit ? inside[inside.size() / 2] : 0;
  if (plan.plant == "duplicate") {
    list.insert(list.begin() + long(m), list[m]);
  } else if (plan.plant == "missing") {
    extra.push_back(list[m].at);
    list.erase(list.begin() + long(m));
  } else if (plan.plant == "mismatch" && on_a_hit) {  // a real hit reported with another value
    list[m].value += 1;
  } else if (plan.plant == "mismatch") {  // the first position not listed, reported as a hit
    uint64_t x = 0;
    for (const Hit& h : list) {
      if (h.at > x) break;
      if (h.at == x) ++x;
    }
    if (x >= plan.count) throw InputError("--plant mismatch: every position of the range is a hit (raise the difficulty)");
    extra.push_back(x);
    list.insert(std::lower_bound(list.begin(), list.end(), Hit{x, 0}, by_position), Hit{x, 0});
  } else {
    throw InputError("--plant: expected duplicate, missing or mismatch, got '" + plan.plant + "'");
  }
  std::printf("planted one %s in the list of %s (this run must FAIL)\n", plan.plant.c_str(), label.c_str());
}

}  // namespace

ListVerdict judge_list(const Hits& given, uint64_t count, const std::vector<uint64_t>& at, const std::vector<Verdict>& verdicts) {
  ListVerdict out;
  RowCounts& c = out.counts;
  Hits sorted;
  const Hits* list = &given;  // sorted lists (the usual case) are read in place
  if (!std::is_sorted(given.begin(), given.end(), by_position)) {
    c.out_of_order = 1;
    sorted = given;
    std::stable_sort(sorted.begin(), sorted.end(), by_position);
    list = &sorted;
  }
  const Hits& l = *list;
  uint64_t reported_true = 0;
  size_t pos = 0;
  for (size_t k = 0; k < l.size(); ++k) {
    const Hit& h = l[k];
    if (k && l[k - 1].at == h.at) {
      ++c.duplicates;
      out.disagreements.push_back({"duplicate", h});
      continue;
    }
    ++c.hits;
    if (h.at >= count) {  // outside the part: wrong whatever its value
      ++c.mismatches;
      out.disagreements.push_back({"outside the range", h});
      continue;
    }
    while (pos < at.size() && at[pos] < h.at) ++pos;
    if (pos == at.size() || at[pos] != h.at) throw std::logic_error("search verify: a reported position was not judged");
    const Verdict& v = verdicts[pos];
    if (v.hit()) ++reported_true;
    if (!v.hit() || v.value != h.value) {
      ++c.mismatches;
      out.disagreements.push_back({"mismatch", h});
    }
  }
  uint64_t true_hits = 0;
  for (const Verdict& v : verdicts) true_hits += v.hit();
  c.missing = true_hits - reported_true;
  if (c.missing)  // which ones: the judged positions against this sorted list
    for (size_t j = 0, k = 0; j < at.size(); ++j) {
      while (k < l.size() && l[k].at < at[j]) ++k;
      if (verdicts[j].hit() && !(k < l.size() && l[k].at == at[j])) out.disagreements.push_back({"missing", {at[j], verdicts[j].value}});
    }
  return out;
}

Outcome run(const Plan& plan, const std::vector<Searcher>& searchers, RunResult& res,
            const std::function<void(const std::string&)>& progress) {
  Outcome out;
  out.rows.resize(searchers.size());
  for (const Searcher& s : searchers) res.implementations.push_back(result_label(s.label));
  size_t shown = 0;
  for (size_t job = 0; job < plan.jobs; ++job) {
    std::vector<Hits> lists(searchers.size());
    std::vector<bool> unordered(searchers.size());
    for (size_t r = 0; r < searchers.size(); ++r) {
      lists[r] = searchers[r].search(job, &out.rows[r].seconds);
      out.rows[r].units += plan.count;
      unordered[r] = !std::is_sorted(lists[r].begin(), lists[r].end(), by_position);
      if (unordered[r]) std::stable_sort(lists[r].begin(), lists[r].end(), by_position);
      if (progress) progress(searchers[r].label);
    }
    std::vector<uint64_t> at;
    if (job == 0 && !plan.plant.empty()) {
      std::vector<size_t> exact;
      for (size_t r = 0; r < searchers.size(); ++r)
        if (!searchers[r].characterised) exact.push_back(r);
      if (exact.empty()) throw InputError("--plant needs an exact (not characterised) implementation");
      const size_t r = exact[exact.size() > 1 ? 1 : 0];
      plant_error(plan, searchers[r].label, lists[r], at);
    }
    // Every probed position and every position anyone reported inside the part, sorted and unique, judged
    // once: sorted inputs merged in linear passes (lists of 2^28 hits are usual for md5z at threshold 1).
    for (const auto& [a, b] : plan.windows) {
      for (uint64_t x = a; x < b && x < plan.count; ++x) at.push_back(x);
      out.probed += std::min(b, plan.count) - std::min(a, plan.count);
    }
    std::sort(at.begin(), at.end());
    std::vector<uint64_t> one, merged;
    for (const Hits& l : lists) {
      one.clear();
      for (const Hit& h : l)
        if (h.at < plan.count && (one.empty() || one.back() != h.at)) one.push_back(h.at);
      merged.clear();
      merged.reserve(at.size() + one.size());
      std::set_union(at.begin(), at.end(), one.begin(), one.end(), std::back_inserter(merged));
      at.swap(merged);
    }
    at.erase(std::unique(at.begin(), at.end()), at.end());
    const std::vector<Verdict> verdicts = plan.decide(job, at);
    if (verdicts.size() != at.size()) throw std::logic_error("search verify: the judge answered " + std::to_string(verdicts.size()) + " of " + std::to_string(at.size()) + " positions");
    for (const Verdict& v : verdicts) out.true_hits += v.hit();
    const json fields = plan.job_fields ? plan.job_fields(job) : json::object();
    for (size_t r = 0; r < searchers.size(); ++r) {
      ListVerdict lv = judge_list(lists[r], plan.count, at, verdicts);
      RowCounts& row = out.rows[r];
      row.hits += lv.counts.hits;
      row.mismatches += lv.counts.mismatches;
      row.duplicates += lv.counts.duplicates;
      row.missing += lv.counts.missing;
      row.out_of_order += unordered[r];
      const std::string who = result_label(searchers[r].label);
      uint64_t fold = 0;  // summed here, added once: one document update per list, not per hit
      for (const Hit& h : lists[r]) fold += fold_item({uint64_t(job), plan.part_offset + h.at, h.value});
      res.add_count(who, "hit_fold", fold);
      for (const Disagreement& d : lv.disagreements) {
        json rec = {{"implementation", who}, {"kind", d.kind}};
        for (const auto& [k, v] : fields.items()) rec[k] = v;
        rec[plan.unit] = plan.unit_text(job, d.hit.at);
        if (!plan.value_name.empty()) rec["reported"] = std::string(d.kind) == "missing" ? "not reported" : std::to_string(d.hit.value);
        if (d.hit.at < plan.count) {
          const size_t j = size_t(std::lower_bound(at.begin(), at.end(), d.hit.at) - at.begin());
          rec[plan.judge] = verdict_text(plan, verdicts[j]);
          // The first few disagreements in full: the position, the judge's answer, every implementation's.
          if (std::string(d.kind) != "duplicate" && shown++ < 8) {
            std::fprintf(stderr, "MISMATCH %s search %s %s %s\n  %s: %s%s\n", plan.family.c_str(), fields.dump().c_str(),
                         plan.unit.c_str(), plan.unit_text(job, d.hit.at).c_str(), plan.judge.c_str(),
                         verdict_text(plan, verdicts[j]).c_str(), plan.explain ? ("; " + plan.explain(job, d.hit.at)).c_str() : "");
            for (size_t q = 0; q < searchers.size(); ++q)
              std::fprintf(stderr, "  %-44s %s\n", searchers[q].label.c_str(), reported_text(plan, lists[q], d.hit.at).c_str());
          }
        } else {
          rec[plan.judge] = "outside the range";
        }
        res.disagreements.push_back(std::move(rec));
      }
    }
  }
  std::printf("\n%-44s %-6s %10s %10s %10s %10s %12s %12s %9s  %s\n", "implementation", "", "hits", "mismatch", "duplicate",
              "missing", plan.unit_counter.c_str(), "M/s", "seconds", "verdict");
  out.pass = true;
  for (size_t r = 0; r < searchers.size(); ++r) {
    const RowCounts& c = out.rows[r];
    const bool lossy = searchers[r].characterised;
    if (!lossy && !c.clean()) out.pass = false;
    std::printf("%-44s %-6s %10llu %10llu %10llu %10llu %12llu %12.4g %9.2f  %s\n", searchers[r].label.c_str(), lossy ? "char." : "",
                (unsigned long long)c.hits, (unsigned long long)c.mismatches, (unsigned long long)c.duplicates,
                (unsigned long long)c.missing, (unsigned long long)c.units, c.seconds > 0 ? double(c.units) / c.seconds / 1e6 : 0.0,
                c.seconds, lossy ? "measured" : (c.clean() ? "PASS" : "FAIL"));
    if (c.out_of_order) std::printf("  %s: %llu hit list(s) out of order\n", searchers[r].label.c_str(), (unsigned long long)c.out_of_order);
    const std::string who = result_label(searchers[r].label);
    res.add_counts(who, {{"hits", c.hits}, {"mismatches", c.mismatches}, {"duplicates", c.duplicates}, {"missing", c.missing},
                         {"out_of_order", c.out_of_order}});
    res.add_count(who, plan.unit_counter, c.units);
    res.add_seconds(who, c.seconds);
    if (lossy) res.details["characterised"].push_back(who);
  }
  if (std::any_of(searchers.begin(), searchers.end(), [](const Searcher& s) { return s.characterised; }))
    std::printf("(char.: characterised, lossy by contract: every hit re-checked; rejected = mismatches, lost = missing)\n");
  std::printf("%s: %llu true hit(s) over %zu job(s) (every reported position judged; %llu position(s) probed by brute force)\n",
              plan.judge.c_str(), (unsigned long long)out.true_hits, plan.jobs, (unsigned long long)out.probed);
  res.counts[plan.judge] = {{"true_hits", out.true_hits}};
  res.details["probe_windows"] = plan.windows.size();
  res.details["probed"] = out.probed;
  return out;
}

std::vector<Window> probe_windows(uint64_t count, uint64_t width, const std::vector<uint64_t>& carries) {
  if (width == 0 || count == 0) return {};
  width = std::min(width, count);
  std::vector<Window> w = {{0, width}, {count - width, count}};
  for (uint64_t c : carries)
    if (c < count) w.push_back({c - std::min(c, width / 2), std::min(count, c + (width - width / 2))});
  std::sort(w.begin(), w.end());
  std::vector<Window> merged;
  for (const Window& x : w) {
    if (!merged.empty() && x.first <= merged.back().second) merged.back().second = std::max(merged.back().second, x.second);
    else merged.push_back(x);
  }
  return merged;
}

std::vector<uint64_t> carries_inside(uint64_t lo, uint64_t count, int k, size_t max, uint64_t* left_out) {
  std::vector<uint64_t> out;
  uint64_t total = 0;
  if (k < 64) {
    const uint64_t step = uint64_t(1) << k;
    const uint64_t first = step - (lo & (step - 1));  // the first multiple strictly after lo (lo + first may pass 2^64)
    if (first < count) total = (count - 1 - first) / step + 1;
    for (uint64_t i = 0; i < total && out.size() < max; ++i) out.push_back(first + i * step);
  }
  if (left_out) *left_out = total - out.size();
  return out;
}

}  // namespace bx::search
