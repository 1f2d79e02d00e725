// Layout gl2x32: the lane as two 32-bit limbs a = a0 + 2^32 a1; products as 32x32 partial products with
// explicit carries; reduction in 32-bit words (spec §7). Backends: carry::portable (C++ on 32-bit words,
// host and device) and carry::ptx (device only: products as mul.wide.u32 partial products summed in
// add.cc / addc chains, reductions through sub.cc / subc; reduce128 of any 128-bit value as the §7
// mad.lo.cc / madc.hi.cc / addc / sub.cc chain).
//
// kLossy = true is the deliberately lossy engine of quantus-miner mining.cu (be8ee1e8), modelled bit
// for bit: reduce128 omits its three corrections and add folds a 2^64 overflow only once. Contract
// `characterised`: a probabilistic candidate filter, never reported as bit-exact. gl2x32_lossy<portable>
// is the host model; gl2x32_lossy<ptx> the device engine it models.
#pragma once
#include "gpu/core/carry.hpp"
#include "gpu/qpow/goldilocks/gl_common.hpp"

namespace bx::gl {

// The four 32-bit words of a 128-bit value, least significant first.
struct W4 {
  uint32_t r0, r1, r2, r3;
};

template <class B, bool kLossy>
struct gl2x32_impl {
  static constexpr bool lossy = kLossy;
  static constexpr const char* name = kLossy ? "gl2x32-lossy" : "gl2x32";
  static constexpr const char* backend = B::name;

  BX_HD static uint32_t lo32(uint64_t v) { return uint32_t(v); }
  BX_HD static uint32_t hi32(uint64_t v) { return uint32_t(v >> 32); }
  BX_HD static uint64_t join(uint32_t lo, uint32_t hi) { return uint64_t(hi) << 32 | lo; }

  // The exact reductions' last step: m = 0xffffffff after a borrow past 2^64, else 0; (hi:lo) - (0:m)
  // subtracts EPS then (it cannot borrow again: the wrapped value is >= 2^64 - 2^32).
  BX_DEVICE static uint64_t final_borrow_fix(uint32_t lo, uint32_t hi, uint32_t m) {
#if BX_ON_DEVICE
    if (BX_FAULT(qpow_exact_final_borrow_slip)) m = 0;
    asm("sub.cc.u32 %0, %0, %2;\n\t"
        "subc.u32 %1, %1, 0;"
        : "+r"(lo), "+r"(hi)
        : "r"(m));
#else
    (void)m;
    ptx_backend_called_on_host();
#endif
    return join(lo, hi);
  }

  // x = r0 + r1 2^32 + r2 2^64 + r3 2^96 == (r1:r0) + r2*EPS - r3 (mod p). in: any 128-bit x.
  // out: any u64 congruent to x (exact); the lossy engine's output may be off by one of its error terms.
  // Steps: (mid:lo) + c 2^64 = (r1:r0) + r2*EPS (c the 65th bit); x == (mid:lo) + c*2^32 - (r3 + c).
  //  - hi = mid + c cannot wrap (with c = 1, (mid:lo) <= 2^64 - 2^33), so the exact code needs no
  //    correction there; the lossy engine drops that carry too (its error -EPS is unreachable).
  //  - t = r3 + c is a 33-bit value (exact); the lossy engine keeps 32 bits (error +2^32 when it wraps).
  //  - (hi:lo) - t may borrow (x then is negative in this form): exact subtracts EPS; lossy keeps the
  //    wrapped value (error +EPS; probability ~ (r3 + c) / 2^64, the engine's live slip).
  BX_HD static uint64_t reduce_words(W4 w) {
    if constexpr (B::is_ptx) {
#if BX_ON_DEVICE
      uint32_t lo, hi, b;
      if constexpr (kLossy) {
        asm("{\n\t.reg .u32 c, t;\n\t"
            "mad.lo.cc.u32 %0, %3, 0xffffffff, %5;\n\t"
            "madc.hi.cc.u32 %1, %3, 0xffffffff, %6;\n\t"
            "addc.u32 c, 0, 0;\n\t"
            "add.u32 t, %4, c;\n\t"    // (i) 32-bit wrap kept
            "add.u32 %1, %1, c;\n\t"   // (ii) carry dropped
            "sub.cc.u32 %0, %0, t;\n\t"
            "subc.u32 %1, %1, 0;\n\t"  // (iii) final borrow dropped
            "mov.u32 %2, 0;\n\t}"
            : "=&r"(lo), "=&r"(hi), "=&r"(b)
            : "r"(w.r2), "r"(w.r3), "r"(w.r0), "r"(w.r1));
        return join(lo, hi);
      } else {
        asm("{\n\t.reg .u32 c, t0, t1;\n\t"
            "mad.lo.cc.u32 %0, %3, 0xffffffff, %5;\n\t"
            "madc.hi.cc.u32 %1, %3, 0xffffffff, %6;\n\t"
            "addc.u32 c, 0, 0;\n\t"
            "add.cc.u32 t0, %4, c;\n\t"
            "addc.u32 t1, 0, 0;\n\t"
            "add.u32 %1, %1, c;\n\t"
            "sub.cc.u32 %0, %0, t0;\n\t"
            "subc.cc.u32 %1, %1, t1;\n\t"
            "subc.u32 %2, 0, 0;\n\t}"
            : "=&r"(lo), "=&r"(hi), "=&r"(b)
            : "r"(w.r2), "r"(w.r3), "r"(w.r0), "r"(w.r1));
        return final_borrow_fix(lo, hi, b);
      }
#else
      (void)w;
      ptx_backend_called_on_host();
#endif
    } else {
      const uint64_t m = uint64_t(w.r2) * EPS;  // < 2^64 - 2^33 + 2
      const uint64_t s = join(w.r0, w.r1) + m;
      const uint32_t c = s < m;
      const uint64_t v = join(lo32(s), hi32(s) + c);  // hi32(s) + c does not wrap (see above)
      if constexpr (kLossy) {
        return v - uint32_t(w.r3 + c);  // (i) and (iii) as the engine does them
      } else {
        const uint64_t t = uint64_t(w.r3) + c;  // <= 2^32
        const uint64_t r = v - t;
        if (v < t && !BX_FAULT(qpow_exact_final_borrow_slip)) return r - EPS;
        return r;
      }
    }
  }

