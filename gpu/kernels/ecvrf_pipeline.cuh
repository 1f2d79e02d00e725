// The ecvrf kernels (thin: the per-item code is gpu/ecvrf/*.hpp) and the per-variant launcher, included
// by the translation units that instantiate variants (ecvrf_*.cu), each for its own share of the matrix.
//
// Items: index i < n of a slice is nonce lo + i (the miner's alpha header || LE64(nonce), patched into a
// block prepared on the host), or the i-th prepared block (general alphas). Every item ends in emit():
// its beta (when asked for) and, when score < target, one hit slot.
//
// fused<F, S, K>:   each thread runs K items through the whole attempt (TAI loop, x H, 8 Gamma), then
//                   one batch inversion for the K encodings (gpu/ecvrf/batch_invert.hpp).
// compact<F, S, K>: hash-to-curve passes h2c<F> (pass c tries ctr = c once for every item still queued;
//                   items whose candidate fails go to the next pass's queue, found points H to a compact
//                   list), the last pass finishing each remaining item's TAI loop up to ctr 255 (a capped
//                   item is recomputed, never reported from its last candidate), then mult<F, S, K> over
//                   the found points with no divergence (seed Round 2).
// Cofactor folding (every variant but the oracle, V::folded): h2c and the fused TAI loop keep the raw
// candidate P (candidate_to_p: decodes, y not of a small-order point) and the digits are those of
// t = 8x mod L, so that the unchanged x-then-x8 code computes 8 (t P) = 8 Gamma, 3 doublings fewer.
// Launch bounds of the compacted kernels (256, 2): at most 128 registers (seed Round 1: a free 7-10 %;
// Round 9: 3 or 4 blocks per SM spill and lose); the fused kernel (384, 1), see kEcvrfFusedThreads.
#pragma once
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "gpu/ecvrf/batch_invert.hpp"
#include "gpu/ecvrf/codec.hpp"
#include "gpu/ecvrf/tai.hpp"
#include "gpu/ecvrf/variants.hpp"
#include "gpu/kernels/cuda_util.cuh"
#include "gpu/kernels/ecvrf_kernels.hpp"
#include "gpu/kernels/ecvrf_point_checks.cuh"
#include "gpu/field25519/layouts.hpp"

