// ECVRF-EDWARDS25519-SHA512-TAI (RFC 9381, suite_string 0x03) up to beta, on the edwards25519 golden
// model, and bitexact's ecvrf search job (spec §9). The miner computes only beta (never c or s), so
// neither does the model. Slow by design (exact integers): a few milliseconds per attempt.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "reference/ecvrf/edwards.hpp"

namespace bx::ref::ecvrf {

using Bytes64 = std::array<uint8_t, 64>;

Bytes64 sha512(std::span<const uint8_t> m);  // OpenSSL EVP_Digest(EVP_sha512)

// h[0] &= 248, h[31] &= 127, h[31] |= 64: a multiple of 8 with exactly 255 bits.
Bytes32 clamp(Bytes32 h);

struct VrfKey {
  Int x;       // clamp(SHA-512(SK)[0..31]) as a little-endian integer
  Int x_mod_l;  // x mod L (x·H = (x mod L)·H only because H is in the order-L subgroup)
  Bytes32 pk;  // encode(x·B)
};
VrfKey vrf_key(std::span<const uint8_t> sk);  // throws unless SK has 32 bytes

// 03 ‖ 01 ‖ PK ‖ alpha ‖ ctr ‖ 00, the SHA-512 input of one try (36 + |alpha| bytes).
std::vector<uint8_t> tai_hash_input(std::span<const uint8_t> pk, std::span<const uint8_t> alpha, uint8_t ctr);

struct TaiTry {
  uint8_t ctr;
  Bytes32 candidate;           // SHA-512(tai_hash_input)[0..31]
  Decoded decoded;             // the decoder's outcome on the candidate
  std::optional<Point> cleared;  // 8·P when decoded; the identity means "small order, try the next ctr"
};
struct TaiResult {
  std::vector<TaiTry> tries;  // ctr = 0, 1, ... up to the accepted one (all 256 when none is)
  std::optional<uint8_t> ctr;  // nullopt: no valid non-identity H within ctr <= 255 (no beta, never a hit)
  std::optional<Point> h;
};
using Decoder = std::function<Decoded(std::span<const uint8_t>)>;
// encode_to_curve_try_and_increment; the decoder is strict unless a test substitutes a lax model.
TaiResult encode_to_curve_tai(std::span<const uint8_t> pk, std::span<const uint8_t> alpha,
                              const Decoder& decoder = decode);

// SHA-512(03 ‖ 03 ‖ encode(8·Gamma) ‖ 00).
Bytes64 proof_to_hash(const Point& gamma);

struct VrfTrace {
  VrfKey key;
  TaiResult tai;
  std::optional<Point> gamma;   // x·H with the full 255-bit x
  std::optional<Point> gamma8;  // 8·Gamma
  std::optional<Bytes64> beta;  // all three nullopt iff tai.ctr is
};
VrfTrace vrf_trace(const VrfKey& key, std::span<const uint8_t> alpha);
VrfTrace vrf_trace(std::span<const uint8_t> sk, std::span<const uint8_t> alpha);

// The §9 job: alpha = header (32 B) ‖ LE64(nonce); score = beta[0..8] big-endian; hit iff score < target.
std::array<uint8_t, 40> job_alpha(std::span<const uint8_t> header, uint64_t nonce);
uint64_t score(const Bytes64& beta);
struct Hit {
  uint64_t nonce;
  uint64_t score;
  bool operator==(const Hit&) const = default;
};
// Every hit of [lo, lo + count) once, in nonce order. The range may end at 2^64 (lo + count = 2^64);
// throws past it or on wrong SK/header lengths.
std::vector<Hit> search(std::span<const uint8_t> sk, std::span<const uint8_t> header, uint64_t lo, uint64_t count,
                        uint64_t target);

}  // namespace bx::ref::ecvrf
