// field25519 per-op batch kernels (bytes and limbs) and device queries.
#include "gpu/kernels/field25519_kernels.hpp"
#include "gpu/kernels/launch.cuh"

namespace bx::kern {
namespace {

template <class F>
__global__ void k_from_bytes(const uint8_t* s, size_t n, typename F::fe* out) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint8_t x[32];
  for (int j = 0; j < 32; ++j) x[j] = s[32 * i + j];
  F::from_bytes(out[i], x);
}

template <class F>
__global__ void k_eval_limbs(Op op, const typename F::fe* a, const typename F::fe* b, size_t n, typename F::fe* out,
                             uint8_t* bytes, uint8_t* flags) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  typename F::fe r;
  const bool flag = eval_limbs<F>(op, r, a[i], b[i]);
  out[i] = r;
  uint8_t s[32];
  F::to_bytes(s, r);
  for (int j = 0; j < 32; ++j) bytes[32 * i + j] = s[j];
  if (flags) flags[i] = flag ? 1 : 0;
}


template <class F>
__global__ void k_derive_constants(uint8_t* out) {
  uint8_t r[f25519::kDerivedConstants][32];
  f25519::fe_derive_constants<F>(r);
  for (int c = 0; c < f25519::kDerivedConstants; ++c)
    for (int j = 0; j < 32; ++j) out[32 * c + j] = r[c][j];
}

// carry::ptx::split52 (FP64 pipe) per pair, the biases removed: the true hi and lo.
__global__ void k_split52(const int64_t* a, const int64_t* b, size_t n, uint64_t* hi, uint64_t* lo) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint64_t h, l;
  carry::ptx::split52(h, l, carry::ptx::split52_operand(a[i]), carry::ptx::split52_operand(b[i]));
  hi[i] = h - carry::ptx::split52_hi_bias;
  lo[i] = l - carry::ptx::split52_lo_bias;
}

}  // namespace

void split52_on_device(int dev, const int64_t* a, const int64_t* b, size_t n, uint64_t* hi, uint64_t* lo) {
  select(dev);
  DevBuf<int64_t> da(n), db(n);
  DevBuf<uint64_t> dh(n), dl(n);
  da.put(a, n);
  db.put(b, n);
  k_split52<<<blocks_for(n, 128), 128>>>(da.p, db.p, n, dh.p, dl.p);
  BX_CUDA_LAUNCH("k_split52");
  dh.get(hi, n);
  dl.get(lo, n);
}

void fe_derive_constants_on(int dev, const std::string& impl, uint8_t* out) {
  select(dev);
  DevBuf<uint8_t> d(32 * f25519::kDerivedConstants);
  with_kernel_impl(impl, [&](auto tag) {
    k_derive_constants<decltype(tag)><<<1, 1>>>(d.p);
    BX_CUDA_LAUNCH("k_derive_constants");
  });
  d.get(out, 32 * f25519::kDerivedConstants);
}

std::vector<std::string> fe_device_impls() {
  std::vector<std::string> v;
  for_each_impl(KernelImpls{}, [&](auto tag) { v.push_back(impl_name<decltype(tag)>()); });
  return v;
}


// Bytes in: from_bytes on the device, then the limb kernel (one evaluation kernel per implementation).
void fe_eval_bytes(int dev, const std::string& impl, Op op, const uint8_t* a, const uint8_t* b, size_t n,
                   uint8_t* out, uint8_t* flags) {
  if (n == 0) return;
  select(dev);
  DevBuf<uint8_t> da(32 * n), db(32 * n), dout(32 * n), dflags(n);
  da.put(a, 32 * n);
  db.put(b, 32 * n);
  with_kernel_impl(impl, [&](auto tag) {
    using F = decltype(tag);
    DevBuf<typename F::fe> la(n), lb(n), lr(n);
    k_from_bytes<F><<<blocks_for(n, 128), 128>>>(da.p, n, la.p);
    k_from_bytes<F><<<blocks_for(n, 128), 128>>>(db.p, n, lb.p);
    k_eval_limbs<F><<<blocks_for(n, 128), 128>>>(op, la.p, lb.p, n, lr.p, dout.p, dflags.p);
    BX_CUDA_LAUNCH("k_eval_limbs (bytes)");
  });
  dout.get(out, 32 * n);
  dflags.get(flags, n);
}

void fe_eval_limbs_of(int dev, const std::string& impl, Op op, const void* a, const void* b, size_t n, void* out,
                      uint8_t* bytes, uint8_t* flags) {
  if (n == 0) return;
  with_kernel_impl(impl, [&](auto tag) {
    using F = decltype(tag);
    using Fe = typename F::fe;
    select(dev);
    DevBuf<Fe> da(n), db(n), dout(n);
    DevBuf<uint8_t> dbytes(32 * n), dflags(n);
    da.put(static_cast<const Fe*>(a), n);
    db.put(static_cast<const Fe*>(b), n);
    k_eval_limbs<F><<<blocks_for(n, 128), 128>>>(op, da.p, db.p, n, dout.p, dbytes.p, dflags.p);
    BX_CUDA_LAUNCH("k_eval_limbs");
    dout.get(static_cast<Fe*>(out), n);
    dbytes.get(bytes, 32 * n);
    if (flags) dflags.get(flags, n);
  });
}


}  // namespace bx::kern
