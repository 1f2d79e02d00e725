// The parts of the ecvrf oracle shared by oracle.cpp (ecvrf.score, ecvrf.hash, dispatch) and
// oracle_points.cpp (ed25519.decode, ed25519.add, ed25519.scalarmult). Each op parses its request, sets
// the golden model's answer as ref, then lets each kind of implementation append its answers (a function
// per op and place: a GPU one is appended beside the host one).
#pragma once
#include <exception>
#include <string>
#include <vector>

#include "cli/family.hpp"
#include "cli/oracle_reply.hpp"
#include "suite/hex.hpp"

namespace bx::ecvrf_family {

// Replies: bx::OracleReply (cli/oracle_reply.hpp). An implementation may report a subset of ref's fields
// (the GPU's beta and score, a host pipeline's ctr and beta); a refusal (an input outside an
// implementation's stated domain) is recorded uncompared.
using bx::OracleReply;

// Request fields (InputError naming the field): exactly 64 hex digits; any even number of hex digits.
Bytes32 hex32_field(const json& req, const char* key);
std::vector<uint8_t> hex_field(const json& req, const char* key);

// ed25519.* (oracle_points.cpp); `cpu`: the host layouts answer; each of `gpus`: its compiled point code.
struct PluginEntry;
json ed25519_reply(const json& req, bool cpu, const std::vector<int>& gpus, const std::vector<PluginEntry>& plugins);

}  // namespace bx::ecvrf_family