  // Deferred final borrow (the miner's kDeferBorrow shortcut, exact layouts only): reduce_product_words
  // without its last correction; `borrows` becomes non-zero (it counts down) whenever that correction
  // was due. While it stays 0 every result equals reduce_product_words' bit for bit (the correction is
  // the only difference), so a caller that finds it non-zero recomputes with the exact functions.
  // The borrow needs r2 = r1 = 0 and r0 < r3: about 2^-65 per uniform product, so the recomputation
  // costs nothing measurable; structured inputs take it every time (a lane of 2^48 squares to 2^96).
  // Saves the correction's three instructions per product (about 10% of a nonce's instructions).
  // in: as reduce_product_words. out: that result, or that result + EPS (only with borrows != 0).
  static constexpr bool defers_borrow = !kLossy;
  BX_HD static uint64_t reduce_product_words_deferred(W4 w, uint32_t& borrows) {
    static_assert(!kLossy, "the lossy engine has no final correction to defer");
    if constexpr (B::is_ptx) {
#if BX_ON_DEVICE
      uint32_t lo, hi, b;
      asm("{\n\t.reg .u32 mid, t;\n\t.reg .u64 f, x;\n\t"
          "mul.wide.u32 f, %6, 0xffffffff;\n\t"
          "add.cc.u64 x, %4, f;\n\t"
          "mov.b64 {%0, mid}, x;\n\t"
          "addc.u32 %1, mid, 0;\n\t"
          "addc.u32 t, %5, 0;\n\t"
          "sub.cc.u32 %0, %0, t;\n\t"
          "subc.cc.u32 %1, %1, 0;\n\t"
          "subc.u32 %2, %3, 0;\n\t}"  // borrows - (borrow past 2^64): a sub chain, never an add's carry
          : "=&r"(lo), "=&r"(hi), "=&r"(b)
          : "r"(borrows), "l"(join(w.r0, w.r1)), "r"(w.r3), "r"(w.r2));
      if (!BX_FAULT(qpow_deferred_borrow_uncounted)) borrows = b;
      return join(lo, hi);
#else
      (void)w, (void)borrows;
      ptx_backend_called_on_host();
#endif
    } else {
      const uint64_t m = uint64_t(w.r2) * EPS;
      const uint64_t s = join(w.r0, w.r1) + m;
      const uint32_t c = s < m;
      const uint64_t v = join(lo32(s), hi32(s) + c);
      const uint64_t t = uint64_t(w.r3) + c;
      if (v < t && !BX_FAULT(qpow_deferred_borrow_uncounted)) --borrows;
      return v - t;
    }
  }

