#include "suite/cases.hpp"

#include <map>
#include <set>

#include "suite/hex.hpp"  // InputError

namespace bx::suite::cases {

namespace {

void require_format(const json& doc, const std::string& what) {
  if (!doc.is_object()) throw InputError(what + ": not a JSON object");
  if (!doc.contains("bitexact_cases") || doc["bitexact_cases"] != kFormat)
    throw InputError(what + ": \"bitexact_cases\" must be " + std::to_string(kFormat) + " (not a bitexact case document?)");
  if (!doc.contains("family") || !doc["family"].is_string()) throw InputError(what + ": no \"family\"");
}

uint64_t id_of(const json& entry, const std::string& what, size_t index) {
  if (!entry.is_object() || !entry.contains("id") || !entry["id"].is_number_unsigned())
    throw InputError(what + ": entry " + std::to_string(index) + " has no unsigned \"id\"");
  return entry["id"].get<uint64_t>();
}

// An answer as a value: JSON objects are equal whatever the order of their keys (a harness or responder
// that writes sorted keys answers the same as one that keeps the reference's order).
nlohmann::json value_of(const json& j) { return nlohmann::json::parse(j.dump()); }

}  // namespace

std::string list_difference(const json& got, const json& want) {
  if (!got.is_array() || !want.is_array()) return "";
  std::map<std::string, int> g, w;
  for (const json& x : got) ++g[value_of(x).dump()];
  for (const json& x : want) ++w[value_of(x).dump()];
  const auto list = [](const std::vector<std::string>& v) {
    std::string s;
    for (size_t i = 0; i < v.size() && i < 5; ++i) s += (i ? " " : "") + v[i];
    return s + (v.size() > 5 ? " ... (" + std::to_string(v.size()) + ")" : "");
  };
  std::vector<std::string> extra, missing, twice;
  for (const auto& [k, n] : g) {
    if (!w.count(k)) extra.push_back(k);
    if (n > 1 && n > (w.count(k) ? w.at(k) : 0)) twice.push_back(k);
  }
  for (const auto& [k, n] : w)
    if (!g.count(k)) missing.push_back(k);
  std::string s = std::to_string(got.size()) + " reported, " + std::to_string(want.size()) + " in the reference";
  if (!extra.empty()) s += "; reported, not in the reference: " + list(extra);
  if (!missing.empty()) s += "; in the reference, not reported: " + list(missing);
  if (!twice.empty()) s += "; reported more than once: " + list(twice);
  if (extra.empty() && missing.empty() && twice.empty()) s += "; the same elements in another order";
  return s;
}

json make_prompt(const std::string& family, const std::string& tier, uint64_t seed, const std::string& command, const json& notes,
                 const std::vector<CaseSpec>& specs) {
  json cases = json::array();
  uint64_t id = 0;
  for (const CaseSpec& s : specs) {
    json c = {{"id", ++id}, {"request", s.request}, {"flags", s.flags}};
    if (!s.precondition.empty()) c["precondition"] = s.precondition;
    cases.push_back(std::move(c));
  }
  return {{"bitexact_cases", kFormat},
          {"kind", "prompt"},
          {"family", family},
          {"tier", tier},
          {"seed", std::to_string(seed)},
          {"generated_by", command},
          {"answer", "one {\"id\": ID, \"answer\": A} per case, A in the shape of the oracle's \"ref\" for the request "
                     "(`bitexact oracle`; docs/cases.md)"},
          {"notes", notes},
          {"cases", std::move(cases)}};
}

const json& answers_of(const json& doc, const std::string& what) {
  require_format(doc, what);
  if (!doc.contains("answers") || !doc["answers"].is_array()) throw InputError(what + ": no \"answers\" array");
  return doc["answers"];
}

json make_expected(const json& prompt, const std::function<json(const json& request)>& reference) {
  require_format(prompt, "prompt");
  json answers = json::array();
  for (const json& c : prompt["cases"]) answers.push_back({{"id", c["id"]}, {"answer", reference(c["request"])}});
  return {{"bitexact_cases", kFormat}, {"kind", "expected"}, {"family", prompt["family"]}, {"answers", std::move(answers)}};
}

Verdict judge(const json& prompt, const json& response, const std::function<json(const json& request, uint64_t id)>& want) {
  require_format(prompt, "prompt");
  if (!prompt.contains("cases") || !prompt["cases"].is_array() || prompt["cases"].empty())
    throw InputError("prompt: no \"cases\" (an empty prompt judges nothing)");
  const json& answers = answers_of(response, "response");
  if (response["family"] != prompt["family"])
    throw InputError("response: family " + response["family"].dump() + ", the prompt's is " + prompt["family"].dump());
  Verdict v;
  std::map<uint64_t, const json*> cases;
  for (size_t i = 0; i < prompt["cases"].size(); ++i) {
    const json& c = prompt["cases"][i];
    const uint64_t id = id_of(c, "prompt", i);
    if (!c.contains("request") || !c["request"].is_object()) throw InputError("prompt: case " + std::to_string(id) + " has no \"request\"");
    if (!cases.emplace(id, &c).second) throw InputError("prompt: case id " + std::to_string(id) + " appears twice");
  }
  std::map<uint64_t, const json*> given;
  std::set<uint64_t> duplicated;
  for (size_t i = 0; i < answers.size(); ++i) {
    const json& a = answers[i];
    const uint64_t id = id_of(a, "response", i);
    if (!a.contains("answer")) {
      v.refusals.push_back("answer for case " + std::to_string(id) + " has no \"answer\" field");
      continue;
    }
    if (!cases.count(id)) v.refusals.push_back("answer for case " + std::to_string(id) + ", which the prompt does not have (extra)");
    if (!given.emplace(id, &a).second) duplicated.insert(id);
  }
  for (uint64_t id : duplicated) v.refusals.push_back("case " + std::to_string(id) + " answered more than once (duplicate)");
  size_t missing = 0;
  std::string first_missing;
  for (const auto& [id, c] : cases) {
    ++v.cases;
    const auto it = given.find(id);
    if (it == given.end()) {
      if (missing++ == 0) first_missing = std::to_string(id);
      continue;
    }
    const json w = want((*c)["request"], id);
    const json& got = (*it->second)["answer"];
    if (value_of(got) == value_of(w) && !duplicated.count(id))
      ++v.right;
    else if (!duplicated.count(id))
      v.wrong.push_back({id, (*c)["request"], c->value("flags", json::array()), got, w, list_difference(got, w)});
  }
  if (missing) v.refusals.push_back(std::to_string(missing) + " case(s) not answered (missing), the first: case " + first_missing);
  return v;
}

}  // namespace bx::suite::cases
