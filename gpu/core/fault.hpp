// The fault zoo: BX_FAULT(name) plants a named, historically real bug.
// Normal builds: a compile-time false, so the planted branch is dead code and costs nothing.
// Zoo builds (-DBX_ZOO): a run-time switch read from the environment variable BX_FAULT on the host
// and from a __constant__ copy on the device (launchers call bx_sync_fault_to_device()).
#pragma once

// X-macro: family, name, where the planted code runs, description. where: shared (BX_HD code, run on the
// CPU and on GPUs), host (code that runs on the CPU only: host searches, host-side MD5, the per-base
// tunnel precomputation), device (device-only code such as
// the PTX backend, planted only on a GPU). Grouped by family; a new family adds
// its rows here. `bitexact list --faults --json` lists them; ci/zoo fails unless `selftest` and some other
// check of the family catch each one.
#define BX_FAULT_LIST(X)                                                                               \
  X(field25519, fe29_sub_bias_8p, shared, "9x29 subtraction biased with 8p instead of 1024p (top bias limb 2^26 wraps)")    \
  X(field25519, fe32_ptx_mul_drop_final_fold, device, "8x32 PTX multiply drops the third fold (limb0 += 38c), rarely taken") \
  X(field25519, fe32_karatsuba_sign_ignored, shared, "8x32 Karatsuba multiply adds |a0-a1||b1-b0| when the signs differ (the middle term's sign lost)") \
  X(field25519, fe32_sqr_diagonal_carry_dropped, shared, "8x32 dedicated squaring drops the carry into the high half of a_3^2") \
  X(field25519, fe32_canon_single_pass, shared, "8x32 canonicalisation subtracts p once where twice can be needed")         \
  X(field25519, fe32_canon_mask_wrong_limb, shared, "8x32 canonicalisation masks limb 7 instead of limb 6 (TweetNaCl 2013)") \
  X(field25519, fe51_sub_2p_on_loose, shared, "5x51 subtraction applies the 2p bias to unreduced operands (donna sub)")     \
  X(field25519, fe51s_split_hi_not_doubled, shared, "5x51 signed: the high half of a product split at 2^52 enters the next radix-2^51 column once instead of twice") \
  X(field25519, fe51s_split_hi_truncated, shared, "5x51 signed, 128-bit product split: hi = P / 2^52 truncates toward zero instead of flooring, so a negative product (not a multiple of 2^52) gains 2^52") \
  X(field25519, fe51s_split_round_nearest, device, "5x51 signed, FP64 product split: DFMA rounds to nearest instead of toward zero, so a negative low half reads as twice itself") \
  X(field25519, sqrt_ratio_wrong_branch, shared, "sqrt_ratio keeps x when v*x^2 = -u instead of multiplying by sqrt(-1)")     \
  X(md5z, md5z_zeros_no_bswap, shared, "md5z zero count uses clz(h0) without the byte swap")                           \
  X(md5z, md5z_early_exit_rejects_equal, shared, "md5z early exit on h0 rejects candidates with exactly T zeros")       \
  X(md5z, md5z_range_wrap, shared, "md5z launch plan computes slice ends in 32 bits: a range ending at 2^32 loses its last slice") \
  X(md5z, md5z_fold_wrong_word, shared, "md5z K+m fold of step 40 takes the previous step's word (m10 instead of m13)") \
  X(md5z, md5z_h1_skipped_when_h0_zero, shared, "md5z reports 8 zeros when h0 == 0 without computing h1 (steps 61..63)") \
  X(md5z, md5z_m12_stale_q9, shared, "md5z recomputes m12 with the base's Q[9] instead of the candidate's") \
  X(md5z, md5z_md5_pad_forgets_0x80, host, "MD5 padding sized without the 0x80 byte: lengths 56 mod 64 hash wrong") \
  X(md5z, md5z_tunnel_check_ignores_q11_bit31, host, "the tunnel's base check ignores bit 31 of Q[11] (accepts a non-base)") \
  X(md5z, md5z_launch_invalid_block, device, "md5z search launched with more threads per block than its launch bounds (the launch fails)") \
  X(md5z, md5z_lane_drops_last, shared, "md5z q9-v3: the second lane's range guard is off by one, so a launch ending in a thread's second lane loses its last index") \
  X(md5z, md5z_host_chunk_overlap, host, "host search chunks overlap by one index: hits at chunk ends reported twice") \
  X(qpow, qpow_sqr_drop_bit65, shared, "Goldilocks 2x32 squaring drops the 65th bit of 2*a0*a1 (word r3 loses 2^96)") \
  X(qpow, qpow_add_single_eps, shared, "Goldilocks add folds one EPS on a double overflow (both operands lazy)") \
  X(qpow, qpow_early_reject_tie_rejects, shared, "qpow early reject decides a tie on the top 64 bits as a reject") \
  X(qpow, qpow_bswap_before_canon, shared, "qpow output lane byte-swapped before canonicalisation (lazy p+v compared)") \
  X(qpow, qpow_midstate_across_2p256, shared, "qpow batch plan reuses a midstate across a 2^256 carry (shows where the prestate does not split: a 2^256 carry is also a 2^64 one)") \
  X(qpow, qpow_prestate_no_col6, shared, "qpow nonce injection leaves out column 6 (x6 not injected)") \
  X(qpow, qpow_prestate_across_2p64, shared, "qpow batch plan reuses a prestate across a 2^64 carry") \
  X(qpow, qpow_folded_rc_one_round_off, shared, "qpow folded round constants: the last internal layer folds RC_int[21] again, not RC_term[0]") \
  X(qpow, qpow_exact_final_borrow_slip, shared, "exact 2x32 reduce128 drops the final 64-bit borrow (the lossy engine's slip)") \
  X(qpow, qpow_deferred_borrow_uncounted, shared, "qpow deferred final borrow: a product reduction skips its correction without counting it, so the nonce is not recomputed") \
  X(qpow, qpow_nonce_little_endian, shared, "qpow absorbs the nonce little-endian (limb order reversed)") \
  X(qpow, qpow_felt_sponge_no_final_felt, host, "qpow felt sponge appends no finalisation felt 1 when the felts fill whole blocks (hash_twice, rehash_to_bytes)") \
  X(qpow, qpow_m4_row3_coefficients, shared, "Poseidon2 M4 row 3 computed as [1 1 1 4] instead of [3 1 1 2]") \
  X(qpow, qpow_hit_overflow_truncated, device, "qpow search keeps the first hits of an overflowing hit buffer instead of re-running the batch") \
  X(qpow, qpow_target_compare_le, shared, "qpow validity compares hash <= target instead of <") \
  X(q8parity, q8_contract_gate_mean, shared, "q8 fused gr read contracts the stream mean's xn * sigmoid + m into one fma (separate rounding)") \
  X(q8parity, q8_ftz_activation, shared, "q8 NR = 2 matvec flushes subnormal activations to zero (-ftz=true)") \
  X(q8parity, q8_unrolled_block_split, shared, "q8 unrolled matvec sums a block as two halves of 16 codes, then adds them") \
  X(q8parity, q8_nr2_drop_tail_row, shared, "q8 NR = 2 matvec drops the tail row of an odd row count") \
  X(q8parity, q8_rsqrtf, shared, "q8 hoisted rmsnorm uses rsqrtf (one approximate op) in place of 1 / sqrt") \
  X(q8parity, q8_packed_unsigned, shared, "q8 codes widened as unsigned bytes (a negative code q becomes q + 256)") \
  X(q8parity, q8_fp16_flush_subnormal, shared, "q8 fp16 scale conversion flushes subnormal scales to zero") \
  X(q8parity, q8_token_next_activations, shared, "q8 rolled token loop lets token t read token t + 1's activations") \
  X(ecvrf, ecvrf_neg_swap_only, shared, "negated cached point swaps Y+X and Y-X without negating 2dT (pycryptodome#810)") \
  X(ecvrf, ecvrf_wnaf_drop_final_carry, shared, "wNAF recoder drops the final carry (zkcrypto/group#83)") \
  X(ecvrf, ecvrf_loop_stops_at_bit_253, shared, "double-and-add stops at bit 253: bit 254 of every clamped x lost") \
  X(ecvrf, ecvrf_tless_dbl_feeds_add, shared, "4-bit window: the doubling before an addition skips T, which the addition reads") \
  X(ecvrf, ecvrf_decode_accepts_y_ge_p, shared, "strict decode accepts y >= p (reduces it)") \
  X(ecvrf, ecvrf_decode_y_check_skips_interior, shared, "strict decode's y >= p test reads bytes 0, 1, 30 and 31 only: a valid y below p that differs from p in an interior byte is rejected") \
  X(ecvrf, ecvrf_decode_x_zero_skips_byte0, shared, "strict decode's x = 0 test skips byte 0: a small odd x with the sign bit set is rejected as x = 0") \
  X(ecvrf, ecvrf_batch_invert_no_zero_mask, shared, "batch inversion without the zero mask: one zero zeroes every output") \
  X(ecvrf, ecvrf_encode_parity_noncanonical_x, shared, "encoding takes the sign bit from the parity of a non-canonical x") \
  X(ecvrf, ecvrf_jt_even_no_fixup, shared, "Joye-Tunstall recodes an even scalar without the k-1 fix-up") \
  X(ecvrf, ecvrf_sha512_pad_112, shared, "SHA-512 padding sized with an 8-byte length field: lengths 112..119 one block short") \
  X(ecvrf, ecvrf_small_order_y_misses_order8, shared, "cofactor-folded pipeline: the small-order test by y misses the order-8 points, whose candidate then yields the identity's beta instead of the next ctr") \
  X(ecvrf, ecvrf_fold_scalar_not_times8, host, "cofactor-folded pipeline: the scalar is k mod L instead of 8k mod L (beta of 8 Gamma / 8)") \
  X(ecvrf, ecvrf_ptx_inout_alias, device, "8x32 PTX squaring: \"+r\" operands of the diagonal statement that hold equal values at entry share one register (a CUDA miner's operand-coalescing bug), so the lower word ends with the upper word's write") \
  X(ecvrf, ecvrf_compact_reports_capped, device, "compacted pipeline: the last hash-to-curve pass reports a capped item from its rejected candidate instead of finishing its TAI loop")