  // The exact reduction of a product-shaped x: as reduce_words, for x whose words satisfy r3 + c < 2^32
  // (c the carry of (r1:r0) + r2*EPS). Holds for every product of two u64 values (r3 = 2^32 - 1 forces
  // both factors above 2^64 - 2^32 and then c = 0) and for s*d + acc with d < 2^64 - 2^59, acc < 2^69
  // (r3 <= 2^32 - 2^27); the tests reach the edge r3 = 2^32 - 1 with the (2^64-1)^2 corners.
  // With t = r3 + c kept in 32 bits, (hi:lo) = (mid + c : lo) - t borrows past 2^64 only when c = 0 and
  // the fold is below r3: r2 = r1 = 0 and r0 < r3 (about 2^-65 for uniform products, always for 2^48 * 2^48);
  // the exact code then subtracts EPS once.
  // The lossy engine is this reduction without that last subtraction (and with its 32-bit t wrap).
  BX_HD static uint64_t reduce_product_words(W4 w) {
    if constexpr (B::is_ptx && !kLossy) {
#if BX_ON_DEVICE
      uint32_t lo, hi, m;
      // The fold's carry c is read twice from the same flag (addc without .cc leaves it): into the
      // high word and into t = r3 + c, with no 0/1 register in between.
      asm("{\n\t.reg .u32 mid, t;\n\t.reg .u64 f, x;\n\t"
          "mul.wide.u32 f, %5, 0xffffffff;\n\t"
          "add.cc.u64 x, %3, f;\n\t"
          "mov.b64 {%0, mid}, x;\n\t"
          "addc.u32 %1, mid, 0;\n\t"  // mid + c: no wrap (with c = 1 the fold is <= 2^64 - 2^33)
          "addc.u32 t, %4, 0;\n\t"    // t = r3 + c < 2^32 (precondition)
          "sub.cc.u32 %0, %0, t;\n\t"
          "subc.cc.u32 %1, %1, 0;\n\t"
          "subc.u32 %2, 0, 0;\n\t}"  // m = EPS after a borrow past 2^64, else 0
          : "=&r"(lo), "=&r"(hi), "=&r"(m)
          : "l"(join(w.r0, w.r1)), "r"(w.r3), "r"(w.r2));
      return final_borrow_fix(lo, hi, m);
#else
      (void)w;
      ptx_backend_called_on_host();
#endif
    } else {
      return reduce_words(w);
    }
  }

  // Words of a*b for any u64 a, b (four partial products).
  BX_HD static W4 mul_words(uint64_t a, uint64_t b) {
    const uint32_t a0 = lo32(a), a1 = hi32(a), b0 = lo32(b), b1 = hi32(b);
    if constexpr (B::is_ptx) {
#if BX_ON_DEVICE
      // Four 32x32 -> 64 products; the 65-bit middle sum m = a0 b1 + a1 b0 (carry mc) enters words 1..3
      // through one 32-bit carry chain: ptxas maps it onto IMAD.WIDE and IADD3(.X) with no register
      // pairs to build (a 64-bit addend {0, ml} or {mh, mc} costs MOVs on the FMA pipe).
      W4 w;
      asm("{\n\t.reg .u32 ml, mh, mc, h0, l1, h1;\n\t.reg .u64 p00, p11, p01, p10, m;\n\t"
          "mul.wide.u32 p00, %4, %6;\n\t"
          "mul.wide.u32 p11, %5, %7;\n\t"
          "mul.wide.u32 p01, %4, %7;\n\t"
          "mul.wide.u32 p10, %5, %6;\n\t"
          "add.cc.u64 m, p01, p10;\n\t"
          "addc.u32 mc, 0, 0;\n\t"
          "mov.b64 {ml, mh}, m;\n\t"
          "mov.b64 {%0, h0}, p00;\n\t"
          "mov.b64 {l1, h1}, p11;\n\t"
          "add.cc.u32 %1, h0, ml;\n\t"
          "addc.cc.u32 %2, l1, mh;\n\t"
          "addc.u32 %3, h1, mc;\n\t}"  // no carry out: the product is below 2^128
          : "=r"(w.r0), "=r"(w.r1), "=r"(w.r2), "=r"(w.r3)
          : "r"(a0), "r"(a1), "r"(b0), "r"(b1));
      return w;
#else
      ptx_backend_called_on_host();
#endif
    } else {
      const uint64_t p00 = uint64_t(a0) * b0, p01 = uint64_t(a0) * b1, p10 = uint64_t(a1) * b0,
                     p11 = uint64_t(a1) * b1;
      uint64_t t = (p00 >> 32) + lo32(p01) + lo32(p10);  // < 3 * 2^32
      const uint32_t r1 = uint32_t(t);
      t = (t >> 32) + (p01 >> 32) + (p10 >> 32) + lo32(p11);
      const uint32_t r2 = uint32_t(t);
      t = (t >> 32) + (p11 >> 32);  // < 2^32: the product is below 2^128
      return {lo32(p00), r1, r2, uint32_t(t)};
    }
  }

