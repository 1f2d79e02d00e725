// Shared by every family's launchers: device queries and the issue-ceiling microbenchmarks (independent
// chains of one instruction, 8 chains x 8 per iteration, so the rate is the pipe's issue limit, not
// latency): IMAD (FMA pipe), LOP3 (integer ALU pipe) and DFMA (FP64 pipe).
#include "gpu/core/hd.hpp"
#include "gpu/kernels/cuda_util.cuh"
#include "gpu/kernels/device.hpp"

namespace bx::kern {

int device_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return n;
}
std::string device_name(int dev) {
  cudaDeviceProp p;
  BX_CUDA(cudaGetDeviceProperties(&p, dev));
  return std::string(p.name) + " (sm_" + std::to_string(p.major) + std::to_string(p.minor) + ")";
}
std::string device_pci_bus_id(int dev) {
  char id[32] = {};
  BX_CUDA(cudaDeviceGetPCIBusId(id, int(sizeof id), dev));
  return id;
}
int cuda_driver_version() {
  int v = 0;
  return cudaDriverGetVersion(&v) == cudaSuccess ? v : 0;
}
int cuda_runtime_version() {
  int v = 0;
  return cudaRuntimeGetVersion(&v) == cudaSuccess ? v : 0;
}
int device_sm_count(int dev) {
  int n = 0;
  BX_CUDA(cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, dev));
  return n;
}

namespace {

enum class Pipe { imad, lop3, dfma };

template <Pipe P>
__global__ void k_issue(uint32_t a, uint32_t b, int iters, uint32_t* out) {
  uint32_t acc[8];
  double dacc[8];
  const double da = 1.0 + a * 0x1p-40, db = b * 0x1p-60;
  for (int j = 0; j < 8; ++j) acc[j] = threadIdx.x + j, dacc[j] = threadIdx.x + j;
#pragma unroll 1
  for (int k = 0; k < iters; ++k) {
BX_UNROLL
    for (int u = 0; u < 8; ++u)
BX_UNROLL
      for (int j = 0; j < 8; ++j) {
        if constexpr (P == Pipe::imad) asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(acc[j]) : "r"(a), "r"(b));
        else if constexpr (P == Pipe::lop3) asm volatile("lop3.b32 %0, %0, %1, %2, 0x96;" : "+r"(acc[j]) : "r"(a), "r"(b));
        else asm volatile("fma.rz.f64 %0, %0, %1, %2;" : "+d"(dacc[j]) : "d"(da), "d"(db));
      }
  }
  uint32_t s = 0;
  for (int j = 0; j < 8; ++j) s ^= acc[j] ^ uint32_t(__double_as_longlong(dacc[j]));
  out[size_t(blockIdx.x) * blockDim.x + threadIdx.x] = s;
}

template <Pipe P>
double issue_ceiling(int dev) {
  select(dev);
  const unsigned threads = 256, blocks = unsigned(device_sm_count(dev)) * 16;
  const int iters = P == Pipe::dfma ? 2048 : 4096;
  DevBuf<uint32_t> dout(size_t(threads) * blocks);
  k_issue<P><<<blocks, threads>>>(3, 7, 64, dout.p);  // warm-up
  BX_CUDA_LAUNCH("k_issue warm-up");
  EventTimer timer;
  timer.start();
  k_issue<P><<<blocks, threads>>>(0x9e3779b9u, 0x7f4a7c15u, iters, dout.p);
  timer.stop();
  BX_CUDA_LAUNCH("k_issue");
  return double(threads) * blocks * iters * 64 / timer.seconds();
}

// Independent chains of full 64x64 -> 128-bit products (mul.lo.u64 + mul.hi.u64, as a Goldilocks multiply
// issues them); the rate counts 128-bit products.
__global__ void k_mul128(uint64_t a, int iters, uint64_t* out) {
  uint64_t acc[8];
  for (int j = 0; j < 8; ++j) acc[j] = threadIdx.x * 0x9e3779b97f4a7c15ull + j;
#pragma unroll 1
  for (int k = 0; k < iters; ++k) {
BX_UNROLL
    for (int j = 0; j < 8; ++j) {
      uint64_t lo, hi;
      asm volatile("mul.lo.u64 %0, %2, %3;\n\tmul.hi.u64 %1, %2, %3;" : "=l"(lo), "=l"(hi) : "l"(acc[j]), "l"(a));
      acc[j] = lo ^ hi;
    }
  }
  uint64_t s = 0;
  for (int j = 0; j < 8; ++j) s ^= acc[j];
  out[size_t(blockIdx.x) * blockDim.x + threadIdx.x] = s;
}

}  // namespace

double mul64x64_ceiling(int dev) {
  select(dev);
  const unsigned threads = 256, blocks = unsigned(device_sm_count(dev)) * 16;
  const int iters = 1024;
  DevBuf<uint64_t> dout(size_t(threads) * blocks);
  k_mul128<<<blocks, threads>>>(3, 16, dout.p);
  BX_CUDA_LAUNCH("k_mul128 warm-up");
  EventTimer timer;
  timer.start();
  k_mul128<<<blocks, threads>>>(0x9e3779b97f4a7c15ull, iters, dout.p);
  timer.stop();
  BX_CUDA_LAUNCH("k_mul128");
  return double(threads) * blocks * iters * 8 / timer.seconds();
}

double imad_ceiling(int dev) { return issue_ceiling<Pipe::imad>(dev); }
double ialu_ceiling(int dev) { return issue_ceiling<Pipe::lop3>(dev); }
double dfma_ceiling(int dev) { return issue_ceiling<Pipe::dfma>(dev); }

}  // namespace bx::kern
