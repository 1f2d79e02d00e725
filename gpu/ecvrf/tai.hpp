// The per-attempt ECVRF-EDWARDS25519-SHA512-TAI pipeline (RFC 9381, suite 0x03; spec 0, 4.1, 9),
// per item, host and device, over any layout F and scalar strategy S (gpu/ecvrf/scalar.hpp):
//   1 hash_string = SHA-512(03 01 PK alpha ctr 00), ctr = 0, 1, .., 255
//   2 strict decode of hash_string[0..31]                     (invalid: next ctr)
//   3 H = 8 P: three doublings, only the last with T          (identity: next ctr)
//   4 Gamma = x H                                             (S::mul, host-recoded digits of x or x mod L)
//   5 8 Gamma: three doublings, none with T
//   6 encode(8 Gamma): one inversion
//   7 beta = SHA-512(03 03 encode(8 Gamma) 00); score = beta[0..7] big-endian.
// The miner never computes c or s. x mod L gives the same Gamma as x because H is in the order-L
// subgroup; the raw candidate P is not (Ex17/Ex18 have torsion), so only H is ever multiplied by x.
#pragma once
#include <cstdint>
#include "gpu/core/hd.hpp"
#include "gpu/ecvrf/codec.hpp"
#include "gpu/ecvrf/point.hpp"
#include "gpu/ecvrf/scalar.hpp"
#include "gpu/ecvrf/sha512.hpp"

