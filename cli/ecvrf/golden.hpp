// The ecvrf selftest's known answers, computed once from the golden model (reference/ecvrf) and shared by
// every row, CPU and GPU: RFC 9381 Examples 16-18 with x and x mod L, the search job's nonces, the spec 2.3
// decoder table, non-canonical encodings, batch-inversion sets and extremal scalars.
#pragma once
#include <array>
#include <string>
#include <vector>

#include "cli/family.hpp"
#include "suite/hex.hpp"
#include "reference/ecvrf/vrf.hpp"
#include "suite/ecvrf/host.hpp"

namespace bx::ecvrf_family {

// G (ref::ecvrf), Bytes64 and bytes_of (32 LE bytes of an integer): suite/ecvrf/host.hpp.

struct Example {
  const char* name;
  Bytes32 sk;
  std::vector<uint8_t> alpha;
};
std::vector<Example> rfc9381_examples();

struct Golden {
  struct Run {
    std::string what;
    Bytes32 pk, scalar;
    std::vector<uint8_t> alpha;
    int ctr;
    Bytes32 h, gamma, gamma8;
    Bytes64 beta;
  };
  std::vector<Run> runs;  // RFC examples with x and x mod L, then job nonces (alpha = header || LE64)
  size_t rfc_runs = 0;
  struct Dec {
    Bytes32 s;
    std::string want;  // canonical re-encoding in hex, or the rejection reason
    bool tai_point;    // TAI takes it: it decodes and 8P is not the identity
  };
  std::vector<Dec> decodes;
  struct Enc {
    Bytes32 x_bytes, y_bytes;  // X held as x + p (non-canonical), Y canonical, Z = 1
    Bytes32 want;
  };
  std::vector<Enc> encodes;
  std::vector<std::vector<Bytes32>> inversions;  // input sets; expected = single inversions
  struct Add {
    Bytes32 p, q;            // valid encodings
    Bytes32 sum, diff, dbl;  // P + Q, P - Q, 2P
  };
  std::vector<Add> adds;  // the torsion points and multiples of H, pairwise
  Bytes32 h_point;                               // Ex16's H, the base of the scalar checks
  std::vector<std::pair<Bytes32, Bytes32>> scalar_mults;  // scalar, encode(scalar * H)
  std::vector<std::pair<Bytes32, Bytes32>> folded_scalars;  // the same scalars k, 8k mod L (cofactor folding)
};
Golden make_golden(bool full, uint64_t seed);

// The golden model's beta of alpha = header || LE64(nonce) for each nonce (nullopt: no ctr <= 255 gives
// a point), computed on every CPU core.
std::vector<std::optional<Bytes64>> golden_job_betas(const G::VrfKey& key, const Bytes32& header,
                                                     const std::vector<uint64_t>& nonces);

void expect_bytes(TallyCheck& c, const uint8_t* want, const uint8_t* got, size_t n, const std::string& what);

}  // namespace bx::ecvrf_family
