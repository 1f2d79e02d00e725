// edwards25519 points (-x^2 + y^2 = 1 + d x^2 y^2, a = -1) over any field25519 layout F, per item,
// host and device (docs/specs/field25519_ecvrf.md 2.1-2.2).
//
// Representations (the field elements of every struct are `typename F::fe`):
//   ge_ext    (X : Y : Z : T), x = X/Z, y = Y/Z, T*Z = X*Y; identity (0, 1, 1, 0).
//   ge_cached (Y+X, Y-X, 2d*T, 2Z): the second operand of an addition (8M, 7M without T3).
//   ge_niels  (y+x, y-x, 2d*x*y): an affine (Z = 1) second operand, "mixed" addition (7M, 6M without T3).
//
// Limb bounds (fiat-crypto style, inclusive; "tight" and "loose" are the bounds the layout F declares):
//   every ge_ext coordinate produced here is tight (a mul/sqr output, or from_bytes/fe_set_small);
//   every ge_cached / ge_niels coordinate is at most loose and is read only as a mul operand.
// The layout contract (gpu/field25519/fe_ops.hpp): add takes tight,tight -> loose; sub, neg, mul, sqr,
// mul_small and carry take loose -> tight. 5x51, 9x29 and 10x26 have lazy headroom for exactly one
// add, so an add never takes an add's output: where a formula adds to a sum (F = C + G in the doubling,
// G = D + C in the mixed addition) the sum is carried first or formed by a multiplication. 8x32 (R32)
// satisfies every bound trivially; its carry is the identity.
//
// Skipped T (spec 2.2): a doubling or addition whose next consumer reads only X, Y, Z (another
// doubling, or the compression) may skip T3 = E*H. With BX_ECVRF_POISON_T (default: on in zoo builds
// and whenever NDEBUG is not defined) the skipped T is set to fixed non-zero junk, so that any later use
// of it (an addition, to_cached, the T*Z = X*Y check) fails the suite; without it T is left untouched.
//
// Every function allows r to alias its inputs: all inputs are read into temporaries before r is written.
#pragma once
#include <cstdint>
#include "gpu/core/fault.hpp"
#include "gpu/core/hd.hpp"
#include "gpu/field25519/fe_ops.hpp"

#if !defined(BX_ECVRF_POISON_T)
#if defined(BX_ZOO) || !defined(NDEBUG)
#define BX_ECVRF_POISON_T 1
#else
#define BX_ECVRF_POISON_T 0
#endif
#endif

