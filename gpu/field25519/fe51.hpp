// 5x51 unsigned, uint64 limbs, 128-bit column products (donna / fiat-crypto style).
// Weights 2^0, 2^51, 2^102, 2^153, 2^204.
// Bounds (inclusive, fiat-crypto convention):
//   tight: every limb in [0, 2^51]          loose: every limb in [0, 3*2^51]
// Contract of the layout API (same in every layout):
//   from_bytes -> tight; add: tight,tight -> loose; sub: loose,loose -> tight; neg: loose -> tight;
//   mul, sqr: loose,loose -> tight; mul_small(k <= 2^17): loose -> tight; carry: loose -> tight;
//   to_bytes: loose -> canonical.
#pragma once
#include <cstdint>
#include "gpu/core/carry.hpp"
#include "gpu/field25519/bounds.hpp"
#include "gpu/field25519/pack.hpp"

namespace bx::f25519 {

template <class B>
struct Fe51 {
  using backend = B;
  using limb = uint64_t;
  static constexpr int N = 5;
  static constexpr const char* name = "fe51";
  // Declared bounds (see the header comment): tight [0, 2^51], loose [0, 3*2^51].
  static constexpr LayoutBounds<5> bounds = {{0, 51, 102, 153, 204}, false,
                                             {1LL << 51, 1LL << 51, 1LL << 51, 1LL << 51, 1LL << 51},
                                             {3LL << 51, 3LL << 51, 3LL << 51, 3LL << 51, 3LL << 51}, {}, false};
  struct fe {
    uint64_t v[5];
  };
  static constexpr uint64_t M51 = (uint64_t(1) << 51) - 1;


  BX_HD static void from_bytes(fe& r, const uint8_t s[32]) {
    uint64_t w[4];
    load_words255(w, s);  // bit 255 ignored
    r.v[0] = w[0] & M51;
    r.v[1] = ((w[0] >> 51) | (w[1] << 13)) & M51;
    r.v[2] = ((w[1] >> 38) | (w[2] << 26)) & M51;
    r.v[3] = ((w[2] >> 25) | (w[3] << 39)) & M51;
    r.v[4] = (w[3] >> 12) & M51;
  }

  // Carries limb i into limb i+1 for i = from .. to-1 (no wrap).
  BX_HD static void carry_up(uint64_t t[5], int from, int to) {
    for (int i = from; i < to; ++i) {
      t[i + 1] += t[i] >> 51;
      t[i] &= M51;
    }
  }
  // Folds the bits of limb 4 above 51 into limb 0 (2^255 = 19).
  BX_HD static void wrap_top(uint64_t t[5]) {
    t[0] += 19 * (t[4] >> 51);
    t[4] &= M51;
  }

  // limbs < 2^63 -> tight. Carry sources 0,1,2,3,4,0,1 (fiat chain): limb 2 may end at 2^51.
  BX_HD static void carry(fe& r, const fe& a) {
    uint64_t t[5] = {a.v[0], a.v[1], a.v[2], a.v[3], a.v[4]};
    carry_up(t, 0, 4);
    wrap_top(t);
    carry_up(t, 0, 2);
    for (int i = 0; i < 5; ++i) r.v[i] = t[i];
  }

  BX_HD static void add(fe& r, const fe& a, const fe& b) {
    for (int i = 0; i < 5; ++i) r.v[i] = a.v[i] + b.v[i];  // 2*2^51 <= loose
  }

  // a + 4p - b limb-wise, then carry. 4p limbs (2^53-76, 2^53-4) exceed every loose subtrahend limb
  // (3*2^51), so no limb wraps; donna calls this sub_after_basic. The 2p bias (donna's plain sub) is
  // safe only for tight subtrahends.
  BX_HD static void sub(fe& r, const fe& a, const fe& b) {
    const bool two_p = BX_FAULT(fe51_sub_2p_on_loose);
    const uint64_t k0 = two_p ? 0xfffffffffffdaULL : 0x1fffffffffffb4ULL;
    const uint64_t k1 = two_p ? 0xffffffffffffeULL : 0x1ffffffffffffcULL;
    fe t;
    t.v[0] = a.v[0] + k0 - b.v[0];
    for (int i = 1; i < 5; ++i) t.v[i] = a.v[i] + k1 - b.v[i];
    carry(r, t);
  }
  BX_HD static void neg(fe& r, const fe& a) {
    fe z = {{0, 0, 0, 0, 0}};
    sub(r, z, a);
  }

