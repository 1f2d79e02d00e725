// A qpow plugin implementation (struct bx_qpow_ops) seen through the engine's types. Every call runs on a
// call site (suite/call_site.hpp) on guarded buffers (a crash, a hang, an error return or a stray write
// fails the call, naming the plugin and the operation). search() keeps the contract's preconditions: with
// BX_QPOW_SEARCH_WITHIN_2_64 a range is split at every multiple of 2^64 (and always at the 2^512 wrap), and
// the hit buffer grows until the plugin's count fits; search_job() always splits at 2^64 and hands each
// request bitexact's own midstate and prestate.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "reference/common/prime_field.hpp"  // ref::Int
#include "suite/plugin.hpp"

namespace bx::suite::qpow {

using Int = ref::Int;
using Bytes64 = std::array<uint8_t, 64>;

struct SearchAnswer {
  std::vector<uint64_t> offsets;  // from the range's lo, as the plugin reported them (order kept)
  unsigned reruns = 0;            // calls repeated because the hit buffer was too small
  std::vector<std::string> contract_breaches;  // offsets past the request, a count that disagrees, ...
};

struct PluginQpow {
  bool within_2_64 = false;  // BX_QPOW_SEARCH_WITHIN_2_64
  // Empty where not provided.
  std::function<std::vector<uint64_t>(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b)> gl_mul, gl_add;
  std::function<std::vector<uint64_t>(const std::vector<uint64_t>& states)> permute;  // 12 lanes per state
  std::function<std::vector<Bytes64>(const std::array<uint8_t, 32>& header, const std::vector<Int>& nonces)> hash;
  // [lo, lo + count) mod 2^512 with the target; split as the preconditions require unless `unsplit` (an
  // outside-precondition probe); capacity: the first hit buffer's size.
  std::function<SearchAnswer(const std::array<uint8_t, 32>& header, const Int& lo, uint64_t count, const Int& target,
                             uint64_t capacity, bool unsplit)>
      search;
  // The job-level search: every request (split at each multiple of 2^64) gets bitexact's job of its first
  // nonce (reference_job).
  std::function<SearchAnswer(const std::array<uint8_t, 32>& header, const Int& lo, uint64_t count, const Int& target, uint64_t capacity)>
      search_job;
  // The plugin's own precomputation for (header, lo): its job's midstate and prestate (on the host).
  std::function<bx_qpow_job(const std::array<uint8_t, 32>& header, const Int& lo)> prepare;
};

// bitexact's job-level form of a request from its reference: midstate and prestate of `lo` (canonical).
bx_qpow_job reference_job(const std::array<uint8_t, 32>& header, const Int& lo, const Int& target);

// Validates the table (one InputError line naming the plugin and what is wrong) and binds its operations
// to run on `device` (-1: a host implementation; a GPU index for a device one, CUDA builds only).
PluginQpow adapt(const PluginImpl& p, int device = -1);

Bytes64 be64(const Int& v);           // [0, 2^512) -> 64 bytes big-endian
Int from_be64(const uint8_t* p);

}  // namespace bx::suite::qpow