namespace bx::ecvrf {

constexpr int kTaiMaxCtr = 255;

// Steps 2-3 for one candidate: H = 8 * strict_decode(cand). True iff the candidate decodes and 8P is
// not the identity (small-order candidates, e.g. the lax-only y = p or x = 0 encodings if a lax decoder
// let them through, end here too). *status (if given) receives the decoder's verdict.
// Output: H tight with a valid T (the table is built from it).
template <class F>
BX_HD bool candidate_to_h(ge_ext<F>& H, const uint8_t cand[32], DecodeStatus* status = nullptr) {
  ge_ext<F> p;
  const DecodeStatus st = ge_decode<F>(p, cand);
  if (status) *status = st;
  if (st != DecodeStatus::valid) return false;
  ge_mul8<F>(H, p, true);
  return !ge_is_identity<F>(H);
}

// The cofactor-folded form of steps 2-3 (the miner kernels; scalar.hpp cofactor_folded_scalar): the
// raw candidate P itself, true iff it decodes and is not of small order, i.e. exactly when
// candidate_to_h is true. 8P is the identity exactly for the 8 torsion points, whose y (bits 0..254)
// is 0, 1, p - 1, y8 or p - y8 (spec 2.4), so the test reads the candidate's bytes before any decoding.
BX_HD bool small_order_y(const uint8_t s[32]) {
  // y8 and p - y8, little-endian, bit 255 clear.
  constexpr uint8_t y8[2][32] = {
      {0x26, 0xe8, 0x95, 0x8f, 0xc2, 0xb2, 0x27, 0xb0, 0x45, 0xc3, 0xf4, 0x89, 0xf2, 0xef, 0x98, 0xf0,
       0xd5, 0xdf, 0xac, 0x05, 0xd3, 0xc6, 0x33, 0x39, 0xb1, 0x38, 0x02, 0x88, 0x6d, 0x53, 0xfc, 0x05},
      {0xc7, 0x17, 0x6a, 0x70, 0x3d, 0x4d, 0xd8, 0x4f, 0xba, 0x3c, 0x0b, 0x76, 0x0d, 0x10, 0x67, 0x0f,
       0x2a, 0x20, 0x53, 0xfa, 0x2c, 0x39, 0xcc, 0xc6, 0x4e, 0xc7, 0xfd, 0x77, 0x92, 0xac, 0x03, 0x7a}};
  uint32_t hi_zero = 0, hi_ones = 0, d8a = 0, d8b = 0;  // OR of differences (0: equal)
  for (int i = 1; i < 32; ++i) {
    const uint8_t b = i == 31 ? uint8_t(s[31] & 0x7f) : s[i];
    hi_zero |= b;
    hi_ones |= uint8_t(b ^ (i == 31 ? 0x7f : 0xff));
    d8a |= uint8_t(b ^ y8[0][i]);
    d8b |= uint8_t(b ^ y8[1][i]);
  }
  const bool y01 = hi_zero == 0 && s[0] <= 1;      // y = 0 (order 4) or 1 (identity)
  const bool ym1 = hi_ones == 0 && s[0] == 0xec;   // y = p - 1 (order 2)
  const bool order8 = (d8a == 0 && s[0] == y8[0][0]) || (d8b == 0 && s[0] == y8[1][0]);
  return y01 || ym1 || (order8 && !BX_FAULT(ecvrf_small_order_y_misses_order8));
}
// Output: P = (x, y, 1, xy) tight with a valid T (the identity when false).
template <class F>
BX_HD bool candidate_to_p(ge_ext<F>& P, const uint8_t cand[32]) {
  if (small_order_y(cand)) {
    ge_identity<F>(P);
    return false;
  }
  return ge_decode<F>(P, cand) == DecodeStatus::valid;
}
// The candidate test of a pipeline: candidate_to_p when it folds the cofactor, else candidate_to_h.
template <class F, bool Folded>
BX_HD bool candidate_point(ge_ext<F>& Q, const uint8_t cand[32]) {
  return Folded ? candidate_to_p<F>(Q, cand) : candidate_to_h<F>(Q, cand);
}

// Steps 1-3 over a prepared hash_string block: the first ctr in 0..255 whose candidate gives a
// non-identity H, or -1 (the attempt has no beta). m's ctr byte is overwritten.
// Folded: the cofactor-folded form, which returns the raw candidate P instead of H (candidate_to_p).
template <class F, bool RollingSha = true, bool Folded = false>
BX_HD int encode_to_curve_tai(ge_ext<F>& H, H2cBlock& m) {
  BX_ROLLED
  for (int ctr = 0; ctr <= kTaiMaxCtr; ++ctr) {
    h2c_set_ctr(m, uint32_t(ctr));
    uint64_t st[8];
    sha512_one_block<RollingSha>(st, m.w);
    uint8_t cand[32];
    sha512_digest_bytes(cand, st, 32);
    if (candidate_point<F, Folded>(H, cand)) return ctr;
  }
  return -1;
}

// Steps 5-7: beta from Gamma (Gamma.X, Y, Z tight; T not read). gamma8 (if given) receives
// encode(8 Gamma).
template <class F, bool RollingSha = true>
BX_HD void proof_to_hash(uint8_t beta[64], const ge_ext<F>& gamma, uint8_t* gamma8 = nullptr) {
  ge_ext<F> g8;
  ge_mul8<F>(g8, gamma, false);
  uint8_t enc[32];
  ge_encode<F>(enc, g8);
  if (gamma8)
    for (int i = 0; i < 32; ++i) gamma8[i] = enc[i];
  sha512_beta<RollingSha>(beta, enc);
}

// score(n) = beta[0..7] as a big-endian integer (spec 9).
BX_HD uint64_t beta_score(const uint8_t beta[64]) {
  uint64_t s = 0;
  for (int i = 0; i < 8; ++i) s = (s << 8) | beta[i];
  return s;
}

// Intermediate values of one attempt (test and debug path; costs one extra inversion for Gamma).
struct EcvrfTrace {
  int ctr;            // -1: no beta
  uint8_t h[32];      // encode(H)
  uint8_t gamma[32];  // encode(Gamma) = pi[0..31]
  uint8_t gamma8[32]; // encode(8 Gamma)
};

// Steps 1-7 over a prepared hash_string block. Returns false (beta untouched) when no ctr <= 255 gives
// a valid non-identity H.
template <class F, class S, bool RollingSha = true>
BX_HD bool ecvrf_beta_block(uint8_t beta[64], H2cBlock& m, const typename S::digits& x, EcvrfTrace* trace = nullptr) {
  ge_ext<F> H, gamma;
  const int ctr = encode_to_curve_tai<F, RollingSha>(H, m);
  if (trace) trace->ctr = ctr;
  if (ctr < 0) return false;
  S::template mul<F>(gamma, H, x);
  if (trace) {
    ge_encode<F>(trace->h, H);
    ge_encode<F>(trace->gamma, gamma);
  }
  proof_to_hash<F, RollingSha>(beta, gamma, trace ? trace->gamma8 : nullptr);
  return true;
}

// Steps 1-7 in the cofactor-folded form of the miner kernels: P from candidate_to_p, 8 (t P) with the
// digits of t = cofactor_folded_scalar(x), then beta. Equal to ecvrf_beta_block for every block (the
// selftest's rows and the tests hold it to the golden model). Returns the ctr, or -1 (beta untouched).
template <class F, class S, bool RollingSha = true>
BX_HD int ecvrf_beta_block_folded(uint8_t beta[64], H2cBlock& m, const typename S::digits& t) {
  ge_ext<F> P, tp;
  const int ctr = encode_to_curve_tai<F, RollingSha, true>(P, m);
  if (ctr < 0) return ctr;
  S::template mul<F>(tp, P, t);
  proof_to_hash<F, RollingSha>(beta, tp);
  return ctr;
}

// One miner attempt (spec 9): alpha = header || LE64(nonce), the whole fused pipeline. x: the host-
// recoded digits of the secret scalar (x or x mod L) for strategy S. Returns whether beta exists.
template <class F, class S, bool RollingSha = true>
BX_HD bool ecvrf_attempt(uint8_t beta[64], const uint8_t pk[32], const uint8_t header[32], uint64_t nonce,
                         const typename S::digits& x, EcvrfTrace* trace = nullptr) {
  H2cBlock m;
  h2c_block_miner(m, pk, header, nonce);
  return ecvrf_beta_block<F, S, RollingSha>(beta, m, x, trace);
}

// The same for a general short alpha (|alpha| <= 75): RFC 9381's Examples 16-18.
template <class F, class S, bool RollingSha = true>
BX_HD bool ecvrf_beta_alpha(uint8_t beta[64], const uint8_t pk[32], const uint8_t* alpha, int alpha_len,
                            const typename S::digits& x, EcvrfTrace* trace = nullptr) {
  H2cBlock m;
  h2c_block_alpha(m, pk, alpha, alpha_len);
  return ecvrf_beta_block<F, S, RollingSha>(beta, m, x, trace);
}

}  // namespace bx::ecvrf
