// The result document of a verify run, and the merge of shards. Every verify (each family, each bulk
// mode) ends with one RunResult: `--json` prints it as the last line of stdout, `--result FILE` writes it.
// A document names what was run (family, mode, parameters, seeds, implementations, the binary's version
// and build flags: its identity), the declared range and the part of it this run covered, integer counts
// per implementation, every disagreement, and a SHA-256 digest of the rest (a file edited by hand, or
// truncated, is refused). `bitexact verify merge` checks that shards of one identity cover the declared
// range exactly once, sums their counts and lists their disagreements; `--device all` merges its GPUs'
// parts the same way.
#pragma once
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "cli/family.hpp"

namespace bx {

struct RunResult {
  std::string family, mode;  // mode: the kind of run ("search", "all-betas", "draws", "rows", ...)
  json params = json::object();  // every option that changes what is checked, the range excluded
  json seeds = json::object();
  std::vector<std::string> implementations;  // "variant@cpu" / "variant@gpu": the place kind, not the index
  std::string unit;      // what the range counts: "nonce", "index", "draw", "row", ...
  std::string range_lo;  // the declared range's first unit, as the family writes it (decimal or hex)
  uint64_t range_size = 0;
  RangePart covered;     // offsets into the declared range
  std::string shard, shard_source;
  json counts = json::object();  // implementation -> {counter: unsigned}: summed by the merge
  json seconds = json::object();  // implementation -> kernel/run seconds: summed, never compared
  json disagreements = json::array();  // objects naming the implementation, the unit and both answers
  bool pass = false;
  json details = json::object();  // facts of this run that do not add up (probe windows, rates, devices)
  // Filled by result_json from the build; kept when read back.
  std::string version, build;

  // Accumulate across batches, GPUs or headers (a counter or time not yet present starts at 0).
  void add_count(const std::string& who, const std::string& counter, uint64_t v);
  void add_counts(const std::string& who, std::initializer_list<std::pair<const char*, uint64_t>> counters);
  void add_seconds(const std::string& who, double s);
  // An order-independent fingerprint of a set of items (each hit, each judged output): the counter
  // grows by a 64-bit mix of the item's fields, mod 2^64. Shards' fingerprints add up to the unsharded
  // run's exactly when they found the same items (short of a 64-bit collision); a bare count of hits
  // can agree by chance, so every family folds the items it counts.
  void add_fold(const std::string& who, const std::string& counter, std::initializer_list<uint64_t> item);
};

// "index range 0 + [16384, 32768)": a part of r's declared range, for messages.
std::string range_text(const RunResult& r, RangePart p);

// The 64-bit mix add_fold adds for one item (for loops that sum many items before one add_count).
uint64_t fold_item(std::initializer_list<uint64_t> item);

// An implementation's name in a result: "variant@gpu3" -> "variant@gpu" (parts run on different GPUs
// merge), "variant@cpu" unchanged.
std::string result_label(const std::string& label);

json result_json(const RunResult& r);
// A document read back; InputError naming `what` when malformed or when its digest does not match.
RunResult result_from_json(const json& doc, const std::string& what);
RunResult read_result_file(const std::string& path);

// The end of every verify: checks the counts' shape, prints the document with --json, writes --result.
void emit_result(const RunContext& ctx, const RunResult& r);
// --plant KIND of a search verify: "" (none), duplicate, missing or mismatch; anything else is an InputError.
std::string parse_plant(const std::string& kind);
// The --plant KIND option of a search verify (md5z, qpow, ecvrf), checked by parse_plant when the run starts.
void add_plant_option(CLI::App& sub, std::string& kind);
// A CPU run estimated past a few minutes is refused with its estimate unless --force (a mistyped count
// must not start hours of work); `smaller` names the option that makes it shorter.
void refuse_long_cpu_run(const std::string& command, double seconds, bool force, const std::string& smaller);
// A search that judged no hit compared nothing. Records the count in res.details["judged"], which a merge
// sums. Unsharded, a run with none fails: prints why (what to raise) and returns false. A shard may hold
// none (its probe windows still agree): it says so and passes, and the merge of the whole range fails
// when every part held none.
bool judged_something(const RunContext& ctx, RunResult& res, uint64_t judged, const std::string& raise);

// Parts of one identity that must cover `want` (offsets into the declared range) exactly once. The merged
// result sums counts and seconds and concatenates disagreements in range order; problems lists every gap,
// overlap, identity difference and failed part (empty: the merge passes).
struct Merged {
  RunResult result;
  std::vector<std::string> problems;
};
Merged merge_results(std::vector<RunResult> parts, RangePart want);
// The merged run's table: one row per implementation, one column per counter; then its disagreements.
void print_result_table(const RunResult& r, size_t max_disagreements = 20);

// What makes two runs of one range differ as verdicts: identity, covered range, counts, pass, and the
// disagreements as a multiset (their order follows the split). Seconds and details are facts of the run.
std::vector<std::string> result_differences(const RunResult& a, const RunResult& b);

// `bitexact verify merge FILE...`: 0 when the shards cover their declared range exactly once and pass,
// and, given `same_as` (an unsharded run's result file), the merge equals it (result_differences empty).
int run_verify_merge(const std::vector<std::string>& files, const std::string& same_as, const RunContext& ctx);

}  // namespace bx
