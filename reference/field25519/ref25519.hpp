// The field25519 golden model: exact integers mod p = 2^255 - 19 (Boost cpp_int), no limbs, no bounds.
// It shares no code with gpu/: it is the arbiter of values for every layout and backend.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include "reference/common/prime_field.hpp"

namespace bx::ref::f25519 {

using Bytes32 = std::array<uint8_t, 32>;

const Int& p();
const PrimeField& field();

// 32-byte decodings. strict: bit 255 must be clear and the value below p (else nullopt).
// lax: bit 255 ignored, values p..2^255-1 reduced.
std::optional<Int> decode_strict(const Bytes32& s);
Int decode_lax(const Bytes32& s);
// Raw little-endian value of all 256 bits (no masking, no reduction).
Int raw_value(const Bytes32& s);
// Canonical 32-byte little-endian encoding of a mod p (a may be any integer).
Bytes32 encode(const Int& a);

Int add(const Int& a, const Int& b);
Int sub(const Int& a, const Int& b);
Int neg(const Int& a);
Int mul(const Int& a, const Int& b);
Int sqr(const Int& a);
Int mul_small(const Int& a, uint32_t k);
Int invert(const Int& a);    // a^(p-2), inv(0) = 0
Int pow22523(const Int& a);  // a^((p-5)/8)

struct SqrtRatio {
  bool was_square;
  Int root;
};
// RFC 8032 decoding's square root of u/v, x = u v^3 (u v^7)^((p-5)/8):
// v x^2 = u -> (true, x); v x^2 = -u -> (true, x sqrt(-1)); otherwise (false, x).
SqrtRatio sqrt_ratio(const Int& u, const Int& v);
const Int& sqrt_m1();

// X25519 per RFC 7748 section 5 (clamping, bit-255 masking, u >= p reduced), on exact integers.
Bytes32 x25519(const Bytes32& scalar, const Bytes32& u);

}  // namespace bx::ref::f25519