  // Five 128-bit columns -> tight. Columns <= 77*(3*2^51)^2 < 2^112; the carry out of column 4 is
  // < 2^58, so 19*c fits 64 bits.
  BX_HD static void reduce_columns(fe& r, u128 c[5]) {
    uint64_t t[5];
    for (int i = 0; i < 4; ++i) {
      uint64_t carry_out = (c[i].lo >> 51) | (c[i].hi << 13);
      t[i] = c[i].lo & M51;
      u128 add = {carry_out, 0};
      c[i + 1].lo += add.lo;
      c[i + 1].hi += (c[i + 1].lo < add.lo);
    }
    uint64_t c4 = (c[4].lo >> 51) | (c[4].hi << 13);
    t[4] = c[4].lo & M51;
    t[0] += 19 * c4;
    carry_up(t, 0, 2);
    for (int i = 0; i < 5; ++i) r.v[i] = t[i];
  }

  BX_HD static void mul(fe& r, const fe& a, const fe& b) {
    uint64_t b19[5];
    for (int i = 1; i < 5; ++i) b19[i] = 19 * b.v[i];  // < 2^57
    u128 c[5];
BX_UNROLL
    for (int k = 0; k < 5; ++k) {
      c[k] = {0, 0};
BX_UNROLL
      for (int i = 0; i < 5; ++i) {
        int j = k - i;
        if (j >= 0) B::mac64(c[k], a.v[i], b.v[j]);
        else B::mac64(c[k], a.v[i], b19[j + 5]);
      }
    }
    reduce_columns(r, c);
  }

  // Dedicated squaring: cross products once, doubled in the operand. Equals mul(a, a) limb for limb.
  BX_HD static void sqr(fe& r, const fe& a) {
    const uint64_t* f = a.v;
    uint64_t d0 = 2 * f[0], d1 = 2 * f[1];
    uint64_t f3_19 = 19 * f[3], f4_19 = 19 * f[4];
    uint64_t d2_19 = 38 * f[2], d3_19 = 38 * f[3];
    u128 c[5] = {{0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}};
    B::mac64(c[0], f[0], f[0]); B::mac64(c[0], d1, f4_19); B::mac64(c[0], d2_19, f[3]);
    B::mac64(c[1], d0, f[1]); B::mac64(c[1], f[3], f3_19); B::mac64(c[1], d2_19, f[4]);
    B::mac64(c[2], d0, f[2]); B::mac64(c[2], f[1], f[1]); B::mac64(c[2], d3_19, f[4]);
    B::mac64(c[3], d0, f[3]); B::mac64(c[3], d1, f[2]); B::mac64(c[3], f[4], f4_19);
    B::mac64(c[4], d0, f[4]); B::mac64(c[4], d1, f[3]); B::mac64(c[4], f[2], f[2]);
    reduce_columns(r, c);
  }

  BX_HD static void mul_small(fe& r, const fe& a, uint32_t k) {
    u128 c[5];
    for (int i = 0; i < 5; ++i) {
      c[i] = {0, 0};
      B::mac64(c[i], a.v[i], k);
    }
    reduce_columns(r, c);
  }

  // loose -> canonical: two full carry passes with wrap and a third without, then the +19 trial
  // (q = floor((v+19)/2^255) in {0,1}, v += 19q, drop bit 255).
  BX_HD static void to_bytes(uint8_t s[32], const fe& a) {
    uint64_t t[5] = {a.v[0], a.v[1], a.v[2], a.v[3], a.v[4]};
    carry_up(t, 0, 4);
    wrap_top(t);  // limbs 1..4 < 2^51, limb 0 < 2^51 + 19*2^12
    carry_up(t, 0, 4);
    wrap_top(t);  // carry out of limb 4 was 0 or 1
    carry_up(t, 0, 4);  // now v < 2^255 + 2^51 < 2p
    uint64_t q = (t[0] + 19) >> 51;
    q = (t[1] + q) >> 51;
    q = (t[2] + q) >> 51;
    q = (t[3] + q) >> 51;
    q = (t[4] + q) >> 51;
    t[0] += 19 * q;
    carry_up(t, 0, 4);
    t[4] &= M51;
    const uint64_t w[4] = {t[0] | (t[1] << 51), (t[1] >> 13) | (t[2] << 38), (t[2] >> 26) | (t[3] << 25),
                           (t[3] >> 39) | (t[4] << 12)};
    store_words(s, w);
  }
};

}  // namespace bx::f25519
