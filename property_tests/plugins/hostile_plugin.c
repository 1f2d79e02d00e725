/* Plugins that misbehave, one way per HOSTILE value, for the loader's and the isolation's tests: each must
 * give bitexact one clear line naming the plugin (and, for a call, the operation and the batch), never a
 * crash or hang of bitexact itself, and the run goes on with the other implementations.
 *   1 ABI version 99        2 weights that do not increase   3 mul crashes (SIGSEGV)
 *   4 mul never returns     5 mul writes past its output     6 mul returns an error code
 *   7 mul writes into an input                               8 no operation provided
 *   9 a limb form whose tight bound cannot hold every digit of limb 0
 *  10 an md5z search that returns success without writing its hit count (outputs start as 0x5b bytes, so
 *     the count reads as garbage and breaks the contract; zeroed outputs would have read "no hits")
 *  11 a qpow table of ABI 1.0's size (ending after search): read, the later fields as not provided
 *  12 a qpow table whose struct_size is smaller than ABI 1.0's: refused
 *  13 a field25519 bench_chain whose loop never runs (out = a: fast, and wrong on every round's parity)
 *  14 a field25519 bench_chain that crashes (SIGSEGV)
 *  15 an ecvrf search that reports no hit at once (fast, and wrong on every round's parity) */
#include <bitexact/plugin.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

static int bytes_op(void* ctx, uint32_t op, const uint8_t* a, const uint8_t* b, size_t n, uint8_t* out, uint8_t* flags, void* stream) {
  (void)ctx, (void)op, (void)b, (void)flags, (void)stream;
  switch (HOSTILE) {
    case 3: raise(SIGSEGV); break;
    case 4: for (;;) pause();
    case 5: memset(out, 0, 32 * n + 1); break;
    case 6: return 7;
    case 7: ((uint8_t*)a)[0] ^= 1; break;
    default: break;
  }
  memset(out, 0, 32 * n);
  return 0;
}

static int bench_chain(void* ctx, uint32_t op, const uint8_t* a, const uint8_t* b, size_t n, uint32_t iters, uint8_t* out, void* stream) {
  (void)ctx, (void)op, (void)b, (void)iters, (void)stream;
  if (HOSTILE == 14) raise(SIGSEGV);
  memcpy(out, a, 32 * n);
  return 0;
}

static const bx_limb_form form = {
    .struct_size = sizeof(bx_limb_form), .limb_count = 2, .limb_bits = 64, .weight = {0, 0},
    .tight = {1, 1}, .loose = {1, 1},
};
/* 5 x 51 with limb 0 bounded by 2^50: the weighted sum reaches p, yet 2^51 - 1 has no tight form. */
static const bx_limb_form narrow = {
    .struct_size = sizeof(bx_limb_form), .limb_count = 5, .limb_bits = 64, .weight = {0, 51, 102, 153, 204},
    .tight = {1ull << 50, (1ull << 51) - 1, (1ull << 51) - 1, (1ull << 51) - 1, 1ull << 60},
    .loose = {1ull << 52, 1ull << 52, 1ull << 52, 1ull << 52, 1ull << 61},
};

static const bx_field25519_ops ops = {
    .struct_size = sizeof(bx_field25519_ops),
    .bytes_ops = HOSTILE == 8 ? 0 : 1u << BX_F25519_MUL,
    .bytes_op = bytes_op,
    .limb_form = HOSTILE == 2 ? &form : HOSTILE == 9 ? &narrow : NULL,
    .bench_chain = HOSTILE >= 13 ? bench_chain : NULL,
};

static int silent_search(void* ctx, const uint8_t base[52], uint64_t lo, uint64_t hi, uint32_t threshold, bx_md5z_hit* hits,
                         uint64_t capacity, uint64_t* found, void* stream) {
  (void)ctx, (void)base, (void)lo, (void)hi, (void)threshold, (void)hits, (void)capacity, (void)found, (void)stream;
  return 0;
}
static const bx_md5z_ops md5z_ops = {.struct_size = sizeof(bx_md5z_ops), .search = silent_search};

static int gl_mul(void* ctx, const uint64_t* a, const uint64_t* b, size_t n, uint64_t* out, void* stream) {
  (void)ctx, (void)a, (void)b, (void)stream;
  memset(out, 0, 8 * n);
  return 0;
}
static const bx_qpow_ops qpow_ops = {.struct_size = HOSTILE == 12 ? 8 : (uint32_t)offsetof(bx_qpow_ops, search_job), .gl_mul = gl_mul};

static int no_hits(void* ctx, const uint8_t pk[32], const uint8_t x[32], const uint8_t header[32], uint64_t lo, uint64_t count,
                   uint64_t target, bx_ecvrf_hit* hits, uint64_t capacity, uint64_t* found, void* stream) {
  (void)ctx, (void)pk, (void)x, (void)header, (void)lo, (void)count, (void)target, (void)hits, (void)capacity, (void)stream;
  *found = 0;
  return 0;
}
static const bx_ecvrf_ops ecvrf_ops = {.struct_size = sizeof(bx_ecvrf_ops), .search = no_hits};

static const bx_impl impls[] = {{sizeof(bx_impl), "hostile",
                                 HOSTILE == 10 ? BX_FAMILY_MD5Z : HOSTILE == 15 ? BX_FAMILY_ECVRF : HOSTILE == 11 || HOSTILE == 12 ? BX_FAMILY_QPOW : BX_FAMILY_FIELD25519, BX_PLACE_HOST,
                                 BX_CONTRACT_BIT_EXACT, NULL, NULL, NULL,
                                 HOSTILE == 10 ? (const void*)&md5z_ops : HOSTILE == 15 ? (const void*)&ecvrf_ops : HOSTILE == 11 || HOSTILE == 12 ? (const void*)&qpow_ops : (const void*)&ops}};
static const bx_plugin plugin = {HOSTILE == 1 ? 99 : BX_PLUGIN_ABI_VERSION, "hostile", 1, impls};

BX_PLUGIN_EXPORT const bx_plugin* bx_plugin_entry_v1(void) { return &plugin; }
