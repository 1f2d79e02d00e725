// Poseidon2-Goldilocks-12 (Plonky3 0.3.0 structure, Quantus constants), written once over a Goldilocks
// layout L (gl64, gl2x32<B>, gl2x32_lossy<B>): S-box x^7, M4, M_E, M_I and the 30 rounds of spec §2.
//
// State: 12 u64 lanes, any value < 2^64 (lazy allowed) in and out; outputs are canonicalised only on
// the output path (miner.hpp). Linear layers sum in 96-bit accumulators and reduce once per lane.
//
// kFolded (spec §6.6, mining.cu): the constant of round r+1 is added at the end of the linear layer of
// round r, inside the accumulator, so it costs no separate field add. The initial layer then folds
// RC_init[0]; the last initial layer folds RC_int[0] into lane 0; each internal layer folds the next
// RC_int (lane 0), the last one RC_term[0] (all lanes); the last layer folds nothing. Intermediate
// states differ from §2 by exactly the next round's constants (the layer tests account for that).
//
// kDefer (the miner's kDeferBorrow, layouts with L::defers_borrow): the products skip their rare final
// correction and count it in *borrows (gl2x32.hpp); the state is exact while *borrows is 0, and the
// caller recomputes with kDefer off otherwise. The functions with products take `borrows` last
// (unused, and may be null, without kDefer).
#pragma once
#include "gpu/qpow/goldilocks/gl_common.hpp"
#include "gpu/qpow/poseidon2/constants.hpp"

namespace bx::qpow {

using gl::Acc96;

// Columns 6 and 7 of M_E (the lanes the low 64 nonce bits enter in block B2).
BX_HD constexpr uint32_t col6(int i) {
  constexpr uint32_t c[12] = {1, 3, 2, 1, 2, 6, 4, 2, 1, 3, 2, 1};
  return c[i];
}
BX_HD constexpr uint32_t col7(int i) {
  constexpr uint32_t c[12] = {1, 1, 3, 2, 2, 2, 6, 4, 1, 1, 3, 2};
  return c[i];
}

enum class Fold { none, row, lane0 };

template <class L, bool kFolded, bool kDefer = false>
struct Permutation {
  static_assert(!kDefer || L::defers_borrow, "kDefer needs a layout with deferred products");
  BX_HD static uint64_t mul(uint64_t a, uint64_t b, uint32_t* borrows) {
    if constexpr (kDefer) return L::mul_deferred(a, b, *borrows);
    else return L::mul(a, b);
  }
  BX_HD static uint64_t sqr(uint64_t a, uint32_t* borrows) {
    if constexpr (kDefer) return L::sqr_deferred(a, *borrows);
    else return L::sqr(a);
  }

  // x^7 = x^3 * x^4 (4 multiplications). in/out: any u64.
  BX_HD static uint64_t sbox(uint64_t x, uint32_t* borrows = nullptr) {
    const uint64_t x2 = sqr(x, borrows);
    const uint64_t x3 = mul(x2, x, borrows);
    const uint64_t x4 = sqr(x2, borrows);
    return mul(x3, x4, borrows);
  }

  // M4 rows [2 3 1 1] [1 2 3 1] [1 1 2 3] [3 1 1 2] on one chunk, unreduced: y_k < 7 * 2^64.
  BX_HD static void m4(const uint64_t x[4], Acc96 y[4]) {
    Acc96 t01 = L::acc_of(x[0]);
    L::acc_add(t01, x[1]);
    Acc96 t23 = L::acc_of(x[2]);
    L::acc_add(t23, x[3]);
    Acc96 t0123 = t01;
    L::acc_add(t0123, t23);
    Acc96 t01123 = t0123;
    L::acc_add(t01123, x[1]);
    Acc96 t01233 = t0123;
    L::acc_add(t01233, x[3]);
    y[0] = t01123;  // 2a + 3b + c + d
    L::acc_add(y[0], t01);
    y[1] = t01123;  // a + 2b + 3c + d
    L::acc_add(y[1], x[2]);
    L::acc_add(y[1], x[2]);
    y[2] = t01233;  // a + b + 2c + 3d
    L::acc_add(y[2], t23);
    y[3] = t01233;  // 3a + b + c + 2d
    L::acc_add(y[3], BX_FAULT(qpow_m4_row3_coefficients) ? x[3] : x[0]);
    L::acc_add(y[3], BX_FAULT(qpow_m4_row3_coefficients) ? x[3] : x[0]);
  }

