/* bitexact plugin contracts: the C ABI through which an implementation from outside (a shared library,
 * loaded at run time with `--plugin path.so`) is checked exactly as bitexact's own variants are.
 *
 * A plugin exports one function, bx_plugin_entry_v1, returning a table of implementations. Each
 * implementation belongs to one family, runs on the host or on a CUDA device, states its contract and its
 * preconditions, and provides some of the family's operations in batches. bitexact builds the inputs
 * (from its case catalogues, and for a field with a declared limb form, limb vectors built from integers
 * at the corners of the bounds the plugin declares), calls the operations, and judges every output
 * against its own reference. An operation a check needs that the plugin does not provide is reported as
 * "not provided", never as a pass.
 *
 * Versioning: BX_PLUGIN_ABI_VERSION is the major version of this header. It changes, and with it the
 * entry point's name, whenever a struct below changes incompatibly; bitexact refuses a table whose
 * abi_version differs from its own, in one line naming both. Within one major version a struct only grows
 * at its end, and every struct but bx_plugin starts with struct_size (the sizeof the plugin was compiled
 * with; the impls array is walked with that stride): bitexact reads the fields that lie within the
 * plugin's struct_size, a field past it reads as not provided (NULL), and a struct_size smaller than the
 * struct's first version is refused, naming both. A family not listed in bx_family is refused with its
 * number.
 *
 * Memory: bitexact owns every buffer. Host operations receive host pointers; device operations receive
 * device pointers (cudaMalloc'd on the selected card, which is current when the call is made) and a
 * cudaStream_t as void*; bitexact synchronises the stream after the call. Buffers are surrounded by
 * guard bytes: writing past an output or into an input is a failure naming the operation and the batch.
 * An operation returns 0 on success; any other value is a failure of the cases of that call (never a
 * skip). Operations may be called from a forked child of the bitexact process and must not rely on
 * state created before the first call other than what the entry point returns.
 *
 * C99 or later, C++ 98 or later; no types beyond <stddef.h> and <stdint.h>. */
#ifndef BITEXACT_PLUGIN_H
#define BITEXACT_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#define BX_PLUGIN_ABI_VERSION 1
#define BX_PLUGIN_ENTRY_SYMBOL "bx_plugin_entry_v1"

#if defined(_WIN32)
#define BX_PLUGIN_EXPORT __declspec(dllexport)
#else
#define BX_PLUGIN_EXPORT __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- shared ------------------------------------------------------------------------------------ */

enum bx_family {
  BX_FAMILY_FIELD25519 = 1, /* arithmetic mod 2^255 - 19: struct bx_field25519_ops */
  BX_FAMILY_MD5Z = 2,       /* MD5 leading-zero search over a Q9 tunnel: struct bx_md5z_ops */
  BX_FAMILY_QPOW = 3,       /* Quantus proof of work (Poseidon2 over Goldilocks): struct bx_qpow_ops */
  BX_FAMILY_Q8PARITY = 4,   /* Q8_0 matrix-vector products and rmsnorm, bitwise or within NMSE: struct bx_q8parity_ops */
  BX_FAMILY_ECVRF = 5       /* the ECVRF-EDWARDS25519-SHA512-TAI miner pipeline: struct bx_ecvrf_ops */
};

enum bx_place {
  BX_PLACE_HOST = 0,  /* host pointers; runs on the CPU */
  BX_PLACE_DEVICE = 1 /* device pointers and a CUDA stream; runs on every selected GPU */
};

enum bx_contract {
  BX_CONTRACT_BIT_EXACT = 0,     /* canonical output equal to the reference on every input */
  BX_CONTRACT_CHARACTERISED = 1, /* lossy on purpose: contract_note states the deviation and its bound */
  BX_CONTRACT_BETWEEN_VARIANTS = 2 /* bitwise equal to another implementation named in contract_note */
};

/* One implementation. name: [A-Za-z0-9_.+-], at most 48 characters, unique within the library; its
 * variant name in every table is "<family>/<name>". */
