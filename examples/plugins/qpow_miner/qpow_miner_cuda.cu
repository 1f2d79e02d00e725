// bitexact's fastest qpow search kernel (gl2x32 with PTX carry chains, midstate, prestate, early reject,
// folded rounds, deferred borrow) built outside as a plugin, from the installed headers: the kernel body is
// the per-nonce code of gpu/qpow, the launch is this file's (768 threads, 8 blocks per SM, as bitexact's).
// It states BX_QPOW_SEARCH_WITHIN_2_64 (its prestate holds nonce bits 64..511) and keeps the contract's
// other rules itself: nonce 0 is never reported, offsets come back ascending, *found is the true count.
// QPOW_EXTRA_WORK_PERMILLE=N builds a planted slowdown for `bench compare`: the kernel also hashes N per
// mille nonces past the range (their hits counted apart, never reported): the same answers, N/1000 slower.
// QPOW_THREADS=T, QPOW_PLUGIN_NAME="..." and QPOW_IMPL_NAME="..." build the launch-shape experiments of a
// card run (T threads per block, one resident block per SM: the register cap is 65536 / T).
#pragma nv_diag_suppress 3288
#include <bitexact/plugin.h>
#include <cuda_runtime.h>
#include <thrust/execution_policy.h>
#include <thrust/sort.h>

#include <vector>

#include "qpow_miner_common.h"

namespace {
using namespace bx::qpow;
using Code = Miner<bx::gl::gl2x32<bx::carry::ptx>, kLadder32>;
using HashCode = Miner<bx::gl::gl2x32<bx::carry::ptx>, 0>;
#ifndef QPOW_THREADS
#define QPOW_THREADS 768
#endif
#ifndef QPOW_PLUGIN_NAME
#define QPOW_PLUGIN_NAME "qpow-miner-cuda-example"
#endif
#ifndef QPOW_IMPL_NAME
#define QPOW_IMPL_NAME "gl2x32-ptx-miner-cuda"
#endif
constexpr unsigned kThreads = QPOW_THREADS;

__constant__ P2Constants c_p2;
#ifndef QPOW_EXTRA_WORK_PERMILLE
#define QPOW_EXTRA_WORK_PERMILLE 0
#endif
__device__ unsigned long long g_extra_hits;  // hits past the range (the planted slowdown's work stays observable)

__device__ __forceinline__ unsigned thread_index() {  // read afresh: keeps the offset out of a register
  unsigned t;
  asm volatile("mov.u32 %0, %%tid.x;" : "=r"(t));
  return t;
}

__global__ void __launch_bounds__(kThreads, 1) k_search(const MinerJob job, uint64_t count, uint64_t hashed, uint64_t* hits, uint64_t cap,
                                                         unsigned long long* n) {
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t first = uint64_t(blockIdx.x) * blockDim.x; first < hashed; first += stride) {
    const uint64_t off = first + thread_index();
    if (off < hashed && Code::valid_of(job, [&] { return u512_add(job.base, first + thread_index()); }, c_p2)) {
      if (off >= count) {
        atomicAdd(&g_extra_hits, 1ull);
        continue;
      }
      const unsigned long long slot = atomicAdd(n, 1ull);
      if (slot < cap) hits[slot] = first + thread_index();
    }
  }
}

__global__ void k_hash(const MinerJob* jobs, size_t n, uint8_t* out) {
  const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= n) return;
  uint64_t h[8];
  HashCode::hash(jobs[t], jobs[t].base, h, c_p2);
  for (int j = 0; j < 8; ++j)
    for (int k = 0; k < 8; ++k) out[64 * t + 8 * j + k] = uint8_t(h[j] >> (56 - 8 * k));
}

