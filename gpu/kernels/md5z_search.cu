// md5z search kernels: one thin kernel per variant over the per-candidate code in gpu/md5z/tunnel.hpp,
// the launcher (slices, hit buffer with overflow re-run, device sort).
#include <thrust/device_ptr.h>
#include <thrust/sort.h>

#include <algorithm>
#include <array>
#include <memory>
#include <cmath>
#include <stdexcept>

#include "gpu/kernels/cuda_util.cuh"
#include "gpu/kernels/field25519_kernels.hpp"
#include "gpu/kernels/md5z_kernels.hpp"
#include "gpu/md5z/search.hpp"

namespace bx::kern {
namespace {

using md5::Variant;

__constant__ uint32_t c_one;  // 1, set by the launcher: v2's run-time operand of mad.lo.u32

constexpr unsigned kThreads = 256;

// One lane per thread: thread t searches lo + t, lo + t + S, ... below lo + n (S = all threads). n <= 2^31 and
// S < 2^31, so off + S never wraps; lo + off < hi <= 2^32. With V::lanes = L > 1, thread t takes the groups of
// L adjacent indices at offsets L t, L (t + S), ... (md5::search_group: the host runs the same groups).
// K: the variant's index in md5::AllVariants (so the kernel's mangled name carries it, for the SASS count).
template <int K>
__global__ void __launch_bounds__(kThreads) k_md5z_search(const md5::TunnelBase tb, uint32_t lo, uint32_t n,
                                                          uint32_t mask, int threshold, unsigned long long* hits,
                                                          unsigned cap, unsigned* count) {
  using V = md5::VariantAt<K>;
  const uint32_t one = c_one;
  const uint32_t stride = gridDim.x * blockDim.x;
  auto emit = [&](uint32_t i, int z) {
    const unsigned slot = atomicAdd(count, 1u);
    if (slot < cap) hits[slot] = md5::pack_hit(i, z);
  };
  if constexpr (V::lanes == 1) {
    for (uint32_t off = blockIdx.x * blockDim.x + threadIdx.x; off < n; off += stride) {
      const uint32_t i = lo + off;
      const int z = md5::candidate_zeros<V>(tb, i, mask, one);
      if (z >= threshold) emit(i, z);
    }
  } else {
    for (uint64_t off = uint64_t(blockIdx.x * blockDim.x + threadIdx.x) * V::lanes; off < n; off += uint64_t(stride) * V::lanes)
      md5::search_group<V>(tb, lo, off, n, mask, threshold, one, emit);
  }
}

// fn(the kernel of variant v).
template <class Fn>
void with_kernel(Variant v, Fn&& fn) {
  md5::with_variant(v, [&](auto c) { fn(k_md5z_search<int(md5::variant_of<decltype(c)>())>); });
}

// Digest words of the candidates idx[0..n) along variant K's own path (steps 61..63 always run).
template <int K>
__global__ void k_md5z_digests(const md5::TunnelBase tb, const uint32_t* idx, size_t n, uint32_t* out) {
  const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= n) return;
  md5::candidate_digest<md5::VariantAt<K>>(tb, idx[t], c_one, out + 4 * t);
}


}  // namespace