typedef struct bx_impl {
  uint32_t struct_size;            /* sizeof(struct bx_impl) */
  const char* name;
  uint32_t family;                 /* enum bx_family */
  uint32_t place;                  /* enum bx_place */
  uint32_t contract;               /* enum bx_contract */
  const char* contract_note;        /* characterised / between-variants: the statement; else NULL */
  const char* const* preconditions; /* NULL-terminated list of what the caller must guarantee, in words
                                      (the machine-checked ones are fields of the family's table) */
  void* ctx;                       /* passed back to every operation */
  const void* ops;                 /* the family's table: const struct bx_field25519_ops* for field25519 */
} bx_impl;

typedef struct bx_plugin {
  uint32_t abi_version; /* BX_PLUGIN_ABI_VERSION: read before anything else */
  const char* name;     /* the library's name in reports */
  uint32_t impl_count;  /* 1..64 */
  const bx_impl* impls;
} bx_plugin;

/* The one symbol a plugin exports. Called once per load; the table must stay valid until unload. */
typedef const bx_plugin* (*bx_plugin_entry_fn)(void);
BX_PLUGIN_EXPORT const bx_plugin* bx_plugin_entry_v1(void);

/* ---- field25519 --------------------------------------------------------------------------------- */

/* Operations, in the numbering of provided-op masks (bit 1u << op). Unary ops ignore b (it is still a
 * valid buffer). mul_small multiplies by 121665. pow22523 raises to (p - 5) / 8. sqrt_ratio(u, v) is
 * ref10's: x = u v^3 (u v^7)^((p-5)/8); if v x^2 = u it returns x, if v x^2 = -u it returns x sqrt(-1), and
 * in both cases sets flags[i] = 1; otherwise it returns x unchanged and sets flags[i] = 0. No sign is
 * normalised: the root is exactly that computation's. */
enum bx_f25519_op {
  BX_F25519_ADD = 0,
  BX_F25519_SUB = 1,
  BX_F25519_NEG = 2,
  BX_F25519_MUL = 3,
  BX_F25519_SQR = 4,
  BX_F25519_MUL_SMALL = 5,
  BX_F25519_INVERT = 6,
  BX_F25519_POW22523 = 7,
  BX_F25519_SQRT_RATIO = 8,
  BX_F25519_CANONICAL = 9, /* canonical bytes only: out = a mod p (a read as its bits 0..254) */
  BX_F25519_OP_COUNT = 10
};
#define BX_F25519_MUL_SMALL_K 121665u

/* Byte-level input precondition of the canonical-encoding operations. */
enum bx_f25519_bytes_input {
  BX_F25519_IN_BELOW_2_255 = 0, /* bits 0..254 read, bit 255 ignored: every value below 2^255, p..2^255-1
                                   (non-canonical) included */
  BX_F25519_IN_CANONICAL = 1    /* the caller guarantees inputs below p with bit 255 clear */
};

/* A limb bound (fiat-crypto's convention): tight is what decode and most ops return, loose the sum of two
 * tights (what add returns and most ops accept), lazy2 the sum of two looses (accepted where declared). */
enum bx_bound { BX_BOUND_TIGHT = 0, BX_BOUND_LOOSE = 1, BX_BOUND_LAZY2 = 2 };

#define BX_MAX_LIMBS 32

/* The representation of a field element as the plugin holds it. Element i of a limb buffer is limb_count
 * consecutive limbs of limb_bits each (uint32_t/int32_t or uint64_t/int64_t, native endianness, limb 0
 * first). The integer it holds is X = sum_j limb_j * 2^weight[j] (limbs read as signed when is_signed);
 * the field element is X mod p, or X * 2^-montgomery_bits mod p in Montgomery form. Any positional radix
 * fits: 5 x 51, 10 x 25.5 (weights 0, 26, 51, ...), 4 x 64 saturated words (weights 0, 64, 128, 192; the
 * folding constant 38 is the implementation's business), with or without Montgomery form.
 * Bounds are inclusive maxima of |limb| per limb; a bound's array may be left all zero only for lazy2,
 * meaning "not declared". bitexact refuses a form whose bounds do not fit the limb width, whose weights do
 * not increase from 0, or whose tight bound cannot hold every value below p. */
