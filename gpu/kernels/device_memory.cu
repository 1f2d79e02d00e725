// Device memory and a stream per device for calls into outside code (plugins): plain runtime calls,
// checked; no kernels here.
#include <mutex>
#include <vector>

#include "gpu/kernels/cuda_util.cuh"
#include "gpu/kernels/device.hpp"

namespace bx::kern {

void device_select(int dev) { select(dev); }
void device_sync_all(int dev) {
  select(dev);
  BX_CUDA(cudaDeviceSynchronize());
}

void* device_alloc(int dev, size_t bytes) {
  select(dev);
  void* p = nullptr;
  BX_CUDA(cudaMalloc(&p, bytes ? bytes : 1));
  return p;
}
void device_free(int dev, void* p) noexcept {
  if (cudaSetDevice(dev) == cudaSuccess) cudaFree(p);
}
void device_copy_in(int dev, void* dst, const void* src, size_t bytes) {
  select(dev);
  BX_CUDA(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice));
}
void device_copy_out(int dev, void* dst, const void* src, size_t bytes) {
  select(dev);
  BX_CUDA(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost));
}
void device_fill(int dev, void* p, int value, size_t bytes) {
  select(dev);
  BX_CUDA(cudaMemset(p, value, bytes));
}
void* device_stream(int dev) {
  static std::mutex m;
  static std::vector<cudaStream_t> streams;
  std::lock_guard<std::mutex> lock(m);
  if (streams.size() <= size_t(dev)) streams.resize(size_t(dev) + 1, nullptr);
  if (!streams[size_t(dev)]) {
    select(dev);
    BX_CUDA(cudaStreamCreateWithFlags(&streams[size_t(dev)], cudaStreamNonBlocking));
  }
  return streams[size_t(dev)];
}
void device_sync(int dev, void* stream) {
  select(dev);
  BX_CUDA(cudaStreamSynchronize(static_cast<cudaStream_t>(stream)));
  BX_CUDA(cudaGetLastError());
}

}  // namespace bx::kern