  // Words of a^2 with three partial products: a0^2 + 2 a0 a1 2^32 + a1^2 2^64. 2 a0 a1 has 65 bits
  // (reachable for canonical a, e.g. 0xfffffffeffffffff); its 65th bit goes into word r3.
  BX_HD static W4 sqr_words(uint64_t a) {
    const uint32_t a0 = lo32(a), a1 = hi32(a);
    if constexpr (B::is_ptx) {
#if BX_ON_DEVICE
      // 2 a0 a1 2^32 = (p01 >> 31) 2^64 + (p01 << 33): bit 32 of the high part is the 65th bit of 2 a0 a1.
      const uint64_t keep = BX_FAULT(qpow_sqr_drop_bit65) ? ~(uint64_t(1) << 32) : ~uint64_t(0);
      W4 w;
      asm("{\n\t.reg .u64 p00, p11, p01, x, y, lo, hi;\n\t"
          "mul.wide.u32 p00, %4, %4;\n\t"
          "mul.wide.u32 p11, %5, %5;\n\t"
          "mul.wide.u32 p01, %4, %5;\n\t"
          "shl.b64 x, p01, 33;\n\t"
          "shr.b64 y, p01, 31;\n\t"
          "and.b64 y, y, %6;\n\t"
          "add.cc.u64 lo, x, p00;\n\t"
          "addc.u64 hi, y, p11;\n\t"
          "mov.b64 {%0, %1}, lo;\n\t"
          "mov.b64 {%2, %3}, hi;\n\t}"
          : "=r"(w.r0), "=r"(w.r1), "=r"(w.r2), "=r"(w.r3)
          : "r"(a0), "r"(a1), "l"(keep));
      return w;
#else
      (void)a0, (void)a1;
      ptx_backend_called_on_host();
#endif
    } else {
      const uint64_t p00 = uint64_t(a0) * a0, p01 = uint64_t(a0) * a1, p11 = uint64_t(a1) * a1;
      const uint64_t d = p01 << 1;
      const uint32_t top = BX_FAULT(qpow_sqr_drop_bit65) ? 0 : uint32_t(p01 >> 63);
      uint64_t t = (p00 >> 32) + lo32(d);
      const uint32_t r1 = uint32_t(t);
      t = (t >> 32) + (d >> 32) + lo32(p11);
      const uint32_t r2 = uint32_t(t);
      t = (t >> 32) + (p11 >> 32) + top;
      return {lo32(p00), r1, r2, uint32_t(t)};
    }
  }

  // in: any u64. out: any u64 (exact) / the engine's value (lossy).
  BX_HD static uint64_t mul(uint64_t a, uint64_t b) { return reduce_product_words(mul_words(a, b)); }
  BX_HD static uint64_t sqr(uint64_t a) { return reduce_product_words(sqr_words(a)); }
  BX_HD static uint64_t mul_deferred(uint64_t a, uint64_t b, uint32_t& borrows) {
    return reduce_product_words_deferred(mul_words(a, b), borrows);
  }
  BX_HD static uint64_t sqr_deferred(uint64_t a, uint32_t& borrows) {
    return reduce_product_words_deferred(sqr_words(a), borrows);
  }
  BX_HD static uint64_t reduce128(uint64_t lo, uint64_t hi) {
    return reduce_words({lo32(lo), hi32(lo), lo32(hi), hi32(hi)});
  }

