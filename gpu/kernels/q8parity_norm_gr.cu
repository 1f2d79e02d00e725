// q8parity rmsnorm and hyper-connection read kernels. rmsnorm: a warp per row, lanes and the butterfly of
// q8_rmsnorm.hpp (__shfl_xor_sync). gr plain: rmsnorm of every stream row, the down matvec (canonical
// variant), the silu epilogue, the up matvec, the gate mean (five launches); gr fused: one block per token
// doing the same steps behind block barriers, xn and lo in shared memory, weights read from global memory.
#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>
#include <tuple>

#include "gpu/kernels/cuda_util.cuh"
#include "gpu/kernels/q8parity_kernels.hpp"
#include "gpu/kernels/q8parity_probe.cuh"
#include "gpu/q8parity/q8_gr.hpp"
#include "gpu/q8parity/q8_matvec.hpp"
#include "gpu/q8parity/q8_rmsnorm.hpp"

namespace bx::kern {
namespace {

using namespace bx::q8;

constexpr int kNormThreads = 256;
constexpr int kFusedThreads = 256;

__device__ __forceinline__ float warp_butterfly(float v) {
  for (int o = 16; o >= 1; o >>= 1) v = add_rn(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}

// One row's rmsnorm by one warp (all 32 lanes call it).
template <bool Hoisted>
__device__ __forceinline__ void rmsnorm_row(const float* xr, const float* wr, size_t n, float eps, float* yr, int lane) {
  const float ss = warp_butterfly(Hoisted ? rms_lane_sum_preoffset(xr + lane, n, lane) : rms_lane_sum(xr, n, lane));
  const float r = rms_scale<Hoisted>(ss, n, eps);
  if (Hoisted) {
    rms_apply_lane_preoffset(xr + lane, wr ? wr + lane : nullptr, yr + lane, lane_count(n, lane), r);
  } else {
    for (size_t j = size_t(lane); j < n; j += kLanes) yr[j] = rms_apply(xr[j], r, wr, j);
  }
}

template <bool Hoisted>
__global__ void q8_rmsnorm_kernel(const float* __restrict__ x, const float* __restrict__ w, size_t n, size_t nrows,
                                  size_t w_period, float eps, float* __restrict__ y) {
  const size_t row = (size_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  if (row >= nrows) return;  // whole warps: the butterfly needs all 32 lanes
  rmsnorm_row<Hoisted>(x + row * n, w ? w + (row % w_period) * n : nullptr, n, eps, y + row * n, int(threadIdx.x % 32));
}

void launch_rmsnorm(bool hoisted, const float* x, const float* w, size_t n, size_t nrows, size_t w_period, float eps,
                    float* y) {
  const unsigned blocks = blocks_for(nrows * 32, kNormThreads);
  if (hoisted)
    q8_rmsnorm_kernel<true><<<blocks, kNormThreads>>>(x, w, n, nrows, w_period, eps, y);
  else
    q8_rmsnorm_kernel<false><<<blocks, kNormThreads>>>(x, w, n, nrows, w_period, eps, y);
  BX_CUDA(cudaGetLastError());
}

__global__ void q8_gr_down_epilogue_kernel(const float* __restrict__ pre, size_t n, int hc, float* __restrict__ lo) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) lo[i] = gr_down_epilogue(pre[i], hc);
}
__global__ void q8_gr_mean_kernel(const float* __restrict__ xn, const float* __restrict__ gate, int hc, size_t n_embd,
                                  int ntok, float* __restrict__ mixed) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= size_t(ntok) * n_embd) return;
  const size_t t = i / n_embd, d = i % n_embd, W = size_t(hc) * n_embd;
  mixed[i] = gr_stream_mean<false>(xn + t * W + d, n_embd, gate + t * W + d, n_embd, hc);
}

struct GrDev {
  int hc, ntok;
  size_t E, L;
  float eps;
  const float *r, *w_norm;
  const uint32_t *w_down, *w_up;  // Q8_0 rows as 32-bit words (padded)
  float *xn, *pre, *lo, *gate, *mixed;
};

// One canonical matvec row of K (a multiple of 32) from global weights, x in shared memory.
__device__ __forceinline__ float canonical_row(const uint32_t* words, size_t row, size_t k, const float* x) {
  const size_t nb = k / kCodes;
  MatvecAcc<1, false, 1> a;
  const bool live[1] = {true};
  for (size_t b = 0; b < nb; ++b) {
    const Q8Packed blk[1] = {load_block(words, (row * nb + b) * kBlockBytes)};
    a.step(blk, live, x + b * kCodes, 0, 1);
  }
  return a.acc[0][0];
}

