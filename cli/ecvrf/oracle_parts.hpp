// The parts of the ecvrf oracle shared by oracle.cpp (ecvrf.score, ecvrf.hash, dispatch) and
// oracle_points.cpp (ed25519.decode, ed25519.add, ed25519.scalarmult). Each op parses its request, sets
// the golden model's answer as ref, then lets each kind of implementation append its answers (a function
// per op and place: a GPU one is appended beside the host one).
#pragma once
#include <exception>
#include <string>
#include <vector>

#include "cli/family.hpp"
#include "suite/hex.hpp"

namespace bx::ecvrf_family {

// A reply under construction. Invariant: agree is false iff some compared answer disagrees with ref;
// an answer agrees iff it is a non-empty object each of whose fields equals ref's field of that name
// (an implementation may report a subset of ref's fields: the GPU's beta and score, a host pipeline's
// ctr and beta). A refusal (an input outside an implementation's stated domain) is recorded uncompared.
struct OracleReply {
  json ref;
  json impl = json::object();
  bool agree = true;
  void answer(const std::string& name, json got);  // compared with ref
  void record(const std::string& name, json got);  // shown, not compared
  void refusal(const std::string& name, const std::string& why) { record(name, {{"refused", why}}); }
  // answer(name, run()), where an exception (a recoding that does not reconstruct its scalar, a CUDA error)
  // is the answer {"failed": what}: it disagrees, and the oracle goes on with the next request.
  template <class Run>
  void attempt(const std::string& name, Run&& run) {
    json got;
    try {
      got = run();
    } catch (const std::exception& e) {
      got = {{"failed", e.what()}};
    }
    answer(name, std::move(got));
  }
  json to_json() const { return {{"ref", ref}, {"impl", impl}, {"agree", agree}}; }
};

// Request fields (InputError naming the field): exactly 64 hex digits; any even number of hex digits.
Bytes32 hex32_field(const json& req, const char* key);
std::vector<uint8_t> hex_field(const json& req, const char* key);

// ed25519.* (oracle_points.cpp); `cpu`: the host layouts answer; each of `gpus`: its compiled point code.
json ed25519_reply(const json& req, bool cpu, const std::vector<int>& gpus);

}  // namespace bx::ecvrf_family
