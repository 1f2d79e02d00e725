// md5z's offline cases: every candidate vector as an "md5z.candidate" request (message, digest and zero
// count of one index), and search requests ("md5z.search": every hit of an index range at a threshold)
// around each frozen hit at its exact count and one above, and on seeded bases at the places a tunnel
// search loses hits: the range end at 2^32, the first indices, 2^31, every index at threshold 0, and
// threshold 2 where a cheap early exit is allowed. The full tier takes eight seeded bases instead of two.
#include "suite/embedded.hpp"
#include "cli/md5z/md5z.hpp"
#include "suite/md5z/vectors.hpp"
#include "suite/vector_json.hpp"

namespace bx::md5z {

namespace {

suite::cases::CaseSpec search_case(const Message& base, uint64_t lo, uint64_t hi, int threshold, std::vector<std::string> flags) {
  return {{{"op", "md5z.search"}, {"base", to_hex(base.data(), base.size())}, {"lo", lo}, {"hi", hi}, {"threshold", uint64_t(threshold)}},
          std::move(flags),
          threshold >= 2 ? "threshold >= 2: a cheap early exit on h0's low byte is allowed" : ""};
}

}  // namespace

std::vector<suite::cases::CaseSpec> cases(const std::string& tier, uint64_t seed, json* notes) {
  namespace R = ref::md5z;
  std::vector<suite::cases::CaseSpec> out;
  json all_notes = json::object();
  for (const char* rel : {"vectors/md5z/candidates.json", "vectors/md5z/hits.json"})
    for (const auto& [k, v] : json::parse(embedded_file(rel)).at("notes").items()) all_notes[k] = v;
  for (const CandidateTest& t : load_embedded_candidates())
    out.push_back({{{"op", "md5z.candidate"}, {"base", to_hex(t.base.data(), t.base.size())}, {"index", t.index}}, t.flags, ""});
  for (const CandidateTest& h : load_embedded_hits()) {
    const uint64_t lo = h.index >= 8 ? h.index - 8 : 0, hi = std::min<uint64_t>(uint64_t(h.index) + 8, md5::kIndexEnd);
    auto flags = h.flags;
    flags.push_back("ExactThreshold");
    out.push_back(search_case(h.base, lo, hi, h.zeros, flags));
    if (h.zeros < 32) out.push_back(search_case(h.base, lo, hi, h.zeros + 1, {"FrozenHit", "AboveThreshold"}));
  }
  const int bases = tier == "full" ? 8 : 2;
  const uint64_t end = md5::kIndexEnd;
  for (int k = 0; k < bases; ++k) {
    const Message base = R::make_base(seed + uint64_t(k));
    out.push_back(search_case(base, end - 4096, end, 1, {"RangeEnd"}));
    out.push_back(search_case(base, 0, 4096, 1, {"IndexBoundary"}));
    out.push_back(search_case(base, (end >> 1) - 2048, (end >> 1) + 2048, 1, {"IndexBoundary"}));
    out.push_back(search_case(base, end - 64, end, 0, {"EveryIndex", "RangeEnd"}));
    out.push_back(search_case(base, 0, uint64_t(1) << 16, 2, {"EarlyExit"}));
  }
  if (!all_notes.contains("ExactThreshold"))
    all_notes["ExactThreshold"] = {{"bugType", "EDGE_CASE"}, {"description", "A hit whose zero count equals the threshold: >= taken as >."}};
  all_notes["AboveThreshold"] = {{"bugType", "EDGE_CASE"}, {"description", "The threshold one above a hit's zero count: the hit must not be reported."}};
  all_notes["RangeEnd"] = {{"bugType", "CARRY"}, {"description", "A range ending at 2^32: an end held in 32 bits wraps to 0."}};
  all_notes["EveryIndex"] = {{"bugType", "EDGE_CASE"}, {"description", "Threshold 0: every index is a hit (completeness, index by index)."}};
  all_notes["EarlyExit"] = {{"bugType", "EARLY_EXIT"}, {"description", "Threshold 2 over 2^16 indices: the early exit on h0's low byte must not drop a hit."}};
  if (notes) *notes = all_notes;
  return out;
}

}  // namespace bx::md5z
