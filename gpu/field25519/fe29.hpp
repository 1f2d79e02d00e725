// 9x29 with 64-bit column accumulators and lazy reduction; 2^261 = 1216 (mod p).
// Weights 2^(29i), i = 0..8 (261 bits); p = [0x1fffffed, 0x1fffffff x7, 0x7fffff].
// Bounds (inclusive):
//   tight T29: limbs 0,2..8 <= 2^29-1, limb 1 <= 2^29 (value < 2^261 + 2^29, not necessarily < 2^255)
//   loose L29: every limb <= 2^30 (the sum of two T29)
//   sub operands: limbs <= 2^31 (a second lazy add); mul ceiling (all limbs B): B <= 0x55555554.
// Contract of the layout API: see fe51.hpp; mul_small needs k <= 2^17.
#pragma once
#include <cstdint>
#include "gpu/core/carry.hpp"
#include "gpu/field25519/bounds.hpp"
#include "gpu/field25519/pack.hpp"

namespace bx::f25519 {

template <class B>
struct Fe29 {
  using backend = B;
  using limb = uint32_t;
  static constexpr int N = 9;
  static constexpr const char* name = "fe29";
  // Declared bounds: tight limbs <= 2^29 - 1 (limb 1 <= 2^29), loose <= 2^30, lazy2 sub operands <= 2^31.
  static constexpr LayoutBounds<9> bounds = {
      {0, 29, 58, 87, 116, 145, 174, 203, 232}, false,
      {(1LL << 29) - 1, 1LL << 29, (1LL << 29) - 1, (1LL << 29) - 1, (1LL << 29) - 1, (1LL << 29) - 1, (1LL << 29) - 1,
       (1LL << 29) - 1, (1LL << 29) - 1},
      {1LL << 30, 1LL << 30, 1LL << 30, 1LL << 30, 1LL << 30, 1LL << 30, 1LL << 30, 1LL << 30, 1LL << 30},
      {1LL << 31, 1LL << 31, 1LL << 31, 1LL << 31, 1LL << 31, 1LL << 31, 1LL << 31, 1LL << 31, 1LL << 31},
      true};
  struct fe {
    uint32_t v[9];
  };
  static constexpr uint32_t M29 = (1u << 29) - 1;

  BX_HD static void from_bytes(fe& r, const uint8_t s[32]) {
    uint64_t w[4];
    load_words255(w, s);
    BX_UNROLL
    for (int i = 0; i < 9; ++i) r.v[i] = uint32_t(extract_bits(w, 29 * i, 29));
  }

  // 64-bit lanes -> T29: carry 0..8, fold c = t8 >> 29 as 1216*c into limb 0, carry 0 -> 1 once.
  // Callers' lane bounds: mul t <= 2^41.25 (c <= 4865), sub t <= 2^40 (c <= 20), mul_small t <= 2^47.
  BX_HD static void normalise(fe& r, uint64_t t[9]) {
BX_UNROLL
    for (int i = 0; i < 8; ++i) {
      t[i + 1] += t[i] >> 29;
      t[i] &= M29;
    }
    uint64_t c = t[8] >> 29;
    t[8] &= M29;
    t[0] += 1216 * c;
    t[1] += t[0] >> 29;
    t[0] &= M29;
    for (int i = 0; i < 9; ++i) r.v[i] = uint32_t(t[i]);
  }
  BX_HD static void carry(fe& r, const fe& a) {
    uint64_t t[9];
    for (int i = 0; i < 9; ++i) t[i] = a.v[i];
    normalise(r, t);
  }

  BX_HD static void add(fe& r, const fe& a, const fe& b) {
    for (int i = 0; i < 9; ++i) r.v[i] = a.v[i] + b.v[i];
  }