__global__ void __launch_bounds__(kFusedThreads) q8_gr_fused_kernel(GrDev p) {
  extern __shared__ __align__(16) float sm[];
  const size_t W = size_t(p.hc) * p.E;
  float* xn = sm;      // W
  float* lo = sm + W;  // L
  const int t = blockIdx.x, tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  for (int c = warp; c < p.hc; c += kFusedThreads / 32) {
    rmsnorm_row<false>(p.r + size_t(t) * W + size_t(c) * p.E, p.w_norm + size_t(c) * p.E, p.E, p.eps, xn + size_t(c) * p.E,
                       lane);
  }
  __syncthreads();
  for (size_t j = size_t(tid); j < W; j += kFusedThreads) p.xn[size_t(t) * W + j] = xn[j];
  for (size_t k = size_t(tid); k < p.L; k += kFusedThreads) {
    const float pre = canonical_row(p.w_down, k, W, xn);
    p.pre[size_t(t) * p.L + k] = pre;
    lo[k] = gr_down_epilogue(pre, p.hc);
    p.lo[size_t(t) * p.L + k] = lo[k];
  }
  __syncthreads();
  for (size_t d = size_t(tid); d < p.E; d += kFusedThreads) {
    float g[16];
    for (int c = 0; c < p.hc; ++c) {
      g[c] = canonical_row(p.w_up, size_t(c) * p.E + d, p.L, lo);
      p.gate[size_t(t) * W + size_t(c) * p.E + d] = g[c];
    }
    p.mixed[size_t(t) * p.E + d] = gr_stream_mean<true>(xn + d, p.E, g, 1, p.hc);
  }
}

void check_gr(const GrProblem& p) {
  if (p.hc < 1 || p.hc > 16 || p.n_embd < 32 || p.n_embd % 32 || p.hc_lr < 32 || p.hc_lr % 32 || p.ntok < 1 || p.ntok > 8)
    throw std::invalid_argument("q8 gr read: hc 1..16, n_embd and hc_lr multiples of 32, ntok 1..8");
  if ((p.width() + size_t(p.hc_lr)) * sizeof(float) > 200 * 1024)
    throw std::invalid_argument("q8 gr read: hc * n_embd + hc_lr floats must fit in shared memory (fused read)");
}

}  // namespace

std::vector<float> q8_rmsnorm_gpu(int dev, size_t v, const float* x, const float* w, size_t n, size_t nrows,
                                  size_t w_period, float eps, float poison) {
  if (v >= kVariantCount || kVariants[v].op != Op::rmsnorm) throw std::invalid_argument("not an rmsnorm variant");
  if (n == 0 || n >= (size_t(1) << 24) || nrows == 0 || (w && w_period == 0))
    throw std::invalid_argument("q8 rmsnorm: n 1..2^24-1, at least one row");
  select(dev);
  DevBuf<float> dx(n * nrows), dw(w ? n * w_period : 1), dy(n * nrows);
  dx.put(x, n * nrows);
  if (w) dw.put(w, n * w_period);
  std::vector<float> y(n * nrows, poison);
  dy.put(y.data(), y.size());
  launch_rmsnorm(kVariants[v].hoisted, dx.p, w ? dw.p : nullptr, n, nrows, std::max<size_t>(w_period, 1), eps, dy.p);
  BX_CUDA_LAUNCH(kVariants[v].name);
  dy.get(y.data(), y.size());
  return y;
}

