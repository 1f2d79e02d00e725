// One carry interface, two backends (the "carry path"):
//   portable - plain C++ carries; runs on host and device; the host build is the limb emulation.
//   ptx      - inline PTX carry chains (add.cc/addc, mad.lo.cc/madc.hi.cc, mad.wide); device only.
// Layouts take the backend as a template parameter, so both paths are in every binary.
//
// PTX rules (field25519 spec 1.2): a carry chain lives inside one asm statement and is closed into a
// register (addc x,0,0 or a madc without .cc); CC.CF is never assumed to survive between statements.
// Pure outputs use "=&r" so that the compiler never coalesces them with inputs holding equal values.
#pragma once
#include <cstdint>
#include "gpu/core/hd.hpp"

namespace bx {

struct u128 {
  uint64_t lo, hi;
};

// Called only if a PTX-backend function is ever instantiated and run on the host, which the
// registry and tests never do; it is a loud failure instead of a silent portable fallback.
[[noreturn]] void ptx_backend_called_on_host();

namespace carry {

struct portable {
  static constexpr bool is_ptx = false;
  static constexpr const char* name = "portable";

  BX_HD static uint64_t mul_wide_u32(uint32_t a, uint32_t b) { return uint64_t(a) * b; }
  BX_HD static uint64_t mad_wide_u32(uint32_t a, uint32_t b, uint64_t c) { return uint64_t(a) * b + c; }
  BX_HD static int64_t mul_wide_s32(int32_t a, int32_t b) { return int64_t(a) * b; }

  // acc += a*b (128-bit accumulator; caller guarantees no overflow past 2^128).
  BX_HD static void mac64(u128& acc, uint64_t a, uint64_t b) {
    unsigned __int128 t = (unsigned __int128)acc.hi << 64 | acc.lo;
    t += (unsigned __int128)a * b;
    acc.lo = uint64_t(t);
    acc.hi = uint64_t(t >> 64);
  }