  // in: any u64 a, b. out: any u64. Overflow folds as in gl64::add; the lossy engine folds once only
  // (error -EPS when a + b >= 2^65 - 2^32 + 1, which needs both operands >= p).
  BX_HD static uint64_t add(uint64_t a, uint64_t b) {
    if constexpr (B::is_ptx) {
#if BX_ON_DEVICE
      uint32_t lo, hi, c;
      asm("add.cc.u32 %0, %3, %5;\n\t"
          "addc.cc.u32 %1, %4, %6;\n\t"
          "addc.u32 %2, 0, 0;"
          : "=&r"(lo), "=&r"(hi), "=&r"(c)
          : "r"(lo32(a)), "r"(hi32(a)), "r"(lo32(b)), "r"(hi32(b)));
      uint32_t m = 0 - c;  // EPS on a first overflow
      asm("add.cc.u32 %0, %0, %3;\n\t"
          "addc.cc.u32 %1, %1, 0;\n\t"
          "addc.u32 %2, 0, 0;"
          : "+r"(lo), "+r"(hi), "=&r"(c)
          : "r"(m));
      if (!kLossy && !BX_FAULT(qpow_add_single_eps)) {
        m = 0 - c;  // a second overflow: EPS again
        asm("add.cc.u32 %0, %0, %2;\n\t"
            "addc.u32 %1, %1, 0;"
            : "+r"(lo), "+r"(hi)
            : "r"(m));
      }
      return join(lo, hi);
#else
      (void)a, (void)b;
      ptx_backend_called_on_host();
#endif
    } else {
      uint64_t s = a + b;
      if (s < a) {
        s += EPS;
        if (!kLossy && s < EPS && !BX_FAULT(qpow_add_single_eps)) s += EPS;
      }
      return s;
    }
  }
  // in: any u64. out: any u64 (a - b, or a - b + p, or a - b + 2p). Identical in the lossy engine.
  BX_HD static uint64_t sub(uint64_t a, uint64_t b) {
    if constexpr (B::is_ptx) {
#if BX_ON_DEVICE
      uint32_t lo, hi, br;
      asm("sub.cc.u32 %0, %3, %5;\n\t"
          "subc.cc.u32 %1, %4, %6;\n\t"
          "subc.u32 %2, 0, 0;"
          : "=&r"(lo), "=&r"(hi), "=&r"(br)
          : "r"(lo32(a)), "r"(hi32(a)), "r"(lo32(b)), "r"(hi32(b)));
      asm("sub.cc.u32 %0, %0, %3;\n\t"
          "subc.cc.u32 %1, %1, 0;\n\t"
          "subc.u32 %2, 0, 0;"
          : "+r"(lo), "+r"(hi), "=&r"(br)
          : "r"(br));
      asm("sub.cc.u32 %0, %0, %2;\n\t"
          "subc.u32 %1, %1, 0;"
          : "+r"(lo), "+r"(hi)
          : "r"(br));
      return join(lo, hi);
#else
      (void)a, (void)b;
      ptx_backend_called_on_host();
#endif
    } else {
      return sub_lazy(a, b);
    }
  }
  BX_HD static uint64_t neg(uint64_t a) { return sub(0, a); }

