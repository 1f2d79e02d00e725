// Bulk cross-check and bench chains.
#include "gpu/kernels/field25519_kernels.hpp"
#include "gpu/kernels/launch.cuh"
#include "gpu/field25519/bench_chain.hpp"
#include "gpu/field25519/draw.hpp"

#include <algorithm>

namespace bx::kern {
namespace {

struct BulkCounters {
  unsigned long long disagreements, kept, samples;
};

__device__ bool outputs_differ(const uint8_t x[4][32], const uint8_t y[4][32]) {
  uint8_t d = 0;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 32; ++j) d |= x[i][j] ^ y[i][j];
  return d != 0;
}

__global__ void k_bulk(uint64_t seed, uint64_t first, uint64_t count, uint64_t sample_mask, BulkCounters* ctr,
                       BulkDisagreement* dis, unsigned dis_cap, BulkSample* samples, unsigned sample_cap) {
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t t = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; t < count; t += stride) {
    const uint64_t idx = first + t;
    uint8_t a[32], b[32];
    draw_operand(a, seed, idx, 0);
    draw_operand(b, seed, idx, 1);
    uint8_t ref[4][32], o[4][32];
    bulk_program<Fe51<portable>>(ref, a, b);
    uint32_t mask = 0;
    int bit = 0;
    for_each_impl_on_device(DeviceImpls{}, [&](auto tag) {
      if (bit > 0) {  // implementation 0 (fe51/portable) is the reference row above
        bulk_program<decltype(tag)>(o, a, b);
        if (outputs_differ(ref, o)) mask |= 1u << bit;
      }
      ++bit;
    });
    if (mask) {
      atomicAdd(&ctr->disagreements, 1ULL);
      const unsigned long long slot = atomicAdd(&ctr->kept, 1ULL);
      if (slot < dis_cap) dis[slot] = {idx, mask};
    }
    if ((mix64(idx ^ 0x5a5a5a5a5a5a5a5aULL ^ seed) & sample_mask) == 0) {
      const unsigned long long slot = atomicAdd(&ctr->samples, 1ULL);
      if (slot < sample_cap) {
        samples[slot].index = idx;
        for (int i = 0; i < 4; ++i)
          for (int j = 0; j < 32; ++j) samples[slot].out[i][j] = ref[i][j];
      }
    }
  }
}

// Chains t = Lanes*i .. Lanes*i + Lanes - 1 in thread i, their steps interleaved: with Lanes = 2 each warp
// carries two independent multiplies, so the scheduler has a second one to issue while the first waits on
// latency (one lane is 24 warps per SM of dependent work at fe51s's 80 registers). Chain t's start values and
// output slot are the same for every Lanes, so every shape's outputs must be equal byte for byte.
template <class F, bool Square, int Lanes>
__global__ void k_bench(uint64_t seed, int iters, size_t n, uint8_t* out) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (Lanes * i >= n) return;
  typename F::fe x[Lanes], y[Lanes];
#pragma unroll
  for (int l = 0; l < Lanes; ++l) {
    uint8_t a[32], b[32];
    draw_operand(a, seed, Lanes * i + l, 0);
    draw_operand(b, seed, Lanes * i + l, 1);
    F::from_bytes(x[l], a);
    F::from_bytes(y[l], b);
  }
#pragma unroll 1
  for (int k = 0; k < iters; ++k) {
#pragma unroll
    for (int l = 0; l < Lanes; ++l) f25519::bench_chain_step<F>(Square, x[l], y[l]);
  }
#pragma unroll
  for (int l = 0; l < Lanes; ++l) {
    uint8_t s[32];
    F::to_bytes(s, x[l]);
    for (int j = 0; j < 32; ++j) out[32 * (Lanes * i + l) + j] = s[j];
  }
}

// Operands of draws [first, first + n) into device buffers (the same counter-based stream as k_bulk).
__global__ void k_draw(uint64_t seed, uint64_t first, uint64_t n, uint8_t* a, uint8_t* b) {
  const uint64_t t = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= n) return;
  draw_operand(a + 32 * t, seed, first + t, 0);
  draw_operand(b + 32 * t, seed, first + t, 1);
}

