// 5x51 signed (balanced) limbs in int64, products split at 2^52 so that the FP64 pipe can form them.
// Weights 2^0, 2^51, 2^102, 2^153, 2^204.
// Why: fe32's multiply keeps both integer pipes full (about 208 FMA-pipe and 165 ALU issue slots). Here the
// 25 products of a multiply go through B::split52, which on the ptx backend is three FP64 instructions
// (DFMA.RZ, DADD, DFMA.RZ) giving hi = floor(a b / 2^52) and lo = a b mod 2^52 exactly; the integer pipes
// only sum the columns and carry. The portable backend forms the same hi and lo from the 128-bit product.
// Bounds (inclusive, |limb|; fiat-crypto convention):
//   tight: 2^50 + 2^13                loose: 2^51 + 2^14 (the sum of two tights)
//   split52 needs |a_i b_j| < 2^103:  loose^2 = 2^102 + 2^66 + 2^28.
// Contract of the layout API: see fe51.hpp; mul_small needs k <= 2^17.
#pragma once
#include <cstdint>
#include "gpu/core/carry.hpp"
#include "gpu/field25519/bounds.hpp"
#include "gpu/field25519/fe51.hpp"

namespace bx::f25519 {

template <class B>
struct Fe51s {
  using backend = B;
  using limb = int64_t;
  static constexpr int N = 5;
  static constexpr const char* name = "fe51s";
  static constexpr int64_t kTight = (int64_t(1) << 50) + (1 << 13);
  static constexpr LayoutBounds<5> bounds = {{0, 51, 102, 153, 204}, true,
                                             {kTight, kTight, kTight, kTight, kTight},
                                             {2 * kTight, 2 * kTight, 2 * kTight, 2 * kTight, 2 * kTight}, {}, false};
  struct fe {
    int64_t v[5];
  };
  using op_t = typename B::split52_operand_t;

  // Balanced carry of five columns, all at once: q_i = round(c_i / 2^51) (ties up), c_i - q_i 2^51 in
  // [-2^50, 2^50), then limb i += q_(i-1) and limb 0 += 19 q_4 (2^255 = 19).
  // |c_i| <= 2^59.4 -> |q| <= 338 -> |limb| <= 2^50 + 19*338 < tight.
  BX_HD static void carry_columns(fe& r, const int64_t c[5]) {
    constexpr int64_t half = int64_t(1) << 50;
    int64_t q[5];
    BX_UNROLL
    for (int i = 0; i < 5; ++i) q[i] = (c[i] + half) >> 51;
    BX_UNROLL
    for (int i = 0; i < 5; ++i) r.v[i] = c[i] - q[i] * (int64_t(1) << 51) + (i == 0 ? 19 * q[4] : q[i - 1]);
  }
  // loose (or any |limb| <= 2^59.4) -> tight.
  BX_HD static void carry(fe& r, const fe& a) { carry_columns(r, a.v); }

  // bits 0..254 -> fe51's unsigned limbs [0, 2^51) -> balanced -> tight.
  BX_HD static void from_bytes(fe& r, const uint8_t s[32]) {
    typename Fe51<B>::fe u;
    Fe51<B>::from_bytes(u, s);
    int64_t c[5];
    for (int i = 0; i < 5; ++i) c[i] = int64_t(u.v[i]);
    carry_columns(r, c);
  }

  // tight, tight -> loose.
  BX_HD static void add(fe& r, const fe& a, const fe& b) {
    for (int i = 0; i < 5; ++i) r.v[i] = a.v[i] + b.v[i];
  }
  // loose, loose -> tight: signed limbs need no bias.
  BX_HD static void sub(fe& r, const fe& a, const fe& b) {
    int64_t c[5];
    for (int i = 0; i < 5; ++i) c[i] = a.v[i] - b.v[i];
    carry_columns(r, c);
  }
  BX_HD static void neg(fe& r, const fe& a) {
    int64_t c[5];
    for (int i = 0; i < 5; ++i) c[i] = -a.v[i];
    carry_columns(r, c);
  }

