// Independent oracles for the ecvrf golden model: libsodium 1.0.18 (spec §4.3) and OpenSSL 3.0 (§4.4).
// They use none of the golden model's curve code; nullopt wherever the library refuses (an rc != 0),
// which is itself evidence: libsodium refuses a zero scalar, an identity result and points outside
// the order-L subgroup.
#pragma once
#include <optional>
#include <span>

#include "reference/ecvrf/vrf.hpp"

namespace bx::ref::ecvrf {

// The §4.3 recipe end to end, everything (hashes included) through libsodium.
struct SodiumVrf {
  Bytes32 pk;  // crypto_scalarmult_ed25519_base_noclamp(x)
  uint8_t ctr;
  Bytes32 h, gamma, gamma8;
  Bytes64 beta;
};
std::optional<SodiumVrf> sodium_vrf(std::span<const uint8_t> sk, std::span<const uint8_t> alpha);

// The recipe's string_to_point (step 2): byte rejects of y >= p and of x = 0 with the sign set, then
// crypto_core_ed25519_add(cand, identity). Returns the canonical re-encoding of the point; it is a
// strict decoder built from libsodium's lax one.
std::optional<Bytes32> sodium_strict_decode(const Bytes32& cand);

// Thin wrappers. crypto_core_ed25519_add decodes laxly (types (a)+(b) of §2.3) and checks only "on the
// curve"; the scalar multiplications clear scalar bit 255 and take only canonical order-L points.
std::optional<Bytes32> sodium_add(const Bytes32& p, const Bytes32& q);
std::optional<Bytes32> sodium_scalarmult_noclamp(const Bytes32& n, const Bytes32& p);
std::optional<Bytes32> sodium_scalarmult_base_noclamp(const Bytes32& n);

// Fixed-base oracle: the public key of the Ed25519 private key with seed SK, encode(clamp(SHA-512(SK))·B).
std::optional<Bytes32> openssl_ed25519_pk(std::span<const uint8_t> sk);
// u-coordinate oracle: X25519(SHA-512(SK)[0..31], u(H)) = u(x·H) (X25519 clamps exactly like RFC 8032);
// it loses the sign of x, so it checks Gamma only up to negation.
std::optional<Bytes32> openssl_gamma_u(std::span<const uint8_t> sk, const Bytes32& u_h);

}  // namespace bx::ref::ecvrf
