// edwards25519 point encoding and strict decoding (RFC 8032 5.1.2-5.1.3; spec 2.3-2.4), per item, host
// and device, over any layout F. Equality and "is identity" compare canonical bytes only (spec 1:
// never raw limbs; 8x32 holds x and x + p, 9x29 and 10x26 hold redundant forms).
#pragma once
#include <cstdint>
#include "gpu/core/fault.hpp"
#include "gpu/core/hd.hpp"
#include "gpu/ecvrf/point.hpp"
#include "gpu/field25519/fe_ops.hpp"

namespace bx::ecvrf {

// Why a 32-byte string is or is not a point under the strict decoder (RFC 9381 string_to_point).
enum class DecodeStatus : uint8_t {
  valid = 0,
  y_not_below_p,    // step 1: bits 0..254 >= p (a lax decoder would reduce them: spec 2.3 (a))
  not_square,       // step 3: u/v is not a square (not on the curve)
  x_zero_sign_set,  // step 4: x = 0 with bit 255 set (spec 2.3 (b))
};
BX_HD const char* decode_status_name(DecodeStatus s) {
  switch (s) {
    case DecodeStatus::valid: return "valid";
    case DecodeStatus::y_not_below_p: return "y_not_below_p";
    case DecodeStatus::not_square: return "not_square";
    case DecodeStatus::x_zero_sign_set: return "x_zero_sign_set";
  }
  return "?";
}

// Bits 0..254 of s (bit 255 ignored) are < p = 2^255 - 19: false exactly for the 19 strings whose bytes
// 1..30 are ff, whose byte 31 is 7f (ignoring bit 255) and whose byte 0 is >= ed. Decided on the bytes,
// before any layout sees them (from_bytes keeps y >= p unreduced in every layout).
BX_HD bool y_below_p(const uint8_t s[32]) {
  uint32_t ones = (s[31] & 0x7fu) ^ 0x7fu;
  for (int i = 1; i < 31; ++i)
    if (!BX_FAULT(ecvrf_decode_y_check_skips_interior) || i == 1 || i == 30) ones |= s[i] ^ 0xffu;
  return ones != 0 || s[0] < 0xed;
}

// Strict decode (RFC 8032 5.1.3):
//   (1) y = bits 0..254, s = bit 255; reject y >= p.
//   (2) u = y^2 - 1, v = d y^2 + 1, x = u v^3 (u v^7)^((p-5)/8)          (fe_sqrt_ratio)
//   (3) v x^2 = u: keep x; v x^2 = -u: x *= sqrt(-1); else reject (non-square).
//   (4) reject x = 0 with s = 1.  (5) if the canonical x has parity != s, x = p - x.
// Output on valid: r = (x, y, 1, x*y), every coordinate tight, T*Z = X*Y. On rejection r = identity.
// Bounds: y tight (from_bytes); y^2 tight; u = y^2 - 1 tight; v = d*y^2 + 1 loose (an add of two
// tights); sqrt_ratio takes loose u, v and returns a tight root; neg keeps it tight.
template <class F>
BX_HD DecodeStatus ge_decode(ge_ext<F>& r, const uint8_t s[32]) {
  using fe = typename F::fe;
  ge_identity<F>(r);
  if (!y_below_p(s) && !BX_FAULT(ecvrf_decode_accepts_y_ge_p)) return DecodeStatus::y_not_below_p;
  const uint32_t sign = s[31] >> 7;
  fe y, yy, u, v, one, d, x;
  F::from_bytes(y, s);  // bit 255 ignored
  f25519::fe_set_small<F>(one, 1);
  F::sqr(yy, y);
  F::sub(u, yy, one);
  fe_d<F>(d);
  F::mul(v, d, yy);
  F::add(v, v, one);
  if (!f25519::fe_sqrt_ratio<F>(x, u, v)) return DecodeStatus::not_square;
  uint8_t xb[32];
  F::to_bytes(xb, x);  // the canonical x: its parity is the sign, and x = 0 is decided on it
  uint8_t nz = 0;
  for (int i = BX_FAULT(ecvrf_decode_x_zero_skips_byte0) ? 1 : 0; i < 32; ++i) nz |= xb[i];
  if (nz == 0 && sign) return DecodeStatus::x_zero_sign_set;
  if ((xb[0] & 1u) != sign) F::neg(x, x);
  r.X = x;
  r.Y = y;
  r.Z = one;
  F::mul(r.T, x, y);
  return DecodeStatus::valid;
}

// Encoding from a precomputed Z^-1 (e.g. batch inversion): x = X*zinv, y = Y*zinv, out = canonical y
// with bit 255 = parity of the canonical x.
// Input bounds: p.X, p.Y loose (p.Z, p.T not read); zinv loose.
template <class F>
BX_HD void ge_encode_zinv(uint8_t out[32], const ge_ext<F>& p, const typename F::fe& zinv) {
  typename F::fe x, y;
  F::mul(x, p.X, zinv);
  F::mul(y, p.Y, zinv);
  uint8_t xb[32];
  F::to_bytes(out, y);
  F::to_bytes(xb, x);
  // The parity of the canonical x (the zoo's fault takes it from the limbs, x.v[0] & 1).
  const uint32_t parity = BX_FAULT(ecvrf_encode_parity_noncanonical_x) ? uint32_t(x.v[0] & 1u) : xb[0] & 1u;
  out[31] = uint8_t((out[31] & 0x7fu) | (parity << 7));
}
// Encoding with one inversion Z^(p-2) (spec 0 step 6). Input: p.X, p.Y, p.Z loose (T not read, so a
// T-less doubling may feed it).
template <class F>
BX_HD void ge_encode(uint8_t out[32], const ge_ext<F>& p) {
  typename F::fe zinv;
  f25519::fe_invert<F>(zinv, p.Z);
  ge_encode_zinv<F>(out, p, zinv);
}

// 32-byte equality (for encodings).
BX_HD bool bytes_eq32(const uint8_t a[32], const uint8_t b[32]) {
  uint8_t d = 0;
  for (int i = 0; i < 32; ++i) d |= a[i] ^ b[i];
  return d == 0;
}

// Projective equality: X1 Z2 = X2 Z1 and Y1 Z2 = Y2 Z1, each side canonicalised (fe_eq). Input: X, Y,
// Z tight (T not read). Z != 0 for every point, so this is equality of the affine points.
template <class F>
BX_HD bool ge_eq(const ge_ext<F>& p, const ge_ext<F>& q) {
  typename F::fe a, b;
  F::mul(a, p.X, q.Z);
  F::mul(b, q.X, p.Z);
  if (!f25519::fe_eq<F>(a, b)) return false;
  F::mul(a, p.Y, q.Z);
  F::mul(b, q.Y, p.Z);
  return f25519::fe_eq<F>(a, b);
}
// Identity test X = 0 and Y = Z, on canonical bytes (spec 1; the TAI loop's "8*H is not the
// identity"). Input: X, Y, Z loose (T not read).
template <class F>
BX_HD bool ge_is_identity(const ge_ext<F>& p) {
  uint8_t x[32];
  F::to_bytes(x, p.X);
  uint8_t nz = 0;
  for (int i = 0; i < 32; ++i) nz |= x[i];
  return nz == 0 && f25519::fe_eq<F>(p.Y, p.Z);
}

}  // namespace bx::ecvrf
