/* The adapter that puts fe64.h under bitexact: a limb form (what the representation is and what each op
 * accepts and returns), batch loops over the operations (fe64_ops.h maps the contract's op numbers to
 * fe64.h), and the table bitexact loads. These two files are the whole cost of "every check bitexact's
 * own layouts get" for a new representation. */
#include <bitexact/plugin.h>

#include "fe64_ops.h"

#ifndef FE64_PLUGIN_NAME
#define FE64_PLUGIN_NAME "fe64-saturated"
#endif

#define W64 0xffffffffffffffffULL
#define T 0 /* BX_BOUND_TIGHT */
#define L 1 /* BX_BOUND_LOOSE */

static const bx_limb_form form = {
    .struct_size = sizeof(bx_limb_form),
    .limb_count = 4,
    .limb_bits = 64,
    .is_signed = 0,
    .montgomery_bits = 0,
    .weight = {0, 64, 128, 192},
    .tight = {W64, W64, W64, 0x7fffffffffffffffULL},
    .loose = {W64, W64, W64, W64},
    .lazy2 = {0},
    /* add: tight in, loose out; every other op: loose in, tight out (FE64_BUG 3 widens add's input
     * to loose, a precondition its plain 256-bit sum does not meet). */
    .op_in = {FE64_BUG == 3 ? L : T, L, L, L, L, L, L, L, L},
    .op_out = {L, T, T, T, T, T, T, T, T},
};

static int limb_op(void* ctx, uint32_t op, const void* a, const void* b, size_t n, void* out, uint8_t* flags, void* stream) {
  (void)ctx, (void)stream;
  const fe64 *x = (const fe64*)a, *y = (const fe64*)b;
  for (size_t i = 0; i < n; ++i) flags[i] = fe64_apply(op, (fe64*)out + i, x + i, y + i);
  return 0;
}

static int limb_encode(void* ctx, const void* a, size_t n, uint8_t* out, void* stream) {
  (void)ctx, (void)stream;
  for (size_t i = 0; i < n; ++i) fe64_encode(out + 32 * i, (const fe64*)a + i);
  return 0;
}

static int limb_decode(void* ctx, const uint8_t* in, size_t n, void* out, void* stream) {
  (void)ctx, (void)stream;
  for (size_t i = 0; i < n; ++i) fe64_decode((fe64*)out + i, in + 32 * i);
  return 0;
}

/* Canonical bytes: decode, the op, encode (add's loose result is accepted by encode). */
static int bytes_op(void* ctx, uint32_t op, const uint8_t* a, const uint8_t* b, size_t n, uint8_t* out, uint8_t* flags, void* stream) {
  (void)ctx, (void)stream;
  for (size_t i = 0; i < n; ++i) {
    fe64 x, y, r;
    fe64_decode(&x, a + 32 * i), fe64_decode(&y, b + 32 * i);
    flags[i] = fe64_apply(op, &r, &x, &y);
    fe64_encode(out + 32 * i, &r);
  }
  return 0;
}

static int bench_chain(void* ctx, uint32_t op, const uint8_t* a, const uint8_t* b, size_t n, uint32_t iters, uint8_t* out, void* stream) {
  (void)ctx, (void)stream;
  for (size_t i = 0; i < n; ++i) fe64_chain(op, out + 32 * i, a + 32 * i, b + 32 * i, iters);
  return 0;
}

static const bx_field25519_ops ops = {
    .struct_size = sizeof(bx_field25519_ops),
    .bytes_ops = (1u << BX_F25519_OP_COUNT) - 1,
    .bytes_input = BX_F25519_IN_BELOW_2_255,
    .bytes_op = bytes_op,
    .limb_form = &form,
    .limb_ops = (1u << BX_F25519_CANONICAL) - 1,
    .limb_op = limb_op,
    .limb_encode = limb_encode,
    .limb_decode = limb_decode,
    .bench_chain = bench_chain,
};

static const char* const preconditions[] = {"limb inputs within the bounds the limb form declares", NULL};

static const bx_impl impls[] = {{
    .struct_size = sizeof(bx_impl),
    .name = FE64_PLUGIN_NAME,
    .family = BX_FAMILY_FIELD25519,
    .place = BX_PLACE_HOST,
    .contract = BX_CONTRACT_BIT_EXACT,
    .contract_note = NULL,
    .preconditions = preconditions,
    .ctx = NULL,
    .ops = &ops,
}};

static const bx_plugin plugin = {BX_PLUGIN_ABI_VERSION, "fe64-example", 1, impls};

BX_PLUGIN_EXPORT const bx_plugin* bx_plugin_entry_v1(void) { return &plugin; }
