// ecvrf's offline cases: every encoding of the decoder vectors (vectors/ecvrf/decode.json: values next to
// p, x = 0 with the sign set, non-squares, the edges of each rejection rule in every byte position) as
// "ed25519.decode" requests, and "ecvrf.score" of the nonces next to the 2^32 word carry and at 0 for two
// keys (one searched with x, one with x mod L). The full tier adds 64 seeded nonces per key.
#include "cli/ecvrf/ecvrf.hpp"
#include "suite/embedded.hpp"

namespace bx::ecvrf_family {

std::vector<suite::cases::CaseSpec> cases(const std::string& tier, uint64_t seed, json* notes) {
  std::vector<suite::cases::CaseSpec> out;
  const json decode = json::parse(embedded_file("vectors/ecvrf/decode.json"));
  for (const json& g : decode.at("testGroups"))
    for (const json& t : g.at("tests"))
      out.push_back({{{"op", "ed25519.decode"}, {"point", t.at("encoding")}}, t.at("flags").get<std::vector<std::string>>(), ""});
  json all_notes = decode.at("notes");
  std::vector<uint64_t> nonces = {0, 1, (uint64_t(1) << 32) - 2, (uint64_t(1) << 32) - 1, uint64_t(1) << 32, (uint64_t(1) << 32) + 1};
  if (tier == "full")
    for (uint64_t i = 0; i < 64; ++i) nonces.push_back((seed + i) * 0x9e3779b97f4a7c15ULL);
  for (const Job& job : make_jobs({}, 2, ""))
    for (uint64_t n : nonces)
      out.push_back({{{"op", "ecvrf.score"}, {"sk", to_hex(job.sk)}, {"header", to_hex(job.header)}, {"nonce", std::to_string(n)}},
                     {n >> 31 == 1 || n >> 32 == 1 ? "NonceWords" : "Nonce", job.scalar_kind == "x" ? "ScalarX" : "ScalarXModL"},
                     ""});
  all_notes["NonceWords"] = {{"bugType", "CARRY"}, {"description", "A nonce next to the 2^32 carry of its low word."}};
  all_notes["Nonce"] = {{"bugType", "BASIC"}, {"description", "A nonce away from a word carry."}};
  all_notes["ScalarX"] = {{"bugType", "BASIC"}, {"description", "The key's scalar as x."}};
  all_notes["ScalarXModL"] = {{"bugType", "EDGE_CASE"}, {"description", "The key's scalar reduced mod L (the same Gamma)."}};
  if (notes) *notes = all_notes;
  return out;
}

}  // namespace bx::ecvrf_family