  // Accumulators as in gl64 (the carry into the 96-bit word is the whole operation).
  BX_HD static Acc96 acc_of(uint64_t v) { return {v, 0}; }
  BX_HD static void acc_add(Acc96& acc, uint64_t v) {
    if constexpr (B::is_ptx) {
#if BX_ON_DEVICE
      asm("add.cc.u64 %0, %0, %2;\n\t"
          "addc.u32 %1, %1, 0;"
          : "+l"(acc.lo), "+r"(acc.hi)
          : "l"(v));
#else
      (void)acc, (void)v;
      ptx_backend_called_on_host();
#endif
    } else {
      acc.lo += v;
      acc.hi += acc.lo < v;
    }
  }
  BX_HD static void acc_add(Acc96& acc, const Acc96& b) {
    if constexpr (B::is_ptx) {
#if BX_ON_DEVICE
      asm("add.cc.u64 %0, %0, %2;\n\t"
          "addc.u32 %1, %1, %3;"
          : "+l"(acc.lo), "+r"(acc.hi)
          : "l"(b.lo), "r"(b.hi));
#else
      (void)acc, (void)b;
      ptx_backend_called_on_host();
#endif
    } else {
      acc.lo += b.lo;
      acc.hi += b.hi + (acc.lo < b.lo);
    }
  }
  // in: acc < 2^96. out: any u64: lo + hi*EPS with its carry folded once more (r3 = 0: no borrow; with
  // a carry the first fold is <= 2^64 - 2^33, so adding EPS cannot wrap). The lossy engine reduces its
  // accumulators with reduce128 (same value: its omitted corrections need r3 != 0 or a wrap).
  BX_HD static uint64_t acc_reduce(const Acc96& acc) {
    if constexpr (B::is_ptx && !kLossy) {
#if BX_ON_DEVICE
      uint64_t v;
      asm("{\n\t.reg .u32 c;\n\t.reg .u64 f, m;\n\t"
          "mul.wide.u32 f, %2, 0xffffffff;\n\t"
          "add.cc.u64 %0, %1, f;\n\t"
          "addc.u32 c, 0, 0;\n\t"
          // c * EPS as a product: an add's carry is never fed to subc here (ptxas gives the flag the
          // opposite sense there: subc after madc.hi.cc computed c - 1, caught on the H200).
          "mul.wide.u32 m, c, 0xffffffff;\n\t"
          "add.u64 %0, %0, m;\n\t}"
          : "=l"(v)
          : "l"(acc.lo), "r"(acc.hi));
      return v;
#else
      (void)acc;
      ptx_backend_called_on_host();
#endif
    } else {
      return reduce_words({lo32(acc.lo), hi32(acc.lo), acc.hi, 0});
    }
  }
  // The fused internal-layer product (s*d + acc) with one reduction; d < 2^64 - 2^59 keeps the 128-bit
  // sum from wrapping and its words within reduce_product_words' precondition. in: any u64 s,
  // acc < 2^69. out: any u64.
  BX_HD static uint64_t mul_add_reduce(uint64_t s, uint64_t d, const Acc96& acc) {
    if constexpr (B::is_ptx)
      return reduce_product_words(mul_add_words(s, d, acc));
    else
      return reduce_words(mul_add_words(s, d, acc));
  }
  BX_HD static uint64_t mul_add_reduce_deferred(uint64_t s, uint64_t d, const Acc96& acc, uint32_t& borrows) {
    return reduce_product_words_deferred(mul_add_words(s, d, acc), borrows);
  }
  // Words of s*d + acc (no carry out under mul_add_reduce's bounds). The ptx backend adds acc inside
  // the partial products rather than in a second carry chain: a0 d0 + acc.lo carries c into acc.hi, and
  // {acc.hi + c, mc} (mc the middle sum's 65th bit; < 2^33) is the addend of a1 d1 (<= 2^64 - 2^33 + 1:
  // no wrap), so ptxas fuses both into IMAD.WIDE and the integer ALU keeps three adds.
  BX_HD static W4 mul_add_words(uint64_t s, uint64_t d, const Acc96& acc) {
    if constexpr (B::is_ptx) {
#if BX_ON_DEVICE
      W4 w;
      asm("{\n\t.reg .u32 ml, mh, mc, xh, zl, yl, yh;\n\t.reg .u64 p01, p10, m, x, z, y;\n\t"
          "mul.wide.u32 p01, %4, %7;\n\t"
          "mul.wide.u32 p10, %5, %6;\n\t"
          "add.cc.u64 m, p01, p10;\n\t"
          "addc.u32 mc, 0, 0;\n\t"
          "mul.wide.u32 x, %4, %6;\n\t"
          "add.cc.u64 x, x, %8;\n\t"
          "addc.u32 zl, %9, 0;\n\t"  // acc.hi + c < 2^6
          "mov.b64 z, {zl, mc};\n\t"
          "mul.wide.u32 y, %5, %7;\n\t"
          "add.u64 y, y, z;\n\t"
          "mov.b64 {ml, mh}, m;\n\t"
          "mov.b64 {%0, xh}, x;\n\t"
          "mov.b64 {yl, yh}, y;\n\t"
          "add.cc.u32 %1, xh, ml;\n\t"
          "addc.cc.u32 %2, yl, mh;\n\t"
          "addc.u32 %3, yh, 0;\n\t}"  // no carry out: s*d + acc < 2^128
          : "=r"(w.r0), "=r"(w.r1), "=r"(w.r2), "=r"(w.r3)
          : "r"(lo32(s)), "r"(hi32(s)), "r"(lo32(d)), "r"(hi32(d)), "l"(acc.lo), "r"(acc.hi));
      return w;
#else
      (void)s, (void)d, (void)acc;
      ptx_backend_called_on_host();
#endif
    } else {
      W4 w = mul_words(s, d);
      uint64_t t = uint64_t(w.r0) + lo32(acc.lo);
      w.r0 = uint32_t(t);
      t = (t >> 32) + w.r1 + hi32(acc.lo);
      w.r1 = uint32_t(t);
      t = (t >> 32) + w.r2 + acc.hi;
      w.r2 = uint32_t(t);
      w.r3 += uint32_t(t >> 32);
      return w;
    }
  }
};

template <class B>
using gl2x32 = gl2x32_impl<B, false>;
template <class B>
using gl2x32_lossy = gl2x32_impl<B, true>;

}  // namespace bx::gl
