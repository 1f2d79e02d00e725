#include "reference/ecvrf/edwards.hpp"

#include <stdexcept>
#include <string>

namespace bx::ref::ecvrf {

namespace F = bx::ref::f25519;

const Int& d() {
  static const Int v = F::mul(F::neg(121665), F::invert(121666));
  return v;
}
const Int& d2() {
  static const Int v = F::add(d(), d());
  return v;
}
const Int& L() {
  static const Int v = (Int(1) << 252) + Int("27742317777372353535851937790883648493");
  return v;
}
Point identity() { return {0, 1}; }

const Point& base_point() {
  static const Point B = std::get<Point>(decode(F::encode(F::mul(4, F::invert(5)))));
  return B;
}

bool is_on_curve(const Point& P) {
  const Int& p = F::p();
  if (P.x < 0 || P.x >= p || P.y < 0 || P.y >= p) return false;
  const Int x2 = F::sqr(P.x), y2 = F::sqr(P.y);
  return F::sub(y2, x2) == F::add(1, F::mul(d(), F::mul(x2, y2)));
}

// x3 = (x1 y2 + y1 x2)/(1 + t), y3 = (y1 y2 + x1 x2)/(1 - t), t = d x1 x2 y1 y2 (a = -1). On the curve
// 1 ± t is never 0, since d is a non-square.
Point add(const Point& P, const Point& Q) {
  const Int t = F::mul(d(), F::mul(F::mul(P.x, Q.x), F::mul(P.y, Q.y)));
  const Int x = F::mul(F::add(F::mul(P.x, Q.y), F::mul(P.y, Q.x)), F::invert(F::add(1, t)));
  const Int y = F::mul(F::add(F::mul(P.y, Q.y), F::mul(P.x, Q.x)), F::invert(F::sub(1, t)));
  return {x, y};
}

Point neg(const Point& P) { return {F::neg(P.x), P.y}; }

// With 1 + d x^2 y^2 = y^2 - x^2: x3 = 2xy/(y^2 - x^2), y3 = (y^2 + x^2)/(2 - y^2 + x^2).
Point dbl(const Point& P) {
  const Int x2 = F::sqr(P.x), y2 = F::sqr(P.y);
  const Int x = F::mul(F::mul(2, F::mul(P.x, P.y)), F::invert(F::sub(y2, x2)));
  const Int y = F::mul(F::add(y2, x2), F::invert(F::add(F::sub(2, y2), x2)));
  return {x, y};
}

namespace {
// Homogeneous projective (X : Y : Z), x = X/Z, y = Y/Z: the affine law of add() with its numerators and
// denominators multiplied by (Z1 Z2)^2, so no division per step. Used only by mul(), where one
// inversion at the end instead of two per step keeps a 255-bit multiplication at milliseconds.
struct Projective {
  Int X, Y, Z;
};
Projective add_projective(const Projective& P, const Projective& Q) {
  const Int A = F::mul(P.Z, Q.Z), B = F::sqr(A), C = F::mul(P.X, Q.X), D = F::mul(P.Y, Q.Y);
  const Int E = F::mul(d(), F::mul(C, D)), Fm = F::sub(B, E), G = F::add(B, E);
  const Int sum_x = F::add(F::mul(P.X, Q.Y), F::mul(P.Y, Q.X));
  return {F::mul(F::mul(A, Fm), sum_x), F::mul(F::mul(A, G), F::add(D, C)), F::mul(Fm, G)};
}
}  // namespace

Point mul(const Int& k, const Point& P) {
  if (k < 0) throw std::invalid_argument("ecvrf mul: negative scalar");
  const Projective base{P.x, P.y, 1};
  Projective R{0, 1, 1};
  if (k != 0)
    for (long i = static_cast<long>(boost::multiprecision::msb(k)); i >= 0; --i) {
      R = add_projective(R, R);
      if (bit_test(k, static_cast<unsigned>(i))) R = add_projective(R, base);
    }
  const Int zi = F::invert(R.Z);
  return {F::mul(R.X, zi), F::mul(R.Y, zi)};
}

Point mul_by_cofactor(const Point& P) { return dbl(dbl(dbl(P))); }

bool is_identity(const Point& P) { return P == identity(); }
bool is_small_order(const Point& P) { return is_identity(mul_by_cofactor(P)); }
bool in_prime_subgroup(const Point& P) { return is_identity(mul(L(), P)); }

int torsion_order(const Point& P) {
  Point T = mul(L(), P);
  for (int n = 1; n <= 8; n *= 2, T = dbl(T))
    if (is_identity(T)) return n;
  throw std::invalid_argument("ecvrf torsion_order: point not in the curve group");
}

Int order(const Point& P) { return (is_small_order(P) ? Int(1) : L()) * torsion_order(P); }

// T8 = L·P for the first decodable y = 2, 3, ... whose torsion component has order 8.
const std::array<Point, 8>& torsion_points() {
  static const std::array<Point, 8> table = [] {
    Point t8;
    for (int y = 2;; ++y) {
      const Decoded dec = decode(F::encode(y));
      if (!std::holds_alternative<Point>(dec)) continue;
      const Point T = mul(L(), std::get<Point>(dec));
      if (!is_identity(dbl(dbl(T)))) {
        t8 = T;
        break;
      }
    }
    std::array<Point, 8> t;
    t[0] = identity();
    for (int k = 1; k < 8; ++k) t[k] = add(t[k - 1], t8);
    return t;
  }();
  return table;
}

Bytes32 encode(const Point& P) {
  Bytes32 out = F::encode(P.y);
  if (bit_test(F::field().reduce(P.x), 0)) out[31] |= 0x80;
  return out;
}

Bytes32 montgomery_u(const Point& P) { return F::encode(F::mul(F::add(1, P.y), F::invert(F::sub(1, P.y)))); }

std::string_view name(DecodeError e) {
  switch (e) {
    case DecodeError::y_not_below_p: return "y_not_below_p";
    case DecodeError::not_square: return "not_square";
    case DecodeError::x_zero_sign_set: return "x_zero_sign_set";
  }
  return "?";
}

Decoded decode(std::span<const uint8_t> s) { return decode_lax(s, Laxness{}); }

Decoded decode_lax(std::span<const uint8_t> s, const Laxness& lax) {
  if (s.size() != 32)
    throw std::invalid_argument("ecvrf decode: expected 32 bytes, got " + std::to_string(s.size()));
  F::Bytes32 b;
  std::copy(s.begin(), s.end(), b.begin());
  const bool sign = (b[31] & 0x80) && !lax.ignore_sign_bit;
  b[31] &= 0x7f;
  Int y = F::raw_value(b);
  if (y >= F::p()) {
    if (!lax.reduce_y) return DecodeError::y_not_below_p;
    y -= F::p();  // y < 2^255 < 2p
  }
  const Int y2 = F::sqr(y);
  const F::SqrtRatio r = F::sqrt_ratio(F::sub(y2, 1), F::add(F::mul(d(), y2), 1));
  if (!r.was_square && !lax.skip_square_check) return DecodeError::not_square;
  Int x = r.root;
  if (x == 0 && sign && !lax.accept_x_zero_sign) return DecodeError::x_zero_sign_set;
  if (bit_test(x, 0) != sign) x = F::neg(x);
  return Point{x, y};
}

}  // namespace bx::ref::ecvrf