// An outside implementation's four program outputs against fe51/portable's program on the same draw.
__global__ void k_compare_outside(uint64_t seed, uint64_t first, uint64_t n, const uint8_t* r1, const uint8_t* r2, const uint8_t* r3,
                                  const uint8_t* d, BulkCounters* ctr, BulkDisagreement* dis, unsigned dis_cap) {
  const uint64_t t = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= n) return;
  uint8_t a[32], b[32], ref[4][32];
  draw_operand(a, seed, first + t, 0);
  draw_operand(b, seed, first + t, 1);
  bulk_program<Fe51<portable>>(ref, a, b);
  const uint8_t* got[4] = {r1 + 32 * t, r2 + 32 * t, r3 + 32 * t, d + 32 * t};
  uint32_t mask = 0;
  for (int i = 0; i < 4; ++i) {
    uint8_t x = 0;
    for (int j = 0; j < 32; ++j) x |= ref[i][j] ^ got[i][j];
    if (x) mask |= 1u << i;
  }
  if (mask) {
    atomicAdd(&ctr->disagreements, 1ULL);
    const unsigned long long slot = atomicAdd(&ctr->kept, 1ULL);
    if (slot < dis_cap) dis[slot] = {first + t, mask};
  }
}

}  // namespace

BulkResult fe_bulk_outside(int dev, const OutsideBytesOp& op, void* stream_ptr, uint64_t seed, uint64_t first, uint64_t count) {
  select(dev);
  const cudaStream_t stream = static_cast<cudaStream_t>(stream_ptr);
  BulkResult res;
  res.draws = count;
  const unsigned dis_cap = 64;
  const uint64_t chunk = std::min<uint64_t>(count, uint64_t(1) << 20);
  DevBuf<uint8_t> a(32 * chunk), b(32 * chunk), r1(32 * chunk), r2(32 * chunk), s(32 * chunk), d(32 * chunk), r3(32 * chunk),
      s2(32 * chunk), d2(32 * chunk), flags(chunk);
  DevBuf<BulkCounters> dctr(1);
  DevBuf<BulkDisagreement> ddis(dis_cap);
  BX_CUDA(cudaMemset(dctr.p, 0, sizeof(BulkCounters)));
  const unsigned threads = 256;
  EventTimer timer;
  for (uint64_t done = 0; done < count; done += chunk) {
    const uint64_t n = std::min(chunk, count - done);
    const unsigned blocks = unsigned((n + threads - 1) / threads);
    k_draw<<<blocks, threads, 0, stream>>>(seed, first + done, n, a.p, b.p);
    BX_CUDA(cudaGetLastError());
    BX_CUDA(cudaStreamSynchronize(stream));
    // Timed: the seven calls of the program into the outside implementation (its own kernels).
    BX_CUDA(cudaEventRecord(timer.a, stream));
    op(Op::mul, a.p, b.p, n, r1.p, flags.p, stream);
    op(Op::sqr, a.p, a.p, n, r2.p, flags.p, stream);
    op(Op::add, a.p, b.p, n, s.p, flags.p, stream);
    op(Op::sub, a.p, b.p, n, d.p, flags.p, stream);
    op(Op::mul, s.p, d.p, n, r3.p, flags.p, stream);
    op(Op::add, r2.p, r3.p, n, s2.p, flags.p, stream);
    op(Op::sub, r1.p, s2.p, n, d2.p, flags.p, stream);
    BX_CUDA(cudaEventRecord(timer.b, stream));
    BX_CUDA(cudaStreamSynchronize(stream));
    res.seconds += timer.seconds();
    k_compare_outside<<<blocks, threads, 0, stream>>>(seed, first + done, n, r1.p, r2.p, r3.p, d2.p, dctr.p, ddis.p, dis_cap);
    BX_CUDA(cudaGetLastError());
    BX_CUDA(cudaStreamSynchronize(stream));
  }
  BulkCounters c;
  dctr.get(&c, 1);
  res.disagreements = c.disagreements;
  res.first_disagreements.resize(std::min<unsigned long long>(c.kept, dis_cap));
  ddis.get(res.first_disagreements.data(), res.first_disagreements.size());
  return res;
}

