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
  // 16-word product, row-wise: t = a_i*b_j + r_{i+j} + carry never overflows 64 bits.
  BX_HD static void mul8x8(uint32_t r[16], const uint32_t a[8], const uint32_t b[8]) {
    for (int i = 0; i < 16; ++i) r[i] = 0;
    for (int i = 0; i < 8; ++i) {
      uint64_t t = 0;
      for (int j = 0; j < 8; ++j) {
        t += uint64_t(a[i]) * b[j] + r[i + j];
        r[i + j] = uint32_t(t);
        t >>= 32;
      }
      r[i + 8] = uint32_t(t);
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
  // 16-word product. Row i adds a_i*b into r[i..i+9]: one chain of lo halves (closed into r[i+8]),
  // then one chain of hi halves (closed into r[i+9]). Each chain writes a contiguous run of words,
  // each receiving exactly one product half plus CF (spec 1.2, "PTX form").
  BX_HD static void mul8x8(uint32_t r[16], const uint32_t a[8], const uint32_t b[8]) {
#if BX_ON_DEVICE
BX_UNROLL
    for (int i = 0; i < 16; ++i) r[i] = 0;
BX_UNROLL
    for (int i = 0; i < 8; ++i) {
      asm("mad.lo.cc.u32 %0, %9, %10, %0;\n\t"
          "madc.lo.cc.u32 %1, %9, %11, %1;\n\t"
          "madc.lo.cc.u32 %2, %9, %12, %2;\n\t"
          "madc.lo.cc.u32 %3, %9, %13, %3;\n\t"
          "madc.lo.cc.u32 %4, %9, %14, %4;\n\t"
          "madc.lo.cc.u32 %5, %9, %15, %5;\n\t"
          "madc.lo.cc.u32 %6, %9, %16, %6;\n\t"
          "madc.lo.cc.u32 %7, %9, %17, %7;\n\t"
          "addc.u32 %8, %8, 0;"
          : "+&r"(r[i]), "+&r"(r[i + 1]), "+&r"(r[i + 2]), "+&r"(r[i + 3]), "+&r"(r[i + 4]), "+&r"(r[i + 5]),
            "+&r"(r[i + 6]), "+&r"(r[i + 7]), "+&r"(r[i + 8])
          : "r"(a[i]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(b[4]), "r"(b[5]), "r"(b[6]),
            "r"(b[7]));
      uint32_t top;
      asm("mad.hi.cc.u32 %0, %9, %10, %0;\n\t"
          "madc.hi.cc.u32 %1, %9, %11, %1;\n\t"
          "madc.hi.cc.u32 %2, %9, %12, %2;\n\t"
          "madc.hi.cc.u32 %3, %9, %13, %3;\n\t"
          "madc.hi.cc.u32 %4, %9, %14, %4;\n\t"
          "madc.hi.cc.u32 %5, %9, %15, %5;\n\t"
          "madc.hi.cc.u32 %6, %9, %16, %6;\n\t"
          "madc.hi.cc.u32 %7, %9, %17, %7;\n\t"
          "addc.u32 %8, 0, 0;"
          : "+&r"(r[i + 1]), "+&r"(r[i + 2]), "+&r"(r[i + 3]), "+&r"(r[i + 4]), "+&r"(r[i + 5]), "+&r"(r[i + 6]),
            "+&r"(r[i + 7]), "+&r"(r[i + 8]), "=&r"(top)
          : "r"(a[i]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(b[4]), "r"(b[5]), "r"(b[6]),
            "r"(b[7]));
      // r[i+9] is still zero before row i (row i-1 reached r[i+8] only); after row 7 the carry out
      // of word 15 is zero because the product is below 2^512.
      if (i < 7) r[i + 9] = top;
    }
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
#else
    (void)r, (void)a;
    ptx_backend_called_on_host();
#endif
  }

};

}  // namespace carry
}  // namespace bx
