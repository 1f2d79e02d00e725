// q8parity's offline cases: the matvec and rmsnorm vectors (codes -128 and 127, every fp16 scale class,
// tails, empty lanes, ...) as "q8.matvec" / "q8.rmsnorm" requests, and seeded random matvec cases (every
// token count 1..8, half of them with special scales: +-0, subnormal, infinite, NaN). The answer is the
// canonical order's output bit for bit (an implementation characterised by NMSE is judged by its own
// contract in selftest and verify, not here). The full tier takes 64 random cases instead of 16.
#include "suite/embedded.hpp"
#include "cli/q8parity/q8parity.hpp"

namespace bx::q8parity {

std::vector<suite::cases::CaseSpec> cases(const std::string& tier, uint64_t seed, json* notes) {
  std::vector<suite::cases::CaseSpec> out;
  json all_notes = json::object();
  const json mv = json::parse(embedded_file("vectors/q8parity/matvec.json"));
  for (const json& g : mv.at("testGroups"))
    for (const json& t : g.at("tests"))
      out.push_back({{{"op", "q8.matvec"}, {"rows", t.at("rows")}, {"k", t.at("k")}, {"ntok", t.at("ntok")}, {"weights", t.at("weights")}, {"x", t.at("x")}},
                     t.at("flags").get<std::vector<std::string>>(),
                     ""});
  const json rn = json::parse(embedded_file("vectors/q8parity/rmsnorm.json"));
  for (const json& g : rn.at("testGroups"))
    for (const json& t : g.at("tests"))
      out.push_back({{{"op", "q8.rmsnorm"}, {"x", t.at("x")}, {"w", t.at("w")}, {"eps", t.at("eps")}}, t.at("flags").get<std::vector<std::string>>(), ""});
  for (const json* d : {&mv, &rn})
    for (const auto& [k, v] : d->at("notes").items()) all_notes[k] = v;
  const int n = tier == "full" ? 64 : 16;
  for (int i = 0; i < n; ++i) {
    const bool special = i % 2 == 1;
    const MatvecInput in = random_matvec(seed + uint64_t(i), 64 + size_t(i % 3), 256, 1 + i % 8, special);
    json req = {{"op", "q8.matvec"}, {"rows", uint64_t(in.rows)}, {"k", uint64_t(in.k)}, {"ntok", uint64_t(in.ntok)},
                {"weights", to_hex(in.w.data(), in.w.size())}, {"x", floats_hex(in.x)}};
    out.push_back({std::move(req), {special ? "SpecialScales" : "Random"}, ""});
  }
  all_notes["Random"] = {{"bugType", "BASIC"}, {"description", "Seeded random weights and activations."}};
  if (!all_notes.contains("SpecialScales"))
    all_notes["SpecialScales"] = {{"bugType", "EDGE_CASE"}, {"description", "Seeded random weights with +-0, subnormal, infinite and NaN fp16 scales."}};
  if (notes) *notes = all_notes;
  return out;
}

}  // namespace bx::q8parity