int search(void*, const uint8_t* header, const uint8_t* lo, uint64_t count, const uint8_t* target, uint64_t* offsets, uint64_t capacity,
           uint64_t* found, void* stream_ptr) {
  const cudaStream_t stream = cudaStream_t(stream_ptr);
  // The arguments are device buffers: the few bytes the host part needs come over first.
  uint8_t h[32], l[64], t[64];
  if (cudaMemcpyAsync(h, header, 32, cudaMemcpyDeviceToHost, stream) != cudaSuccess ||
      cudaMemcpyAsync(l, lo, 64, cudaMemcpyDeviceToHost, stream) != cudaSuccess ||
      cudaMemcpyAsync(t, target, 64, cudaMemcpyDeviceToHost, stream) != cudaSuccess || cudaStreamSynchronize(stream) != cudaSuccess)
    return 1;
  uint64_t tw[8];
  qpow_miner::words_from_be(t, tw);
  U512 base = qpow_miner::nonce_from_be(l);
  bool zero = true;
  for (uint32_t x : base.limb) zero = zero && x == 0;
  const uint64_t skip = zero ? 1 : 0;  // nonce 0 is never valid: start at 1 (a range holds it only at its start)
  if (skip) base = u512_add(base, 1);
  const MinerJob job = JobMaker<Code>::make(h, tw, base, kLadder32);
  int dev = 0, sms = 0;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  if (cudaMemcpyToSymbolAsync(c_p2, &kQuantusP2, sizeof kQuantusP2, 0, cudaMemcpyHostToDevice, stream) != cudaSuccess ||
      cudaMemsetAsync(found, 0, sizeof(uint64_t), stream) != cudaSuccess)
    return 1;
  if (count > skip) {
    const uint64_t n = count - skip, extra = n / 1000 * QPOW_EXTRA_WORK_PERMILLE;  // 0 unless planted
    const uint64_t hashed = extra > UINT64_MAX - n ? UINT64_MAX : n + extra;
    k_search<<<unsigned(sms) * 8, kThreads, 0, stream>>>(job, count - skip, hashed, offsets, capacity,
                                                         reinterpret_cast<unsigned long long*>(found));
  }
  uint64_t n = 0;
  if (cudaGetLastError() != cudaSuccess || cudaMemcpyAsync(&n, found, 8, cudaMemcpyDeviceToHost, stream) != cudaSuccess ||
      cudaStreamSynchronize(stream) != cudaSuccess)
    return 1;
  const uint64_t kept = n < capacity ? n : capacity;
  try {  // nothing may throw across the C ABI
    if (kept) thrust::sort(thrust::cuda::par.on(stream), offsets, offsets + kept);
  } catch (...) {
    return 1;
  }
  if (skip && kept) {  // offsets from lo, not from lo + 1
    std::vector<uint64_t> o(kept);
    cudaMemcpyAsync(o.data(), offsets, 8 * kept, cudaMemcpyDeviceToHost, stream);
    cudaStreamSynchronize(stream);
    for (auto& x : o) x += 1;
    cudaMemcpyAsync(offsets, o.data(), 8 * kept, cudaMemcpyHostToDevice, stream);
  }
  return cudaStreamSynchronize(stream) == cudaSuccess && cudaGetLastError() == cudaSuccess ? 0 : 1;
}

int hash(void*, const uint8_t* header, const uint8_t* nonces, size_t n, uint8_t* out, void* stream_ptr) {
  const cudaStream_t stream = cudaStream_t(stream_ptr);
  uint8_t h[32];
  std::vector<uint8_t> ns(64 * n);
  if (cudaMemcpyAsync(h, header, 32, cudaMemcpyDeviceToHost, stream) != cudaSuccess ||
      cudaMemcpyAsync(ns.data(), nonces, ns.size(), cudaMemcpyDeviceToHost, stream) != cudaSuccess || cudaStreamSynchronize(stream) != cudaSuccess)
    return 1;
  const uint64_t no_target[8] = {};
  std::vector<MinerJob> jobs(n);
  for (size_t i = 0; i < n; ++i) jobs[i] = JobMaker<HashCode>::make(h, no_target, qpow_miner::nonce_from_be(&ns[64 * i]), 0);
  MinerJob* dj = nullptr;
  if (cudaMalloc(&dj, sizeof(MinerJob) * (n ? n : 1)) != cudaSuccess) return 1;
  int rc = cudaMemcpyToSymbolAsync(c_p2, &kQuantusP2, sizeof kQuantusP2, 0, cudaMemcpyHostToDevice, stream) != cudaSuccess ||
           cudaMemcpyAsync(dj, jobs.data(), sizeof(MinerJob) * n, cudaMemcpyHostToDevice, stream) != cudaSuccess;
  if (!rc && n) k_hash<<<unsigned((n + 127) / 128), 128, 0, stream>>>(dj, n, out);
  rc = rc || cudaGetLastError() != cudaSuccess || cudaStreamSynchronize(stream) != cudaSuccess;
  cudaFree(dj);
  return rc;
}

bx_qpow_ops make_ops() {
  bx_qpow_ops t{};
  t.struct_size = sizeof t;
  t.search_preconditions = BX_QPOW_SEARCH_WITHIN_2_64;
  t.hash = hash;
  t.search = search;
  return t;
}
const bx_qpow_ops ops = make_ops();
}  // namespace

extern "C" BX_PLUGIN_EXPORT const bx_plugin* bx_plugin_entry_v1(void) {
  return qpow_miner::one_implementation(QPOW_PLUGIN_NAME, QPOW_IMPL_NAME, BX_PLACE_DEVICE, ops);
}
