// 10x26/25 signed limbs (ref10). Weights 0,26,51,77,102,128,153,179,204,230: even limbs 26 bits,
// odd limbs 25 bits; int32 limbs, int64 products, balanced rounding carries.
// Bounds (ref10, |limb|, even / odd):
//   tight: 1.1*2^25 / 1.1*2^24        loose: 1.1*2^26 / 1.1*2^25
//   mul, sqr inputs up to 1.65*2^26 / 1.65*2^25 -> outputs <= 1.01*2^25 / 1.01*2^24
// Contract of the layout API: see fe51.hpp; mul_small needs k <= 2^17.
#pragma once
#include <cstdint>
#include "gpu/core/carry.hpp"
#include "gpu/field25519/bounds.hpp"
#include "gpu/field25519/pack.hpp"

namespace bx::f25519 {

template <class B>
struct Fe26 {
  using backend = B;
  using limb = int32_t;
  static constexpr int N = 10;
  static constexpr const char* name = "fe26";
  // Declared bounds (ref10): |limb| <= 1.1 * 2^25 / 2^24 (even / odd limbs) tight, twice that loose.
  static constexpr LayoutBounds<10> bounds = {
      {0, 26, 51, 77, 102, 128, 153, 179, 204, 230}, true,
      {36909875, 18454937, 36909875, 18454937, 36909875, 18454937, 36909875, 18454937, 36909875, 18454937},
      {73819750, 36909874, 73819750, 36909874, 73819750, 36909874, 73819750, 36909874, 73819750, 36909874},
      {}, false};
  struct fe {
    int32_t v[10];
  };

  BX_HD static int64_t load3(const uint8_t* s) { return int64_t(s[0]) | int64_t(s[1]) << 8 | int64_t(s[2]) << 16; }
  BX_HD static int64_t load4(const uint8_t* s) { return load3(s) | int64_t(s[3]) << 24; }

  // ref10 carry chain on int64 lanes (order 0,4,1,5,2,6,3,7,4,8,9,0): lanes up to 2^62 -> tight.
  BX_HD static void carry_lanes(fe& r, int64_t h[10]) {
    int64_t c;
    c = (h[0] + (int64_t(1) << 25)) >> 26; h[1] += c; h[0] -= c * (int64_t(1) << 26);
    c = (h[4] + (int64_t(1) << 25)) >> 26; h[5] += c; h[4] -= c * (int64_t(1) << 26);
    c = (h[1] + (int64_t(1) << 24)) >> 25; h[2] += c; h[1] -= c * (int64_t(1) << 25);
    c = (h[5] + (int64_t(1) << 24)) >> 25; h[6] += c; h[5] -= c * (int64_t(1) << 25);
    c = (h[2] + (int64_t(1) << 25)) >> 26; h[3] += c; h[2] -= c * (int64_t(1) << 26);
    c = (h[6] + (int64_t(1) << 25)) >> 26; h[7] += c; h[6] -= c * (int64_t(1) << 26);
    c = (h[3] + (int64_t(1) << 24)) >> 25; h[4] += c; h[3] -= c * (int64_t(1) << 25);
    c = (h[7] + (int64_t(1) << 24)) >> 25; h[8] += c; h[7] -= c * (int64_t(1) << 25);
    c = (h[4] + (int64_t(1) << 25)) >> 26; h[5] += c; h[4] -= c * (int64_t(1) << 26);
    c = (h[8] + (int64_t(1) << 25)) >> 26; h[9] += c; h[8] -= c * (int64_t(1) << 26);
    c = (h[9] + (int64_t(1) << 24)) >> 25; h[0] += c * 19; h[9] -= c * (int64_t(1) << 25);
    c = (h[0] + (int64_t(1) << 25)) >> 26; h[1] += c; h[0] -= c * (int64_t(1) << 26);
    for (int i = 0; i < 10; ++i) r.v[i] = int32_t(h[i]);
  }
  BX_HD static void carry(fe& r, const fe& a) {
    int64_t h[10];
    for (int i = 0; i < 10; ++i) h[i] = a.v[i];
    carry_lanes(r, h);
  }

  // ref10 fe_frombytes: bits 0..254 (bit 255 ignored), then balanced carries -> tight.
  BX_HD static void from_bytes(fe& r, const uint8_t s[32]) {
    int64_t h[10];
    h[0] = load4(s);
    h[1] = load3(s + 4) << 6;
    h[2] = load3(s + 7) << 5;
    h[3] = load3(s + 10) << 3;
    h[4] = load3(s + 13) << 2;
    h[5] = load4(s + 16);
    h[6] = load3(s + 20) << 7;
    h[7] = load3(s + 23) << 5;
    h[8] = load3(s + 26) << 4;
    h[9] = (load3(s + 29) & 8388607) << 2;
    int64_t c;
    c = (h[9] + (int64_t(1) << 24)) >> 25; h[0] += c * 19; h[9] -= c * (int64_t(1) << 25);
    c = (h[1] + (int64_t(1) << 24)) >> 25; h[2] += c; h[1] -= c * (int64_t(1) << 25);
    c = (h[3] + (int64_t(1) << 24)) >> 25; h[4] += c; h[3] -= c * (int64_t(1) << 25);
    c = (h[5] + (int64_t(1) << 24)) >> 25; h[6] += c; h[5] -= c * (int64_t(1) << 25);
    c = (h[7] + (int64_t(1) << 24)) >> 25; h[8] += c; h[7] -= c * (int64_t(1) << 25);
    c = (h[0] + (int64_t(1) << 25)) >> 26; h[1] += c; h[0] -= c * (int64_t(1) << 26);
    c = (h[2] + (int64_t(1) << 25)) >> 26; h[3] += c; h[2] -= c * (int64_t(1) << 26);
    c = (h[4] + (int64_t(1) << 25)) >> 26; h[5] += c; h[4] -= c * (int64_t(1) << 26);
    c = (h[6] + (int64_t(1) << 25)) >> 26; h[7] += c; h[6] -= c * (int64_t(1) << 26);
    c = (h[8] + (int64_t(1) << 25)) >> 26; h[9] += c; h[8] -= c * (int64_t(1) << 26);
    for (int i = 0; i < 10; ++i) r.v[i] = int32_t(h[i]);
  }