  // s <- M_E s (+ folded constants). Outputs y_i + S_{i mod 4} < 28 * 2^64 (+ one constant < 2^64).
  template <Fold kFold = Fold::none>
  BX_HD static void external_linear(uint64_t s[12], const uint64_t* rc = nullptr, uint64_t rc0 = 0) {
    Acc96 y[12];
    m4(s, y);
    m4(s + 4, y + 4);
    m4(s + 8, y + 8);
    BX_UNROLL for (int k = 0; k < 4; ++k) {
      Acc96 sum = y[k];
      L::acc_add(sum, y[k + 4]);
      L::acc_add(sum, y[k + 8]);
      BX_UNROLL for (int i = k; i < 12; i += 4) {
        Acc96 a = y[i];
        L::acc_add(a, sum);
        if constexpr (kFold == Fold::row) L::acc_add(a, rc[i]);
        if constexpr (kFold == Fold::lane0)
          if (i == 0) L::acc_add(a, rc0);
        s[i] = L::acc_reduce(a);
      }
    }
  }
  // Lane 0 of M_E s alone (the early reject's only output): 2 y_0 + y_4 + y_8, y_k row 0 of M4.
  BX_HD static uint64_t external_linear_lane0(const uint64_t s[12]) {
    Acc96 a = L::acc_of(0);
    BX_UNROLL for (int c = 0; c < 3; ++c) {
      const int w = c == 0 ? 2 : 1;
      BX_UNROLL for (int k = 0; k < w; ++k) {
        L::acc_add(a, s[4 * c]);
        L::acc_add(a, s[4 * c]);
        L::acc_add(a, s[4 * c + 1]);
        L::acc_add(a, s[4 * c + 1]);
        L::acc_add(a, s[4 * c + 1]);
        L::acc_add(a, s[4 * c + 2]);
        L::acc_add(a, s[4 * c + 3]);
      }
    }
    return L::acc_reduce(a);
  }

  // s <- M_I s = (sum_j s_j) + d_i s_i, each lane one fused product and one reduction (+ folds).
  template <Fold kFold = Fold::none>
  BX_HD static void internal_linear(uint64_t s[12], const P2Constants& K, const uint64_t* rc = nullptr,
                                    uint64_t rc0 = 0, uint32_t* borrows = nullptr) {
    // Lanes 1..11 first: they do not wait for this round's S-box on lane 0, which is added last.
    Acc96 sum = L::acc_of(s[1]);
    BX_UNROLL for (int j = 2; j < 12; ++j) L::acc_add(sum, s[j]);
    L::acc_add(sum, s[0]);  // < 12 * 2^64
    BX_UNROLL for (int i = 0; i < 12; ++i) {
      Acc96 a = sum;
      if constexpr (kFold == Fold::row) L::acc_add(a, rc[i]);
      if constexpr (kFold == Fold::lane0)
        if (i == 0) L::acc_add(a, rc0);
      if constexpr (kDefer)
        s[i] = L::mul_add_reduce_deferred(s[i], K.diag[i], a, *borrows);
      else
        s[i] = L::mul_add_reduce(s[i], K.diag[i], a);
    }
  }

