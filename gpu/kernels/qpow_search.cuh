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

// One block per SM; threads per block by variant: the widest measured shape at which ptxas keeps the
// variant in registers (no spills: -Xptxas -warn-spills shows any). gl2x32-ptx ladder on the H200 with
// the fused internal-layer product, MH/s by threads per SM (registers): 512 727 (108), 640 735 (96),
// 768 742 (80). The kernel is bound by the integer-ALU pipe (taking three adds per fused product off
// it gained 5 %; moving squaring adds onto it lost 3 %), and warps hide its latency until the registers
// run out. Its -no-deferred-borrow spills at 768 (so 640); gl2x32-portable-no-midstate needs 186
// registers (256); the rest keep 512 (112-128 registers). A bench ratio between two variants of
// different shapes includes the shape.
constexpr unsigned kQpowThreads = 512;  // also the lossy characterisation kernels
template <Variant V>
constexpr unsigned search_threads() {
  switch (V) {
    case Variant::gl2x32_ptx: return 768;
    case Variant::x32_nodefer: return 640;
    case Variant::p32_nomid: return 256;
    default: return kQpowThreads;
  }
}
__constant__ qpow::P2Constants c_p2;  // the round constants (broadcast through the constant cache)

void qpow_select(int dev) {
  select(dev);
  BX_CUDA(cudaMemcpyToSymbol(c_p2, &qpow::kQuantusP2, sizeof qpow::kQuantusP2));
}

// threadIdx.x read afresh (volatile: ptxas does not keep it, or an offset built from it, in a register
// across the rounds; the loop itself runs on the block-uniform first offset).
__device__ __forceinline__ unsigned thread_index() {
  unsigned t;
  asm volatile("mov.u32 %0, %%tid.x;" : "=r"(t));
  return t;
}

// Thread t tests offsets t, t + S, ... below count (S = all threads); the launch uniforms ride in the
// parameter bank (`job` by value), not in per-thread registers.
template <Variant V>
__global__ void __launch_bounds__(search_threads<V>(), 1) k_qpow_search(const MinerJob job, uint64_t count,
                                                              unsigned long long* hits, unsigned long long cap,
                                                              unsigned long long* n) {
  using Code = typename qpow::CodeOf<V>::type;
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t first = uint64_t(blockIdx.x) * blockDim.x; first < count; first += stride) {
    const uint64_t off = first + thread_index();
    if (off < count && Code::valid_of(job, [&] { return qpow::u512_add(job.base, first + thread_index()); }, c_p2)) {
      const unsigned long long slot = atomicAdd(n, 1ull);  // 64-bit: a batch of 2^32 all-hit nonces must not wrap
      if (slot < cap) hits[slot] = first + thread_index();
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
