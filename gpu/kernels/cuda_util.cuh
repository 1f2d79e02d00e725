// Launcher helpers for every .cu file: device buffers, device selection (which also syncs the zoo's
// fault switch, kept per translation unit) and event timing. Every call is checked (BX_CUDA).
#pragma once
#include <cuda_runtime.h>

#include "gpu/core/cuda_check.hpp"
#include "gpu/core/fault.hpp"

namespace bx::kern {
namespace {

template <class T>
struct DevBuf {
  T* p = nullptr;
  explicit DevBuf(size_t n) { BX_CUDA(cudaMalloc(&p, (n ? n : 1) * sizeof(T))); }
  ~DevBuf() { cudaFree(p); }
  DevBuf(const DevBuf&) = delete;
  DevBuf& operator=(const DevBuf&) = delete;
  void put(const T* h, size_t n) { BX_CUDA(cudaMemcpy(p, h, n * sizeof(T), cudaMemcpyHostToDevice)); }
  void get(T* h, size_t n) const { BX_CUDA(cudaMemcpy(h, p, n * sizeof(T), cudaMemcpyDeviceToHost)); }
};

void select(int dev) {
  BX_CUDA(cudaSetDevice(dev));
  bx_sync_fault_to_device();
}
unsigned blocks_for(size_t n, unsigned threads) { return unsigned((n + threads - 1) / threads); }

// Elapsed time between two recorded events (created and destroyed with the timer).
struct EventTimer {
  cudaEvent_t a, b;
  EventTimer() {
    BX_CUDA(cudaEventCreate(&a));
    BX_CUDA(cudaEventCreate(&b));
  }
  ~EventTimer() {
    cudaEventDestroy(a);
    cudaEventDestroy(b);
  }
  void start() { BX_CUDA(cudaEventRecord(a)); }
  void stop() { BX_CUDA(cudaEventRecord(b)); }
  double seconds() {
    float ms = 0;
    BX_CUDA(cudaEventElapsedTime(&ms, a, b));
    return ms / 1e3;
  }
};

}  // namespace
}  // namespace bx::kern