  // r = a + b over 8 words; returns the carry out (0 or 1).
  BX_HD static uint32_t add8(uint32_t r[8], const uint32_t a[8], const uint32_t b[8]) {
    uint64_t c = 0;
    for (int i = 0; i < 8; ++i) {
      c += uint64_t(a[i]) + b[i];
      r[i] = uint32_t(c);
      c >>= 32;
    }
    return uint32_t(c);
  }
  // r = a - b over 8 words; returns the borrow out (0 or 1).
  BX_HD static uint32_t sub8(uint32_t r[8], const uint32_t a[8], const uint32_t b[8]) {
    uint32_t br = 0;
    for (int i = 0; i < 8; ++i) {
      uint64_t d = uint64_t(a[i]) - b[i] - br;
      r[i] = uint32_t(d);
      br = uint32_t(d >> 63);
    }
    return br;
  }
  // r += k over 8 words (k < 2^32); returns the carry out.
  BX_HD static uint32_t add_small8(uint32_t r[8], uint32_t k) {
    uint64_t c = k;
    for (int i = 0; i < 8; ++i) {
      c += r[i];
      r[i] = uint32_t(c);
      c >>= 32;
    }
    return uint32_t(c);
  }
  // r -= k over 8 words; returns the borrow out.
  BX_HD static uint32_t sub_small8(uint32_t r[8], uint32_t k) {
    uint32_t br = 0;
    uint64_t d = uint64_t(r[0]) - k;
    r[0] = uint32_t(d);
    br = uint32_t(d >> 63);
    for (int i = 1; i < 8; ++i) {
      d = uint64_t(r[i]) - br;
      r[i] = uint32_t(d);
      br = uint32_t(d >> 63);
    }
    return br;
  }
  // r[0..7] = c + a*k, returns word 8 (k <= 2^31 keeps word 8 <= k).
  BX_HD static uint32_t mul8x1_add(uint32_t r[8], const uint32_t a[8], uint32_t k, const uint32_t c[8]) {
    uint64_t t = 0;
    for (int i = 0; i < 8; ++i) {
      t += uint64_t(a[i]) * k + c[i];  // <= (2^32-1)^2 + 2(2^32-1) = 2^64-1
      r[i] = uint32_t(t);
      t >>= 32;
    }
    return uint32_t(t);
  }
  // 8-word product of 4-word halves, row-wise (the schoolbook kernel of the split below).
  BX_HD static void mul4x4(uint32_t r[8], const uint32_t a[4], const uint32_t b[4]) {
    for (int i = 0; i < 8; ++i) r[i] = 0;
    for (int i = 0; i < 4; ++i) {
      uint64_t t = 0;
      for (int j = 0; j < 4; ++j) {
        t += uint64_t(a[i]) * b[j] + r[i + j];
        r[i + j] = uint32_t(t);
        t >>= 32;
      }
      r[i + 4] = uint32_t(t);
    }
  }
  // |x - y| over 4 words; returns the sign mask (0xffffffff when x < y, else 0).
  BX_HD static uint32_t absdiff4(uint32_t r[4], const uint32_t x[4], const uint32_t y[4]) {
    uint32_t br = 0;
    for (int i = 0; i < 4; ++i) {
      const uint64_t d = uint64_t(x[i]) - y[i] - br;
      r[i] = uint32_t(d);
      br = uint32_t(d >> 63);
    }
    const uint32_t m = 0u - br;
    uint64_t c = br;  // (r ^ m) + (m & 1): two's complement negation when m is all ones
    for (int i = 0; i < 4; ++i) {
      c += uint32_t(r[i] ^ m);
      r[i] = uint32_t(c);
      c >>= 32;
    }
    return m;
  }
  // 16-word product by one subtractive Karatsuba level over 128-bit halves (a = a0 + 2^128 a1):
  //   a*b = L + 2^128 (L + H + (a0 - a1)(b1 - b0)) + 2^256 H,  L = a0 b0, H = a1 b1,
  // with (a0 - a1)(b1 - b0) = (-1)^neg |a0 - a1| |b1 - b0|. The middle term is in [0, 2^257), so it is
  // summed in 9 words mod 2^288, M entering as its two's complement (M ^ neg, word 8 = neg, +1) when
  // neg. 48 word products instead of 64. The carry out of word 15 is zero (the product is < 2^512).
  BX_HD static void mul8x8(uint32_t r[16], const uint32_t a[8], const uint32_t b[8]) {
    uint32_t L[8], H[8], M[8], da[4], db[4];
    mul4x4(L, a, b);
    mul4x4(H, a + 4, b + 4);
    uint32_t neg = absdiff4(da, a, a + 4) ^ absdiff4(db, b + 4, b);
    if (BX_FAULT(fe32_karatsuba_sign_ignored)) neg = 0;
    mul4x4(M, da, db);
    uint32_t mid[9];
    uint64_t c = neg & 1;
    for (int i = 0; i < 8; ++i) {
      c += uint64_t(L[i]) + H[i] + (M[i] ^ neg);
      mid[i] = uint32_t(c);
      c >>= 32;
    }
    mid[8] = uint32_t(c + neg);
    for (int i = 0; i < 4; ++i) r[i] = L[i];
    c = 0;
    for (int i = 4; i < 16; ++i) {
      c += uint64_t(i < 8 ? L[i] : H[i - 8]) + (i < 13 ? mid[i - 4] : 0);
      r[i] = uint32_t(c);
      c >>= 32;
    }
  }
  // 16-word square: cross products once (row i covers j > i; word i+8 is still zero when row i starts),
  // doubled by a 1-bit shift (the cross sum is below 2^511), plus the diagonal squares. Equals
  // mul8x8(r, a, a) word for word.
  BX_HD static void sqr8(uint32_t r[16], const uint32_t a[8]) {
    for (int i = 0; i < 16; ++i) r[i] = 0;
    for (int i = 0; i < 7; ++i) {
      uint64_t t = 0;
      for (int j = i + 1; j < 8; ++j) {
        t += uint64_t(a[i]) * a[j] + r[i + j];
        r[i + j] = uint32_t(t);
        t >>= 32;
      }
      r[i + 8] = uint32_t(t);
    }
    uint32_t top = 0;
    for (int i = 0; i < 16; ++i) {
      const uint32_t w = r[i];
      r[i] = (w << 1) | top;
      top = w >> 31;
    }
    uint64_t c = 0;
    for (int i = 0; i < 8; ++i) {
      const uint64_t sq = uint64_t(a[i]) * a[i];
      c += uint64_t(r[2 * i]) + uint32_t(sq);
      r[2 * i] = uint32_t(c);
      c >>= 32;
      if (i == 3 && BX_FAULT(fe32_sqr_diagonal_carry_dropped)) c = 0;
      c += uint64_t(r[2 * i + 1]) + (sq >> 32);
      r[2 * i + 1] = uint32_t(c);
      c >>= 32;
    }
  }
  // Product split at 2^52 (the signed 5x51 layout Fe51s): for |a*b| < 2^103,
  // hi = floor(a*b / 2^52) and lo = a*b - hi*2^52 in [0, 2^52). Operands pass through split52_operand
  // first (x in [-2^52, 2^52)). A backend returns hi + split52_hi_bias and lo + split52_lo_bias
  // (mod 2^64), so a sum of n raw values is the true sum plus n biases. Here: the 128-bit product, no bias.
  using split52_operand_t = int64_t;
  static constexpr uint64_t split52_hi_bias = 0, split52_lo_bias = 0;
  BX_HD static int64_t split52_operand(int64_t x) { return x; }
  BX_HD static void split52(uint64_t& hi, uint64_t& lo, int64_t a, int64_t b) {
    const __int128 p = (__int128)a * b;
    hi = uint64_t(int64_t(p >> 52));  // arithmetic shift: floor
    if (BX_FAULT(fe51s_split_hi_truncated)) hi = uint64_t(int64_t(p / ((__int128)1 << 52)));
    lo = uint64_t(p) & ((uint64_t(1) << 52) - 1);
  }
};

struct ptx {
  static constexpr bool is_ptx = true;
  static constexpr const char* name = "ptx";