namespace bx::ecvrf {

// ---------------------------------------------------------------------------------------------------
// Field helpers over the layout API (every comparison goes through canonical bytes).

// d = -121665/121666 and 2d, little-endian (spec 2.1).
BX_HD void d_bytes(uint8_t s[32]) {
  const uint8_t b[32] = {0xa3, 0x78, 0x59, 0x13, 0xca, 0x4d, 0xeb, 0x75, 0xab, 0xd8, 0x41, 0x41, 0x4d, 0x0a, 0x70, 0x00,
                         0x98, 0xe8, 0x79, 0x77, 0x79, 0x40, 0xc7, 0x8c, 0x73, 0xfe, 0x6f, 0x2b, 0xee, 0x6c, 0x03, 0x52};
  for (int i = 0; i < 32; ++i) s[i] = b[i];
}
BX_HD void d2_bytes(uint8_t s[32]) {
  const uint8_t b[32] = {0x59, 0xf1, 0xb2, 0x26, 0x94, 0x9b, 0xd6, 0xeb, 0x56, 0xb1, 0x83, 0x82, 0x9a, 0x14, 0xe0, 0x00,
                         0x30, 0xd1, 0xf3, 0xee, 0xf2, 0x80, 0x8e, 0x19, 0xe7, 0xfc, 0xdf, 0x56, 0xdc, 0xd9, 0x06, 0x24};
  for (int i = 0; i < 32; ++i) s[i] = b[i];
}
// Output: tight (from_bytes of a value < p).
template <class F>
BX_HD void fe_d(typename F::fe& r) {
  uint8_t s[32];
  d_bytes(s);
  F::from_bytes(r, s);
}
template <class F>
BX_HD void fe_2d(typename F::fe& r) {
  uint8_t s[32];
  d2_bytes(s);
  F::from_bytes(r, s);
}

// Input: loose. Canonical value == 0.
template <class F>
BX_HD bool fe_is_zero(const typename F::fe& a) {
  uint8_t s[32];
  F::to_bytes(s, a);
  uint8_t o = 0;
  for (int i = 0; i < 32; ++i) o |= s[i];
  return o == 0;
}
// Input: loose. Parity of the canonical value (never of the limbs: x + p has the other parity).
template <class F>
BX_HD uint32_t fe_parity(const typename F::fe& a) {
  uint8_t s[32];
  F::to_bytes(s, a);
  return s[0] & 1u;
}
// r = take_b ? b : a, limb-wise through a mask (no data-dependent branch). r has the bound of the
// chosen operand.
template <class F>
BX_HD void fe_select(typename F::fe& r, const typename F::fe& a, const typename F::fe& b, bool take_b) {
  using L = typename F::limb;
  const L mask = L(0) - L(take_b ? 1 : 0);
  for (int i = 0; i < F::N; ++i) r.v[i] = L(a.v[i] ^ (mask & (a.v[i] ^ b.v[i])));
}

// ---------------------------------------------------------------------------------------------------
// Point types.

template <class F>
struct ge_ext {
  typename F::fe X, Y, Z, T;
};
template <class F>
struct ge_cached {
  typename F::fe YpX, YmX, T2d, Z2;
};
template <class F>
struct ge_niels {
  typename F::fe ypx, ymx, xy2d;
};

// Output: (0, 1, 1, 0), all tight.
template <class F>
BX_HD void ge_identity(ge_ext<F>& r) {
  f25519::fe_set_small<F>(r.X, 0);
  f25519::fe_set_small<F>(r.Y, 1);
  f25519::fe_set_small<F>(r.Z, 1);
  f25519::fe_set_small<F>(r.T, 0);
}
// Cached identity (1, 1, 0, 2): adding it is exact under the complete law (spec 3.2, window digit 0).
template <class F>
BX_HD void ge_cached_identity(ge_cached<F>& r) {
  f25519::fe_set_small<F>(r.YpX, 1);
  f25519::fe_set_small<F>(r.YmX, 1);
  f25519::fe_set_small<F>(r.T2d, 0);
  f25519::fe_set_small<F>(r.Z2, 2);
}

// The junk written into a skipped T (tight, non-zero, not a function of the point).
constexpr uint32_t kPoisonT = 0x0bad7eedu;

// Stores T3 = E*H, or skips it (poisoning when BX_ECVRF_POISON_T). E, H loose; r.T tight.
template <class F>
BX_HD void ge_store_t(typename F::fe& t, const typename F::fe& E, const typename F::fe& H, bool want_t) {
  if (want_t) {
    F::mul(t, E, H);
  } else if (BX_ECVRF_POISON_T) {
    f25519::fe_set_small<F>(t, kPoisonT);
  }
}

// ---------------------------------------------------------------------------------------------------
// Doubling, RFC 8032 5.1.4 with a = -1 (reads X, Y, Z only):
//   A = X^2, B = Y^2, C = 2Z^2, H = A+B, E = H-(X+Y)^2, G = A-B, F = C+G,
//   X3 = E*F, Y3 = G*H, Z3 = F*G, T3 = E*H.                      4M+4S; 3M+4S with want_t = false.
// Input bounds:  p.X, p.Y, p.Z tight (add operands); p.T not read (may be poisoned).
// Output bounds: r.X, r.Y, r.Z tight; r.T tight (E*H) or skipped (see ge_store_t).
// Step bounds: A, B, ZZ, S = (X+Y)^2 tight (sqr); C = carry(ZZ+ZZ) tight, because F = C + G is an add
// and add takes tight operands only (ZZ+ZZ is loose); H = A+B loose; E = H-S tight; G = A-B tight;
// F = C+G loose; the four products take loose/tight operands -> tight.
template <class F>
BX_HD void ge_dbl_opt(ge_ext<F>& r, const ge_ext<F>& p, bool want_t) {
  using fe = typename F::fe;
  fe A, B, C, H, E, G, Fv, S;
  F::sqr(A, p.X);
  F::sqr(B, p.Y);
  F::sqr(C, p.Z);
  F::add(C, C, C);  // loose
  F::carry(C, C);   // tight
  F::add(H, A, B);  // loose
  F::add(S, p.X, p.Y);
  F::sqr(S, S);
  F::sub(E, H, S);
  F::sub(G, A, B);
  F::add(Fv, C, G);  // loose
  F::mul(r.X, E, Fv);
  F::mul(r.Y, G, H);
  F::mul(r.Z, Fv, G);
  ge_store_t<F>(r.T, E, H, want_t);
}
template <class F, bool WithT = true>
BX_HD void ge_dbl(ge_ext<F>& r, const ge_ext<F>& p) {
  ge_dbl_opt<F>(r, p, WithT);
}

// The common end of every addition: E = B-A, F = D-C, G = D+C, H = B+A (F and G swapped when swap_fg:
// a negated second operand); X3 = E*F, Y3 = G*H, Z3 = F*G, T3 = E*H.
// Input bounds: A, B, C, D tight. Output: r.X, r.Y, r.Z tight; r.T tight or skipped (poisoned).
// Step bounds: E, D-C tight; D+C, H loose; the selected F and G keep their bounds and are read only as
// mul operands.
template <class F>
BX_HD void ge_add_finish(ge_ext<F>& r, const typename F::fe& A, const typename F::fe& B, const typename F::fe& C,
                         const typename F::fe& D, bool swap_fg, bool want_t) {
  typename F::fe E, H, dmc, dpc, Fv, G;
  F::sub(E, B, A);
  F::sub(dmc, D, C);
  F::add(dpc, D, C);
  F::add(H, B, A);
  fe_select<F>(Fv, dmc, dpc, swap_fg);
  fe_select<F>(G, dpc, dmc, swap_fg);
  F::mul(r.X, E, Fv);
  F::mul(r.Y, G, H);
  F::mul(r.Z, Fv, G);
  ge_store_t<F>(r.T, E, H, want_t);
}

// ---------------------------------------------------------------------------------------------------
// General addition add-2008-hwcd-3 (k = 2d), complete on the whole curve (d non-square):
//   A = (Y1-X1)(Y2-X2), B = (Y1+X1)(Y2+X2), C = T1*2d*T2, D = 2*Z1*Z2,
//   E = B-A, F = D-C, G = D+C, H = B+A;  X3 = E*F, Y3 = G*H, Z3 = F*G, T3 = E*H.   9M (8M without T3).
// Input bounds:  p, q: X, Y, Z, T tight.
// Output bounds: r.X, r.Y, r.Z tight; r.T tight or skipped.
// Step bounds: Y-X tight, Y+X loose; A, B, C tight; D = Z1*(Z2+Z2) tight (the doubling folded into a
// mul operand, so that G = D + C adds two tights); E, F tight; G, H loose.
template <class F>
BX_HD void ge_add_opt(ge_ext<F>& r, const ge_ext<F>& p, const ge_ext<F>& q, bool want_t) {
  using fe = typename F::fe;
  fe a, b, A, B, C, D, k;
  F::sub(a, p.Y, p.X);
  F::sub(b, q.Y, q.X);
  F::mul(A, a, b);
  F::add(a, p.Y, p.X);
  F::add(b, q.Y, q.X);
  F::mul(B, a, b);
  fe_2d<F>(k);
  F::mul(C, p.T, k);
  F::mul(C, C, q.T);
  F::add(a, q.Z, q.Z);  // loose
  F::mul(D, p.Z, a);    // tight: 2*Z1*Z2
  ge_add_finish<F>(r, A, B, C, D, false, want_t);
}
template <class F, bool WithT = true>
BX_HD void ge_add(ge_ext<F>& r, const ge_ext<F>& p, const ge_ext<F>& q) {
  ge_add_opt<F>(r, p, q, WithT);
}

// Negation (-X, Y, Z, -T). Input: tight (neg takes loose). Output: tight.
template <class F>
BX_HD void ge_neg(ge_ext<F>& r, const ge_ext<F>& p) {
  F::neg(r.X, p.X);
  r.Y = p.Y;
  r.Z = p.Z;
  F::neg(r.T, p.T);
}

// ---------------------------------------------------------------------------------------------------
// Cached operand (Y+X, Y-X, 2d*T, 2Z). Input: p tight with a valid T (never a skipped one).
// Output bounds: YpX loose, YmX tight, T2d tight, Z2 loose (all read only as mul operands).
template <class F>
BX_HD void ge_to_cached(ge_cached<F>& c, const ge_ext<F>& p) {
  typename F::fe k, YpX, YmX, T2d, Z2;
  F::add(YpX, p.Y, p.X);
  F::sub(YmX, p.Y, p.X);
  fe_2d<F>(k);
  F::mul(T2d, p.T, k);
  F::add(Z2, p.Z, p.Z);
  c.YpX = YpX;
  c.YmX = YmX;
  c.T2d = T2d;
  c.Z2 = Z2;
}

// Negated cached operand (Y-X, Y+X, -2d*T, 2Z) of -P = (-X, Y, Z, -T).
// Input bounds: c as produced by ge_to_cached (all at most loose). Output: YpX, YmX, Z2 at most loose,
// T2d tight (neg takes loose).
// Swapping the two sums alone negates x but not T = x*y (pycryptodome#810): the T2d negation is the
// half of the negation that random tests without negative digits never see.
template <class F>
BX_HD void ge_neg_cached(ge_cached<F>& r, const ge_cached<F>& c) {
  typename F::fe ypx = c.YmX, ymx = c.YpX, t2d;
  if (BX_FAULT(ecvrf_neg_swap_only)) t2d = c.T2d;
  else F::neg(t2d, c.T2d);
  r.YpX = ypx;
  r.YmX = ymx;
  r.T2d = t2d;
  r.Z2 = c.Z2;
}

// Cached addition p + q (q cached), or p - q when negate: the negated operand is (Y-X, Y+X, -2dT, 2Z),
// realised without a field negation by swapping the two mul operands of A and B and the roles of F and
// G (F = D+C, G = D-C equals F, G of the negated operand, whose C is -C). negate is uniform across a
// warp where it comes from host digits, so the selects cost no divergence.
//   A = (Y1-X1)*q.YmX, B = (Y1+X1)*q.YpX, C = T1*q.T2d, D = Z1*q.Z2, E = B-A, F = D-C, G = D+C, H = B+A.
//   8M; 7M with want_t = false.
// Input bounds:  p: X, Y, Z, T tight (T valid); q: as produced by ge_to_cached/ge_neg_cached.
// Output bounds: r.X, r.Y, r.Z tight; r.T tight or skipped.
// Step bounds: A, B, C, D tight (products); E, D-C tight; D+C, H loose; Fv/G selects keep the bound of
// the chosen one (at most loose), and they are read only as mul operands.
template <class F>
BX_HD void ge_add_cached_opt(ge_ext<F>& r, const ge_ext<F>& p, const ge_cached<F>& q, bool negate, bool want_t) {
  using fe = typename F::fe;
  fe qa, qb, a, A, B, C, D;
  fe_select<F>(qa, q.YmX, q.YpX, negate);  // multiplies Y1-X1
  fe_select<F>(qb, q.YpX, q.YmX, negate);  // multiplies Y1+X1
  F::sub(a, p.Y, p.X);
  F::mul(A, a, qa);
  F::add(a, p.Y, p.X);
  F::mul(B, a, qb);
  F::mul(C, p.T, q.T2d);
  F::mul(D, p.Z, q.Z2);
  // negate swaps F and G (the -2dT half of the negation); the zoo's fault swaps only Y+X and Y-X.
  ge_add_finish<F>(r, A, B, C, D, negate && !BX_FAULT(ecvrf_neg_swap_only), want_t);
}
template <class F, bool WithT = true>
BX_HD void ge_add_cached(ge_ext<F>& r, const ge_ext<F>& p, const ge_cached<F>& q) {
  ge_add_cached_opt<F>(r, p, q, false, WithT);
}
template <class F, bool WithT = true>
BX_HD void ge_sub_cached(ge_ext<F>& r, const ge_ext<F>& p, const ge_cached<F>& q) {
  ge_add_cached_opt<F>(r, p, q, true, WithT);
}

// ---------------------------------------------------------------------------------------------------
// Mixed (affine-niels) operand (y+x, y-x, 2d*x*y) from affine x, y (tight).
// Output bounds: ypx loose, ymx tight, xy2d tight.
template <class F>
BX_HD void ge_niels_from_affine(ge_niels<F>& n, const typename F::fe& x, const typename F::fe& y) {
  typename F::fe k, ypx, ymx, t;
  F::add(ypx, y, x);
  F::sub(ymx, y, x);
  F::mul(t, x, y);
  fe_2d<F>(k);
  F::mul(t, t, k);
  n.ypx = ypx;
  n.ymx = ymx;
  n.xy2d = t;
}
// Niels operand of an extended point (one inversion; test and precomputation path).
// Input: p tight. Output: as ge_niels_from_affine.
template <class F>
BX_HD void ge_to_niels(ge_niels<F>& n, const ge_ext<F>& p) {
  typename F::fe zi, x, y;
  f25519::fe_invert<F>(zi, p.Z);
  F::mul(x, p.X, zi);
  F::mul(y, p.Y, zi);
  ge_niels_from_affine<F>(n, x, y);
}

// Mixed addition p + q, q affine (Z2 = 1):
//   A = (Y1-X1)*q.ymx, B = (Y1+X1)*q.ypx, C = T1*q.xy2d, D = 2*Z1, E = B-A, F = D-C, G = D+C, H = B+A.
//   7M; 6M with want_t = false.
// Input bounds:  p tight (T valid); q as produced by ge_niels_from_affine.
// Output bounds: r.X, r.Y, r.Z tight; r.T tight or skipped.
// Step bounds: D = carry(Z1+Z1) tight (G = D + C is an add: its operands must be tight); E, F tight;
// G, H loose.
template <class F>
BX_HD void ge_add_niels_opt(ge_ext<F>& r, const ge_ext<F>& p, const ge_niels<F>& q, bool want_t) {
  using fe = typename F::fe;
  fe a, A, B, C, D;
  F::sub(a, p.Y, p.X);
  F::mul(A, a, q.ymx);
  F::add(a, p.Y, p.X);
  F::mul(B, a, q.ypx);
  F::mul(C, p.T, q.xy2d);
  F::add(D, p.Z, p.Z);
  F::carry(D, D);
  ge_add_finish<F>(r, A, B, C, D, false, want_t);
}
template <class F, bool WithT = true>
BX_HD void ge_add_niels(ge_ext<F>& r, const ge_ext<F>& p, const ge_niels<F>& q) {
  ge_add_niels_opt<F>(r, p, q, WithT);
}

// ---------------------------------------------------------------------------------------------------
// Invariants and small multiples.

// T*Z = X*Y, both products compared as canonical bytes (spec 2.2: after every op in the emulations and
// after each stage in debug kernels). Input: tight. Fails on a poisoned T.
template <class F>
BX_HD bool ge_t_consistent(const ge_ext<F>& p) {
  typename F::fe tz, xy;
  F::mul(tz, p.T, p.Z);
  F::mul(xy, p.X, p.Y);
  return f25519::fe_eq<F>(tz, xy);
}
// On the curve: (-X^2 + Y^2) Z^2 = Z^4 + d X^2 Y^2 (canonical compare). Input: tight. Test helper.
template <class F>
BX_HD bool ge_on_curve(const ge_ext<F>& p) {
  typename F::fe xx, yy, zz, l, r, t, d;
  F::sqr(xx, p.X);
  F::sqr(yy, p.Y);
  F::sqr(zz, p.Z);
  F::sub(l, yy, xx);
  F::mul(l, l, zz);
  F::sqr(r, zz);
  fe_d<F>(d);
  F::mul(t, xx, yy);
  F::mul(t, t, d);
  F::add(r, r, t);
  return f25519::fe_eq<F>(l, r);
}

// r = 8p by three doublings; the first two never compute T (their consumer is a doubling), the last
// one computes it iff want_t (spec 3.3: the candidate's x8 feeds the table and needs T; the final x8
// feeds the compression and does not). Input: p.X, p.Y, p.Z tight. Output: tight (T as ge_dbl_opt).
template <class F>
BX_HD void ge_mul8(ge_ext<F>& r, const ge_ext<F>& p, bool want_t) {
  ge_dbl_opt<F>(r, p, false);
  ge_dbl_opt<F>(r, r, false);
  ge_dbl_opt<F>(r, r, want_t);
}

}  // namespace bx::ecvrf
