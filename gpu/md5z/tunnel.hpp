// The Q9 tunnel (docs/specs/md5z.md): per-base precomputation, the per-candidate words m8/m9/m12 and the
// per-candidate code of every search variant. Host/device; the kernels in gpu/kernels/md5z_search.cu
// only loop over indices and collect hits.
//
// Candidate (base, i): Q[9] = i; m8, m9, m12 from steps 8, 9, 12 run backwards. Q[1..8] and Q[10..24]
// equal the base's for every i (tunnel invariant), so steps 0..23 are computed once per base and every
// candidate costs steps 24..60 (37 steps) until h0 is known; steps 61..63 run only when h0 == 0.
#pragma once
#include <cstdint>
#include "gpu/md5z/md5_core.hpp"
#include "gpu/md5z/variants.hpp"
#include "gpu/md5z/zeros.hpp"

namespace bx::md5 {

// Per-base precomputation. Plain old data: passed by value as a kernel parameter (constant bank).
struct TunnelBase {
  uint32_t m[16];   // the base's words m0..m15 (m13..m15: padding)
  uint32_t q[28];   // Q[-3..24] at q[k + 3]
  uint32_t km[64];  // K[t] + m[w(t)] with the base's words (the fold; used for the 29 fixed-word steps)
  uint32_t c8;      // m8  = rotr(i - Q8, 7) - c8,            c8  = Q5 + F(Q8, Q7, Q6) + K8
  uint32_t c9;      // m9  = rotr(0 - i, 12) - F(i, Q8, Q7) - c9, c9 = Q6 + K9          (Q10 = 0)
  uint32_t c12;     // m12 = c12 - i,                         c12 = rotr(Q13 - Q12, 7) - F(Q12, Q11, Q10) - K12
};

// The fixed-word steps (29 of the 37 steps 24..60) versus those using m8, m9 or m12.
BX_HD constexpr bool word_varies(int t) { return w_of(t) == 8 || w_of(t) == 9 || w_of(t) == 12; }

// Fills tb from the 16 words of a base (m13..m15 = padding). Returns false, with tb's Q[10], Q[11]
// filled for the error message, if the words are not a base (Q[10] != 0 or Q[11] != 0xffffffff).
BX_HD bool tunnel_prepare(const uint32_t* m, TunnelBase& tb) {
  uint32_t q[68];
  load_iv(q);
  static_for<0, 24>([&](auto c) {
    constexpr int t = decltype(c)::value;
    step<t>(q, k_of(t) + m[w_of(t)]);
  });
  for (int k = 0; k < 16; ++k) tb.m[k] = m[k];
  for (int k = 0; k < 28; ++k) tb.q[k] = q[k];
  static_for<0, 64>([&](auto c) {
    constexpr int t = decltype(c)::value;
    // Fault: step 40's folded constant takes the previous step's word (m10 instead of m13).
    constexpr int wrong = t == 40 ? w_of(39) : w_of(t);
    tb.km[t] = k_of(t) + m[BX_FAULT(md5z_fold_wrong_word) ? wrong : w_of(t)];
  });
  tb.c8 = q[8] + f_round<8>(q[11], q[10], q[9]) + k_of(8);
  tb.c9 = q[9] + k_of(9);
  tb.c12 = rotr(q[16] - q[15], s_of(12)) - f_round<12>(q[15], q[14], q[13]) - k_of(12);
  // Fault: the check of Q[11] ignores its top bit, accepting a non-base that misses by that bit.
  const uint32_t q11_mask = BX_FAULT(md5z_tunnel_check_ignores_q11_bit31) ? 0x7fffffffu : 0xffffffffu;
  return q[13] == 0u && (q[14] & q11_mask) == q11_mask;
}

// m8, m9, m12 of candidate i (steps 8, 9, 12 run backwards with Q[9] = i).
BX_HD void candidate_words(const TunnelBase& tb, uint32_t i, uint32_t& m8, uint32_t& m9, uint32_t& m12) {
  m8 = rotr(i - tb.q[11], s_of(8)) - tb.c8;
  m9 = rotr(0u - i, s_of(9)) - f_round<9>(i, tb.q[11], tb.q[10]) - tb.c9;
  m12 = tb.c12 - (BX_FAULT(md5z_m12_stale_q9) ? tb.q[12] : i);  // fault: the base's Q[9], not i
}

// a * one + b on the FMA pipe (IMAD): `one` is 1 but read at run time, so the compiler cannot fold it.
BX_HD uint32_t add_on_fma_pipe(uint32_t a, uint32_t one, uint32_t b) {
#if BX_ON_DEVICE
  uint32_t r;
  asm("mad.lo.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(one), "r"(b));
  return r;
#else
  return a * one + b;
#endif
}

namespace detail {
template <int t>
BX_HD uint32_t word_at(const TunnelBase& tb, uint32_t m8, uint32_t m9, uint32_t m12) {
  constexpr int w = w_of(t);
  if constexpr (w == 8) return m8;
  else if constexpr (w == 9) return m9;
  else if constexpr (w == 12) return m12;
  else return tb.m[w];
}

template <class V, int t>
BX_HD void tunnel_step(uint32_t* q, const TunnelBase& tb, uint32_t m8, uint32_t m9, uint32_t m12, uint32_t one) {
  uint32_t addend;
  if constexpr (!V::fold || word_varies(t)) addend = k_of(t) + word_at<t>(tb, m8, m9, m12);
  else addend = tb.km[t];
  if constexpr (V::fma_adds) {
    const uint32_t x = add_on_fma_pipe(q[t], one, addend);
    const uint32_t y = add_on_fma_pipe(f_round<t>(q[t + 3], q[t + 2], q[t + 1]), one, x);
    q[t + 4] = q[t + 3] + rotl(y, s_of(t));
  } else {
    step<t>(q, addend);
  }
}

// Candidate i's start in the tunnel: its words m8, m9, m12 and Q[21..24] (q[24..27]), the last four states
// of the base's steps 0..23.
BX_HD void tunnel_start(const TunnelBase& tb, uint32_t i, uint32_t* q, uint32_t& m8, uint32_t& m9, uint32_t& m12) {
  candidate_words(tb, i, m8, m9, m12);
  for (int r = 24; r < 28; ++r) q[r] = tb.q[r];
}

// Steps 24 .. 60 of candidate i through the tunnel into q (Q[21..24] from the base); m8, m9, m12 out.
template <class V>
BX_HD void tunnel_to_h0(const TunnelBase& tb, uint32_t i, uint32_t one, uint32_t* q, uint32_t& m8, uint32_t& m9, uint32_t& m12) {
  static_assert(V::tunnel, "a variant without the tunnel has no tunnel steps");
  tunnel_start(tb, i, q, m8, m9, m12);
  static_for<24, 61>([&](auto c) { tunnel_step<V, decltype(c)::value>(q, tb, m8, m9, m12, one); });
}
}  // namespace detail

namespace detail {
// The zero count from a candidate's state after step 60 (steps 61..63 only when h0 == 0), or -1 for the
// early exit.
template <class V>
BX_HD int zeros_after_h0(uint32_t* q, const TunnelBase& tb, uint32_t m8, uint32_t m9, uint32_t m12, uint32_t mask, uint32_t one) {
  const uint32_t h0 = kA0 + q[64];
  if (h0 & mask) return -1;
  if (h0 != 0) return word_zeros(h0);
  if (BX_FAULT(md5z_h1_skipped_when_h0_zero)) return 8;  // fault: h1 taken as non-zero without computing it
  static_for<61, 64>([&](auto c) { tunnel_step<V, decltype(c)::value>(q, tb, m8, m9, m12, one); });
  return digest_zeros(h0, kB0 + q[67], kC0 + q[66], kD0 + q[65]);
}
}  // namespace detail

// Zero count of candidate i through the tunnel, or -1 when the early exit rejects it:
// (h0 & mask) != 0 with mask = early_exit_mask(T). `one` must be 1 (v2 reads it at run time).
template <class V>
BX_HD int tunnel_zeros(const TunnelBase& tb, uint32_t i, uint32_t mask, uint32_t one) {
  uint32_t m8, m9, m12, q[68];
  detail::tunnel_to_h0<V>(tb, i, one, q, m8, m9, m12);
  return detail::zeros_after_h0<V>(q, tb, m8, m9, m12, mask, one);
}

// tunnel_zeros of the N candidates i[0..N) at once, z[k] for i[k]: step t of every lane before step t + 1
// of any, so a thread carries N independent dependency chains (V::lanes; the host runs the same code).
template <class V, int N>
BX_HD void tunnel_zeros_lanes(const TunnelBase& tb, const uint32_t (&i)[N], uint32_t mask, uint32_t one, int (&z)[N]) {
  static_assert(V::tunnel, "lanes run the tunnel's steps: a variant without the tunnel has none");
  uint32_t m8[N], m9[N], m12[N], q[N][68];
  static_for<0, N>([&](auto k) { detail::tunnel_start(tb, i[k], q[k], m8[k], m9[k], m12[k]); });
  static_for<24, 61>([&](auto c) {
    static_for<0, N>([&](auto k) { detail::tunnel_step<V, decltype(c)::value>(q[k], tb, m8[k], m9[k], m12[k], one); });
  });
  static_for<0, N>([&](auto k) { z[k] = detail::zeros_after_h0<V>(q[k], tb, m8[k], m9[k], m12[k], mask, one); });
}

// Zero count of candidate i by a full 64-step MD5 of its message (m8, m9, m12 from the backward steps
// written out in full, over the base's Q[5..13]): no tunnel precomputation, no fold, no early exit.
BX_HD int plain_zeros(const TunnelBase& tb, uint32_t i) {
  uint32_t q[17];  // Q[-3..13] of the candidate: the base's, with Q[9] = i
  for (int k = 0; k < 17; ++k) q[k] = tb.q[k];
  q[12] = i;
  uint32_t m[16];
  for (int k = 0; k < 16; ++k) m[k] = tb.m[k];
  m[8] = step_word<8>(q);
  m[9] = step_word<9>(q);
  m[12] = step_word<12>(q);
  uint32_t h[4];
  compress(m, h);
  return digest_zeros(h[0], h[1], h[2], h[3]);
}

// The digest words of candidate i along variant V's own code path, with steps 61..63 always run (no
// early exit): what the oracle reports for each implementation, so agreement compares whole digests.
template <class V>
BX_HD void candidate_digest(const TunnelBase& tb, uint32_t i, uint32_t one, uint32_t h[4]) {
  if constexpr (!V::tunnel) {
    uint32_t q[17], m[16];
    for (int k = 0; k < 17; ++k) q[k] = tb.q[k];
    q[12] = i;
    for (int k = 0; k < 16; ++k) m[k] = tb.m[k];
    m[8] = step_word<8>(q);
    m[9] = step_word<9>(q);
    m[12] = step_word<12>(q);
    compress(m, h);
  } else {
    uint32_t m8, m9, m12, q[68];
    detail::tunnel_to_h0<V>(tb, i, one, q, m8, m9, m12);
    static_for<61, 64>([&](auto c) { detail::tunnel_step<V, decltype(c)::value>(q, tb, m8, m9, m12, one); });
    h[0] = kA0 + q[64];
    h[1] = kB0 + q[67];
    h[2] = kC0 + q[66];
    h[3] = kD0 + q[65];
  }
}

// Any variant: zero count, or -1 for an early exit (a variant without the tunnel never exits early).
template <class V>
BX_HD int candidate_zeros(const TunnelBase& tb, uint32_t i, uint32_t mask, uint32_t one) {
  if constexpr (!V::tunnel) return plain_zeros(tb, i);
  else return tunnel_zeros<V>(tb, i, mask, one);
}

}  // namespace bx::md5
