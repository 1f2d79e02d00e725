/* The plugin contract's operations on fe64 (fe64.h), by the contract's op numbers: shared by the host
 * plugin (fe64_plugin.c) and the CUDA one (fe64_plugin_cuda.cu). Returns sqrt_ratio's was_square, else 1.
 * Inputs loose, outputs tight, but add: tight inputs, loose output. */
#ifndef FE64_OPS_H
#define FE64_OPS_H
#include <bitexact/plugin.h>

#include "fe64.h"

/* RFC 8032's x = u v^3 (u v^7)^((p-5)/8), fixed by sqrt(-1) when v x^2 = -u. */
static inline FE64_HD uint8_t fe64_sqrt_ratio(fe64* x, const fe64* u, const fe64* v) {
  const uint64_t p_minus_5_over_8[4] = {0xfffffffffffffffdULL, ~0ULL, ~0ULL, 0x0fffffffffffffffULL};
  const fe64 sqrt_m1 = {{0xc4ee1b274a0ea0b0ULL, 0x2f431806ad2fe478ULL, 0x2b4d00993dfbd7a7ULL, 0x2b8324804fc1df0bULL}};
  fe64 v2, v3, v7, t, vx2, neg_u, zero = {{0}};
  fe64_mul(&v2, v, v), fe64_mul(&v3, &v2, v), fe64_mul(&v7, &v3, &v3), fe64_mul(&v7, &v7, v);
  fe64_mul(&t, u, &v7), fe64_pow(&t, &t, p_minus_5_over_8);
  fe64_mul(x, u, &v3), fe64_mul(x, x, &t);
  fe64_mul(&vx2, x, x), fe64_mul(&vx2, &vx2, v);
  fe64_sub(&neg_u, &zero, u);
  if (fe64_equal(&vx2, u)) return 1;
  if (fe64_equal(&vx2, &neg_u)) return fe64_mul(x, x, &sqrt_m1), 1;
  return 0;
}

static inline FE64_HD uint8_t fe64_apply(uint32_t op, fe64* r, const fe64* a, const fe64* b) {
  const uint64_t p_minus_2[4] = {0xffffffffffffffebULL, ~0ULL, ~0ULL, 0x7fffffffffffffffULL};
  const uint64_t p_minus_5_over_8[4] = {0xfffffffffffffffdULL, ~0ULL, ~0ULL, 0x0fffffffffffffffULL};
  const fe64 zero = {{0}};
  switch (op) {
    case BX_F25519_ADD: fe64_add(r, a, b); return 1;
    case BX_F25519_SUB: fe64_sub(r, a, b); return 1;
    case BX_F25519_NEG: fe64_sub(r, &zero, a); return 1;
    case BX_F25519_MUL: fe64_mul(r, a, b); return 1;
    case BX_F25519_SQR: fe64_mul(r, a, a); return 1;
    case BX_F25519_MUL_SMALL: fe64_mul_small(r, a, BX_F25519_MUL_SMALL_K); return 1;
    case BX_F25519_INVERT: fe64_pow(r, a, p_minus_2); return 1;
    case BX_F25519_POW22523: fe64_pow(r, a, p_minus_5_over_8); return 1;
    case BX_F25519_SQRT_RATIO: return fe64_sqrt_ratio(r, a, b);
    default: *r = *a; return 1; /* BX_F25519_CANONICAL: encoded by the caller */
  }
}

/* bench_chain on one element: MUL steps (x, y) <- (x y, x), SQR steps x <- x^2, from canonical a, b. */
static inline FE64_HD void fe64_chain(uint32_t op, uint8_t out[32], const uint8_t a[32], const uint8_t b[32], uint32_t iters) {
  fe64 x, y, x0;
  fe64_decode(&x, a), fe64_decode(&y, b);
  for (uint32_t k = 0; k < iters; ++k) {
    if (op == BX_F25519_SQR) {
      fe64_mul(&x, &x, &x);
    } else {
      x0 = x, fe64_mul(&x, &x, &y), y = x0;
    }
  }
  fe64_encode(out, &x);
}

#endif