std::vector<uint64_t> md5z_search(int dev, Variant v, const md5::TunnelBase& tb, uint64_t lo, uint64_t hi,
                                  int threshold, Md5zSearchStats* stats, size_t initial_capacity, uint64_t max_slice) {
  if (hi > md5::kIndexEnd || lo > hi) throw std::invalid_argument("md5z_search: range must satisfy lo <= hi <= 2^32");
  if (threshold < 0 || threshold > 32) throw std::invalid_argument("md5z_search: threshold must be 0..32");
  select(dev);
  const uint32_t one = 1;
  BX_CUDA(cudaMemcpyToSymbol(c_one, &one, sizeof one));
  if (max_slice == 0 || max_slice > (uint64_t(1) << 31)) throw std::invalid_argument("md5z_search: max_slice must be 1..2^31");
  const uint64_t max_len = max_slice;
  const double p = std::pow(16.0, -threshold);
  size_t cap = initial_capacity
                   ? initial_capacity
                   : size_t(std::min<double>(2.0 * p * double(std::min(hi - lo, max_len)) + 4096, double(1u << 30)));
  DevBuf<unsigned> dcount(1);
  auto dhits = std::make_unique<DevBuf<unsigned long long>>(cap);
  std::vector<uint64_t> all;
  // As many blocks as stay resident (8 per SM at 32 registers or fewer, fewer for the two-lane variant):
  // one wave of persistent threads, no second partial wave.
  int per_sm = 0;
  with_kernel(v, [&](auto kernel) { BX_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kThreads, 0)); });
  const unsigned blocks = unsigned(device_sm_count(dev)) * unsigned(std::max(per_sm, 1));
  const uint32_t mask = md5::early_exit_mask(threshold);
  EventTimer timer;
  Md5zSearchStats st;
  for (const md5::Slice& s : md5::plan_slices(lo, hi, max_len)) {
    const uint32_t n = uint32_t(s.hi - s.lo);
    for (;;) {
      BX_CUDA(cudaMemset(dcount.p, 0, sizeof(unsigned)));
      timer.start();
      with_kernel(v, [&](auto kernel) {
        // Fault: a launch shape beyond the kernel's __launch_bounds__ (the launch fails: one error line).
        const unsigned threads = BX_FAULT(md5z_launch_invalid_block) ? 4 * kThreads : kThreads;
        kernel<<<blocks, threads>>>(tb, uint32_t(s.lo), n, mask, threshold, dhits->p, unsigned(cap), dcount.p);
      });
      timer.stop();
      BX_CUDA_LAUNCH("k_md5z_search");
      st.kernel_seconds += timer.seconds();
      ++st.launches;
      unsigned count = 0;
      dcount.get(&count, 1);
      if (count <= cap) {
        if (count) {
          thrust::device_ptr<unsigned long long> p0(dhits->p);
          thrust::sort(p0, p0 + count);
          BX_CUDA_LAUNCH("thrust::sort (md5z hits)");
          const size_t at = all.size();
          all.resize(at + count);
          BX_CUDA(cudaMemcpy(all.data() + at, dhits->p, count * sizeof(uint64_t), cudaMemcpyDeviceToHost));
        }
        break;
      }
      // Overflow: every hit was counted but only `cap` kept. Re-run this slice with room for all.
      cap = size_t(count) + count / 8 + 1024;
      dhits = std::make_unique<DevBuf<unsigned long long>>(cap);
      ++st.reruns;
    }
    st.candidates += n;
  }
  if (stats) *stats = st;
  return all;
}

std::vector<std::array<uint32_t, 4>> md5z_digests(int dev, Variant v, const md5::TunnelBase& tb,
                                                  const std::vector<uint32_t>& indices) {
  std::vector<std::array<uint32_t, 4>> out(indices.size());
  if (indices.empty()) return out;
  select(dev);
  const uint32_t one = 1;
  BX_CUDA(cudaMemcpyToSymbol(c_one, &one, sizeof one));
  DevBuf<uint32_t> didx(indices.size()), dout(4 * indices.size());
  didx.put(indices.data(), indices.size());
  md5::with_variant(v, [&](auto c) {
    k_md5z_digests<int(md5::variant_of<decltype(c)>())><<<blocks_for(indices.size(), 128), 128>>>(tb, didx.p, indices.size(), dout.p);
  });
  BX_CUDA_LAUNCH("k_md5z_digests");
  dout.get(out.data()->data(), 4 * indices.size());
  return out;
}

KernelInfo md5z_kernel_info(Variant v) {
  cudaFuncAttributes attr{};
  with_kernel(v, [&](auto kernel) { BX_CUDA(cudaFuncGetAttributes(&attr, kernel)); });
  return {attr.numRegs, attr.localSizeBytes};
}


}  // namespace bx::kern
