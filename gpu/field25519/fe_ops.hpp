// Operations written once over the layout API (Fe51, Fe32, Fe29, Fe26), for every backend.
// Layout contract (all layouts): from_bytes -> tight; add: tight,tight -> loose; sub: loose,loose ->
// tight; neg: loose -> tight; mul, sqr: loose,loose -> tight; mul_small: loose -> tight;
// carry: loose -> tight; to_bytes: loose -> canonical. Every function below respects it.
#pragma once
#include <cstdint>
#include "gpu/core/hd.hpp"

namespace bx::f25519 {

// sqrt(-1) = 2^((p-1)/4), little-endian (spec 2.1).
BX_HD void sqrt_m1_bytes(uint8_t s[32]) {
  const uint8_t b[32] = {0xb0, 0xa0, 0x0e, 0x4a, 0x27, 0x1b, 0xee, 0xc4, 0x78, 0xe4, 0x2f, 0xad, 0x06, 0x18, 0x43, 0x2f,
                         0xa7, 0xd7, 0xfb, 0x3d, 0x99, 0x00, 0x4d, 0x2b, 0x0b, 0xdf, 0xc1, 0x4f, 0x80, 0x24, 0x83, 0x2b};
  for (int i = 0; i < 32; ++i) s[i] = b[i];
}

template <class F>
BX_HD void fe_set_small(typename F::fe& r, uint32_t k) {
  uint8_t s[32] = {};
  s[0] = uint8_t(k);
  s[1] = uint8_t(k >> 8);
  s[2] = uint8_t(k >> 16);
  s[3] = uint8_t(k >> 24);
  F::from_bytes(r, s);
}

// r = a^(2^k): k >= 1 squarings. loose -> tight.
template <class F>
BX_HD void fe_sqr_n(typename F::fe& r, const typename F::fe& a, int k) {
  F::sqr(r, a);
  for (int i = 1; i < k; ++i) F::sqr(r, r);
}

// Shared prefix of both power chains: returns z^(2^250 - 1) in t and z^11 in z11 (249 S + 10 M overall).
// Not inlined on the device: one copy per layout instead of one per call site (compile time and
// instruction cache; the call costs nothing against ~260 field operations).
template <class F>
BX_HD_NOINLINE void fe_pow_2_250_1(typename F::fe& t, typename F::fe& z11, const typename F::fe& z) {
  typename F::fe z2, z9, a, b;
  F::sqr(z2, z);            // 2
  fe_sqr_n<F>(a, z2, 2);    // 8
  F::mul(z9, a, z);         // 9
  F::mul(z11, z9, z2);      // 11
  F::sqr(a, z11);           // 22
  F::mul(a, a, z9);         // 2^5 - 1
  fe_sqr_n<F>(b, a, 5);
  F::mul(a, b, a);          // 2^10 - 1
  fe_sqr_n<F>(b, a, 10);
  F::mul(b, b, a);          // 2^20 - 1
  typename F::fe c;
  fe_sqr_n<F>(c, b, 20);
  F::mul(b, c, b);          // 2^40 - 1
  fe_sqr_n<F>(b, b, 10);
  F::mul(a, b, a);          // 2^50 - 1
  fe_sqr_n<F>(b, a, 50);
  F::mul(b, b, a);          // 2^100 - 1
  fe_sqr_n<F>(c, b, 100);
  F::mul(b, c, b);          // 2^200 - 1
  fe_sqr_n<F>(b, b, 50);
  F::mul(t, b, a);          // 2^250 - 1
}

// z^(p-2) = z^(2^255 - 21); inv(0) = 0. loose -> tight.
template <class F>
BX_HD void fe_invert(typename F::fe& r, const typename F::fe& z) {
  typename F::fe t, z11;
  fe_pow_2_250_1<F>(t, z11, z);
  fe_sqr_n<F>(t, t, 5);  // 2^255 - 2^5
  F::mul(r, t, z11);     // 2^255 - 21
}

// z^((p-5)/8) = z^(2^252 - 3). loose -> tight.
template <class F>
BX_HD void fe_pow22523(typename F::fe& r, const typename F::fe& z) {
  typename F::fe t, z11;
  fe_pow_2_250_1<F>(t, z11, z);
  fe_sqr_n<F>(t, t, 2);  // 2^252 - 4
  F::mul(r, t, z);       // 2^252 - 3
}

// Equality of the values mod p: both sides canonicalised (never compare limbs).
template <class F>
BX_HD bool fe_eq(const typename F::fe& a, const typename F::fe& b) {
  uint8_t x[32], y[32];
  F::to_bytes(x, a);
  F::to_bytes(y, b);
  uint8_t d = 0;
  for (int i = 0; i < 32; ++i) d |= x[i] ^ y[i];
  return d == 0;
}

// RFC 8032 decoding's square root of u/v: x = u v^3 (u v^7)^((p-5)/8).
//   v x^2 =  u  -> (true, x)
//   v x^2 = -u  -> (true, x * sqrt(-1))
//   otherwise   -> (false, x)            (non-square; x returned unchanged)
// u, v loose; root tight.
template <class F>
BX_HD bool fe_sqrt_ratio(typename F::fe& root, const typename F::fe& u, const typename F::fe& v) {
  typename F::fe v3, v7, t, x, vx2, nu;
  F::sqr(t, v);
  F::mul(v3, t, v);
  F::sqr(t, v3);
  F::mul(v7, t, v);
  F::mul(t, u, v7);
  fe_pow22523<F>(t, t);
  F::mul(x, u, v3);
  F::mul(x, x, t);
  F::sqr(t, x);
  F::mul(vx2, v, t);
  F::neg(nu, u);
  if (fe_eq<F>(vx2, u)) {
    root = x;
    return true;
  }
  if (fe_eq<F>(vx2, nu)) {
    if (BX_FAULT(sqrt_ratio_wrong_branch)) {
      root = x;
    } else {
      uint8_t s[32];
      sqrt_m1_bytes(s);
      typename F::fe i;
      F::from_bytes(i, s);
      F::mul(root, x, i);
    }
    return true;
  }
  root = x;
  return false;
}

// Constant-time conditional swap of the limb arrays (swap is 0 or 1).
template <class F>
BX_HD void fe_cswap(typename F::fe& a, typename F::fe& b, uint32_t swap) {
  using L = typename F::limb;
  const L mask = L(0) - L(swap);
  for (int i = 0; i < F::N; ++i) {
    L t = mask & (a.v[i] ^ b.v[i]);
    a.v[i] ^= t;
    b.v[i] ^= t;
  }
}

// X25519 (RFC 7748 section 5): clamp the scalar, mask bit 255 of u, accept u >= p, Montgomery ladder
// over bits 254..0, output canonical x2 * z2^(p-2) (0 when z2 = 0). Every intermediate respects the
// layout contract: add inputs are mul/sqr outputs (tight), sub inputs at most loose.
template <class F>
BX_HD void x25519(uint8_t out[32], const uint8_t scalar[32], const uint8_t u[32]) {
  using fe = typename F::fe;
  uint8_t k[32];
  for (int i = 0; i < 32; ++i) k[i] = scalar[i];
  k[0] &= 248;
  k[31] &= 127;
  k[31] |= 64;
  fe x1, x2, z2, x3, z3, A, AA, Bv, BB, E, C, D, DA, CB, t;
  F::from_bytes(x1, u);
  fe_set_small<F>(x2, 1);
  fe_set_small<F>(z2, 0);
  x3 = x1;
  fe_set_small<F>(z3, 1);
  uint32_t swap = 0;
  for (int pos = 254; pos >= 0; --pos) {
    const uint32_t kt = (k[pos >> 3] >> (pos & 7)) & 1;
    swap ^= kt;
    fe_cswap<F>(x2, x3, swap);
    fe_cswap<F>(z2, z3, swap);
    swap = kt;
    F::add(A, x2, z2);
    F::sqr(AA, A);
    F::sub(Bv, x2, z2);
    F::sqr(BB, Bv);
    F::sub(E, AA, BB);
    F::add(C, x3, z3);
    F::sub(D, x3, z3);
    F::mul(DA, D, A);
    F::mul(CB, C, Bv);
    F::add(t, DA, CB);
    F::sqr(x3, t);
    F::sub(t, DA, CB);
    F::sqr(t, t);
    F::mul(z3, x1, t);
    F::mul(x2, AA, BB);
    F::mul_small(t, E, 121665);
    F::add(t, AA, t);
    F::mul(z2, E, t);
  }
  fe_cswap<F>(x2, x3, swap);
  fe_cswap<F>(z2, z3, swap);
  fe_invert<F>(z2, z2);
  F::mul(x2, x2, z2);
  F::to_bytes(out, x2);
}

}  // namespace bx::f25519