typedef struct bx_limb_form {
  uint32_t struct_size;     /* sizeof(struct bx_limb_form) */
  uint32_t limb_count;      /* 1..BX_MAX_LIMBS */
  uint32_t limb_bits;       /* 32 or 64 */
  uint32_t is_signed;       /* limbs are two's complement */
  uint32_t montgomery_bits; /* 0: plain; k: the element is X * 2^-k mod p */
  uint32_t weight[BX_MAX_LIMBS];
  uint64_t tight[BX_MAX_LIMBS];
  uint64_t loose[BX_MAX_LIMBS];
  uint64_t lazy2[BX_MAX_LIMBS];
  /* What each op accepts (both operands) and returns, enum bx_bound, indexed by enum bx_f25519_op
   * (entry BX_F25519_CANONICAL unused: a limb form's encode accepts loose and returns bytes). */
  uint8_t op_in[BX_F25519_OP_COUNT];
  uint8_t op_out[BX_F25519_OP_COUNT];
} bx_limb_form;

typedef struct bx_field25519_ops {
  uint32_t struct_size; /* sizeof(struct bx_field25519_ops); tables of ABI 1.0 end after limb_decode */

  /* Canonical encodings: a, b, out are n x 32 bytes little-endian; out canonical (below p); flags n bytes
   * (sqrt_ratio's was_square, else unspecified). Provided ops: bit (1u << op) of bytes_ops. */
  uint32_t bytes_ops;
  uint32_t bytes_input; /* enum bx_f25519_bytes_input */
  int (*bytes_op)(void* ctx, uint32_t op, const uint8_t* a, const uint8_t* b, size_t n, uint8_t* out,
                  uint8_t* flags, void* stream);

  /* The limb form (NULL: none; then the limb fields below are unused). */
  const bx_limb_form* limb_form;
  /* One op on limb vectors within the form's op_in; out within op_out. Provided: bit (1u << op) of limb_ops
   * for op ADD..SQRT_RATIO (bit BX_F25519_CANONICAL is refused: that is limb_encode). */
  uint32_t limb_ops;
  int (*limb_op)(void* ctx, uint32_t op, const void* a, const void* b, size_t n, void* out, uint8_t* flags,
                 void* stream);
  /* encode: loose limbs -> canonical 32 bytes; decode: 32 bytes (bit 255 ignored) -> tight limbs. NULL: not
   * provided. */
  int (*limb_encode)(void* ctx, const void* a, size_t n, uint8_t* out, void* stream);
  int (*limb_decode)(void* ctx, const uint8_t* in, size_t n, void* out, void* stream);

  /* `bitexact bench field25519`'s dependent chains, so the plugin's multiply is timed in its own registers
   * beside bitexact's layouts (a batch op is bound by memory, not by the multiply). op is MUL or SQR; a, b,
   * out are n x 32 bytes, inputs canonical. Element i starts with x = a[i], y = b[i], then iters steps:
   * MUL: (x, y) <- (x * y, x); SQR: x <- x^2; out[i] = x canonical. bitexact times the whole call (decode
   * and encode count once per element against n * iters products) and checks out[] against its reference
   * and its own layouts on every round. NULL: not provided. */
  int (*bench_chain)(void* ctx, uint32_t op, const uint8_t* a, const uint8_t* b, size_t n, uint32_t iters, uint8_t* out,
                     void* stream);
} bx_field25519_ops;

/* ---- md5z -------------------------------------------------------------------------------------- */

/* docs/specs/md5z.md: a base is a 52-byte message (words m0..m12, little-endian; padded to one block with
 * m13 = 0x80, m14 = 416, m15 = 0) whose MD5 state has Q[10] = 0 and Q[11] = 0xffffffff. Candidate
 * (base, i), 0 <= i < 2^32, is the base with Q[9] = i and m8, m9, m12 recomputed by running steps 8, 9 and
 * 12 backwards; its zero count is the number of leading '0' digits of its digest printed in lowercase hex
 * (0..32). bitexact sends only bases to the operations below. */