  BX_HD static uint64_t mul_wide_u32(uint32_t a, uint32_t b) {
#if BX_ON_DEVICE
    uint64_t r;
    asm("mul.wide.u32 %0, %1, %2;" : "=l"(r) : "r"(a), "r"(b));
    return r;
#else
    (void)a, (void)b;
    ptx_backend_called_on_host();
#endif
  }
  BX_HD static uint64_t mad_wide_u32(uint32_t a, uint32_t b, uint64_t c) {
#if BX_ON_DEVICE
    uint64_t r;
    asm("mad.wide.u32 %0, %1, %2, %3;" : "=l"(r) : "r"(a), "r"(b), "l"(c));
    return r;
#else
    (void)a, (void)b, (void)c;
    ptx_backend_called_on_host();
#endif
  }
  BX_HD static int64_t mul_wide_s32(int32_t a, int32_t b) {
#if BX_ON_DEVICE
    int64_t r;
    asm("mul.wide.s32 %0, %1, %2;" : "=l"(r) : "r"(a), "r"(b));
    return r;
#else
    (void)a, (void)b;
    ptx_backend_called_on_host();
#endif
  }
  BX_HD static void mac64(u128& acc, uint64_t a, uint64_t b) {
#if BX_ON_DEVICE
    asm("mad.lo.cc.u64 %0, %2, %3, %0;\n\t"
        "madc.hi.u64 %1, %2, %3, %1;"
        : "+l"(acc.lo), "+l"(acc.hi)
        : "l"(a), "l"(b));
#else
    (void)acc, (void)a, (void)b;
    ptx_backend_called_on_host();
#endif
  }
  BX_HD static uint32_t add8(uint32_t r[8], const uint32_t a[8], const uint32_t b[8]) {
#if BX_ON_DEVICE
    uint32_t c;
    asm("add.cc.u32 %0, %9, %17;\n\t"
        "addc.cc.u32 %1, %10, %18;\n\t"
        "addc.cc.u32 %2, %11, %19;\n\t"
        "addc.cc.u32 %3, %12, %20;\n\t"
        "addc.cc.u32 %4, %13, %21;\n\t"
        "addc.cc.u32 %5, %14, %22;\n\t"
        "addc.cc.u32 %6, %15, %23;\n\t"
        "addc.cc.u32 %7, %16, %24;\n\t"
        "addc.u32 %8, 0, 0;"
        : "=&r"(r[0]), "=&r"(r[1]), "=&r"(r[2]), "=&r"(r[3]), "=&r"(r[4]), "=&r"(r[5]), "=&r"(r[6]),
          "=&r"(r[7]), "=&r"(c)
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(a[4]), "r"(a[5]), "r"(a[6]), "r"(a[7]),
          "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(b[4]), "r"(b[5]), "r"(b[6]), "r"(b[7]));
    return c;
#else
    (void)r, (void)a, (void)b;
    ptx_backend_called_on_host();
#endif
  }
  BX_HD static uint32_t sub8(uint32_t r[8], const uint32_t a[8], const uint32_t b[8]) {
#if BX_ON_DEVICE
    uint32_t br;
    asm("sub.cc.u32 %0, %9, %17;\n\t"
        "subc.cc.u32 %1, %10, %18;\n\t"
        "subc.cc.u32 %2, %11, %19;\n\t"
        "subc.cc.u32 %3, %12, %20;\n\t"
        "subc.cc.u32 %4, %13, %21;\n\t"
        "subc.cc.u32 %5, %14, %22;\n\t"
        "subc.cc.u32 %6, %15, %23;\n\t"
        "subc.cc.u32 %7, %16, %24;\n\t"
        "subc.u32 %8, 0, 0;"
        : "=&r"(r[0]), "=&r"(r[1]), "=&r"(r[2]), "=&r"(r[3]), "=&r"(r[4]), "=&r"(r[5]), "=&r"(r[6]),
          "=&r"(r[7]), "=&r"(br)
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(a[4]), "r"(a[5]), "r"(a[6]), "r"(a[7]),
          "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(b[4]), "r"(b[5]), "r"(b[6]), "r"(b[7]));
    return br & 1;  // subc 0,0,borrow gives 0 or 0xffffffff
#else
    (void)r, (void)a, (void)b;
    ptx_backend_called_on_host();
#endif
  }
  BX_HD static uint32_t add_small8(uint32_t r[8], uint32_t k) {
#if BX_ON_DEVICE
    uint32_t c;
    asm("add.cc.u32 %0, %0, %9;\n\t"
        "addc.cc.u32 %1, %1, 0;\n\t"
        "addc.cc.u32 %2, %2, 0;\n\t"
        "addc.cc.u32 %3, %3, 0;\n\t"
        "addc.cc.u32 %4, %4, 0;\n\t"
        "addc.cc.u32 %5, %5, 0;\n\t"
        "addc.cc.u32 %6, %6, 0;\n\t"
        "addc.cc.u32 %7, %7, 0;\n\t"
        "addc.u32 %8, 0, 0;"
        : "+&r"(r[0]), "+&r"(r[1]), "+&r"(r[2]), "+&r"(r[3]), "+&r"(r[4]), "+&r"(r[5]), "+&r"(r[6]), "+&r"(r[7]),
          "=&r"(c)
        : "r"(k));
    return c;
#else
    (void)r, (void)k;
    ptx_backend_called_on_host();
#endif
  }
  BX_HD static uint32_t sub_small8(uint32_t r[8], uint32_t k) {
#if BX_ON_DEVICE
    uint32_t br;
    asm("sub.cc.u32 %0, %0, %9;\n\t"
        "subc.cc.u32 %1, %1, 0;\n\t"
        "subc.cc.u32 %2, %2, 0;\n\t"
        "subc.cc.u32 %3, %3, 0;\n\t"
        "subc.cc.u32 %4, %4, 0;\n\t"
        "subc.cc.u32 %5, %5, 0;\n\t"
        "subc.cc.u32 %6, %6, 0;\n\t"
        "subc.cc.u32 %7, %7, 0;\n\t"
        "subc.u32 %8, 0, 0;"
        : "+&r"(r[0]), "+&r"(r[1]), "+&r"(r[2]), "+&r"(r[3]), "+&r"(r[4]), "+&r"(r[5]), "+&r"(r[6]), "+&r"(r[7]),
          "=&r"(br)
        : "r"(k));
    return br & 1;
#else
    (void)r, (void)k;
    ptx_backend_called_on_host();
#endif
  }
  // r = c + a*k: the lo halves in one chain, the hi halves in a second; k <= 2^31.
  BX_HD static uint32_t mul8x1_add(uint32_t r[8], const uint32_t a[8], uint32_t k, const uint32_t c[8]) {
#if BX_ON_DEVICE
    uint32_t r8;
    asm("mad.lo.cc.u32 %0, %9, %17, %18;\n\t"
        "madc.lo.cc.u32 %1, %10, %17, %19;\n\t"
        "madc.lo.cc.u32 %2, %11, %17, %20;\n\t"
        "madc.lo.cc.u32 %3, %12, %17, %21;\n\t"
        "madc.lo.cc.u32 %4, %13, %17, %22;\n\t"
        "madc.lo.cc.u32 %5, %14, %17, %23;\n\t"
        "madc.lo.cc.u32 %6, %15, %17, %24;\n\t"
        "madc.lo.cc.u32 %7, %16, %17, %25;\n\t"
        "addc.u32 %8, 0, 0;\n\t"
        "mad.hi.cc.u32 %1, %9, %17, %1;\n\t"
        "madc.hi.cc.u32 %2, %10, %17, %2;\n\t"
        "madc.hi.cc.u32 %3, %11, %17, %3;\n\t"
        "madc.hi.cc.u32 %4, %12, %17, %4;\n\t"
        "madc.hi.cc.u32 %5, %13, %17, %5;\n\t"
        "madc.hi.cc.u32 %6, %14, %17, %6;\n\t"
        "madc.hi.cc.u32 %7, %15, %17, %7;\n\t"
        "madc.hi.u32 %8, %16, %17, %8;"
        : "=&r"(r[0]), "=&r"(r[1]), "=&r"(r[2]), "=&r"(r[3]), "=&r"(r[4]), "=&r"(r[5]), "=&r"(r[6]),
          "=&r"(r[7]), "=&r"(r8)
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(a[4]), "r"(a[5]), "r"(a[6]), "r"(a[7]), "r"(k),
          "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "r"(c[5]), "r"(c[6]), "r"(c[7]));
    return r8;
#else
    (void)r, (void)a, (void)k, (void)c;
    ptx_backend_called_on_host();
#endif
  }
  // 8-word product of 4-word halves. Row 0 writes words 0..4 (mul.lo, then a madc.hi chain into words
  // 1..4); row i >= 1 adds its lo halves into words i..i+3 (chain closed into word i+4) and its hi halves
  // into words i+1..i+4 (chain closed into word i+5, new; row 3's carry out is zero: the product is
  // below 2^256).
  BX_HD static void mul4x4(uint32_t r[8], const uint32_t a[4], const uint32_t b[4]) {
#if BX_ON_DEVICE
    asm("mul.lo.u32 %0, %5, %6;\n\t"
        "mul.lo.u32 %1, %5, %7;\n\t"
        "mul.lo.u32 %2, %5, %8;\n\t"
        "mul.lo.u32 %3, %5, %9;\n\t"
        "mad.hi.cc.u32 %1, %5, %6, %1;\n\t"
        "madc.hi.cc.u32 %2, %5, %7, %2;\n\t"
        "madc.hi.cc.u32 %3, %5, %8, %3;\n\t"
        "madc.hi.u32 %4, %5, %9, 0;"
        : "=&r"(r[0]), "=&r"(r[1]), "=&r"(r[2]), "=&r"(r[3]), "=&r"(r[4])
        : "r"(a[0]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]));
    asm("mad.lo.cc.u32 %0, %6, %7, %0;\n\t"
        "madc.lo.cc.u32 %1, %6, %8, %1;\n\t"
        "madc.lo.cc.u32 %2, %6, %9, %2;\n\t"
        "madc.lo.cc.u32 %3, %6, %10, %3;\n\t"
        "addc.u32 %4, 0, 0;\n\t"
        "mad.hi.cc.u32 %1, %6, %7, %1;\n\t"
        "madc.hi.cc.u32 %2, %6, %8, %2;\n\t"
        "madc.hi.cc.u32 %3, %6, %9, %3;\n\t"
        "madc.hi.cc.u32 %4, %6, %10, %4;\n\t"
        "addc.u32 %5, 0, 0;"
        : "+&r"(r[1]), "+&r"(r[2]), "+&r"(r[3]), "+&r"(r[4]), "=&r"(r[5]), "=&r"(r[6])
        : "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]));
    asm("mad.lo.cc.u32 %0, %6, %7, %0;\n\t"
        "madc.lo.cc.u32 %1, %6, %8, %1;\n\t"
        "madc.lo.cc.u32 %2, %6, %9, %2;\n\t"
        "madc.lo.cc.u32 %3, %6, %10, %3;\n\t"
        "addc.u32 %4, %4, 0;\n\t"
        "mad.hi.cc.u32 %1, %6, %7, %1;\n\t"
        "madc.hi.cc.u32 %2, %6, %8, %2;\n\t"
        "madc.hi.cc.u32 %3, %6, %9, %3;\n\t"
        "madc.hi.cc.u32 %4, %6, %10, %4;\n\t"
        "addc.u32 %5, 0, 0;"
        : "+&r"(r[2]), "+&r"(r[3]), "+&r"(r[4]), "+&r"(r[5]), "+&r"(r[6]), "=&r"(r[7])
        : "r"(a[2]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]));
    asm("mad.lo.cc.u32 %0, %5, %6, %0;\n\t"
        "madc.lo.cc.u32 %1, %5, %7, %1;\n\t"
        "madc.lo.cc.u32 %2, %5, %8, %2;\n\t"
        "madc.lo.cc.u32 %3, %5, %9, %3;\n\t"
        "addc.u32 %4, %4, 0;\n\t"
        "mad.hi.cc.u32 %1, %5, %6, %1;\n\t"
        "madc.hi.cc.u32 %2, %5, %7, %2;\n\t"
        "madc.hi.cc.u32 %3, %5, %8, %3;\n\t"
        "madc.hi.u32 %4, %5, %9, %4;"
        : "+&r"(r[3]), "+&r"(r[4]), "+&r"(r[5]), "+&r"(r[6]), "+&r"(r[7])
        : "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]));
#else
    (void)r, (void)a, (void)b;
    ptx_backend_called_on_host();
#endif
  }
  // |x - y| over 4 words: one sub chain, its borrow as a mask m (subc 0,0), then (d ^ m) - m as a second
  // chain (subtracting the all-m 128-bit word adds 1 when m is all ones). Returns m.
  BX_HD static uint32_t absdiff4(uint32_t r[4], const uint32_t x[4], const uint32_t y[4]) {
#if BX_ON_DEVICE
    uint32_t d[4], m;
    asm("sub.cc.u32 %0, %5, %9;\n\t"
        "subc.cc.u32 %1, %6, %10;\n\t"
        "subc.cc.u32 %2, %7, %11;\n\t"
        "subc.cc.u32 %3, %8, %12;\n\t"
        "subc.u32 %4, 0, 0;"
        : "=&r"(d[0]), "=&r"(d[1]), "=&r"(d[2]), "=&r"(d[3]), "=&r"(m)
        : "r"(x[0]), "r"(x[1]), "r"(x[2]), "r"(x[3]), "r"(y[0]), "r"(y[1]), "r"(y[2]), "r"(y[3]));
    asm("sub.cc.u32 %0, %4, %8;\n\t"
        "subc.cc.u32 %1, %5, %8;\n\t"
        "subc.cc.u32 %2, %6, %8;\n\t"
        "subc.u32 %3, %7, %8;"
        : "=&r"(r[0]), "=&r"(r[1]), "=&r"(r[2]), "=&r"(r[3])
        : "r"(d[0] ^ m), "r"(d[1] ^ m), "r"(d[2] ^ m), "r"(d[3] ^ m), "r"(m));
    return m;
#else
    (void)r, (void)x, (void)y;
    ptx_backend_called_on_host();
#endif
  }
  // 16-word product by one subtractive Karatsuba level; the algebra and bounds are those of
  // portable::mul8x8. Chains: T = L + H (9 words); the middle term T + (M ^ neg) + (neg & 1) with neg in
  // word 8, its carry-in set by add.cc neg + 0xffffffff (CF = 1 exactly when neg is all ones); then the
  // 12-word chain adding the middle term at word 4 of (L, H).
  BX_HD static void mul8x8(uint32_t r[16], const uint32_t a[8], const uint32_t b[8]) {
#if BX_ON_DEVICE
    uint32_t L[8], H[8], M[8], da[4], db[4], T[9];
    mul4x4(L, a, b);
    mul4x4(H, a + 4, b + 4);
    uint32_t neg = absdiff4(da, a, a + 4) ^ absdiff4(db, b + 4, b);
    if (BX_FAULT(fe32_karatsuba_sign_ignored)) neg = 0;
    mul4x4(M, da, db);
    asm("add.cc.u32 %0, %9, %17;\n\t"
        "addc.cc.u32 %1, %10, %18;\n\t"
        "addc.cc.u32 %2, %11, %19;\n\t"
        "addc.cc.u32 %3, %12, %20;\n\t"
        "addc.cc.u32 %4, %13, %21;\n\t"
        "addc.cc.u32 %5, %14, %22;\n\t"
        "addc.cc.u32 %6, %15, %23;\n\t"
        "addc.cc.u32 %7, %16, %24;\n\t"
        "addc.u32 %8, 0, 0;"
        : "=&r"(T[0]), "=&r"(T[1]), "=&r"(T[2]), "=&r"(T[3]), "=&r"(T[4]), "=&r"(T[5]), "=&r"(T[6]),
          "=&r"(T[7]), "=&r"(T[8])
        : "r"(L[0]), "r"(L[1]), "r"(L[2]), "r"(L[3]), "r"(L[4]), "r"(L[5]), "r"(L[6]), "r"(L[7]),
          "r"(H[0]), "r"(H[1]), "r"(H[2]), "r"(H[3]), "r"(H[4]), "r"(H[5]), "r"(H[6]), "r"(H[7]));
    uint32_t cin;
    asm("add.cc.u32 %9, %10, 0xffffffff;\n\t"
        "addc.cc.u32 %0, %0, %11;\n\t"
        "addc.cc.u32 %1, %1, %12;\n\t"
        "addc.cc.u32 %2, %2, %13;\n\t"
        "addc.cc.u32 %3, %3, %14;\n\t"
        "addc.cc.u32 %4, %4, %15;\n\t"
        "addc.cc.u32 %5, %5, %16;\n\t"
        "addc.cc.u32 %6, %6, %17;\n\t"
        "addc.cc.u32 %7, %7, %18;\n\t"
        "addc.u32 %8, %8, %10;"
        : "+&r"(T[0]), "+&r"(T[1]), "+&r"(T[2]), "+&r"(T[3]), "+&r"(T[4]), "+&r"(T[5]), "+&r"(T[6]),
          "+&r"(T[7]), "+&r"(T[8]), "=&r"(cin)
        : "r"(neg), "r"(M[0] ^ neg), "r"(M[1] ^ neg), "r"(M[2] ^ neg), "r"(M[3] ^ neg), "r"(M[4] ^ neg),
          "r"(M[5] ^ neg), "r"(M[6] ^ neg), "r"(M[7] ^ neg));
    r[0] = L[0], r[1] = L[1], r[2] = L[2], r[3] = L[3];
    asm("add.cc.u32 %0, %12, %20;\n\t"
        "addc.cc.u32 %1, %13, %21;\n\t"
        "addc.cc.u32 %2, %14, %22;\n\t"
        "addc.cc.u32 %3, %15, %23;\n\t"
        "addc.cc.u32 %4, %16, %24;\n\t"
        "addc.cc.u32 %5, %17, %25;\n\t"
        "addc.cc.u32 %6, %18, %26;\n\t"
        "addc.cc.u32 %7, %19, %27;\n\t"
        "addc.cc.u32 %8, %28, %29;\n\t"
        "addc.cc.u32 %9, %30, 0;\n\t"
        "addc.cc.u32 %10, %31, 0;\n\t"
        "addc.u32 %11, %32, 0;"
        : "=&r"(r[4]), "=&r"(r[5]), "=&r"(r[6]), "=&r"(r[7]), "=&r"(r[8]), "=&r"(r[9]), "=&r"(r[10]),
          "=&r"(r[11]), "=&r"(r[12]), "=&r"(r[13]), "=&r"(r[14]), "=&r"(r[15])
        : "r"(L[4]), "r"(L[5]), "r"(L[6]), "r"(L[7]), "r"(H[0]), "r"(H[1]), "r"(H[2]), "r"(H[3]),
          "r"(T[0]), "r"(T[1]), "r"(T[2]), "r"(T[3]), "r"(T[4]), "r"(T[5]), "r"(T[6]), "r"(T[7]),
          "r"(H[4]), "r"(T[8]), "r"(H[5]), "r"(H[6]), "r"(H[7]));
#else
    (void)r, (void)a, (void)b;
    ptx_backend_called_on_host();
#endif
  }
  // 16-word square: the 28 cross products a_i*a_j (i < j) once, in rows of one lo and one hi chain (row i
  // adds into words 2i+1 .. i+8 and writes word i+9, untouched until then), doubled by one add chain over
  // words 1..15 (word 0 holds no cross product; the cross sum is below 2^511, so no bit leaves word 15),
  // then the 8 diagonal squares in one chain. Equals mul8x8(r, a, a) word for word.
  BX_HD static void sqr8(uint32_t r[16], const uint32_t a[8]) {
#if BX_ON_DEVICE
    BX_UNROLL
    for (int i = 0; i < 16; ++i) r[i] = 0;
    asm("mad.lo.cc.u32 %0, %8, %9, %0;\n\t"
        "madc.lo.cc.u32 %1, %8, %10, %1;\n\t"
        "madc.lo.cc.u32 %2, %8, %11, %2;\n\t"
        "madc.lo.cc.u32 %3, %8, %12, %3;\n\t"
        "madc.lo.cc.u32 %4, %8, %13, %4;\n\t"
        "madc.lo.cc.u32 %5, %8, %14, %5;\n\t"
        "madc.lo.cc.u32 %6, %8, %15, %6;\n\t"
        "addc.u32 %7, %7, 0;"
        : "+&r"(r[1]), "+&r"(r[2]), "+&r"(r[3]), "+&r"(r[4]), "+&r"(r[5]), "+&r"(r[6]), "+&r"(r[7]), "+&r"(r[8])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(a[4]), "r"(a[5]), "r"(a[6]), "r"(a[7]));
    asm("mad.hi.cc.u32 %0, %8, %9, %0;\n\t"
        "madc.hi.cc.u32 %1, %8, %10, %1;\n\t"
        "madc.hi.cc.u32 %2, %8, %11, %2;\n\t"
        "madc.hi.cc.u32 %3, %8, %12, %3;\n\t"
        "madc.hi.cc.u32 %4, %8, %13, %4;\n\t"
        "madc.hi.cc.u32 %5, %8, %14, %5;\n\t"
        "madc.hi.cc.u32 %6, %8, %15, %6;\n\t"
        "addc.u32 %7, 0, 0;"
        : "+&r"(r[2]), "+&r"(r[3]), "+&r"(r[4]), "+&r"(r[5]), "+&r"(r[6]), "+&r"(r[7]), "+&r"(r[8]), "=&r"(r[9])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(a[4]), "r"(a[5]), "r"(a[6]), "r"(a[7]));
    asm("mad.lo.cc.u32 %0, %7, %8, %0;\n\t"
        "madc.lo.cc.u32 %1, %7, %9, %1;\n\t"
        "madc.lo.cc.u32 %2, %7, %10, %2;\n\t"
        "madc.lo.cc.u32 %3, %7, %11, %3;\n\t"
        "madc.lo.cc.u32 %4, %7, %12, %4;\n\t"
        "madc.lo.cc.u32 %5, %7, %13, %5;\n\t"
        "addc.u32 %6, %6, 0;"
        : "+&r"(r[3]), "+&r"(r[4]), "+&r"(r[5]), "+&r"(r[6]), "+&r"(r[7]), "+&r"(r[8]), "+&r"(r[9])
        : "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(a[4]), "r"(a[5]), "r"(a[6]), "r"(a[7]));
    asm("mad.hi.cc.u32 %0, %7, %8, %0;\n\t"
        "madc.hi.cc.u32 %1, %7, %9, %1;\n\t"
        "madc.hi.cc.u32 %2, %7, %10, %2;\n\t"
        "madc.hi.cc.u32 %3, %7, %11, %3;\n\t"
        "madc.hi.cc.u32 %4, %7, %12, %4;\n\t"
        "madc.hi.cc.u32 %5, %7, %13, %5;\n\t"
        "addc.u32 %6, 0, 0;"
        : "+&r"(r[4]), "+&r"(r[5]), "+&r"(r[6]), "+&r"(r[7]), "+&r"(r[8]), "+&r"(r[9]), "=&r"(r[10])
        : "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(a[4]), "r"(a[5]), "r"(a[6]), "r"(a[7]));
    asm("mad.lo.cc.u32 %0, %6, %7, %0;\n\t"
        "madc.lo.cc.u32 %1, %6, %8, %1;\n\t"
        "madc.lo.cc.u32 %2, %6, %9, %2;\n\t"
        "madc.lo.cc.u32 %3, %6, %10, %3;\n\t"
        "madc.lo.cc.u32 %4, %6, %11, %4;\n\t"
        "addc.u32 %5, %5, 0;"
        : "+&r"(r[5]), "+&r"(r[6]), "+&r"(r[7]), "+&r"(r[8]), "+&r"(r[9]), "+&r"(r[10])
        : "r"(a[2]), "r"(a[3]), "r"(a[4]), "r"(a[5]), "r"(a[6]), "r"(a[7]));
    asm("mad.hi.cc.u32 %0, %6, %7, %0;\n\t"
        "madc.hi.cc.u32 %1, %6, %8, %1;\n\t"
        "madc.hi.cc.u32 %2, %6, %9, %2;\n\t"
        "madc.hi.cc.u32 %3, %6, %10, %3;\n\t"
        "madc.hi.cc.u32 %4, %6, %11, %4;\n\t"
        "addc.u32 %5, 0, 0;"
        : "+&r"(r[6]), "+&r"(r[7]), "+&r"(r[8]), "+&r"(r[9]), "+&r"(r[10]), "=&r"(r[11])
        : "r"(a[2]), "r"(a[3]), "r"(a[4]), "r"(a[5]), "r"(a[6]), "r"(a[7]));
    asm("mad.lo.cc.u32 %0, %5, %6, %0;\n\t"
        "madc.lo.cc.u32 %1, %5, %7, %1;\n\t"
        "madc.lo.cc.u32 %2, %5, %8, %2;\n\t"
        "madc.lo.cc.u32 %3, %5, %9, %3;\n\t"
        "addc.u32 %4, %4, 0;"
        : "+&r"(r[7]), "+&r"(r[8]), "+&r"(r[9]), "+&r"(r[10]), "+&r"(r[11])
        : "r"(a[3]), "r"(a[4]), "r"(a[5]), "r"(a[6]), "r"(a[7]));
    asm("mad.hi.cc.u32 %0, %5, %6, %0;\n\t"
        "madc.hi.cc.u32 %1, %5, %7, %1;\n\t"
        "madc.hi.cc.u32 %2, %5, %8, %2;\n\t"
        "madc.hi.cc.u32 %3, %5, %9, %3;\n\t"
        "addc.u32 %4, 0, 0;"
        : "+&r"(r[8]), "+&r"(r[9]), "+&r"(r[10]), "+&r"(r[11]), "=&r"(r[12])
        : "r"(a[3]), "r"(a[4]), "r"(a[5]), "r"(a[6]), "r"(a[7]));
    asm("mad.lo.cc.u32 %0, %4, %5, %0;\n\t"
        "madc.lo.cc.u32 %1, %4, %6, %1;\n\t"
        "madc.lo.cc.u32 %2, %4, %7, %2;\n\t"
        "addc.u32 %3, %3, 0;"
        : "+&r"(r[9]), "+&r"(r[10]), "+&r"(r[11]), "+&r"(r[12])
        : "r"(a[4]), "r"(a[5]), "r"(a[6]), "r"(a[7]));
    asm("mad.hi.cc.u32 %0, %4, %5, %0;\n\t"
        "madc.hi.cc.u32 %1, %4, %6, %1;\n\t"
        "madc.hi.cc.u32 %2, %4, %7, %2;\n\t"
        "addc.u32 %3, 0, 0;"
        : "+&r"(r[10]), "+&r"(r[11]), "+&r"(r[12]), "=&r"(r[13])
        : "r"(a[4]), "r"(a[5]), "r"(a[6]), "r"(a[7]));
    asm("mad.lo.cc.u32 %0, %3, %4, %0;\n\t"
        "madc.lo.cc.u32 %1, %3, %5, %1;\n\t"
        "addc.u32 %2, %2, 0;"
        : "+&r"(r[11]), "+&r"(r[12]), "+&r"(r[13])
        : "r"(a[5]), "r"(a[6]), "r"(a[7]));
    asm("mad.hi.cc.u32 %0, %3, %4, %0;\n\t"
        "madc.hi.cc.u32 %1, %3, %5, %1;\n\t"
        "addc.u32 %2, 0, 0;"
        : "+&r"(r[12]), "+&r"(r[13]), "=&r"(r[14])
        : "r"(a[5]), "r"(a[6]), "r"(a[7]));
    asm("mad.lo.cc.u32 %0, %2, %3, %0;\n\t"
        "addc.u32 %1, %1, 0;"
        : "+&r"(r[13]), "+&r"(r[14])
        : "r"(a[6]), "r"(a[7]));
    asm("mad.hi.cc.u32 %0, %2, %3, %0;\n\t"
        "addc.u32 %1, 0, 0;"
        : "+&r"(r[14]), "=&r"(r[15])
        : "r"(a[6]), "r"(a[7]));
    asm("add.cc.u32 %0, %0, %0;\n\t"
        "addc.cc.u32 %1, %1, %1;\n\t"
        "addc.cc.u32 %2, %2, %2;\n\t"
        "addc.cc.u32 %3, %3, %3;\n\t"
        "addc.cc.u32 %4, %4, %4;\n\t"
        "addc.cc.u32 %5, %5, %5;\n\t"
        "addc.cc.u32 %6, %6, %6;\n\t"
        "addc.cc.u32 %7, %7, %7;\n\t"
        "addc.cc.u32 %8, %8, %8;\n\t"
        "addc.cc.u32 %9, %9, %9;\n\t"
        "addc.cc.u32 %10, %10, %10;\n\t"
        "addc.cc.u32 %11, %11, %11;\n\t"
        "addc.cc.u32 %12, %12, %12;\n\t"
        "addc.cc.u32 %13, %13, %13;\n\t"
        "addc.u32 %14, %14, %14;"
        : "+&r"(r[1]), "+&r"(r[2]), "+&r"(r[3]), "+&r"(r[4]), "+&r"(r[5]), "+&r"(r[6]), "+&r"(r[7]), "+&r"(r[8]), "+&r"(r[9]), "+&r"(r[10]), "+&r"(r[11]), "+&r"(r[12]), "+&r"(r[13]), "+&r"(r[14]), "+&r"(r[15]));
    // Zoo stand-in for a compiler that coalesces "+r" operands known to hold equal values (ecvrf seed,
    // round 1): adjacent in-out words equal at entry act as one register, the later write wins. It needs
    // equal words, so random operands almost never trip it; small and structured values (1, 2^32, zero
    // limbs) do.
    uint32_t entry[16];
    const bool alias = BX_FAULT(ecvrf_ptx_inout_alias);
    if (alias) {
      BX_UNROLL
      for (int i = 0; i < 16; ++i) entry[i] = r[i];
    }
    asm("mad.lo.cc.u32 %0, %16, %16, %0;\n\t"
        "madc.hi.cc.u32 %1, %16, %16, %1;\n\t"
        "madc.lo.cc.u32 %2, %17, %17, %2;\n\t"
        "madc.hi.cc.u32 %3, %17, %17, %3;\n\t"
        "madc.lo.cc.u32 %4, %18, %18, %4;\n\t"
        "madc.hi.cc.u32 %5, %18, %18, %5;\n\t"
        "madc.lo.cc.u32 %6, %19, %19, %6;\n\t"
        "madc.hi.cc.u32 %7, %19, %19, %7;\n\t"
        "madc.lo.cc.u32 %8, %20, %20, %8;\n\t"
        "madc.hi.cc.u32 %9, %20, %20, %9;\n\t"
        "madc.lo.cc.u32 %10, %21, %21, %10;\n\t"
        "madc.hi.cc.u32 %11, %21, %21, %11;\n\t"
        "madc.lo.cc.u32 %12, %22, %22, %12;\n\t"
        "madc.hi.cc.u32 %13, %22, %22, %13;\n\t"
        "madc.lo.cc.u32 %14, %23, %23, %14;\n\t"
        "madc.hi.u32 %15, %23, %23, %15;"
        : "+&r"(r[0]), "+&r"(r[1]), "+&r"(r[2]), "+&r"(r[3]), "+&r"(r[4]), "+&r"(r[5]), "+&r"(r[6]), "+&r"(r[7]), "+&r"(r[8]), "+&r"(r[9]), "+&r"(r[10]), "+&r"(r[11]), "+&r"(r[12]), "+&r"(r[13]), "+&r"(r[14]), "+&r"(r[15])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(a[4]), "r"(a[5]), "r"(a[6]), "r"(a[7]));
    if (alias) {
      BX_UNROLL
      for (int i = 0; i < 15; ++i)
        if (entry[i] == entry[i + 1]) r[i] = r[i + 1];
    }
#else
    (void)r, (void)a;
    ptx_backend_called_on_host();
#endif
  }

  // The split52 contract of `portable`, on the FP64 pipe (DFMA, 64 per clock per SM on sm_90, beside the
  // integer pipes). Operands are doubles x * 2^-51; the product P = a*b is then P * 2^-102 in (-2, 2).
  //   ph = rz(6 + P 2^-102): [4, 8) has ulp 2^-50 = 2^52 units of P, so ph = 6 + floor(P / 2^52) 2^-50
  //        (rounding toward zero is floor on a positive sum) and bits(ph) = bits(6) + hi.
  //   s  = (6 + 2^-50) - ph = (1 - hi) 2^-50, exact.
  //   pl = rz(P 2^-102 + s) = 2^-50 + lo 2^-102 in [2^-50, 2^-49), exact (ulp 2^-102), so
  //        bits(pl) = bits(2^-50) + lo.
  // Biases per product: bits(6.0) on hi, bits(2^-50) on lo.
  using split52_operand_t = double;
  static constexpr uint64_t split52_hi_bias = 0x4018000000000000ULL;  // 6.0
  static constexpr uint64_t split52_lo_bias = 0x3cd0000000000000ULL;  // 2^-50
  // x in [-2^52, 2^52) -> x * 2^-51, exactly: the bit pattern u = x + 2^52 in [0, 2^53) reads as the
  // double u * 2^-1074 (subnormals and the lowest binade share that ulp), and u 2^-1074 2^1023 - 2 = x 2^-51.
  BX_HD static double split52_operand(int64_t x) {
#if BX_ON_DEVICE
    const double u = __longlong_as_double((long long)(uint64_t(x) + (uint64_t(1) << 52)));
    return __fma_rn(u, 0x1p1023, -2.0);
#else
    (void)x;
    ptx_backend_called_on_host();
#endif
  }
  BX_HD static void split52(uint64_t& hi, uint64_t& lo, double a, double b) {
#if BX_ON_DEVICE
    const bool nearest = BX_FAULT(fe51s_split_round_nearest);
    const double ph = nearest ? __fma_rn(a, b, 6.0) : __fma_rz(a, b, 6.0);
    const double s = __dsub_rn(6.0 + 0x1p-50, ph);
    const double pl = nearest ? __fma_rn(a, b, s) : __fma_rz(a, b, s);
    hi = uint64_t(__double_as_longlong(ph));
    lo = uint64_t(__double_as_longlong(pl));
#else
    (void)hi, (void)lo, (void)a, (void)b;
    ptx_backend_called_on_host();
#endif
  }
};

}  // namespace carry
}  // namespace bx
