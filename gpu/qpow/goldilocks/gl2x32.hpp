// Layout gl2x32: the lane as two 32-bit limbs a = a0 + 2^32 a1; products as 32x32 partial products with
// explicit carries; reduction in 32-bit words (spec §7). Backends: carry::portable (C++ on 32-bit words,
// host and device) and carry::ptx (mad.lo.cc / madc.hi.cc / addc / sub.cc chains, device only).
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
        if (BX_FAULT(qpow_exact_final_borrow_slip)) b = 0;
        // b = 0xffffffff after a borrow: subtract EPS = (0:b).
        asm("sub.cc.u32 %0, %0, %2;\n\t"
            "subc.u32 %1, %1, 0;"
            : "+r"(lo), "+r"(hi)
            : "r"(b));
        return join(lo, hi);
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

  // Words of a*b for any u64 a, b (four partial products).
  BX_HD static W4 mul_words(uint64_t a, uint64_t b) {
    const uint32_t a0 = lo32(a), a1 = hi32(a), b0 = lo32(b), b1 = hi32(b);
    if constexpr (B::is_ptx) {
#if BX_ON_DEVICE
      W4 w;
      asm("mul.lo.u32 %0, %4, %6;\n\t"
          "mul.hi.u32 %1, %4, %6;\n\t"
          "mul.lo.u32 %2, %5, %7;\n\t"
          "mul.hi.u32 %3, %5, %7;\n\t"
          "mad.lo.cc.u32 %1, %4, %7, %1;\n\t"
          "madc.hi.cc.u32 %2, %4, %7, %2;\n\t"
          "addc.u32 %3, %3, 0;\n\t"
          "mad.lo.cc.u32 %1, %5, %6, %1;\n\t"
          "madc.hi.cc.u32 %2, %5, %6, %2;\n\t"
          "addc.u32 %3, %3, 0;"
          : "=&r"(w.r0), "=&r"(w.r1), "=&r"(w.r2), "=&r"(w.r3)
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
      W4 w;
      uint32_t top;
      asm("{\n\t.reg .u32 x, y;\n\t"
          "mul.lo.u32 x, %5, %6;\n\t"
          "mul.hi.u32 y, %5, %6;\n\t"
          "add.cc.u32 x, x, x;\n\t"
          "addc.cc.u32 y, y, y;\n\t"
          "addc.u32 %4, 0, 0;\n\t"  // the 65th bit of 2 a0 a1
          "mul.lo.u32 %0, %5, %5;\n\t"
          "mul.hi.u32 %1, %5, %5;\n\t"
          "add.cc.u32 %1, %1, x;\n\t"
          "madc.lo.cc.u32 %2, %6, %6, y;\n\t"
          "madc.hi.u32 %3, %6, %6, 0;\n\t}"
          : "=&r"(w.r0), "=&r"(w.r1), "=&r"(w.r2), "=&r"(w.r3), "=&r"(top)
          : "r"(a0), "r"(a1));
      if (!BX_FAULT(qpow_sqr_drop_bit65)) w.r3 += top;
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
  BX_HD static uint64_t mul(uint64_t a, uint64_t b) { return reduce_words(mul_words(a, b)); }
  BX_HD static uint64_t sqr(uint64_t a) { return reduce_words(sqr_words(a)); }
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
      uint64_t d = a - b;
      if (a < b) {
        const bool second = d < EPS;
        d -= EPS;
        if (second) d -= EPS;
      }
      return d;
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
  // in: acc < 2^96. out: any u64: the accumulator's words reduced (r3 = 0, r2 = hi).
  BX_HD static uint64_t acc_reduce(const Acc96& acc) { return reduce_words({lo32(acc.lo), hi32(acc.lo), acc.hi, 0}); }
  // The fused internal-layer product (s*d + acc) with one reduction; d < 2^64 - 2^59 keeps the 128-bit
  // sum from wrapping. The accumulator enters as the addends of the first partial products.
  BX_HD static uint64_t mul_add_reduce(uint64_t s, uint64_t d, const Acc96& acc) {
    if constexpr (B::is_ptx) {
#if BX_ON_DEVICE
      W4 w;
      asm("mad.lo.cc.u32 %0, %4, %6, %8;\n\t"
          "madc.hi.cc.u32 %1, %4, %6, %9;\n\t"
          "madc.lo.cc.u32 %2, %5, %7, %10;\n\t"
          "madc.hi.u32 %3, %5, %7, 0;\n\t"
          "mad.lo.cc.u32 %1, %4, %7, %1;\n\t"
          "madc.hi.cc.u32 %2, %4, %7, %2;\n\t"
          "addc.u32 %3, %3, 0;\n\t"
          "mad.lo.cc.u32 %1, %5, %6, %1;\n\t"
          "madc.hi.cc.u32 %2, %5, %6, %2;\n\t"
          "addc.u32 %3, %3, 0;"
          : "=&r"(w.r0), "=&r"(w.r1), "=&r"(w.r2), "=&r"(w.r3)
          : "r"(lo32(s)), "r"(hi32(s)), "r"(lo32(d)), "r"(hi32(d)), "r"(lo32(acc.lo)), "r"(hi32(acc.lo)),
            "r"(acc.hi));
      return reduce_words(w);
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
      return reduce_words(w);
    }
  }
};

template <class B>
using gl2x32 = gl2x32_impl<B, false>;
template <class B>
using gl2x32_lossy = gl2x32_impl<B, true>;

}  // namespace bx::gl
