// The edwards25519 golden model, -x^2 + y^2 = 1 + d x^2 y^2 over GF(2^255 - 19), on exact integers
// (spec §2). Affine points and the complete unified a = -1 law computed by exact division: the arbiter of
// point values for every kernel. It shares no code with gpu/.
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <variant>

#include "reference/field25519/ref25519.hpp"

namespace bx::ref::ecvrf {

using bx::ref::Int;
using Bytes32 = std::array<uint8_t, 32>;

// Invariant: x and y are canonical (in [0, p)), so == compares points. Only the lax decoder that skips
// the square check (a test model) produces points off the curve.
struct Point {
  Int x, y;
  bool operator==(const Point&) const = default;
};

const Int& d();   // -121665/121666 mod p, derived (not read from a table)
const Int& d2();  // 2d
const Int& L();   // 2^252 + 27742317777372353535851937790883648493, the prime order of B
Point identity();
const Point& base_point();  // y = 4/5, x even

bool is_on_curve(const Point& P);  // canonical coordinates satisfying the curve equation
// add is the unified law, complete on the whole curve (d non-square, -1 square): no special cases.
Point add(const Point& P, const Point& Q);
Point neg(const Point& P);
// The dedicated formula (the curve equation substituted into add(P, P)): valid on the curve only.
Point dbl(const Point& P);
// k·P for any k >= 0, every bit of k used (no clamping, no reduction mod L); throws on k < 0.
Point mul(const Int& k, const Point& P);
Point mul_by_cofactor(const Point& P);  // 8·P, three dbl

bool is_identity(const Point& P);
bool is_small_order(const Point& P);     // 8·P = identity
bool in_prime_subgroup(const Point& P);  // L·P = identity
// Order of the torsion component, i.e. of L·P (gcd(L, 8) = 1): 1, 2, 4 or 8; throws if 8·(L·P) is not
// the identity (a point off the curve).
int torsion_order(const Point& P);
Int order(const Point& P);  // (P small order ? 1 : L) · torsion_order(P)
// [k] = k·T8 for a derived generator T8 of the 8-torsion, k = 0..7 ([0] is the identity).
const std::array<Point, 8>& torsion_points();

// Canonical y with bit 255 = parity of the canonical x.
Bytes32 encode(const Point& P);
// u = (1 + y)/(1 - y) of the birationally equivalent Montgomery curve (u(identity) = 0 by inv(0) = 0).
Bytes32 montgomery_u(const Point& P);

enum class DecodeError { y_not_below_p, not_square, x_zero_sign_set };
std::string_view name(DecodeError e);
using Decoded = std::variant<Point, DecodeError>;

// Strict RFC 8032 §5.1.3 decoding (RFC 9381 string_to_point). Throws unless s has 32 bytes.
Decoded decode(std::span<const uint8_t> s);

// The lax decoder types of spec §2.3, as test models of known decoder bugs; all false = strict.
struct Laxness {
  bool reduce_y = false;            // (a) accept y >= p, reduced mod p
  bool accept_x_zero_sign = false;  // (b) accept x = 0 with the sign bit set
  bool skip_square_check = false;   // (c) accept a non-square u/v (returns a point off the curve)
  bool ignore_sign_bit = false;     // (d) read bit 255 as 0 (x always even)
};
Decoded decode_lax(std::span<const uint8_t> s, const Laxness& lax);

}  // namespace bx::ref::ecvrf
