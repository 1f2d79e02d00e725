// Offline case files (ACVP's prompt and response, usable without bitexact at the other end): a prompt holds
// cases, each with an id, a request in the oracle's schema ({"op": "fe25519.mul", "a": HEX, "b": HEX}),
// flags naming the bug class it aims at and the precondition it needs; never an answer. Whoever runs the
// kernel (on a Mac, a rig, another language) writes a response with one answer per id, in the shape of the
// oracle's "ref" for that request; the judge compares every answer with the reference's and refuses a
// response with a missing, extra, duplicate or malformed answer. Nothing here knows a family.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace bx::suite::cases {

using json = nlohmann::ordered_json;

constexpr int kFormat = 1;  // "bitexact_cases" in every document

struct CaseSpec {
  json request;                    // the oracle's request: "op" and its inputs
  std::vector<std::string> flags;  // the bug classes it aims at (the family's vector flags)
  std::string precondition;        // what an implementation must accept to be asked it ("" none)
};

// The prompt: cases numbered 1..n in order; `notes` maps each flag to its description; `command` is the
// command line that regenerates it.
json make_prompt(const std::string& family, const std::string& tier, uint64_t seed, const std::string& command, const json& notes,
                 const std::vector<CaseSpec>& specs);
// The expected document (a response holding the reference's answers): reference(request) -> its "ref".
json make_expected(const json& prompt, const std::function<json(const json& request)>& reference);

struct Wrong {
  uint64_t id;
  json request, flags, got, want;
  // Where both answers are lists (a search's hits): what the response reported that the reference does not
  // (soundness), what it left out (completeness) and what it reported twice (uniqueness); else "".
  std::string detail;
};
// That difference of two lists, "" when either is not a list.
std::string list_difference(const json& got, const json& want);
struct Verdict {
  uint64_t cases = 0, right = 0;
  std::vector<Wrong> wrong;            // in id order
  std::vector<std::string> refusals;   // missing, extra, duplicate or malformed answers, one line each
  bool pass() const { return wrong.empty() && refusals.empty() && cases > 0 && right == cases; }
};
// Checks both documents' shape (a malformed one: InputError naming the document and the place), then
// every answer against want(case) (the expected document's answer, or the reference's).
Verdict judge(const json& prompt, const json& response, const std::function<json(const json& request, uint64_t id)>& want);

// The "answers" array of a response or expected document (InputError on a malformed document).
const json& answers_of(const json& doc, const std::string& what);

}  // namespace bx::suite::cases
