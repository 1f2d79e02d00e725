// X25519 batch kernel: one ladder per thread, every layout x backend.
#include "gpu/kernels/field25519_kernels.hpp"
#include "gpu/kernels/launch.cuh"

namespace bx::kern {
namespace {

template <class F>
__global__ void k_x25519(const uint8_t* k, const uint8_t* u, size_t n, uint8_t* out) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint8_t ks[32], us[32], r[32];
  for (int j = 0; j < 32; ++j) ks[j] = k[32 * i + j], us[j] = u[32 * i + j];
  x25519<F>(r, ks, us);
  for (int j = 0; j < 32; ++j) out[32 * i + j] = r[j];
}


}  // namespace

void x25519_batch(int dev, const std::string& impl, const uint8_t* k, const uint8_t* u, size_t n, uint8_t* out) {
  if (n == 0) return;
  select(dev);
  DevBuf<uint8_t> dk(32 * n), du(32 * n), dout(32 * n);
  dk.put(k, 32 * n);
  du.put(u, 32 * n);
  with_kernel_impl(impl, [&](auto tag) {
    using F = decltype(tag);
    k_x25519<F><<<blocks_for(n, 64), 64>>>(dk.p, du.p, n, dout.p);
    BX_CUDA_LAUNCH("k_x25519");
  });
  dout.get(out, 32 * n);
}


}  // namespace bx::kern