/* The job-level form: the state a tunnel kernel precomputes once per base, filled by bitexact from its
 * reference (so a kernel is checked without its host code) and, where the plugin provides prepare, compared
 * with the plugin's own precomputation. */
typedef struct bx_md5z_job {
  uint32_t m[16];  /* the padded block's words m0..m15 of the base */
  uint32_t q[28];  /* q[k + 3] = Q[k] for k = -3..24 (Q[-3..0] the IV); q[12] (Q[9], the index) is 0 */
} bx_md5z_job;

typedef struct bx_md5z_hit {
  uint32_t index; /* the candidate's index */
  uint32_t zeros; /* its zero count */
} bx_md5z_hit;

typedef struct bx_md5z_ops {
  uint32_t struct_size;          /* sizeof(struct bx_md5z_ops) */
  uint32_t search_preconditions; /* none defined yet: 0 */

  /* MD5 of n messages: message i is data[offsets[i] .. offsets[i + 1]) (offsets has n + 1 entries);
   * digests n x 16 bytes. NULL: not provided. */
  int (*md5)(void* ctx, const uint8_t* data, const uint64_t* offsets, size_t n, uint8_t* digests, void* stream);
  /* The full digest (16 bytes) of candidate (base, indices[i]) along the implementation's own path, every
   * step run (no early exit). NULL: not provided. */
  int (*candidate_digests)(void* ctx, const uint8_t base[52], const uint32_t* indices, size_t n, uint8_t* digests, void* stream);
  /* Every index of [lo, hi) (0 <= lo < hi <= 2^32) whose zero count is at least threshold (1..32), with
   * that count, ascending by index, each once, into hits[0 .. min(found, capacity)); *found is the number
   * of such indices; when found > capacity bitexact calls again with capacity >= found. NULL: not provided. */
  int (*search)(void* ctx, const uint8_t base[52], uint64_t lo, uint64_t hi, uint32_t threshold, bx_md5z_hit* hits,
                uint64_t capacity, uint64_t* found, void* stream);
  /* The same search from the job-level form (the state bitexact computed). NULL: not provided. */
  int (*search_job)(void* ctx, const bx_md5z_job* job, uint64_t lo, uint64_t hi, uint32_t threshold, bx_md5z_hit* hits,
                    uint64_t capacity, uint64_t* found, void* stream);
  /* The plugin's own precomputation of a base into *job (host memory on both places: precomputation is
   * host code). NULL: not provided. */
  int (*prepare)(void* ctx, const uint8_t base[52], bx_md5z_job* job);
} bx_md5z_ops;

/* ---- qpow -------------------------------------------------------------------------------------- */

/* Goldilocks p = 2^64 - 2^32 + 1; the mining hash is docs/specs/qpow.md's: Poseidon2 (width 12, the
 * Quantus constants) in the qp-poseidon sponge over header || nonce, squeezed twice: 64 bytes, read
 * big-endian as a number below 2^512. Nonces are numbers below 2^512, passed as their 64-byte big-endian
 * seal; a nonce is valid when its hash is below the target (strictly) and it is not 0. */

/* Machine-checked preconditions of search (bits of search_preconditions). */
#define BX_QPOW_SEARCH_WITHIN_2_64 1u /* a request never crosses a multiple of 2^64: bitexact splits every range
                                         there (a miner whose prestate holds nonce bits 64..511 needs this) */

/* The job-level form of a search request: the state a miner's host precomputes per request (spec 6.1 and
 * 6.2), filled by bitexact from its reference for the request's first nonce `lo`, so a kernel is checked
 * without its host code; where the plugin provides prepare, its own precomputation is compared with it.
 * Lanes are canonical (below p). bitexact never sends a job-level request that crosses a multiple of 2^64
 * (where the prestate stops holding) or wraps past 2^512 - 1. */
typedef struct bx_qpow_job {
  uint8_t header[32];
  uint8_t lo[64];        /* the request's first nonce, big-endian */
  uint8_t target[64];    /* big-endian */
  uint64_t midstate[12]; /* the sponge state after absorbing B0 (the header) and B1 (nonce bits 511..256) */
  uint64_t prestate[12]; /* M_E(midstate + B2 lanes 0..5) + RC_init[0], lanes 6 and 7 (the low 64 bits) left out */
} bx_qpow_job;

