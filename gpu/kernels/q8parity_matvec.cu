// q8parity matvec kernels: the per-item order of gpu/q8parity/q8_matvec.hpp with weights and activations
// staged through shared memory. A thread block is one warp owning 32 * NR consecutive rows (NR per
// thread); blocks loop over row groups (a grid sized to the resident capacity, so no SM idles in a last
// partial wave and none holds two groups where others hold one). A group walks K in stages of
// kStageBlocks Q8_0 blocks: each row's 272-byte stage segment is copied by 16-byte cp.async (18 aligned
// chunks cover it at any 2-byte misalignment: rows are 34 * K/32 bytes, so a row's offset mod 16 is fixed
// across stages) into a 19-quad slot, the stage's activations likewise, kStages deep. Each thread then
// reads its rows' blocks as three 128-bit quads (q8::load_block_quads: the odd quad stride spreads a
// warp's loads over all eight quad banks) and runs the canonical fma chains: parallel over rows and tokens
// only, never inside a chain.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include "gpu/kernels/cuda_util.cuh"
#include "gpu/kernels/q8parity_kernels.hpp"
#include "gpu/kernels/q8parity_probe.cuh"
#include "gpu/q8parity/dispatch.hpp"
#include "gpu/q8parity/q8_matvec.hpp"

