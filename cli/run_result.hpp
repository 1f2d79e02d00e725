// The result document of a verify run (its data: suite/result.hpp) as a file, and the merge of shards.
// Every verify (each family, each bulk mode) ends with one RunResult: `--json` prints it as the last
// line of stdout, `--result FILE` writes it.
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
#include "suite/result.hpp"

namespace bx {

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
