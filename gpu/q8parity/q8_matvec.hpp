// q8_matvec per item: the canonical order (docs/specs/q8parity.md §1) for one thread's NR rows and all tokens,
// block by block. For each (t, r): acc = 0; per block b: s = 0; s = fma(q_i, x_i, s) for i = 0..31; then
// acc = fma(d_b, s, acc). Kernels own only the memory staging; the host runs the same code per row.
// The negative control's lane program (a warp tree inside a row) is here too, to be reported as different.
#pragma once
#include "gpu/q8parity/q8_block.hpp"

namespace bx::q8 {

// x_i as the order reads it. The fault zoo's flush-to-zero on an activation lives here (NR = 2 paths).
template <int NR>
BX_HD float activation(float x) {
  if (NR == 2 && BX_FAULT(q8_ftz_activation) && (bits_of(x) & 0x7f800000u) == 0) return 0.0f;
  return x;
}

// s = fma(q_i, x_i, s), i = 0..31, from the packed words (widened here, per call: per token).
template <int NR>
BX_HD float block_sum_packed(const Q8Packed& b, const float* x) {
  float s = 0.0f;
  BX_UNROLL
  for (int j = 0; j < 8; ++j) {
    const uint32_t w = code_bias(b.q[j]);
    const F4 xs = load4(x + 4 * j);
    BX_UNROLL
    for (int k = 0; k < 4; ++k) s = fma_rn(code_of(w, k), activation<NR>(xs.v[k]), s);
  }
  return s;
}
template <int NR>
BX_HD float block_sum_unpacked(const Q8Unpacked& b, const float* x) {
  float s = 0.0f;
  BX_UNROLL
  for (int j = 0; j < 8; ++j) {
    const F4 xs = load4(x + 4 * j);
    BX_UNROLL
    for (int k = 0; k < 4; ++k) s = fma_rn(b.q[4 * j + k], activation<NR>(xs.v[k]), s);
  }
  return s;
}
// The zoo's reordered block sum (an unrolled loop keeping two partial sums): halves, then added.
BX_HD float block_sum_split(const Q8Unpacked& b, const float* x) {
  float s0 = 0.0f, s1 = 0.0f;
  BX_UNROLL
  for (int i = 0; i < kCodes / 2; ++i) {
    s0 = fma_rn(b.q[i], x[i], s0);
    s1 = fma_rn(b.q[i + 16], x[i + 16], s1);
  }
  return add_rn(s0, s1);
}

// One thread's accumulators: NR rows x tokens. NTOK > 0: that many tokens, token loop unrolled, all in
// registers; NTOK == 0: ntok at run time (1..8), token loop rolled (accumulators indexed at run time, so
// in local memory: the variant trades registers for loads). A step is the block sums of one block (s, per
// row and token: independent of acc) and then the fold acc = fma(d, s, acc); kernels that split a row's
// blocks between threads compute the sums apart and fold them in block order (fold_sum).
template <int NR, bool Packed, int NTOK>
struct MatvecAcc {
  static constexpr int kTok = NTOK > 0 ? NTOK : kMaxTokens;
  using Sums = float[NR][kTok];
  float acc[NR][kTok];

  BX_HD MatvecAcc() {
    BX_UNROLL
    for (int r = 0; r < NR; ++r)
      BX_UNROLL
      for (int t = 0; t < kTok; ++t) acc[r][t] = 0.0f;
  }
  // One block of each row (b[r]); x0 points at this block's 32 activations of token 0, token t's at
  // x0 + t * k. Rows with live[r] false (past the last row) are skipped.
  BX_HD void step(const Q8Packed (&b)[NR], const bool (&live)[NR], const float* x0, size_t k, int ntok) {
    Sums s;
    block_sums(b, live, x0, k, ntok, s);
    BX_UNROLL
    for (int r = 0; r < NR; ++r) {
      if (!live[r]) continue;
      fold(acc[r], b[r].d, s[r], ntok);
    }
  }
  // s[r][t] = the block sum of b[r] against token t (tokens < ntok; rows with live[r]).
  static BX_HD void block_sums(const Q8Packed (&b)[NR], const bool (&live)[NR], const float* x0, size_t k, int ntok, Sums& s) {
    BX_UNROLL
    for (int r = 0; r < NR; ++r) {
      if (!live[r]) continue;
      if constexpr (Packed) {
        tokens(ntok, s[r], x0, k, [&](const float* x) { return block_sum_packed<NR>(b[r], x); });
      } else {
        const Q8Unpacked u = widen(b[r]);
        tokens(ntok, s[r], x0, k, [&](const float* x) {
          return NTOK > 0 && BX_FAULT(q8_unrolled_block_split) ? block_sum_split(u, x) : block_sum_unpacked<NR>(u, x);
        });
      }
    }
  }
  // a[t] = fma(d, s[t], a[t]) for t < ntok: one block folded into one row's accumulators.
  static BX_HD void fold(float (&a)[kTok], float d, const float (&s)[kTok], int ntok) {
    if constexpr (NTOK > 0) {
      (void)ntok;
      BX_UNROLL
      for (int t = 0; t < NTOK; ++t) a[t] = fma_rn(d, s[t], a[t]);
    } else {
      BX_ROLLED
      for (int t = 0; t < ntok; ++t) a[t] = fma_rn(d, s[t], a[t]);
    }
  }

 private:
  template <class Sum>
  static BX_HD void tokens(int ntok, float (&s)[kTok], const float* x0, size_t k, Sum&& sum) {
    if constexpr (NTOK > 0) {
      (void)ntok;
      BX_UNROLL
      for (int t = 0; t < NTOK; ++t) s[t] = sum(x0 + size_t(t) * k);
    } else {
      BX_ROLLED
      for (int t = 0; t < ntok; ++t) {
        const int tx = BX_FAULT(q8_token_next_activations) && t + 1 < ntok ? t + 1 : t;
        s[t] = sum(x0 + size_t(tx) * k);
      }
    }
  }
};

// The rows row0 .. row0 + NR - 1 of a matrix of `rows`: live[j] for those that exist. False: the group has
// no row to compute (or, with the zoo's NR = 2 tail fault, only the tail row of an odd row count).
template <int NR>
BX_HD bool group_rows(size_t row0, size_t rows, bool (&live)[NR]) {
  BX_UNROLL
  for (int j = 0; j < NR; ++j) live[j] = row0 + size_t(j) < rows;
  if (NR == 2 && BX_FAULT(q8_nr2_drop_tail_row) && !live[NR - 1]) return false;
  return live[0];
}

// The negative control's lane l (0..31): code l of every block, weight d * q (exact) times x, one fma
// chain per lane; the warp then sums the 32 lanes by an xor tree (negative_control_tree). Same products,
// another order of sums: it must be reported as different on almost every row.
BX_HD float negative_control_lane(const uint32_t* row_words, size_t row_at, size_t nblocks, const float* x, int lane) {
  float acc = 0.0f;
  for (size_t b = 0; b < nblocks; ++b) {
    const Q8Packed blk = load_block(row_words, row_at + b * kBlockBytes);
    const float q = code_of(code_bias(blk.q[lane >> 2]), lane & 3);
    acc = fma_rn(mul_rn(blk.d, q), x[b * kCodes + size_t(lane)], acc);
  }
  return acc;
}

}  // namespace bx::q8
