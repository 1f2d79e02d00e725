// Host-side interface to the qpow kernels (plain C++: callable from g++-compiled code). Every function
// selects the device, checks every CUDA call and throws bx::CudaError or std::invalid_argument.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "gpu/kernels/device.hpp"
#include "gpu/qpow/search.hpp"

namespace bx::kern {

// Compiled into this build for the GPU (the full variant matrix needs BX_QPOW_FULL_MATRIX).
bool qpow_on_gpu(qpow::Variant v);

struct QpowSearchStats {
  double kernel_seconds = 0;  // the launches' event times (re-runs included)
  uint64_t nonces = 0;
  unsigned launches = 0, batches = 0;
  unsigned reruns = 0;  // batches re-run because the hit buffer was too small
};
// Every valid nonce of [lo, lo + count) as its offset from lo, sorted, each once (nonce 0 skipped).
// The hit buffer starts at initial_capacity entries (0: from the target); an overflowing launch is
// re-run with room for all. max_batch caps the nonces of one launch (smaller only to test batch ends).
std::vector<uint64_t> qpow_search(int dev, qpow::Variant v, const qpow::SearchRequest& rq,
                                  QpowSearchStats* stats = nullptr, size_t initial_capacity = 0,
                                  uint64_t max_batch = uint64_t(1) << 32);

// The full 512-bit hash (8 words, most significant first) of each nonce along variant v's own path.
std::vector<std::array<uint64_t, 8>> qpow_hashes(int dev, qpow::Variant v, const uint8_t header[32],
                                                 const std::vector<qpow::U512>& nonces);

// The same for given jobs (hash of jobs[i].base with jobs[i]'s shortcut state, which a test may craft),
// and the search kernel over [job.base, job.base + count) of one given job: offsets of valid nonces, sorted.
std::vector<std::array<uint64_t, 8>> qpow_job_hashes(int dev, qpow::Variant v, const std::vector<qpow::MinerJob>& jobs);
std::vector<uint64_t> qpow_job_search(int dev, qpow::Variant v, const qpow::MinerJob& job, uint32_t count);

// Field arithmetic on the device, element-wise over a and b (b unused by unary ops).
enum class QpowFieldLayout { gl64, gl64_branchfree, gl2x32_portable, gl2x32_ptx, lossy_ptx, lossy_model };
// hash_word: the output path of one lane (canonicalise, then byte-swap).
// fused: the internal layer's a * diag[9] + (b + 12 * 2^64), one reduction; acc_reduce: the accumulator
// a + (b mod 2^32) * 2^64 reduced (the linear layers' reduction).
enum class QpowFieldOp { add, sub, mul, sqr, neg, canonical, reduce128, sbox, hash_word, fused, acc_reduce };
std::vector<uint64_t> qpow_field_eval(int dev, QpowFieldLayout layout, QpowFieldOp op, const std::vector<uint64_t>& a,
                                      const std::vector<uint64_t>& b);
// The permutation on the device (unfolded or folded constants), per state of 12 lanes, raw outputs.
std::vector<uint64_t> qpow_permute(int dev, QpowFieldLayout layout, bool folded, const std::vector<uint64_t>& states);

// Lossy characterisation. Multiplies of uniform random u64 operands (splitmix64 of seed + counter) in the
// device engine against exact gl64; each difference classified by its error term (mod p). structured:
// operands u 2^48 and w 2^48 instead, whose products slip whenever uw > 0 (the counter's self-check).
struct QpowMulSlips {
  uint64_t multiplies = 0, slips = 0;
  uint64_t plus_eps = 0, plus_2p32 = 0, minus_eps = 0, other = 0;  // (iii), (i), (ii), unexplained
  double kernel_seconds = 0;
};
QpowMulSlips qpow_lossy_mul_slips(int dev, uint64_t seed, uint64_t multiplies, bool structured = false);
// Nonces [lo, lo + count) hashed by the lossy engine and by exact gl64: how many top-256-bit outputs
// (c0..c3) differ, and the first `keep` differing offsets.
struct QpowNonceSlips {
  uint64_t nonces = 0, slips = 0;
  std::vector<uint64_t> first;
  double kernel_seconds = 0;
};
QpowNonceSlips qpow_lossy_nonce_slips(int dev, const uint8_t header[32], const qpow::U512& lo, uint64_t count,
                                      size_t keep = 64);

struct QpowKernelInfo {
  int registers;
  size_t local_bytes;  // per-thread local memory (spills, local arrays)
};
QpowKernelInfo qpow_kernel_info(qpow::Variant v);

}  // namespace bx::kern
