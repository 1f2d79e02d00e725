#include "reference/field25519/ref25519.hpp"

namespace bx::ref::f25519 {

const Int& p() {
  static const Int v = (Int(1) << 255) - 19;
  return v;
}
const PrimeField& field() {
  static const PrimeField f(p());
  return f;
}

Int raw_value(const Bytes32& s) { return from_le_bytes(s.data(), 32); }

std::optional<Int> decode_strict(const Bytes32& s) {
  if (s[31] & 0x80) return std::nullopt;
  Int v = raw_value(s);
  if (v >= p()) return std::nullopt;
  return v;
}
Int decode_lax(const Bytes32& s) {
  Bytes32 t = s;
  t[31] &= 0x7f;
  return field().reduce(raw_value(t));
}
Bytes32 encode(const Int& a) {
  auto v = to_le_bytes(field().reduce(a), 32);
  Bytes32 out;
  std::copy(v.begin(), v.end(), out.begin());
  return out;
}

Int add(const Int& a, const Int& b) { return field().add(a, b); }
Int sub(const Int& a, const Int& b) { return field().sub(a, b); }
Int neg(const Int& a) { return field().neg(a); }
Int mul(const Int& a, const Int& b) { return field().mul(a, b); }
Int sqr(const Int& a) { return field().sqr(a); }
Int mul_small(const Int& a, uint32_t k) { return field().mul(a, Int(k)); }
Int invert(const Int& a) { return field().inv(a); }
Int pow22523(const Int& a) { return field().pow(a, (p() - 5) / 8); }

const Int& sqrt_m1() {
  static const Int v = field().pow(Int(2), (p() - 1) / 4);
  return v;
}

SqrtRatio sqrt_ratio(const Int& u0, const Int& v0) {
  const PrimeField& F = field();
  Int u = F.reduce(u0), v = F.reduce(v0);
  Int v3 = F.mul(F.sqr(v), v);
  Int v7 = F.mul(F.sqr(v3), v);
  Int x = F.mul(F.mul(u, v3), pow22523(F.mul(u, v7)));
  Int vx2 = F.mul(v, F.sqr(x));
  if (vx2 == u) return {true, x};
  if (vx2 == F.neg(u)) return {true, F.mul(x, sqrt_m1())};
  return {false, x};
}

Bytes32 x25519(const Bytes32& scalar, const Bytes32& u_bytes) {
  const PrimeField& F = field();
  Bytes32 k = scalar;
  k[0] &= 248;
  k[31] &= 127;
  k[31] |= 64;
  const Int kk = raw_value(k);
  const Int x1 = decode_lax(u_bytes);
  Int x2 = 1, z2 = 0, x3 = x1, z3 = 1;
  int swap = 0;
  for (int t = 254; t >= 0; --t) {
    const int kt = bit_test(kk, t) ? 1 : 0;
    swap ^= kt;
    if (swap) {
      std::swap(x2, x3);
      std::swap(z2, z3);
    }
    swap = kt;
    Int A = F.add(x2, z2), AA = F.sqr(A), B = F.sub(x2, z2), BB = F.sqr(B), E = F.sub(AA, BB);
    Int C = F.add(x3, z3), D = F.sub(x3, z3), DA = F.mul(D, A), CB = F.mul(C, B);
    x3 = F.sqr(F.add(DA, CB));
    z3 = F.mul(x1, F.sqr(F.sub(DA, CB)));
    x2 = F.mul(AA, BB);
    z2 = F.mul(E, F.add(AA, F.mul(Int(121665), E)));
  }
  if (swap) {
    std::swap(x2, x3);
    std::swap(z2, z3);
  }
  return encode(F.mul(x2, F.inv(z2)));
}

}  // namespace bx::ref::f25519