typedef struct bx_qpow_ops {
  uint32_t struct_size; /* sizeof(struct bx_qpow_ops); tables of ABI 1.0 end after search */
  uint32_t search_preconditions;

  /* Field: out[i] = a[i] * b[i] mod p (gl_mul), a[i] + b[i] mod p (gl_add); inputs and outputs canonical
   * (below p). NULL: not provided. */
  int (*gl_mul)(void* ctx, const uint64_t* a, const uint64_t* b, size_t n, uint64_t* out, void* stream);
  int (*gl_add)(void* ctx, const uint64_t* a, const uint64_t* b, size_t n, uint64_t* out, void* stream);
  /* The permutation on n states of 12 canonical lanes -> 12 canonical lanes. NULL: not provided. */
  int (*permute)(void* ctx, const uint64_t* in, size_t n, uint64_t* out, void* stream);
  /* The mining hash of (header, nonces[i]): nonces n x 64 bytes, out n x 64 bytes. NULL: not provided. */
  int (*hash)(void* ctx, const uint8_t header[32], const uint8_t* nonces, size_t n, uint8_t* out, void* stream);
  /* Every valid nonce of [lo, lo + count), lo and target 64 bytes big-endian, 1 <= count < 2^64, the range
   * taken mod 2^512 (bitexact never sends a request that wraps past 2^512 - 1; 0 is never valid). Writes the offsets from lo,
   * ascending, each once, into offsets[0 .. min(found, capacity)) and sets *found to the number of valid
   * nonces; when found > capacity bitexact calls again with capacity >= found. NULL: not provided. */
  int (*search)(void* ctx, const uint8_t header[32], const uint8_t lo[64], uint64_t count, const uint8_t target[64],
                uint64_t* offsets, uint64_t capacity, uint64_t* found, void* stream);
  /* The same search from the job-level form (job in the place's memory: a device pointer on a GPU), count
   * nonces from job->lo. NULL: not provided. */
  int (*search_job)(void* ctx, const bx_qpow_job* job, uint64_t count, uint64_t* offsets, uint64_t capacity, uint64_t* found,
                    void* stream);
  /* The plugin's own precomputation: fills job->midstate and job->prestate for job->header and job->lo (host
   * memory on every place). NULL: not provided. */
  int (*prepare)(void* ctx, bx_qpow_job* job);
} bx_qpow_ops;

/* ---- q8parity ---------------------------------------------------------------------------------- */

/* docs/specs/q8parity.md: weights in ggml's Q8_0 (blocks of 34 bytes: an fp16 scale, then 32 int8 codes; a
 * row of k weights is k/32 blocks), fp32 activations, 1..8 tokens. Codes -128..127 and scales of every fp16
 * encoding (+-0, subnormals, +-inf, NaN) occur. The contract is the impl's:
 *   BX_CONTRACT_BIT_EXACT     the spec's one evaluation order of each op: every output equal bit for bit
 *                             (NaNs as a class);
 *   BX_CONTRACT_CHARACTERISED an order of its own: each output array within nmse_bound of the canonical
 *                             order's, by normalised mean squared error over the outputs whose reference is
 *                             finite; the others must match it in class (+inf, -inf or NaN): float32
 *                             overflow and NaN propagation are part of the operation, a different order
 *                             only moves the rounding. */
typedef struct bx_q8parity_ops {
  uint32_t struct_size; /* sizeof(struct bx_q8parity_ops) */
  uint32_t reserved;    /* 0 */
  double nmse_bound;    /* characterised: the bound (for example 1e-7); bit-exact: 0 */

  /* y[t rows + r] = sum over blocks b of d[r][b] * sum_i q[r][b][i] * x[t k + 32 b + i] for t < ntok (1..8),
   * r < rows; w: rows x k/32 blocks; k a positive multiple of 32. NULL: not provided. */
  int (*matvec)(void* ctx, const uint8_t* w, const float* x, uint64_t rows, uint64_t k, uint32_t ntok, float* y, void* stream);
  /* For each row i < nrows of n floats: y = x * (1 / sqrt(sum(x^2) / n + eps)) * w[i mod w_period], or
   * without the last factor when w is NULL. NULL: not provided. */
  int (*rmsnorm)(void* ctx, const float* x, const float* w, uint64_t n, uint64_t nrows, uint64_t w_period, float eps, float* y,
                 void* stream);
} bx_q8parity_ops;

