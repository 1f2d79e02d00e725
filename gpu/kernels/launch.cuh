// Shared pieces of the field25519 launchers (included by the .cu files only): the implementation list,
// name dispatch, device buffers, device selection (which also syncs the zoo's fault switch, kept per
// translation unit) and event timing.
#pragma once
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "gpu/core/cuda_check.hpp"
#include "gpu/field25519/layouts.hpp"

namespace bx::kern {
namespace {

using namespace bx::f25519;
using carry::portable;
using carry::ptx;

#define BX_FE_IMPLS(X) \
  X(Fe51, portable) X(Fe51, ptx) X(Fe32, portable) X(Fe32, ptx) X(Fe29, portable) X(Fe29, ptx) X(Fe26, portable) X(Fe26, ptx)

template <class F>
std::string impl_name() {
  return std::string(F::name) + "/" + F::backend::name;
}

template <class Fn>
void with_impl(const std::string& impl, Fn&& fn) {
#define BX_DISPATCH(L, B)                 \
  if (impl == impl_name<L<B>>()) {        \
    fn(L<B>{});                           \
    return;                               \
  }
  BX_FE_IMPLS(BX_DISPATCH)
#undef BX_DISPATCH
  throw std::invalid_argument("unknown field25519 implementation: " + impl);
}

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

float time_ms(cudaEvent_t a, cudaEvent_t b) {
  float ms = 0;
  BX_CUDA(cudaEventElapsedTime(&ms, a, b));
  return ms;
}


}  // namespace
}  // namespace bx::kern
