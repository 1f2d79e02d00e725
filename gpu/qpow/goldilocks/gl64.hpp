// Layout gl64: one u64 lane per element, 64x64 -> 128-bit products (Plonky2 / qp-poseidon goldilocks.rs
// style). One backend (portable C++; nvcc lowers the 128-bit product to IMAD.WIDE.U32 chains itself).
#pragma once
#include "gpu/qpow/goldilocks/gl_common.hpp"

namespace bx::gl {

struct gl64 {
  static constexpr const char* name = "gl64";
  static constexpr const char* backend = "portable";
  static constexpr bool lossy = false;
  static constexpr bool defers_borrow = false;  // its reduce128 has no correction to defer (gl2x32.hpp)

  // in: any u64 a, b. out: any u64 (lazy possible). A first 2^64 overflow adds EPS; a second one
  // (only when a + b >= 2^65 - 2^32 + 1, i.e. both operands lazy, >= p) adds EPS again.
  BX_HD static uint64_t add(uint64_t a, uint64_t b) {
    uint64_t s = a + b;
    if (s < a) {
      s += EPS;
      if (s < EPS && !BX_FAULT(qpow_add_single_eps)) s += EPS;
    }
    return s;
  }
  // in: any u64. out: any u64 (a - b, a - b + p or a - b + 2p).
  BX_HD static uint64_t sub(uint64_t a, uint64_t b) { return sub_lazy(a, b); }
  BX_HD static uint64_t neg(uint64_t a) { return sub(0, a); }

  // in: x = lo + 2^64 hi, any 128-bit value. out: any u64 congruent to x.
  // x = lo + h0*2^64 + h1*2^96 == lo + h0*EPS - h1. The borrow of lo - h1 subtracts EPS (a branch: it is
  // rare, taken with probability ~ h1 / 2^64); the carry of t0 + h0*EPS adds EPS (a mask). Neither
  // correction can wrap again: lo - h1 > -2^32 and t0 + t1 < 2^65 - 2^33.
  BX_HD static uint64_t reduce128(uint64_t lo, uint64_t hi) {
    const uint64_t h0 = hi & EPS, h1 = hi >> 32;
    uint64_t t0 = lo - h1;
    if (lo < h1) t0 -= EPS;
    const uint64_t t1 = (h0 << 32) - h0;  // h0 * EPS < 2^64 - 2^33 + 2
    const uint64_t t2 = t0 + t1;
    return t2 + (t2 < t1 ? EPS : 0);
  }
  // Same contract, both corrections as masks (no data-dependent branch). Here it returns the same raw value
  // as reduce128 (the same corrections); branchy and branch-free reductions elsewhere can differ in the
  // lazy representative, so both are tested canonically.
  BX_HD static uint64_t reduce128_branchfree(uint64_t lo, uint64_t hi) {
    const uint64_t h0 = hi & EPS, h1 = hi >> 32;
    const uint64_t t0 = lo - h1 - (EPS & (0 - uint64_t(lo < h1)));
    const uint64_t t1 = (h0 << 32) - h0;
    const uint64_t t2 = t0 + t1;
    return t2 + (EPS & (0 - uint64_t(t2 < t1)));
  }

  // in: any u64. out: any u64.
  BX_HD static uint64_t mul(uint64_t a, uint64_t b) { return reduce128(a * b, mulhi64(a, b)); }
  BX_HD static uint64_t sqr(uint64_t a) { return mul(a, a); }

  // Accumulators (linear layers): any u64 lanes in, Acc96 sums below 29 * 2^64.
  BX_HD static Acc96 acc_of(uint64_t v) { return {v, 0}; }
  BX_HD static void acc_add(Acc96& acc, uint64_t v) {
    acc.lo += v;
    acc.hi += acc.lo < v;
  }
  BX_HD static void acc_add(Acc96& acc, const Acc96& b) {
    acc.lo += b.lo;
    acc.hi += b.hi + (acc.lo < b.lo);
  }
  // in: acc < 2^96. out: any u64 congruent to it: lo + hi*EPS, one carry folded (it cannot repeat:
  // the wrapped sum is below hi*EPS < 2^64 - EPS).
  BX_HD static uint64_t acc_reduce(const Acc96& acc) {
    const uint64_t t = uint64_t(acc.hi) * EPS;
    const uint64_t s = acc.lo + t;
    return s + (s < t ? EPS : 0);
  }
  // The fused internal-layer product: (s*d + acc) mod p with one reduction. in: any u64 s,
  // d < 2^64 - 2^59, acc < 2^96; s*d + acc < 2^128 - 2^123 + 2^96, so the 128-bit sum cannot wrap.
  BX_HD static uint64_t mul_add_reduce(uint64_t s, uint64_t d, const Acc96& acc) {
    uint64_t lo = s * d, hi = mulhi64(s, d);
    lo += acc.lo;
    hi += uint64_t(acc.hi) + (lo < acc.lo);
    return reduce128(lo, hi);
  }
};

}  // namespace bx::gl