namespace bx::kern {

using ecvrf::H2cBlock;

// Shared by every ecvrf translation unit (the registry in ecvrf_launch.cu collects their runners).
struct EcvrfItems {
  H2cBlock base;            // the miner's block for nonce 0 (bytes 66..73 zero)
  uint64_t lo;              // item i is nonce lo + i ...
  const H2cBlock* blocks;   // ... or, when non-null, blocks[i]
};
struct EcvrfOutputs {
  uint64_t target;
  unsigned long long* hits;  // (lo + i, score) pairs; slots >= cap are counted, not written
  unsigned cap;
  unsigned* count;
  uint8_t* betas;  // non-null: 64 bytes per item, and valid[i] = 1 (the launcher zeroes valid)
  uint8_t* valid;
  unsigned* no_beta;
};
// Device scratch of one slice: the compact pipeline's two queues, point list and counters.
struct EcvrfScratch {
  uint32_t max_n = 0;
  void* queue[2] = {nullptr, nullptr};
  void* pts = nullptr;
  unsigned* counters = nullptr;  // n_out, n_pts, n_finished, no_beta, hit count
  EcvrfScratch() = default;
  EcvrfScratch(const EcvrfScratch&) = delete;
  EcvrfScratch& operator=(const EcvrfScratch&) = delete;
  ~EcvrfScratch() {
    cudaFree(queue[0]);
    cudaFree(queue[1]);
    cudaFree(pts);
    cudaFree(counters);
  }
};

// One slice through a variant: launches its kernels (n <= scratch.max_n) and returns the kernel time.
struct EcvrfSliceStats {
  uint64_t finished_in_last_pass = 0;
};
struct EcvrfRunner {
  EcvrfDeviceVariant info;
  void (*set_scalar)(const std::array<uint8_t, 32>& x);
  void (*alloc)(EcvrfScratch& s, uint32_t max_n);
  void (*run)(const EcvrfItems& it, uint32_t n, const EcvrfOutputs& o, EcvrfScratch& s, int passes,
              EcvrfSliceStats& st);
  std::vector<EcvrfKernelInfo> (*kernels)();
  EcvrfPointOutputs (*point_checks)(const EcvrfPointInputs& in);
};


namespace {

using ecvrf::ge_ext;
using ecvrf::H2cBlock;

// Launch shapes. The compacted pipeline's kernels (h2c, mult): 256 threads, 2 blocks per SM, at most 128
// registers. The fused kernel: 384 threads, 1 block, up to 168 registers. Measured on the H200 in one run
// (fe51-portable/da/fused/k1, the oracle): 4.79 -> 6.98 MH/s, with w4/compact/k2 unchanged at 22.6. The
// same 384 x 1 shape on h2c and mult costs the compacted pipeline 2 % (h2c) and 20 % (both).
// The mult kernel's shape can be set apart at build time (BX_ECVRF_MULT_BOUNDS in cmake/ecvrf.cmake), to
// weigh registers against warps where its layout spills at 128 (fe51s: 3.1-3.7 KB of local memory).
constexpr unsigned kEcvrfThreads = 256, kEcvrfMinBlocks = 2;
#if defined(BX_ECVRF_MULT_THREADS) && defined(BX_ECVRF_MULT_MIN_BLOCKS)
constexpr unsigned kEcvrfMultThreads = BX_ECVRF_MULT_THREADS, kEcvrfMultMinBlocks = BX_ECVRF_MULT_MIN_BLOCKS;
#else
constexpr unsigned kEcvrfMultThreads = kEcvrfThreads, kEcvrfMultMinBlocks = kEcvrfMinBlocks;
#endif
constexpr unsigned kEcvrfFusedThreads = 384, kEcvrfFusedMinBlocks = 1;

// The host-recoded digits of the job's scalar (uniform: every lane reads the same digit).
__constant__ alignas(16) uint8_t c_ecvrf_digits[272];
template <class S>
__device__ __forceinline__ const typename S::digits& ecvrf_digits() {
  static_assert(sizeof(typename S::digits) <= sizeof(c_ecvrf_digits), "digit array does not fit c_ecvrf_digits");
  return *reinterpret_cast<const typename S::digits*>(c_ecvrf_digits);
}

__device__ __forceinline__ void ecvrf_item_block(H2cBlock& m, const EcvrfItems& it, uint32_t i) {
  if (it.blocks) {
    m = it.blocks[i];
    return;
  }
  m = it.base;
  const uint64_t nonce = it.lo + i;
#pragma unroll
  for (int b = 0; b < 8; ++b) ecvrf::sha512_put_byte(m.w, 66 + b, uint32_t(nonce >> (8 * b)));
}

__device__ __forceinline__ void ecvrf_emit(const EcvrfOutputs& o, uint64_t lo, uint32_t i, const uint8_t beta[64]) {
  const uint64_t score = ecvrf::beta_score(beta);
  if (o.betas) {
    for (int j = 0; j < 64; ++j) o.betas[64 * size_t(i) + j] = beta[j];
    o.valid[i] = 1;
  }
  if (score < o.target) {
    const unsigned slot = atomicAdd(o.count, 1u);
    if (slot < o.cap) {
      o.hits[2 * size_t(slot)] = lo + i;
      o.hits[2 * size_t(slot) + 1] = score;
    }
  }
}

// K points' encodings with one (batch) inversion, then beta and emit. g8[j].X, Y, Z tight.
template <class F, int K>
__device__ __forceinline__ void ecvrf_finish(const EcvrfOutputs& o, uint64_t lo, const ge_ext<F> g8[K],
                                             const uint32_t idx[K], const bool ok[K]) {
  typename F::fe z[K], zinv[K];
#pragma unroll
  for (int j = 0; j < K; ++j) z[j] = g8[j].Z;
  ecvrf::fe_batch_invert<F, K>(zinv, z);
#pragma unroll 1
  for (int j = 0; j < K; ++j) {
    if (!ok[j]) continue;
    uint8_t enc[32], beta[64];
    ecvrf::ge_encode_zinv<F>(enc, g8[j], zinv[j]);
    ecvrf::sha512_beta(beta, enc);
    ecvrf_emit(o, lo, idx[j], beta);
  }
}

template <class F, class S, int K, bool Folded>
__global__ void __launch_bounds__(kEcvrfFusedThreads, kEcvrfFusedMinBlocks)
    k_ecvrf_fused(const EcvrfItems it, uint32_t n, const EcvrfOutputs o) {
  const uint32_t first = (blockIdx.x * blockDim.x + threadIdx.x) * K;
  if (first >= n) return;
  ge_ext<F> g8[K];
  uint32_t idx[K];
  bool ok[K];
#pragma unroll 1
  for (int j = 0; j < K; ++j) {
    idx[j] = first + j;
    ok[j] = false;
    ecvrf::ge_identity<F>(g8[j]);
    if (idx[j] >= n) continue;
    H2cBlock m;
    ecvrf_item_block(m, it, idx[j]);
    ge_ext<F> H, gamma;
    if (ecvrf::encode_to_curve_tai<F, true, Folded>(H, m) < 0) {
      atomicAdd(o.no_beta, 1u);
      continue;
    }
    S::template mul<F>(gamma, H, ecvrf_digits<S>());
    ecvrf::ge_mul8<F>(g8[j], gamma, false);
    ok[j] = true;
  }
  ecvrf_finish<F, K>(o, it.lo, g8, idx, ok);
}

template <class F>
struct H2cPoint {
  ge_ext<F> H;  // 8 P, or P itself in a cofactor-folded pipeline; tight with T
  uint32_t index;
};

// One hash-to-curve pass at ctr (every item of the slice when queue_in is null, else the queued ones).
// last: the final pass, which finishes each item's TAI loop up to ctr 255.
template <class F, bool Folded>
__global__ void __launch_bounds__(kEcvrfThreads, kEcvrfMinBlocks)
    k_ecvrf_h2c(const EcvrfItems it, uint32_t n, const uint32_t* queue_in, int ctr, bool last, uint32_t* queue_out,
                unsigned* n_out, H2cPoint<F>* pts, unsigned* n_pts, unsigned* n_finished, unsigned* no_beta) {
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  const uint32_t i = queue_in ? queue_in[t] : t;
  H2cBlock m;
  ecvrf_item_block(m, it, i);
  // Fault: the last pass tries its ctr once like the others and hands a capped item's rejected
  // candidate (H = identity) to the multiplication pass.
  const bool capped_reported = BX_FAULT(ecvrf_compact_reports_capped);
  const int stop = last && !capped_reported ? ecvrf::kTaiMaxCtr : ctr;
  ge_ext<F> H;
  ecvrf::ge_identity<F>(H);
  bool found = false;
#pragma unroll 1
  for (int c = ctr; c <= stop && !found; ++c) {
    ecvrf::h2c_set_ctr(m, uint32_t(c));
    uint64_t st[8];
    ecvrf::sha512_one_block(st, m.w);
    uint8_t cand[32];
    ecvrf::sha512_digest_bytes(cand, st, 32);
    found = ecvrf::candidate_point<F, Folded>(H, cand);
  }
  if (found || (last && capped_reported)) {
    if (!found) ecvrf::ge_identity<F>(H);
    const unsigned slot = atomicAdd(n_pts, 1u);
    pts[slot].H = H;
    pts[slot].index = i;
  } else if (!last) {
    queue_out[atomicAdd(n_out, 1u)] = i;
  } else {
    atomicAdd(no_beta, 1u);
  }
  if (last) atomicAdd(n_finished, 1u);
}

template <class F, class S, int K>
__global__ void __launch_bounds__(kEcvrfMultThreads, kEcvrfMultMinBlocks)
    k_ecvrf_mult(uint64_t lo, const H2cPoint<F>* pts, uint32_t n, const EcvrfOutputs o) {
  const uint32_t first = (blockIdx.x * blockDim.x + threadIdx.x) * K;
  if (first >= n) return;
  ge_ext<F> g8[K];
  uint32_t idx[K];
  bool ok[K];
#pragma unroll 1
  for (int j = 0; j < K; ++j) {
    ok[j] = first + j < n;
    ecvrf::ge_identity<F>(g8[j]);
    idx[j] = 0;
    if (!ok[j]) continue;
    const H2cPoint<F>& p = pts[first + j];
    idx[j] = p.index;
    ge_ext<F> gamma;
    S::template mul<F>(gamma, p.H, ecvrf_digits<S>());
    ecvrf::ge_mul8<F>(g8[j], gamma, false);
  }
  ecvrf_finish<F, K>(o, lo, g8, idx, ok);
}

// ---------------------------------------------------------------------------------------------------
// Variants and their launchers.

template <class K>
EcvrfKernelInfo ecvrf_kernel_attr(const char* name, K kernel) {
  cudaFuncAttributes a{};
  BX_CUDA(cudaFuncGetAttributes(&a, kernel));
  return {name, a.numRegs, a.localSizeBytes};
}

template <class V>
struct EcvrfLauncher {
  using F = typename V::F;
  using S = typename V::S;
  // Runs before every launch of the variant: the digits, and the zoo's fault switch, whose __constant__
  // copy is per translation unit (the launcher's select() reaches only its own).
  static void set_scalar(const std::array<uint8_t, 32>& x) {
    // throws unless the digits reconstruct the scalar (t = 8x mod L in a cofactor-folded pipeline)
    const typename S::digits d = S::recode(V::folded ? ecvrf::cofactor_folded_scalar(x) : x);
    BX_CUDA(cudaMemcpyToSymbol(c_ecvrf_digits, &d, sizeof d));
    bx_sync_fault_to_device();
  }
  static void alloc(EcvrfScratch& s, uint32_t max_n) {
    s.max_n = max_n;
    BX_CUDA(cudaMalloc(&s.counters, 8 * sizeof(unsigned)));
    if constexpr (V::P == ecvrf::Pipeline::compact) {
      BX_CUDA(cudaMalloc(&s.queue[0], size_t(max_n) * sizeof(uint32_t)));
      BX_CUDA(cudaMalloc(&s.queue[1], size_t(max_n) * sizeof(uint32_t)));
      BX_CUDA(cudaMalloc(&s.pts, size_t(max_n) * sizeof(H2cPoint<F>)));
    }
  }
  static void run(const EcvrfItems& it, uint32_t n, const EcvrfOutputs& o, EcvrfScratch& s, int passes,
                  EcvrfSliceStats& st) {
    if (n > s.max_n) throw std::invalid_argument("ecvrf: slice larger than its scratch");
    if constexpr (V::P == ecvrf::Pipeline::fused) {
      (void)passes;
      (void)st;
      k_ecvrf_fused<F, S, V::K, V::folded><<<blocks_for(n, kEcvrfFusedThreads * V::K), kEcvrfFusedThreads>>>(it, n, o);
      BX_CUDA_LAUNCH("k_ecvrf_fused");
    } else {
      run_compact(it, n, o, s, passes, st);
    }
  }
  static void run_compact(const EcvrfItems& it, uint32_t n, const EcvrfOutputs& o, EcvrfScratch& s, int passes,
                          EcvrfSliceStats& st) {
    if (passes < 1 || passes > ecvrf::kTaiMaxCtr + 1) throw std::invalid_argument("ecvrf: passes must be 1..256");
    unsigned* n_out = s.counters;
    unsigned* n_pts = s.counters + 1;
    unsigned* n_fin = s.counters + 2;
    BX_CUDA(cudaMemset(s.counters, 0, 3 * sizeof(unsigned)));
    auto* pts = static_cast<H2cPoint<F>*>(s.pts);
    uint32_t todo = n;
    const uint32_t* in = nullptr;
    int q = 0;
    for (int c = 0; c < passes && todo; ++c) {
      const bool last = c + 1 == passes;
      auto* out = static_cast<uint32_t*>(s.queue[q]);
      BX_CUDA(cudaMemset(n_out, 0, sizeof(unsigned)));
      k_ecvrf_h2c<F, V::folded><<<blocks_for(todo, kEcvrfThreads), kEcvrfThreads>>>(it, todo, in, c, last, out, n_out, pts, n_pts,
                                                                          n_fin, o.no_beta);
      BX_CUDA_LAUNCH("k_ecvrf_h2c");
      BX_CUDA(cudaMemcpy(&todo, n_out, sizeof todo, cudaMemcpyDeviceToHost));
      in = out;
      q ^= 1;
    }
    unsigned found = 0, fin = 0;
    BX_CUDA(cudaMemcpy(&found, n_pts, sizeof found, cudaMemcpyDeviceToHost));
    BX_CUDA(cudaMemcpy(&fin, n_fin, sizeof fin, cudaMemcpyDeviceToHost));
    st.finished_in_last_pass += fin;
    if (found)
      k_ecvrf_mult<F, S, V::K><<<blocks_for(found, kEcvrfMultThreads * V::K), kEcvrfMultThreads>>>(it.lo, pts, found, o);
    BX_CUDA_LAUNCH("k_ecvrf_mult");
  }
  static std::vector<EcvrfKernelInfo> kernels() {
    if constexpr (V::P == ecvrf::Pipeline::fused)
      return {ecvrf_kernel_attr("fused", k_ecvrf_fused<F, S, V::K, V::folded>)};
    else
      return {ecvrf_kernel_attr("h2c", k_ecvrf_h2c<F, V::folded>), ecvrf_kernel_attr("mult", k_ecvrf_mult<F, S, V::K>)};
  }
  // The point code the pipeline is built from: its layout, its strategy. A one-mode build has a single
  // compacted pipeline, whose layout then runs every strategy (each strategy's device code checked once).
#if defined(BX_ECVRF_KERNELS_ONE)
  using point_strategies =
      std::conditional_t<std::is_same_v<V, ecvrf::OneModeCompact>,
                         strategy_list<ecvrf::DoubleAdd, ecvrf::Window4, ecvrf::Wnaf5, ecvrf::JoyeTunstall>, strategy_list<S>>;
#else
  using point_strategies = strategy_list<S>;
#endif
  static EcvrfPointOutputs point_checks(const EcvrfPointInputs& in) {
    bx_sync_fault_to_device();  // this translation unit's copy of the zoo's switch
    return point_checks_of<F>(in, point_strategies{});
  }
  static EcvrfRunner runner() {
    return {{V::name(), F::name, F::backend::name, S::tag, V::pipeline(), V::K, strategy_tags(point_strategies{}), V::folded},
            &set_scalar, &alloc, &run, &kernels, &point_checks};
  }
};

template <class... Vs>
void ecvrf_add_runners(std::vector<EcvrfRunner>& out, ecvrf::variant_list<Vs...> = {}) {
  (out.push_back(EcvrfLauncher<Vs>::runner()), ...);
}

}  // namespace
}  // namespace bx::kern