namespace bx::kern {
namespace {

using namespace bx::q8;

constexpr int kThreads = 32;       // one warp per thread block
constexpr int kStageBlocks = 8;    // Q8_0 blocks per row per stage (272 bytes, a multiple of 16)
constexpr int kSegChunks = 18;     // 16-byte chunks staged per row and stage
constexpr int kSegBytes = 19 * 16; // a row's slot: an odd number of quads (bank-conflict-free quad reads)
constexpr int kStages = 3;
constexpr int kStageFloats = kStageBlocks * kCodes;  // activations per token and stage
constexpr size_t kWeightPad = kSegChunks * 16 + 16;  // bytes past the last row the staged loads may read
static_assert(kStageBlocks * kBlockBytes % 16 == 0, "a row's misalignment must not change between stages");
static_assert(14 + kStageBlocks * kBlockBytes + 2 <= kSegChunks * 16, "18 chunks cover a stage at any (even) misalignment");
static_assert(14 + (kStageBlocks - 1) * kBlockBytes + 48 <= kSegBytes, "the last block's three quads lie inside the slot");

// The kernel set (BX_Q8_KERNELS, cmake/q8parity.cmake): all, or one (every template
// compiled for sm_90, the unrolled token loop at ntok 1 and 8 only: the gate on a machine without a GPU).
#if defined(BX_Q8_KERNELS_ONE)
template <int NTOK>
constexpr bool kCompiled = NTOK == 0 || NTOK == 1 || NTOK == 8;
#else
template <int NTOK>
constexpr bool kCompiled = true;
#endif
[[noreturn]] void not_in_build(const VariantRow& row, int ntok) {
  throw std::invalid_argument(std::string(row.name) + " at ntok " + std::to_string(ntok) +
                              ": kernel not in this build (BX_Q8_KERNELS=one; configure with BX_Q8_KERNELS=all)");
}

__device__ __forceinline__ void cp_async16(void* smem, const void* gmem) {
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(gmem) : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
template <int N>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

template <int NR>
__host__ __device__ constexpr size_t stage_bytes(int ntok) {
  return size_t(kThreads * NR) * kSegBytes + size_t(ntok) * kStageFloats * sizeof(float);
}

template <int NR, bool Packed, int NTOK>
__global__ void __launch_bounds__(kThreads) q8_matvec_kernel(const uint8_t* __restrict__ w, size_t rows, size_t k,
                                                             const float* __restrict__ x, int ntok_rt,
                                                             float* __restrict__ y) {
  constexpr int kRows = kThreads * NR;  // rows per group
  extern __shared__ __align__(16) uint8_t smem[];
  const int ntok = NTOK > 0 ? NTOK : ntok_rt;
  const size_t nb = k / kCodes, row_bytes = nb * kBlockBytes;
  const int tid = threadIdx.x;
  const size_t sbytes = stage_bytes<NR>(ntok);
  const int nstages = int((nb + kStageBlocks - 1) / kStageBlocks);
  const size_t ngroups = (rows + kRows - 1) / kRows;

  for (size_t g = blockIdx.x; g < ngroups; g += gridDim.x) {
    const size_t row_base = g * kRows;
    auto load_stage = [&](int s) {
      uint8_t* buf = smem + size_t(s % kStages) * sbytes;
      const size_t b0 = size_t(s) * kStageBlocks;
      for (int f = tid; f < kRows * kSegChunks; f += kThreads) {
        const int rho = f / kSegChunks, c = f % kSegChunks;
        const size_t row = row_base + size_t(rho);
        if (row >= rows) continue;
        const size_t start = row * row_bytes + b0 * kBlockBytes;
        cp_async16(buf + rho * kSegBytes + c * 16, w + (start & ~size_t(15)) + size_t(c) * 16);
      }
      float* xs = reinterpret_cast<float*>(buf + size_t(kRows) * kSegBytes);
      const int nbs = int(min(size_t(kStageBlocks), nb - b0));
      for (int f = tid; f < ntok * (kStageFloats / 4); f += kThreads) {
        const int t = f / (kStageFloats / 4), c = f % (kStageFloats / 4);
        if (c * 4 >= nbs * kCodes) continue;
        cp_async16(xs + t * kStageFloats + c * 4, x + size_t(t) * k + b0 * kCodes + size_t(c) * 4);
      }
    };

    // This thread's rows: rho = tid * NR + j (pairs of adjacent rows for NR = 2).
    bool live[NR];
    const size_t my_row0 = row_base + size_t(tid) * NR;
    const bool any = group_rows<NR>(my_row0, rows, live);
    uint32_t mis[NR];  // byte offset of the row's stage segment inside its first chunk (constant per row)
    BX_UNROLL
    for (int j = 0; j < NR; ++j) mis[j] = uint32_t(((my_row0 + j) * row_bytes) & 15);
    MatvecAcc<NR, Packed, NTOK> acc;

    __syncthreads();  // the previous group's last stage is read by every thread before it is refilled
    BX_UNROLL
    for (int s = 0; s < kStages - 1; ++s) {
      if (s < nstages) load_stage(s);
      cp_async_commit();
    }
    for (int s = 0; s < nstages; ++s) {
      cp_async_wait<kStages - 2>();
      __syncthreads();  // stage s landed for every thread; every thread is done with stage s - 1's buffer
      if (s + kStages - 1 < nstages) load_stage(s + kStages - 1);
      cp_async_commit();
      if (!any) continue;
      const uint8_t* buf = smem + size_t(s % kStages) * sbytes;
      const float* xs = reinterpret_cast<const float*>(buf + size_t(kRows) * kSegBytes);
      const int nbs = int(min(size_t(kStageBlocks), nb - size_t(s) * kStageBlocks));
      // Two blocks per iteration: block i + 1's loads and widening overlap block i's chain (the per-block
      // sums are independent; the acc fmas stay in block order). Not where two rows of many tokens
      // already fill the registers (NR = 2 from 6 tokens: unrolled, it spills).
      constexpr int kUnroll = NR == 2 && (NTOK == 0 || NTOK >= 6) ? 1 : 2;
#pragma unroll(kUnroll)
      for (int i = 0; i < nbs; ++i) {
        Q8Packed blk[NR];
        BX_UNROLL
        for (int j = 0; j < NR; ++j) {
          const uint32_t* seg = reinterpret_cast<const uint32_t*>(buf + (tid * NR + j) * kSegBytes);
          blk[j] = live[j] ? load_block_quads(seg, mis[j] + uint32_t(i) * kBlockBytes) : Q8Packed{};
        }
        acc.step(blk, live, xs + i * kCodes, kStageFloats, ntok);
      }
    }
    if (!any) continue;
    BX_UNROLL
    for (int j = 0; j < NR; ++j) {
      if (!live[j]) continue;
      for (int t = 0; t < ntok; ++t) y[size_t(t) * rows + my_row0 + j] = acc.acc[j][t];
    }
  }
}

// The negative control: a warp per (token, row); lane l chains code l of every block, then an xor tree.
__global__ void q8_negative_control_kernel(const uint32_t* __restrict__ words, size_t rows, size_t k,
                                           const float* __restrict__ x, int ntok, float* __restrict__ y) {
  const size_t warp = (size_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const int lane = int(threadIdx.x % 32);
  if (warp >= rows * size_t(ntok)) return;
  const size_t t = warp / rows, row = warp % rows, nb = k / kCodes;
  float acc = negative_control_lane(words, row * nb * kBlockBytes, nb, x + t * k, lane);
  for (int o = 16; o >= 1; o >>= 1) acc = add_rn(acc, __shfl_xor_sync(0xffffffffu, acc, o));
  if (lane == 0) y[t * rows + row] = acc;
}

// The grid: every row group once, at most as many thread blocks as the device holds at a time.
template <int NR, bool Packed, int NTOK>
void launch_matvec(const uint8_t* w, size_t rows, size_t k, const float* x, int ntok, float* y) {
  auto* kern = q8_matvec_kernel<NR, Packed, NTOK>;
  const size_t smem = kStages * stage_bytes<NR>(ntok);
  BX_CUDA(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
  int dev = 0, sms = 0, per_sm = 0;
  BX_CUDA(cudaGetDevice(&dev));
  BX_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  BX_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kern, kThreads, smem));
  if (per_sm < 1) throw std::invalid_argument("q8 matvec: the kernel does not fit on an SM (shared memory)");
  const size_t groups = (rows + size_t(kThreads * NR) - 1) / size_t(kThreads * NR);
  const unsigned blocks = unsigned(std::min<size_t>(groups, size_t(sms) * size_t(per_sm)));
  kern<<<blocks, kThreads, smem>>>(w, rows, k, x, ntok, y);
  BX_CUDA(cudaGetLastError());
}

void check_shape(size_t rows, size_t k, int ntok) {
  if (rows == 0 || k == 0 || k % kCodes) throw std::invalid_argument("q8 matvec: rows >= 1 and K a positive multiple of 32");
  if (ntok < 1 || ntok > kMaxTokens) throw std::invalid_argument("q8 matvec: ntok must be 1..8");
  if (rows > (size_t(1) << 31)) throw std::invalid_argument("q8 matvec: too many rows");
}

}  // namespace

struct Q8MatvecOnDevice::Impl {
  int dev;
  size_t rows, k, bytes;
  int ntok;
  DevBuf<uint8_t> w;
  DevBuf<float> x, y;
  Impl(int d, size_t r, size_t kk, int nt)
      : dev(d), rows(r), k(kk), bytes(r * (kk / kCodes) * kBlockBytes), ntok(nt), w(bytes + kWeightPad),
        x(size_t(nt) * kk), y(size_t(nt) * r) {}
};

Q8MatvecOnDevice::Q8MatvecOnDevice(int dev, const uint8_t* weights, size_t rows, size_t k, const float* x, int ntok) {
  check_shape(rows, k, ntok);
  select(dev);
  p_ = std::make_unique<Impl>(dev, rows, k, ntok);
  p_->w.put(weights, p_->bytes);
  BX_CUDA(cudaMemset(p_->w.p + p_->bytes, 0, kWeightPad));
  p_->x.put(x, size_t(ntok) * k);
}
Q8MatvecOnDevice::~Q8MatvecOnDevice() = default;
size_t Q8MatvecOnDevice::weight_bytes() const { return p_->bytes; }

std::vector<float> Q8MatvecOnDevice::run(size_t v, int ntok, float poison, int reps, double* seconds) {
  if (v >= kVariantCount || kVariants[v].op != Op::matvec) throw std::invalid_argument("not a matvec variant");
  if (ntok < 1 || ntok > p_->ntok) throw std::invalid_argument("q8 matvec: ntok beyond the tokens on the device");
  select(p_->dev);
  const size_t n = size_t(ntok) * p_->rows;
  std::vector<float> out(n, poison);
  p_->y.put(out.data(), n);
  const VariantRow& row = kVariants[v];
  if (reps > 1) {  // timed runs: the first launch (module load, attributes) outside the timer
    q8_matvec_launch(v, p_->w.p, p_->rows, p_->k, p_->x.p, ntok, p_->y.p);
    BX_CUDA_LAUNCH(row.name);
  }
  EventTimer timer;
  timer.start();
  for (int r = 0; r < std::max(reps, 1); ++r) q8_matvec_launch(v, p_->w.p, p_->rows, p_->k, p_->x.p, ntok, p_->y.p);
  timer.stop();
  BX_CUDA_LAUNCH(row.name);
  if (seconds) *seconds = timer.seconds();
  p_->y.get(out.data(), n);
  return out;
}

size_t q8_weight_pad() { return kWeightPad; }
std::string q8_matvec_build_probe(int dev) { return probe_this_tu(dev, "q8parity_matvec.cu"); }
void q8_matvec_launch(size_t v, const uint8_t* w, size_t rows, size_t k, const float* x, int ntok, float* y) {
  check_shape(rows, k, ntok);
  bx_sync_fault_to_device();  // this translation unit's copy of the zoo switch, also when another file launches
  if (reinterpret_cast<uintptr_t>(w) % 16 || reinterpret_cast<uintptr_t>(x) % 16)
    throw std::invalid_argument("q8 matvec: weights and activations must be 16-byte aligned device buffers (cp.async)");
  const VariantRow& row = kVariants[v];
  if (row.negative) {
    const size_t threads = rows * size_t(ntok) * 32;
    q8_negative_control_kernel<<<blocks_for(threads, 256), 256>>>(reinterpret_cast<const uint32_t*>(w), rows, k, x, ntok, y);
    BX_CUDA(cudaGetLastError());
    return;
  }
  with_matvec_shape(row, ntok, [&](auto nr, auto packed, auto ntok_c) {
    if constexpr (kCompiled<decltype(ntok_c)::value>)
      launch_matvec<decltype(nr)::value, decltype(packed)::value, decltype(ntok_c)::value>(w, rows, k, x, ntok, y);
    else
      not_in_build(row, ntok);
  });
}

std::vector<float> q8_matvec_gpu(int dev, size_t v, const uint8_t* weights, size_t rows, size_t k, const float* x, int ntok,
                                 float poison) {
  Q8MatvecOnDevice d(dev, weights, rows, k, x, ntok);
  return d.run(v, ntok, poison);
}

namespace {
template <class K>
Q8KernelInfo info_of(K* kern, const std::string& name) {
  cudaFuncAttributes a{};
  BX_CUDA(cudaFuncGetAttributes(&a, kern));
  return {name, a.numRegs, size_t(a.localSizeBytes), size_t(a.sharedSizeBytes)};
}
}  // namespace

std::vector<Q8KernelInfo> q8_kernel_info(size_t v, int ntok) {
  if (v >= kVariantCount) throw std::invalid_argument("q8 kernel info: no variant " + std::to_string(v));
  const VariantRow& row = kVariants[v];
  if (row.op != Op::matvec) return q8_norm_gr_kernel_info(v);
  if (row.negative) return {info_of(q8_negative_control_kernel, "q8_negative_control_kernel")};
  std::vector<Q8KernelInfo> out;
  with_matvec_shape(row, std::max(ntok, 1), [&](auto nr, auto packed, auto ntok_c) {
    if constexpr (kCompiled<decltype(ntok_c)::value>)
      out.push_back(info_of(q8_matvec_kernel<decltype(nr)::value, decltype(packed)::value, decltype(ntok_c)::value>,
                            "q8_matvec_kernel<" + std::to_string(decltype(nr)::value) + "," +
                                (decltype(packed)::value ? "packed" : "unpacked") + "," +
                                std::to_string(decltype(ntok_c)::value) + ">"));
    else
      not_in_build(row, ntok);
  });
  return out;
}

}  // namespace bx::kern
