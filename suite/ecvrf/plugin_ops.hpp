// An ecvrf plugin implementation (struct bx_ecvrf_ops) seen through the engine's types. Every call runs on
// a call site (suite/call_site.hpp) on guarded buffers: a crash, a hang, an error return or a stray write
// fails the call, naming the plugin and the operation. The search keeps the capacity contract (the hit
// buffer grows until the plugin's count fits) and reports what breaks it.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "suite/plugin.hpp"

namespace bx::suite::ecvrf {

using B32 = std::array<uint8_t, 32>;
using B64 = std::array<uint8_t, 64>;

struct Decoded {
  int32_t status = 0;  // enum bx_ecvrf_decode_status
  B32 canonical{};     // when valid
};
struct Beta {
  int32_t ctr = -1;
  B64 beta{};
};
struct Hit {
  uint64_t nonce = 0, score = 0;
};
struct SearchAnswer {
  std::vector<Hit> hits;  // as reported (order kept)
  std::vector<std::string> contract_breaches;
  double seconds = 0;  // the calls alone (every call when the hit buffer had to grow): bench's figure
};

struct PluginEcvrf {
  // Empty where not provided.
  std::function<std::vector<Decoded>(const std::vector<B32>& in)> decode;
  std::function<std::vector<B32>(const std::vector<B32>& p, const std::vector<B32>& q)> add;
  std::function<std::vector<B32>(const std::vector<B32>& k, const std::vector<B32>& p)> scalar_mult;
  std::function<std::vector<B64>(const std::vector<B32>& gamma)> proof_to_hash;
  std::function<std::vector<Beta>(const B32& pk, const B32& x, const std::vector<std::vector<uint8_t>>& alphas)> vrf_beta;
  std::function<SearchAnswer(const B32& pk, const B32& x, const B32& header, uint64_t lo, uint64_t count, uint64_t target,
                             uint64_t capacity)>
      search;
};

// Validates the table (one InputError line naming the plugin and what is wrong) and binds its operations
// to run on `device` (-1: a host implementation; a GPU index for a device one, CUDA builds only).
PluginEcvrf adapt(const PluginImpl& p, int device = -1);

// The name of a decoder verdict ("valid", "y_not_below_p", ...; "status N" for an undefined one).
std::string decode_status_name(int32_t status);

}  // namespace bx::suite::ecvrf
