// The search-verify driver of every search family (qpow, md5z, ecvrf; built-in variants and plugins
// alike). Each implementation searches the same jobs (headers, bases, keys) over the same part of a
// range; the family's judge (the reference) decides every position anyone reported and every position of
// the probe windows (brute force at both ends of the part and around each carry inside it, so a slice
// plan that every implementation shares cannot hide a hit there). Per implementation and job:
//   mismatch : a reported position the judge does not call a hit, one reported with another value (a
//              zero count, a score), or one outside the part;
//   duplicate: a position reported twice;
//   missing  : a hit the judge confirms (reported by anyone, or found by the probe) that this list lacks;
//   out of order: a list not in ascending position order (counted once per list, then sorted).
// A characterised (lossy) implementation's counts are reported as measured and never fail the run.
// The driver fills the result document (counts, folds of every hit, disagreements); the family adds its
// parameters and calls judged_something / emit_result.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "suite/hex.hpp"
#include "suite/result.hpp"

namespace bx::search {

// A reported hit: its position as an offset from the part's first unit, and the value the implementation
// reports with it (a zero count, a score; 0 where the family reports none).
struct Hit {
  uint64_t at = 0, value = 0;
  bool operator==(const Hit&) const = default;
};
using Hits = std::vector<Hit>;

// The judge's answer for one position, in one word (verdicts of 2^28 positions are held at once): the
// hit's value, or kNotAHit. No family's value reaches 2^64 - 1 (an ecvrf hit's score is below a target
// that is at most 2^64 - 1).
struct Verdict {
  static constexpr uint64_t kNotAHit = ~uint64_t(0);
  uint64_t value = kNotAHit;
  bool hit() const { return value != kNotAHit; }
  static Verdict hit_with(uint64_t v) { return {v}; }
};

struct Searcher {
  std::string label;            // "qpow/gl64@cpu"
  bool characterised = false;   // lossy: counted as measured, never a failure
  // The hits of job `job` over the part; adds its kernel or host seconds to *seconds.
  std::function<Hits(size_t job, double* seconds)> search;
};

using Window = std::pair<uint64_t, uint64_t>;  // [first, end) offsets in the part

struct Plan {
  std::string family;        // "qpow": the report's first word
  std::string unit;          // "nonce", "index": the key of a position in every disagreement
  std::string unit_counter;  // "nonces", "candidates": the counter of units each implementation searched
  std::string judge;         // "reference", "OpenSSL", "golden model": who decides, named in the report
  std::string value_name;    // "zeros", "score"; empty when hits carry no value
  uint64_t count = 0;        // units in the part
  uint64_t part_offset = 0;  // the part's offset in the declared range (folds are over declared positions)
  size_t jobs = 0;
  std::function<json(size_t job)> job_fields;                     // {"header": "..."}, in every disagreement
  std::function<std::string(size_t job, uint64_t at)> unit_text;  // a position as the family writes it
  // The judge's verdict on each of `at` (sorted, unique, every one < count).
  std::function<std::vector<Verdict>(size_t job, const std::vector<uint64_t>& at)> decide;
  // Optional: the judge's full answer at one position (a digest, a beta), printed with a disagreement.
  std::function<std::string(size_t job, uint64_t at)> explain;
  std::vector<Window> windows;  // probe windows
  // "", "duplicate", "missing" or "mismatch": one error planted in job 0's list of an exact
  // implementation (the second when there are two or more: the first is usually the family's oracle), a
  // self-check of the verdict (the run must fail). mismatch changes a hit's value where hits carry one
  // (value_name), else reports a position that is not a hit.
  std::string plant;
};

struct RowCounts {
  uint64_t hits = 0, mismatches = 0, duplicates = 0, missing = 0, out_of_order = 0, units = 0;
  double seconds = 0;
  bool clean() const { return mismatches == 0 && duplicates == 0 && missing == 0 && out_of_order == 0; }
};
struct Outcome {
  std::vector<RowCounts> rows;  // one per searcher
  uint64_t true_hits = 0;       // hits the judge confirmed, over every job
  uint64_t probed = 0;          // positions the probe windows covered, over every job
  bool pass = false;            // every exact implementation clean
};

// Runs every searcher on every job, judges and prints the table; records counts, folds ("hit_fold" over
// (job, declared position, value)), seconds and disagreements in `res`, and counts[judge].true_hits.
// `progress(label)` is called after each search. Throws InputError when a plant cannot be placed.
Outcome run(const Plan& plan, const std::vector<Searcher>& searchers, RunResult& res,
            const std::function<void(const std::string&)>& progress = {});

// Appends each plugin implementation of `plugins` to `rows`, preceded by a row of its own job-level search
// where it provides one (named "<name>/job"). A plugin without a search cannot be judged over a range: an
// InputError naming it ("not provided"). Impl: a family's implementation with `search` and
// `plugin_search_job` callables of one type.
template <class Impl>
void add_plugin_rows(std::vector<Impl>& rows, std::vector<Impl> plugins, const std::string& family) {
  for (Impl& im : plugins) {
    if (!im.search) throw InputError("verify " + family + ": " + im.label() + " does not provide search (not provided: the range cannot be judged)");
    if (im.plugin_search_job) {
      Impl job = im;
      job.name += "/job";
      job.search = im.plugin_search_job;
      rows.push_back(std::move(job));
    }
    rows.push_back(std::move(im));
  }
}

// One list against the judge's verdicts on `at` (sorted, unique; every reported position below `count`
// among them). Pure: the core the driver applies to each list.
struct Disagreement {
  const char* kind;  // "mismatch", "duplicate", "missing", "outside the range"
  Hit hit;           // the reported hit; for "missing" the judge's
};
struct ListVerdict {
  RowCounts counts;
  std::vector<Disagreement> disagreements;
};
ListVerdict judge_list(const Hits& list, uint64_t count, const std::vector<uint64_t>& at, const std::vector<Verdict>& verdicts);

// Probe windows of at most `width` units at both ends of [0, count) and centred on each offset of
// `carries` (inside the part), merged where they overlap; none when width is 0.
std::vector<Window> probe_windows(uint64_t count, uint64_t width, const std::vector<uint64_t>& carries);
// Offsets inside [0, count) of the multiples of 2^k after the part's first unit `lo` (a multiple at lo
// itself is the part's end, probed anyway), at most `max` of them; *left_out counts the rest.
std::vector<uint64_t> carries_inside(uint64_t lo, uint64_t count, int k, size_t max, uint64_t* left_out = nullptr);

}  // namespace bx::search
