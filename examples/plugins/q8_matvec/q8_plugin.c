/* Q8_0 matrix-vector products and rmsnorm as a plugin, written the way a backend author writes them in
 * plain C: a hand-written fp16 decode, the block loop, 32 lanes for the sum of squares. Built with
 * -ffp-contract=off (the spec's build rule: a compiler that fuses a*b+c on its own changes bits).
 *   Q8_ORDER 0  the spec's canonical order of both ops: declared bit-exact, compared bit for bit;
 *   Q8_ORDER 1  an order of its own (four partial sums per block, one running sum of squares): declared
 *               characterised with an NMSE bound of 1e-7 against the canonical order.
 * Q8_BUG plants one realistic bug (the negative controls):
 *   1  the block sum rounds the product and the sum separately (q * x + s, no fma)
 *   2  rmsnorm multiplies x by (r * w) instead of (x * r) * w
 *   3  the fp16 decode flushes subnormal scales to zero
 *   4  (with Q8_ORDER 1) the last block of every row is skipped: far outside the stated NMSE bound */
#include <bitexact/plugin.h>
#include <math.h>
#include <string.h>

#ifndef Q8_ORDER
#define Q8_ORDER 0
#endif
#ifndef Q8_BUG
#define Q8_BUG 0
#endif
#ifndef Q8_PLUGIN_NAME
#define Q8_PLUGIN_NAME "q8-c"
#endif

static float fp16_to_float(uint16_t h) {
  const uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 31, man = h & 1023;
  uint32_t bits;
  if (exp == 31) {
    bits = sign | 0x7f800000u | (man << 13); /* inf, NaN (payload kept) */
  } else if (exp == 0) {
#if Q8_BUG == 3
    bits = sign;
#else
    float f = (float)man * 0x1p-24f; /* subnormal: man * 2^-24, exact in float */
    memcpy(&bits, &f, 4);
    bits |= sign;
#endif
  } else {
    bits = sign | ((exp + 112) << 23) | (man << 13);
  }
  float f;
  memcpy(&f, &bits, 4);
  return f;
}

static float block_sum(const uint8_t* blk, const float* x) {
  const int8_t* q = (const int8_t*)(blk + 2);
#if Q8_ORDER == 1
  float s4[4] = {0, 0, 0, 0};
  for (int i = 0; i < 32; ++i) s4[i & 3] = fmaf((float)q[i], x[i], s4[i & 3]);
  return (s4[0] + s4[1]) + (s4[2] + s4[3]);
#else
  float s = 0;
  for (int i = 0; i < 32; ++i) {
#if Q8_BUG == 1
    s = (float)q[i] * x[i] + s;
#else
    s = fmaf((float)q[i], x[i], s);
#endif
  }
  return s;
#endif
}

static int matvec(void* ctx, const uint8_t* w, const float* x, uint64_t rows, uint64_t k, uint32_t ntok, float* y, void* stream) {
  (void)ctx, (void)stream;
  if (k == 0 || k % 32 || ntok < 1 || ntok > 8) return 1;
  const uint64_t blocks = k / 32;
#if Q8_BUG == 4
  const uint64_t used = blocks - 1;
#else
  const uint64_t used = blocks;
#endif
  for (uint32_t t = 0; t < ntok; ++t)
    for (uint64_t r = 0; r < rows; ++r) {
      float acc = 0;
      for (uint64_t b = 0; b < used; ++b) {
        const uint8_t* blk = w + (r * blocks + b) * 34;
        const float d = fp16_to_float((uint16_t)(blk[0] | blk[1] << 8));
        acc = fmaf(d, block_sum(blk, x + t * k + 32 * b), acc);
      }
      y[t * rows + r] = acc;
    }
  return 0;
}

static int rmsnorm(void* ctx, const float* x, const float* w, uint64_t n, uint64_t nrows, uint64_t w_period, float eps, float* y,
                   void* stream) {
  (void)ctx, (void)stream;
  if (n == 0 || w_period == 0) return 1;
  for (uint64_t row = 0; row < nrows; ++row) {
    const float* xr = x + row * n;
    const float* wr = w ? w + (row % w_period) * n : NULL;
#if Q8_ORDER == 1
    float ss = 0;
    for (uint64_t j = 0; j < n; ++j) ss = fmaf(xr[j], xr[j], ss);
#else
    float lane[32] = {0};
    for (uint64_t j = 0; j < n; ++j) lane[j % 32] = fmaf(xr[j], xr[j], lane[j % 32]);
    for (int o = 16; o >= 1; o >>= 1) { /* xor butterfly: every lane ends with the same sum */
      float next[32];
      for (int l = 0; l < 32; ++l) next[l] = lane[l] + lane[l ^ o];
      memcpy(lane, next, sizeof lane);
    }
    const float ss = lane[0];
#endif
    const float r = 1.0f / sqrtf(ss / (float)n + eps);
    for (uint64_t i = 0; i < n; ++i) {
#if Q8_BUG == 2
      y[row * n + i] = wr ? xr[i] * (r * wr[i]) : xr[i] * r;
#else
      y[row * n + i] = wr ? (xr[i] * r) * wr[i] : xr[i] * r;
#endif
    }
  }
  return 0;
}

static const bx_q8parity_ops kOps = {sizeof(bx_q8parity_ops), 0, Q8_ORDER == 1 ? 1e-7 : 0.0, matvec, rmsnorm};
static const bx_impl kImpl = {sizeof(bx_impl), Q8_PLUGIN_NAME, BX_FAMILY_Q8PARITY, BX_PLACE_HOST,
                              Q8_ORDER == 1 ? BX_CONTRACT_CHARACTERISED : BX_CONTRACT_BIT_EXACT,
                              Q8_ORDER == 1 ? "four partial sums per block; NMSE <= 1e-7 against the canonical order" : NULL, NULL, NULL, &kOps};
static const bx_plugin kPlugin = {BX_PLUGIN_ABI_VERSION, "q8-example", 1, &kImpl};

BX_PLUGIN_EXPORT const bx_plugin* bx_plugin_entry_v1(void) { return &kPlugin; }