  BX_HD static void add(fe& r, const fe& a, const fe& b) {
    for (int i = 0; i < 10; ++i) r.v[i] = a.v[i] + b.v[i];
  }
  // Limb-wise difference (|d| <= 2.2*2^26 fits int32), then the carry chain -> tight.
  BX_HD static void sub(fe& r, const fe& a, const fe& b) {
    int64_t h[10];
    for (int i = 0; i < 10; ++i) h[i] = int64_t(a.v[i]) - b.v[i];
    carry_lanes(r, h);
  }
  BX_HD static void neg(fe& r, const fe& a) {
    fe z = {{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}};
    sub(r, z, a);
  }

  // h_k = sum over i+j = k (mod 10) of f_i*g_j, doubled when i and j are both odd (weight excess 1),
  // times 19 when i+j >= 10 (2^255 = 19). 19*g_j <= 19*1.65*2^26 < 2^31 and 2*f_odd fit int32.
  BX_HD static void mul(fe& r, const fe& f, const fe& g) {
    int32_t g19[10], f2[10];
BX_UNROLL
    for (int i = 0; i < 10; ++i) {
      g19[i] = 19 * g.v[i];
      f2[i] = 2 * f.v[i];
    }
    int64_t h[10] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
BX_UNROLL
    for (int i = 0; i < 10; ++i)
BX_UNROLL
      for (int j = 0; j < 10; ++j) {
        const int32_t x = ((i & 1) && (j & 1)) ? f2[i] : f.v[i];
        const int32_t y = (i + j >= 10) ? g19[j] : g.v[j];
        h[(i + j) % 10] += B::mul_wide_s32(x, y);
      }
    carry_lanes(r, h);
  }

  // Dedicated squaring: each cross product once with its factor 2 folded into an int32 operand
  // (2*f_i, or 4*f_i for odd-odd pairs: <= 4*1.65*2^25 < 2^28), 19 folded into the other.
  // Same columns as mul(f, f), so the result is equal limb for limb.
  BX_HD static void sqr(fe& r, const fe& f) {
    int64_t h[10] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
BX_UNROLL
    for (int i = 0; i < 10; ++i)
BX_UNROLL
      for (int j = i; j < 10; ++j) {
        const int odd2 = ((i & 1) && (j & 1)) ? 2 : 1;
        const int32_t x = f.v[i] * (i == j ? odd2 : 2 * odd2);
        const int32_t y = (i + j >= 10) ? 19 * f.v[j] : f.v[j];
        h[(i + j) % 10] += B::mul_wide_s32(x, y);
      }
    carry_lanes(r, h);
  }

  BX_HD static void mul_small(fe& r, const fe& a, uint32_t k) {
    int64_t h[10];
    for (int i = 0; i < 10; ++i) h[i] = B::mul_wide_s32(a.v[i], int32_t(k));
    carry_lanes(r, h);
  }

  // ref10 fe_tobytes (accepts loose): q = floor(v/p) in {-1,0,1} via the rounding chain, h0 += 19q,
  // carry fully with arithmetic shifts, drop bit 255 (limb 9 masked to 25 bits by the last carry).
  BX_HD static void to_bytes(uint8_t s[32], const fe& a) {
    int32_t h[10];
    for (int i = 0; i < 10; ++i) h[i] = a.v[i];
    int32_t q = (19 * h[9] + (int32_t(1) << 24)) >> 25;
    for (int i = 0; i < 10; ++i) q = (h[i] + q) >> ((i & 1) ? 25 : 26);
    h[0] += 19 * q;
    for (int i = 0; i < 9; ++i) {
      const int sh = (i & 1) ? 25 : 26;
      int32_t c = h[i] >> sh;
      h[i + 1] += c;
      h[i] -= c * (int32_t(1) << sh);
    }
    h[9] &= (int32_t(1) << 25) - 1;
    uint64_t w[4] = {0, 0, 0, 0};
    BX_UNROLL
    for (int i = 0; i < 10; ++i) deposit_bits(w, (51 * i + 1) / 2, uint32_t(h[i]));
    store_words(s, w);
  }
};

}  // namespace bx::f25519