namespace bx {
enum class Fault : int {
  none = 0,
#define BX_FAULT_ENUM(f, n, w, d) n,
  BX_FAULT_LIST(BX_FAULT_ENUM)
#undef BX_FAULT_ENUM
};
}  // namespace bx

#if defined(BX_ZOO)
#include <cstdio>
#include <cstdlib>
#include <cstring>
namespace bx {
// Reads BX_FAULT once; an unknown name is a hard error (a typo must not look like "no fault").
inline int host_fault_id() {
  static const int id = [] {
    const char* e = std::getenv("BX_FAULT");
    if (!e || !*e) return 0;
    int i = 1;
#define BX_FAULT_MATCH(f, n, w, d) \
  if (std::strcmp(e, #n) == 0) return i;  \
  ++i;
    BX_FAULT_LIST(BX_FAULT_MATCH)
#undef BX_FAULT_MATCH
    std::fprintf(stderr, "bitexact: unknown BX_FAULT=%s\n", e);
    std::exit(2);
  }();
  return id;
}
}  // namespace bx
#if defined(__CUDACC__)
static __constant__ int bx_device_fault_id;
static inline void bx_sync_fault_to_device() {
  int id = bx::host_fault_id();
  cudaMemcpyToSymbol(bx_device_fault_id, &id, sizeof id);
}
#if defined(__CUDA_ARCH__)
#define BX_FAULT(name) (bx_device_fault_id == static_cast<int>(::bx::Fault::name))
#else
#define BX_FAULT(name) (::bx::host_fault_id() == static_cast<int>(::bx::Fault::name))
#endif
#else
#define BX_FAULT(name) (::bx::host_fault_id() == static_cast<int>(::bx::Fault::name))
#endif
#else
#define BX_FAULT(name) false
#if defined(__CUDACC__)
static inline void bx_sync_fault_to_device() {}
#endif
#endif