GrResult q8_gr_gpu(int dev, size_t v, const GrProblem& p, float poison, double* seconds) {
  if (v >= kVariantCount || kVariants[v].op != Op::gr) throw std::invalid_argument("not a gr variant");
  check_gr(p);
  select(dev);
  const size_t W = p.width(), E = size_t(p.n_embd), L = size_t(p.hc_lr), T = size_t(p.ntok);
  const size_t down_bytes = L * (W / kCodes) * kBlockBytes, up_bytes = W * (L / kCodes) * kBlockBytes;
  DevBuf<float> r(T * W), wn(W), xn(T * W), pre(T * L), lo(T * L), gate(T * W), mixed(T * E);
  DevBuf<uint8_t> wd(down_bytes + q8_weight_pad()), wu(up_bytes + q8_weight_pad());
  r.put(p.r, T * W);
  wn.put(p.w_norm, W);
  wd.put(p.w_down, down_bytes);
  wu.put(p.w_up, up_bytes);
  BX_CUDA(cudaMemset(wd.p + down_bytes, 0, q8_weight_pad()));
  BX_CUDA(cudaMemset(wu.p + up_bytes, 0, q8_weight_pad()));
  GrResult o;
  const std::tuple<DevBuf<float>*, std::vector<float>*, size_t> outs[] = {
      {&xn, &o.xn, T * W}, {&pre, &o.pre, T * L}, {&lo, &o.lo, T * L}, {&gate, &o.gate, T * W}, {&mixed, &o.mixed, T * E}};
  for (auto [buf, host, n] : outs) {  // every output poisoned: one a launch never writes stays visible
    host->assign(n, poison);
    buf->put(host->data(), n);
  }
  EventTimer timer;
  timer.start();
  if (kVariants[v].fused) {
    const GrDev d{p.hc, p.ntok, E, L, p.eps, r.p, wn.p, reinterpret_cast<const uint32_t*>(wd.p),
                  reinterpret_cast<const uint32_t*>(wu.p), xn.p, pre.p, lo.p, gate.p, mixed.p};
    const size_t smem = (W + L) * sizeof(float);
    BX_CUDA(cudaFuncSetAttribute(q8_gr_fused_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
    q8_gr_fused_kernel<<<p.ntok, kFusedThreads, smem>>>(d);
    BX_CUDA(cudaGetLastError());
  } else {
    launch_rmsnorm(false, r.p, wn.p, E, T * size_t(p.hc), size_t(p.hc), p.eps, xn.p);
    q8_matvec_launch(kMatvecCanonical, wd.p, L, W, xn.p, p.ntok, pre.p);
    q8_gr_down_epilogue_kernel<<<blocks_for(T * L, 256), 256>>>(pre.p, T * L, p.hc, lo.p);
    BX_CUDA(cudaGetLastError());
    q8_matvec_launch(kMatvecCanonical, wu.p, W, L, lo.p, p.ntok, gate.p);
    q8_gr_mean_kernel<<<blocks_for(T * E, 256), 256>>>(xn.p, gate.p, p.hc, E, p.ntok, mixed.p);
    BX_CUDA(cudaGetLastError());
  }
  timer.stop();
  BX_CUDA_LAUNCH(kVariants[v].name);
  if (seconds) *seconds = timer.seconds();
  for (auto [buf, host, n] : outs) buf->get(host->data(), n);
  return o;
}

std::string q8_device_build_problems(int dev) {
  return q8_matvec_build_probe(dev) + probe_this_tu(dev, "q8parity_norm_gr.cu");
}

double q8_copy_bandwidth(int dev, size_t bytes, int reps) {
  select(dev);
  DevBuf<uint8_t> a(bytes), b(bytes);
  BX_CUDA(cudaMemset(a.p, 1, bytes));
  double best = 0;
  for (int i = 0; i < std::max(reps, 1) + 1; ++i) {  // the first copy warms up
    EventTimer timer;
    timer.start();
    BX_CUDA(cudaMemcpyAsync(b.p, a.p, bytes, cudaMemcpyDeviceToDevice));
    timer.stop();
    BX_CUDA_LAUNCH("q8 copy bandwidth");
    const double s = timer.seconds();
    if (i > 0 && s > 0) best = std::max(best, 2.0 * double(bytes) / s);
  }
  return best;
}

namespace {
template <class K>
Q8KernelInfo norm_info(K* kern, const std::string& name) {
  cudaFuncAttributes a{};
  BX_CUDA(cudaFuncGetAttributes(&a, kern));
  return {name, a.numRegs, size_t(a.localSizeBytes), size_t(a.sharedSizeBytes)};
}
}  // namespace

std::vector<Q8KernelInfo> q8_norm_gr_kernel_info(size_t v) {
  const VariantRow& row = kVariants[v];
  if (row.op == Op::rmsnorm)
    return {row.hoisted ? norm_info(q8_rmsnorm_kernel<true>, "q8_rmsnorm_kernel<hoisted>")
                        : norm_info(q8_rmsnorm_kernel<false>, "q8_rmsnorm_kernel<plain>")};
  if (row.fused) return {norm_info(q8_gr_fused_kernel, "q8_gr_fused_kernel")};
  return {norm_info(q8_rmsnorm_kernel<false>, "q8_rmsnorm_kernel<plain>"),
          norm_info(q8_gr_down_epilogue_kernel, "q8_gr_down_epilogue_kernel"),
          norm_info(q8_gr_mean_kernel, "q8_gr_mean_kernel")};
}

}  // namespace bx::kern