  // r_i = a_i + K_i - b_i in 64-bit lanes with K = 1024p, then normalise. Every bias limb exceeds the
  // largest subtrahend limb (K_8 = 2^33-1024 > 2^31), so no lane wraps. 8p would fit 32-bit lanes but
  // its top limb 0x3fffff8 is below a lazily added top limb and wraps.
  BX_HD static void sub(fe& r, const fe& a, const fe& b) {
    const bool small = BX_FAULT(fe29_sub_bias_8p);
    const uint64_t k0 = small ? 0xffffff68ULL : 0x7fffffb400ULL;
    const uint64_t k1 = small ? 0xfffffff8ULL : 0x7ffffffc00ULL;
    const uint64_t k8 = small ? 0x3fffff8ULL : 0x1fffffc00ULL;
    uint64_t t[9];
    t[0] = a.v[0] + k0 - b.v[0];
    for (int i = 1; i < 8; ++i) t[i] = a.v[i] + k1 - b.v[i];
    t[8] = a.v[8] + k8 - b.v[8];
    normalise(r, t);
  }
  BX_HD static void neg(fe& r, const fe& a) {
    fe z = {{0, 0, 0, 0, 0, 0, 0, 0, 0}};
    sub(r, z, a);
  }

  // 81 products < 2^60 into 17 columns <= 9*2^60; carry columns into 29-bit digits (column + carry stays
  // < 2^64; c17 <= 2^31), fold t_k = c_k + 1216*c_{k+9} (c17 lands in t8, t <= 2^41.25), normalise.
  BX_HD static void mul(fe& r, const fe& a, const fe& b) {
    uint64_t c[18];
BX_UNROLL
    for (int k = 0; k < 17; ++k) {
      uint64_t acc = 0;
BX_UNROLL
      for (int i = 0; i < 9; ++i) {
        int j = k - i;
        if (j >= 0 && j < 9) acc = B::mad_wide_u32(a.v[i], b.v[j], acc);
      }
      c[k] = acc;
    }
BX_UNROLL
    for (int k = 0; k < 16; ++k) {
      c[k + 1] += c[k] >> 29;
      c[k] &= M29;
    }
    c[17] = c[16] >> 29;
    c[16] &= M29;
    uint64_t t[9];
BX_UNROLL
    for (int k = 0; k < 9; ++k) t[k] = c[k] + 1216 * c[k + 9];
    normalise(r, t);
  }
  // Squaring shares the multiply, so sqr == mul(a, a) limb for limb.
  BX_HD static void sqr(fe& r, const fe& a) { mul(r, a, a); }

  BX_HD static void mul_small(fe& r, const fe& a, uint32_t k) {
    uint64_t t[9];
    for (int i = 0; i < 9; ++i) t[i] = B::mul_wide_u32(a.v[i], k);
    normalise(r, t);
  }

  // loose -> canonical: normalise; fold bits >= 255 once (c = limb8 >> 23, 19c into limb 0, carry
  // through), giving v < 2^255 + 1216 < 2p; then the +19 trial; mask limb 8 to 23 bits.
  BX_HD static void to_bytes(uint8_t s[32], const fe& a) {
    fe n;
    carry(n, a);
    uint32_t t[9];
    for (int i = 0; i < 9; ++i) t[i] = n.v[i];
    uint32_t c = t[8] >> 23;
    t[8] &= 0x7fffff;
    t[0] += 19 * c;
    for (int i = 0; i < 8; ++i) {
      t[i + 1] += t[i] >> 29;
      t[i] &= M29;
    }
    uint32_t q = (t[0] + 19) >> 29;
    for (int i = 1; i < 8; ++i) q = (t[i] + q) >> 29;
    q = (t[8] + q) >> 23;
    t[0] += 19 * q;
    for (int i = 0; i < 8; ++i) {
      t[i + 1] += t[i] >> 29;
      t[i] &= M29;
    }
    t[8] &= 0x7fffff;
    uint64_t w[4] = {0, 0, 0, 0};
    BX_UNROLL
    for (int i = 0; i < 9; ++i) deposit_bits(w, 29 * i, t[i]);
    store_words(s, w);
  }
};

}  // namespace bx::f25519