std::vector<std::string> fe_bulk_impls() {
  std::vector<std::string> v;
  for_each_impl(DeviceImpls{}, [&](auto tag) { v.push_back(impl_name<decltype(tag)>()); });
  return v;
}

BulkResult fe_bulk(int dev, uint64_t seed, uint64_t first, uint64_t count, int sample_shift) {
  select(dev);
  BulkResult res;
  res.draws = count;
  const unsigned dis_cap = 64, sample_cap = 1u << 14;
  DevBuf<BulkCounters> dctr(1);
  DevBuf<BulkDisagreement> ddis(dis_cap);
  DevBuf<BulkSample> dsamples(sample_cap);
  BX_CUDA(cudaMemset(dctr.p, 0, sizeof(BulkCounters)));
  const unsigned threads = 256;
  const unsigned blocks = unsigned(device_sm_count(dev)) * 8;
  const uint64_t sample_mask = (uint64_t(1) << sample_shift) - 1;
  EventTimer timer;
  timer.start();
  k_bulk<<<blocks, threads>>>(seed, first, count, sample_mask, dctr.p, ddis.p, dis_cap, dsamples.p, sample_cap);
  timer.stop();
  BX_CUDA_LAUNCH("k_bulk");
  res.seconds = timer.seconds();
  BulkCounters c;
  dctr.get(&c, 1);
  res.disagreements = c.disagreements;
  res.first_disagreements.resize(std::min<unsigned long long>(c.kept, dis_cap));
  ddis.get(res.first_disagreements.data(), res.first_disagreements.size());
  res.samples.resize(std::min<unsigned long long>(c.samples, sample_cap));
  dsamples.get(res.samples.data(), res.samples.size());
  return res;
}

namespace {
template <class F, int Lanes>
BenchRun launch_bench(Op op, uint64_t seed, size_t threads, int iters, uint8_t* out) {
  auto kernel = op == Op::sqr ? k_bench<F, true, Lanes> : k_bench<F, false, Lanes>;
  cudaFuncAttributes attr;
  BX_CUDA(cudaFuncGetAttributes(&attr, kernel));
  const size_t launched = threads / Lanes;
  EventTimer timer;
  timer.start();
  kernel<<<blocks_for(launched, 128), 128>>>(seed, iters, threads, out);
  timer.stop();
  BX_CUDA_LAUNCH("k_bench");
  return {timer.seconds(), attr.numRegs, attr.localSizeBytes};
}
}  // namespace

BenchRun fe_bench(int dev, const std::string& impl, Op op, uint64_t seed, size_t threads, int iters,
                  std::vector<uint8_t>& out, int lanes) {
  if (op != Op::mul && op != Op::sqr) throw std::invalid_argument("bench supports mul and sqr");
  if (lanes != 1 && lanes != 2) throw std::invalid_argument("bench runs 1 or 2 chains per thread");
  if (threads % size_t(lanes) != 0) throw std::invalid_argument("bench: the chain count must divide by the lanes");
  select(dev);
  DevBuf<uint8_t> dout(32 * threads);
  BenchRun run{};
  // Two lanes only for this build's kernel set (BX_FIELD25519_KERNELS): an experiment shape, not a layout.
  if (lanes == 1)
    with_impl(impl, [&](auto tag) { run = launch_bench<decltype(tag), 1>(op, seed, threads, iters, dout.p); });
  else
    with_kernel_impl(impl, [&](auto tag) { run = launch_bench<decltype(tag), 2>(op, seed, threads, iters, dout.p); });
  out.resize(32 * threads);
  dout.get(out.data(), out.size());
  return run;
}

}  // namespace bx::kern