/* ---- ecvrf ------------------------------------------------------------------------------------- */

/* docs/specs/field25519_ecvrf.md: ECVRF-EDWARDS25519-SHA512-TAI (RFC 9381). Points are 32-byte encodings,
 * scalars 32 bytes little-endian below 2^255. The miner's job: alpha = header (32 bytes) || LE64(nonce);
 * its score is beta's first 8 bytes read big-endian; a nonce is a hit when score < target (strictly). */

/* Verdicts of the strict decoder (RFC 8032 5.1.3 with the spec's rules 2.3 (a) and (b)). */
enum bx_ecvrf_decode_status {
  BX_ECVRF_DECODE_VALID = 0,
  BX_ECVRF_DECODE_Y_NOT_BELOW_P = 1, /* bits 0..254 >= p: never reduced */
  BX_ECVRF_DECODE_NOT_SQUARE = 2,    /* no x: not on the curve */
  BX_ECVRF_DECODE_X_ZERO_SIGN_SET = 3 /* x = 0 with bit 255 set */
};

typedef struct bx_ecvrf_hit {
  uint64_t nonce;
  uint64_t score;
} bx_ecvrf_hit;

typedef struct bx_ecvrf_ops {
  uint32_t struct_size;          /* sizeof(struct bx_ecvrf_ops) */
  uint32_t search_preconditions; /* none defined yet: 0 */

  /* The strict decoder on n encodings (in n x 32 bytes): status[i] (enum bx_ecvrf_decode_status) and, when
   * valid, the point's canonical encoding in out[32 i ..]. NULL: not provided. */
  int (*decode)(void* ctx, const uint8_t* in, size_t n, int32_t* status, uint8_t* out, void* stream);
  /* out[i] = P[i] + Q[i] (valid encodings, the identity and small-order points among them). NULL: not provided. */
  int (*add)(void* ctx, const uint8_t* p, const uint8_t* q, size_t n, uint8_t* out, void* stream);
  /* out[i] = k[i] * P[i]. NULL: not provided. */
  int (*scalar_mult)(void* ctx, const uint8_t* k, const uint8_t* p, size_t n, uint8_t* out, void* stream);
  /* beta[i] = proof_to_hash(Gamma[i]) = SHA-512(0x03 || 0x03 || encode(8 Gamma) || 0x00), 64 bytes. NULL: not provided. */
  int (*proof_to_hash)(void* ctx, const uint8_t* gamma, size_t n, uint8_t* beta, void* stream);
  /* The VRF output of n alphas of alpha_len (0..255) bytes each under (pk, x): ctr[i], the try-and-increment
   * counter that gave H (-1: none up to 255, beta then unspecified), and beta[i] (64 bytes). NULL: not provided. */
  int (*vrf_beta)(void* ctx, const uint8_t pk[32], const uint8_t x[32], const uint8_t* alphas, uint32_t alpha_len, size_t n,
                  int32_t* ctr, uint8_t* beta, void* stream);
  /* Every hit of [lo, lo + count) (1 <= count, lo + count <= 2^64) under (pk, x, header) with its score,
   * ascending by nonce, each once, into hits[0 .. min(found, capacity)); *found is the number of hits;
   * when found > capacity bitexact calls again with capacity >= found. NULL: not provided. */
  int (*search)(void* ctx, const uint8_t pk[32], const uint8_t x[32], const uint8_t header[32], uint64_t lo, uint64_t count,
                uint64_t target, bx_ecvrf_hit* hits, uint64_t capacity, uint64_t* found, void* stream);
} bx_ecvrf_ops;

#ifdef __cplusplus
}
#endif

#endif /* BITEXACT_PLUGIN_H */
