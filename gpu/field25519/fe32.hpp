// 8x32 saturated limbs, carry chains, 2^256 = 38 (mod p).
// Invariant R32: any value in [0, 2^256) is legal; tight = loose = every limb in [0, 2^32-1]. There is no
// lazy headroom: every op accepts and returns R32 and ends with a fold. All-ones represents 37.
// Contract of the layout API: see fe51.hpp (it holds trivially here); mul_small needs k <= 2^26.
#pragma once
#include <cstdint>
#include "gpu/core/carry.hpp"
#include "gpu/field25519/bounds.hpp"

namespace bx::f25519 {

template <class B>
struct Fe32 {
  using backend = B;
  using limb = uint32_t;
  static constexpr int N = 8;
  static constexpr const char* name = "fe32";
  // Declared bounds: any 256-bit value is tight, loose and a lazy2 sub operand (limbs are saturated).
  static constexpr LayoutBounds<8> bounds = {
      {0, 32, 64, 96, 128, 160, 192, 224}, false,
      {0xffffffffLL, 0xffffffffLL, 0xffffffffLL, 0xffffffffLL, 0xffffffffLL, 0xffffffffLL, 0xffffffffLL, 0xffffffffLL},
      {0xffffffffLL, 0xffffffffLL, 0xffffffffLL, 0xffffffffLL, 0xffffffffLL, 0xffffffffLL, 0xffffffffLL, 0xffffffffLL},
      {0xffffffffLL, 0xffffffffLL, 0xffffffffLL, 0xffffffffLL, 0xffffffffLL, 0xffffffffLL, 0xffffffffLL, 0xffffffffLL},
      true};
  struct fe {
    uint32_t v[8];
  };

  BX_HD static void from_bytes(fe& r, const uint8_t s[32]) {
    for (int i = 0; i < 8; ++i)
      r.v[i] = uint32_t(s[4 * i]) | uint32_t(s[4 * i + 1]) << 8 | uint32_t(s[4 * i + 2]) << 16 |
               uint32_t(s[4 * i + 3]) << 24;
    r.v[7] &= 0x7fffffffu;  // bit 255 ignored
  }
  BX_HD static void carry(fe& r, const fe& a) { r = a; }

  // s = a+b, carry c. Fold 38c through the chain (carry c2), then limb0 += 38*c2, which cannot carry:
  // c2 = 1 leaves the low 256 bits <= 36.
  BX_HD static void add(fe& r, const fe& a, const fe& b) {
    uint32_t c = B::add8(r.v, a.v, b.v);
    uint32_t c2 = B::add_small8(r.v, 38 * c);
    r.v[0] += 38 * c2;
  }
  // d = a-b, borrow b1; subtract 38*b1 through the chain (borrow b2); limb0 -= 38*b2 cannot borrow.
  BX_HD static void sub(fe& r, const fe& a, const fe& b) {
    uint32_t b1 = B::sub8(r.v, a.v, b.v);
    uint32_t b2 = B::sub_small8(r.v, 38 * b1);
    r.v[0] -= 38 * b2;
  }
  BX_HD static void neg(fe& r, const fe& a) {
    fe z = {{0, 0, 0, 0, 0, 0, 0, 0}};
    sub(r, z, a);
  }

  // 16-word value w -> R32: fold 1 r = lo + 38*hi (9 words, r8 <= 38); fold 2 low 8 words + 38*r8
  // (carry c <= 1); fold 3 limb0 += 38c, which cannot carry (c = 1 leaves the low words <= 1443).
  // Every fold runs unconditionally: lanes disagree on c, so a branch would diverge.
  BX_HD static void reduce_wide(fe& r, const uint32_t w[16]) {
    uint32_t r8 = B::mul8x1_add(r.v, w + 8, 38, w);
    uint32_t c = B::add_small8(r.v, 38 * r8);
    if (!(B::is_ptx && BX_FAULT(fe32_ptx_mul_drop_final_fold))) r.v[0] += 38 * c;
  }
  BX_HD static void mul(fe& r, const fe& a, const fe& b) {
    uint32_t w[16];
    B::mul8x8(w, a.v, b.v);
    reduce_wide(r, w);
  }
  // Dedicated squaring (28 cross products once, doubled, plus 8 diagonals) and the same folds as mul,
  // so sqr == mul(a, a) limb for limb.
  BX_HD static void sqr(fe& r, const fe& a) {
    uint32_t w[16];
    B::sqr8(w, a.v);
    reduce_wide(r, w);
  }

  // 9-word a*k, fold 38*word8 through the chain (carry c), then limb0 += 38c.
  BX_HD static void mul_small(fe& r, const fe& a, uint32_t k) {
    const uint32_t z[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    uint32_t w8 = B::mul8x1_add(r.v, a.v, k, z);
    uint32_t c = B::add_small8(r.v, 38 * w8);
    r.v[0] += 38 * c;
  }

  // R32 -> canonical. v < 2^256 < 2p + 38, so two trial subtractions of p suffice. Each pass runs in
  // signed 64-bit lanes, TweetNaCl pack25519 shape: m_i = t_i - p_i - borrow_{i-1}, where the borrow is
  // bit 32 of the previous lane, which is masked to 32 bits only after its borrow has been read.
  BX_HD static void to_bytes(uint8_t s[32], const fe& a) {
    int64_t t[8];
    for (int i = 0; i < 8; ++i) t[i] = a.v[i];
    const int passes = BX_FAULT(fe32_canon_single_pass) ? 1 : 2;
    for (int pass = 0; pass < passes; ++pass) {
      int64_t m[8];
      m[0] = t[0] - 0xffffffedLL;
      for (int i = 1; i < 7; ++i) {
        m[i] = t[i] - 0xffffffffLL - ((m[i - 1] >> 32) & 1);
        m[i - 1] &= 0xffffffffLL;
      }
      m[7] = t[7] - 0x7fffffffLL - ((m[6] >> 32) & 1);
      const int64_t borrow = (m[7] >> 32) & 1;  // 1: t < p, keep t
      if (BX_FAULT(fe32_canon_mask_wrong_limb)) m[7] &= 0xffffffffLL;
      else m[6] &= 0xffffffffLL;
      m[7] &= 0xffffffffLL;
      const int64_t keep = -borrow;  // all ones when t is kept
      for (int i = 0; i < 8; ++i) t[i] = (t[i] & keep) | (m[i] & ~keep);
    }
    for (int i = 0; i < 8; ++i)
      for (int j = 0; j < 4; ++j) s[4 * i + j] = uint8_t(uint64_t(t[i]) >> (8 * j));
  }
};

}  // namespace bx::f25519
