/* Arithmetic mod p = 2^255 - 19 on four saturated 64-bit words (the "existing kernel code" of an outside
 * author: a representation bitexact has no layout of). value = v[0] + v[1] 2^64 + v[2] 2^128 + v[3] 2^192.
 * 2^256 = 38 (mod p) folds the high half of a product; 2^255 = 19 folds bit 255.
 *   tight: value < 2^255 (v[3] <= 2^63 - 1)   what every op but add returns, what decode returns
 *   loose: value < 2^256 (any four words)      what add returns, what every op but add accepts
 * FE64_BUG plants one realistic bug (the negative controls):
 *   1  encode assumes a tight input and subtracts p once: wrong for loose values from 2p up
 *   2  sub drops the second borrow of its wrap-around: wrong only when b - a is within 38 of 2^256
 *   3  (fe64_plugin.c) add is declared to accept loose inputs, a precondition its plain sum does not meet */
#ifndef FE64_H
#define FE64_H
#include <stdint.h>

#ifndef FE64_BUG
#define FE64_BUG 0
#endif
/* The same code on the host and in CUDA kernels (fe64_plugin_cuda.cu). */
#ifdef __CUDACC__
#define FE64_HD __host__ __device__
#else
#define FE64_HD
#endif

typedef struct { uint64_t v[4]; } fe64;
typedef unsigned __int128 fe64_u128;

/* r + top 2^256 (top < 2^63) -> r tight. */
static inline FE64_HD void fe64_reduce(fe64* r, uint64_t top) {
  fe64_u128 c = (fe64_u128)top * 38;
  for (int i = 0; i < 4; ++i) c += r->v[i], r->v[i] = (uint64_t)c, c >>= 64;
  c *= 38; /* a wrap past 2^256 leaves r small: this second pass cannot carry out */
  for (int i = 0; i < 4; ++i) c += r->v[i], r->v[i] = (uint64_t)c, c >>= 64;
  for (int k = 0; k < 2; ++k) { /* fold bit 255 twice: the first fold may set it again */
    c = (fe64_u128)(r->v[3] >> 63) * 19;
    r->v[3] &= 0x7fffffffffffffffULL;
    for (int i = 0; i < 4; ++i) c += r->v[i], r->v[i] = (uint64_t)c, c >>= 64;
  }
}

/* tight + tight -> loose: a plain 256-bit sum (below 2^256 by the input bound, so no carry out). */
static inline FE64_HD void fe64_add(fe64* r, const fe64* a, const fe64* b) {
  fe64_u128 c = 0;
  for (int i = 0; i < 4; ++i) c += (fe64_u128)a->v[i] + b->v[i], r->v[i] = (uint64_t)c, c >>= 64;
}

/* loose - loose -> tight: a 256-bit difference; each borrow of 2^256 is taken back as 38. */
static inline FE64_HD void fe64_sub(fe64* r, const fe64* a, const fe64* b) {
  uint64_t borrow = 0;
  for (int i = 0; i < 4; ++i) {
    const fe64_u128 d = (fe64_u128)a->v[i] - b->v[i] - borrow;
    r->v[i] = (uint64_t)d, borrow = (uint64_t)(d >> 64) & 1;
  }
  for (int pass = 0; pass < (FE64_BUG == 2 ? 1 : 2) && borrow; ++pass) {
    uint64_t sub = 38;
    borrow = 0;
    for (int i = 0; i < 4; ++i) {
      const fe64_u128 d = (fe64_u128)r->v[i] - sub - borrow;
      r->v[i] = (uint64_t)d, borrow = (uint64_t)(d >> 64) & 1, sub = 0;
    }
  }
  fe64_reduce(r, 0);
}

/* loose x loose -> tight: 4 x 4 schoolbook, high half folded by 38. */
static inline FE64_HD void fe64_mul(fe64* r, const fe64* a, const fe64* b) {
  uint64_t t[8] = {0};
  for (int i = 0; i < 4; ++i) {
    fe64_u128 c = 0;
    for (int j = 0; j < 4; ++j) c += (fe64_u128)a->v[i] * b->v[j] + t[i + j], t[i + j] = (uint64_t)c, c >>= 64;
    t[i + 4] = (uint64_t)c;
  }
  fe64_u128 c = 0;
  for (int i = 0; i < 4; ++i) c += (fe64_u128)t[i + 4] * 38 + t[i], r->v[i] = (uint64_t)c, c >>= 64;
  fe64_reduce(r, (uint64_t)c);
}

static inline FE64_HD void fe64_mul_small(fe64* r, const fe64* a, uint64_t k) {
  fe64_u128 c = 0;
  for (int i = 0; i < 4; ++i) c += (fe64_u128)a->v[i] * k, r->v[i] = (uint64_t)c, c >>= 64;
  fe64_reduce(r, (uint64_t)c);
}

/* a^e for a 255-bit exponent given as four words; loose in, tight out. */
static inline FE64_HD void fe64_pow(fe64* r, const fe64* a, const uint64_t e[4]) {
  fe64 x = *a, acc = {{1, 0, 0, 0}};
  for (int bit = 0; bit < 256; ++bit) {
    if (e[bit / 64] >> (bit % 64) & 1) fe64_mul(&acc, &acc, &x);
    fe64_mul(&x, &x, &x);
  }
  *r = acc;
}

/* loose -> 32 canonical bytes. */
static inline FE64_HD void fe64_encode(uint8_t out[32], const fe64* a) {
  fe64 r = *a;
  if (FE64_BUG != 1) fe64_reduce(&r, 0);
  const uint64_t p[4] = {0xffffffffffffffedULL, ~0ULL, ~0ULL, 0x7fffffffffffffffULL};
  fe64 s;
  uint64_t borrow = 0;
  for (int i = 0; i < 4; ++i) {
    const fe64_u128 d = (fe64_u128)r.v[i] - p[i] - borrow;
    s.v[i] = (uint64_t)d, borrow = (uint64_t)(d >> 64) & 1;
  }
  if (!borrow) r = s; /* r >= p */
  for (int i = 0; i < 4; ++i)
    for (int k = 0; k < 8; ++k) out[8 * i + k] = (uint8_t)(r.v[i] >> (8 * k));
}

/* 32 bytes, bit 255 ignored -> tight. */
static inline FE64_HD void fe64_decode(fe64* r, const uint8_t in[32]) {
  for (int i = 0; i < 4; ++i) {
    r->v[i] = 0;
    for (int k = 0; k < 8; ++k) r->v[i] |= (uint64_t)in[8 * i + k] << (8 * k);
  }
  r->v[3] &= 0x7fffffffffffffffULL;
}

static inline FE64_HD int fe64_equal(const fe64* a, const fe64* b) {
  uint8_t x[32], y[32], d = 0;
  fe64_encode(x, a), fe64_encode(y, b);
  for (int i = 0; i < 32; ++i) d |= x[i] ^ y[i];
  return d == 0;
}

#endif