  // Step 1 of §2: the initial M_E (folding RC_init[0] when kFolded).
  BX_HD static void initial_layer(uint64_t s[12], const P2Constants& K) {
    if constexpr (kFolded)
      external_linear<Fold::row>(s, K.initial[0]);
    else
      external_linear(s);
  }
  // Initial round r (0..3). rc_in: RC_init[r] is already in the state (always so when kFolded; for
  // round 0 also when the state is a miner prestate, which includes RC_init[0]).
  BX_HD static void initial_round(uint64_t s[12], const P2Constants& K, int r, bool rc_in,
                                  uint32_t* borrows = nullptr) {
    BX_UNROLL for (int i = 0; i < 12; ++i)
      s[i] = sbox(kFolded || rc_in ? s[i] : L::add(s[i], K.initial[r][i]), borrows);
    if constexpr (kFolded) {
      if (r < 3)
        external_linear<Fold::row>(s, K.initial[r + 1]);
      else
        external_linear<Fold::lane0>(s, nullptr, K.internal[0]);
    } else {
      external_linear(s);
    }
  }
  BX_HD static void internal_round(uint64_t s[12], const P2Constants& K, int r, uint32_t* borrows = nullptr) {
    s[0] = sbox(kFolded ? s[0] : L::add(s[0], K.internal[r]), borrows);
    if constexpr (kFolded) {
      if (r < 21)
        internal_linear<Fold::lane0>(s, K, nullptr, K.internal[r + 1], borrows);
      else if (BX_FAULT(qpow_folded_rc_one_round_off))
        internal_linear<Fold::lane0>(s, K, nullptr, K.internal[21], borrows);
      else
        internal_linear<Fold::row>(s, K, K.terminal[0], 0, borrows);
    } else {
      internal_linear(s, K, nullptr, 0, borrows);
    }
  }
  // Terminal round r without its linear layer (the early reject computes only lane 0 of the last one).
  BX_HD static void terminal_sbox(uint64_t s[12], const P2Constants& K, int r, uint32_t* borrows = nullptr) {
    BX_UNROLL for (int i = 0; i < 12; ++i)
      s[i] = sbox(kFolded ? s[i] : L::add(s[i], K.terminal[r][i]), borrows);
  }
  BX_HD static void terminal_round(uint64_t s[12], const P2Constants& K, int r, uint32_t* borrows = nullptr) {
    terminal_sbox(s, K, r, borrows);
    if constexpr (kFolded) {
      if (r < 3) {
        external_linear<Fold::row>(s, K.terminal[r + 1]);
        return;
      }
    }
    external_linear(s);
  }

  // Everything after the initial layer up to the last S-box (terminal round 3 before its M_E). Rolled
  // loops keep the kernels small, which measured faster on the H200 (instruction fetch): the internal
  // rounds always; folded, also the eight external S-box layers, which then share one shape (12 S-boxes,
  // then M_E folding K.fold_row[r], except after the last), with the internal rounds inside that loop:
  // the gl2x32-ptx search kernel shrinks from ~19k to ~5k instructions (561 -> 600 MH/s at 384 threads).
  BX_HD static void rounds_to_last_sbox(uint64_t s[12], const P2Constants& K, bool rc0_in,
                                        uint32_t* borrows = nullptr) {
    if constexpr (kFolded) {
      (void)rc0_in;  // folded, RC_init[0] is always in the state
      BX_ROLLED for (int r = 0; r < 8; ++r) {
        if (r == 4) {
          BX_ROLLED for (int q = 0; q < 22; ++q) internal_round(s, K, q, borrows);
        }
        BX_UNROLL for (int i = 0; i < 12; ++i) s[i] = sbox(s[i], borrows);
        if (r < 7) external_linear<Fold::row>(s, K.fold_row[r]);
      }
    } else {
      BX_UNROLL for (int r = 0; r < 4; ++r) initial_round(s, K, r, r == 0 && rc0_in, borrows);
      BX_ROLLED for (int r = 0; r < 22; ++r) internal_round(s, K, r, borrows);
      BX_UNROLL for (int r = 0; r < 3; ++r) terminal_round(s, K, r, borrows);
      terminal_sbox(s, K, 3, borrows);
    }
  }

  // The permutation, in place.
  BX_HD static void permute(uint64_t s[12], const P2Constants& K) {
    initial_layer(s, K);
    rounds_to_last_sbox(s, K, false);
    external_linear(s);
  }
  // The same, as one out-of-line function per layout (cold paths: ties, π5, per-nonce hash kernels),
  // compiled once instead of inlined into every caller.
  BX_HD_NOINLINE static void permute_outlined(uint64_t s[12], const P2Constants& K) { permute(s, K); }
};

}  // namespace bx::qpow