namespace bx::f25519 {

// The start-up derivation (spec 6.1): curve constants computed from small integers with the layout's own
// code, every operand built in registers (from_bytes of a local array), so the compiler sees operands of
// equal known value (zero limbs): the class that exposed inline-asm operand coalescing (spec 6.2), which
// operands loaded from memory never show. Canonical bytes: out[0] = 1^2, out[1] = d = -121665 / 121666,
// out[2] = 2d, out[3] = sqrt(-1) = 2 * (2^((p-5)/8))^2 = 2^((p-1)/4), out[4] = 1 * 1.
constexpr int kDerivedConstants = 5;
template <class F>
BX_HD void fe_derive_constants(uint8_t out[kDerivedConstants][32]) {
  using fe = typename F::fe;
  fe one, zero, t, u, v;
  fe_set_small<F>(one, 1);
  fe_set_small<F>(zero, 0);
  F::sqr(t, one);
  F::to_bytes(out[0], t);
  F::mul(t, one, one);
  F::to_bytes(out[4], t);
  fe_set_small<F>(u, 121666);
  fe_invert<F>(v, u);
  fe_set_small<F>(u, 121665);
  F::sub(t, zero, u);  // -121665
  F::mul(t, t, v);     // d
  F::to_bytes(out[1], t);
  F::add(u, t, t);
  F::carry(u, u);
  F::to_bytes(out[2], u);
  fe_set_small<F>(u, 2);
  fe_pow22523<F>(v, u);  // 2^((p-5)/8)
  F::sqr(v, v);
  F::mul(v, v, u);
  F::to_bytes(out[3], v);
}

}  // namespace bx::f25519
