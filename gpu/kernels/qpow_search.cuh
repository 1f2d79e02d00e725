// The qpow kernels as templates over a variant (thin: the per-nonce code is gpu/qpow/*), and their
// launchers. Each qpow_search_*.cu instantiates its share of the registry (qpow_search_tu below), so the
// variant matrix compiles in parallel translation units.
#pragma once
// The shared host code (gpu/qpow/search.hpp) dispatches with explicit template lambdas: accepted by nvcc in
// C++17 mode as an extension (warning 3288), which these translation units rely on.
#pragma nv_diag_suppress 3288
#include <thrust/device_ptr.h>
#include <thrust/sort.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <type_traits>

#include "gpu/kernels/cuda_util.cuh"
#include "gpu/kernels/qpow_kernels.hpp"

namespace bx::kern {
namespace {

using qpow::MinerJob;
using qpow::Variant;

// One block per SM. The launch shape is the layout's: every variant of a layout (its ladder and each
// ladder minus one shortcut) runs the same shape, so a bench ratio measures the shortcut, not a retune.
// gl2x32-ptx ladder on the H200, MH/s by threads per SM (ptxas registers): 512 692 (108), 640 701 (94),
// 768 704 (80), 832 658 (72), 896 708 (72, spilling 56 bytes to L1), 1024 684 (64). Past 16 warps the
// kernel is latency-bound, not pipe-bound (ncu at 768: 24 warps, 2.3 IPC, no eligible warp 42% of
// cycles), so warps buy more than the registers they cost, until 1024. The other layouts keep 512x1,
// their measured best before deferral (ptxas 118-128 registers, no spills).
constexpr unsigned kQpowThreads = 512;  // also the lossy characterisation kernels
template <Variant V>
constexpr unsigned search_threads() {
  using L = typename qpow::CodeOf<V>::type::Layout;
  return std::is_same_v<L, gl::gl2x32<carry::ptx>> ? 896 : kQpowThreads;
}
__constant__ qpow::P2Constants c_p2;  // the round constants (broadcast through the constant cache)

void qpow_select(int dev) {
  select(dev);
  BX_CUDA(cudaMemcpyToSymbol(c_p2, &qpow::kQuantusP2, sizeof qpow::kQuantusP2));
}

// Thread t tests offsets t, t + S, ... below count (S = all threads); the launch uniforms ride in the
// parameter bank (`job` by value), not in per-thread registers.
template <Variant V>
__global__ void __launch_bounds__(search_threads<V>(), 1) k_qpow_search(const MinerJob job, uint64_t count,
                                                              unsigned long long* hits, unsigned long long cap,
                                                              unsigned long long* n) {
  using Code = typename qpow::CodeOf<V>::type;
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t off = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; off < count; off += stride) {
    if (Code::valid(job, qpow::u512_add(job.base, off), c_p2)) {
      const unsigned long long slot = atomicAdd(n, 1ull);  // 64-bit: a batch of 2^32 all-hit nonces must not wrap
      if (slot < cap) hits[slot] = off;
    }
  }
}

// The full hash of jobs[t].base along V's path (one job per nonce: its batch's midstate and prestate).
template <Variant V>
__global__ void k_qpow_hashes(const MinerJob* jobs, size_t n, uint64_t* out) {
  using Code = typename qpow::CodeOf<V>::type;
  const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= n) return;
  Code::hash(jobs[t], jobs[t].base, out + 8 * t, c_p2);
}

struct SearchLaunch {
  MinerJob job;
  uint64_t count;
  unsigned long long* hits;
  unsigned long long cap;
  unsigned long long* n;
  unsigned blocks;
};

template <Variant V>
void launch_search(const SearchLaunch& a) {
  k_qpow_search<V><<<a.blocks, search_threads<V>()>>>(a.job, a.count, a.hits, a.cap, a.n);
}
template <Variant V>
void launch_hashes(const MinerJob* jobs, size_t n, uint64_t* out) {
  k_qpow_hashes<V><<<blocks_for(n, 128), 128>>>(jobs, n, out);
}
template <Variant V>
QpowKernelInfo info_of() {
  cudaFuncAttributes attr{};
  BX_CUDA(cudaFuncGetAttributes(&attr, k_qpow_search<V>));
  return {attr.numRegs, attr.localSizeBytes};
}

}  // namespace

// One translation unit's share: runs `what` for v if this unit holds v's kernels (false otherwise).
enum class QpowWhat { has, search, hashes, info };
struct QpowTuCall {
  QpowWhat what;
  const SearchLaunch* search = nullptr;
  const MinerJob* jobs = nullptr;
  size_t n = 0;
  uint64_t* out = nullptr;
  QpowKernelInfo* info = nullptr;
};
bool qpow_tu_main(Variant v, const QpowTuCall& c);
bool qpow_tu_matrix(Variant v, const QpowTuCall& c);
void qpow_tu_select_main(int dev);
void qpow_tu_select_matrix(int dev);

#define BX_QPOW_TU_CASE(V)                                            \
  case V:                                                             \
    if (c.what == QpowWhat::search) launch_search<V>(*c.search);      \
    if (c.what == QpowWhat::hashes) launch_hashes<V>(c.jobs, c.n, c.out); \
    if (c.what == QpowWhat::info) *c.info = info_of<V>();             \
    return true;

}  // namespace bx::kern