  // Column sums. A product of weight 2^(51k) splits into lo (column k) and hi = floor(P / 2^52), which
  // belongs to column k + 1 doubled (2^52 = 2 * 2^51). hi and lo are summed apart (18 sums; the
  // doubling then costs one shift-add a column, not one a product) and start at minus the biases of
  // the n[k] raw values they will receive, a compile-time constant that folds into the first addition.
  BX_HD static void init_split_sums(uint64_t hi[9], uint64_t lo[9], const int n[9]) {
    BX_UNROLL
    for (int k = 0; k < 9; ++k) {
      hi[k] = 0 - uint64_t(n[k]) * B::split52_hi_bias;
      lo[k] = 0 - uint64_t(n[k]) * B::split52_lo_bias;
    }
  }
  BX_HD static void add_split(uint64_t& hi, uint64_t& lo, op_t x, op_t y) {
    uint64_t h, l;
    B::split52(h, l, x, y);
    hi += h;
    lo += l;
  }
  // Sums -> tight: column k = lo_k + 2 hi_(k-1); columns 5..9 wrap with 2^255 = 19; balanced carry.
  // Bounds with loose inputs: |hi| <= 2^50.01 and lo in [0, 2^52) a product, at most 5 products a
  // column: |column| < 2^55 before the wrap, < 2^59.4 after.
  BX_HD static void reduce_split_sums(fe& r, const uint64_t hi[9], const uint64_t lo[9]) {
    const int hi_weight = BX_FAULT(fe51s_split_hi_not_doubled) ? 1 : 2;
    uint64_t c[10];
    BX_UNROLL
    for (int k = 0; k < 10; ++k) c[k] = (k < 9 ? lo[k] : 0) + (k >= 1 ? hi_weight * hi[k - 1] : 0);
    int64_t t[5];
    BX_UNROLL
    for (int k = 0; k < 5; ++k) t[k] = int64_t(c[k] + 19 * c[k + 5]);
    carry_columns(r, t);
  }

  // loose, loose -> tight. 25 split products.
  BX_HD static void mul(fe& r, const fe& a, const fe& b) {
    op_t x[5], y[5];
    BX_UNROLL
    for (int i = 0; i < 5; ++i) {
      x[i] = B::split52_operand(a.v[i]);
      y[i] = B::split52_operand(b.v[i]);
    }
    constexpr int n[9] = {1, 2, 3, 4, 5, 4, 3, 2, 1};
    uint64_t hi[9], lo[9];
    init_split_sums(hi, lo, n);
    BX_UNROLL
    for (int i = 0; i < 5; ++i)
      BX_UNROLL
      for (int j = 0; j < 5; ++j) add_split(hi[i + j], lo[i + j], x[i], y[j]);
    reduce_split_sums(r, hi, lo);
  }

  // loose -> tight. The 10 cross products once, their sums doubled (a doubled operand could reach
  // 2^103), then the 5 squares: 15 split products. Equals mul(a, a) limb for limb.
  BX_HD static void sqr(fe& r, const fe& a) {
    op_t x[5];
    BX_UNROLL
    for (int i = 0; i < 5; ++i) x[i] = B::split52_operand(a.v[i]);
    constexpr int cross[9] = {0, 1, 1, 2, 2, 2, 1, 1, 0};
    uint64_t hi[9], lo[9];
    init_split_sums(hi, lo, cross);
    BX_UNROLL
    for (int i = 0; i < 5; ++i)
      BX_UNROLL
      for (int j = i + 1; j < 5; ++j) add_split(hi[i + j], lo[i + j], x[i], x[j]);
    BX_UNROLL
    for (int k = 0; k < 9; ++k) {
      hi[k] *= 2;
      lo[k] *= 2;
    }
    BX_UNROLL
    for (int i = 0; i < 5; ++i) {
      uint64_t h, l;
      B::split52(h, l, x[i], x[i]);
      hi[2 * i] += h - B::split52_hi_bias;
      lo[2 * i] += l - B::split52_lo_bias;
    }
    reduce_split_sums(r, hi, lo);
  }

  // loose -> tight, k <= 2^17: |a_i k| <= 2^68.1, five split products.
  BX_HD static void mul_small(fe& r, const fe& a, uint32_t k) {
    const op_t y = B::split52_operand(int64_t(k));
    constexpr int n[9] = {1, 1, 1, 1, 1, 0, 0, 0, 0};
    uint64_t hi[9], lo[9];
    init_split_sums(hi, lo, n);
    BX_UNROLL
    for (int i = 0; i < 5; ++i) add_split(hi[i], lo[i], B::split52_operand(a.v[i]), y);
    reduce_split_sums(r, hi, lo);
  }

  // loose -> canonical: + 2p limb-wise (2^52 - 38, 2^52 - 2, ...) makes every limb positive and below
  // 2^53, which fe51's carry takes to its tight form; fe51 then encodes.
  BX_HD static void to_bytes(uint8_t s[32], const fe& a) {
    typename Fe51<B>::fe u;
    for (int i = 0; i < 5; ++i) u.v[i] = uint64_t(a.v[i] + (int64_t(1) << 52) - (i == 0 ? 38 : 2));
    Fe51<B>::carry(u, u);
    Fe51<B>::to_bytes(s, u);
  }
};

}  // namespace bx::f25519
