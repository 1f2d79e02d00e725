// fe64.h on the GPU: the same arithmetic as the host plugin (fe64_ops.h) in one thread per element, on
// device buffers bitexact allocates, launched on the stream it passes. The limb form is the host
// plugin's; the table says BX_PLACE_DEVICE, so bitexact runs it on every selected GPU.
#include <bitexact/plugin.h>
#include <cuda_runtime.h>

#include "fe64_ops.h"

#ifndef FE64_PLUGIN_NAME
#define FE64_PLUGIN_NAME "fe64-saturated-cuda"
#endif

namespace {

constexpr unsigned kThreads = 256;
unsigned blocks(size_t n) { return unsigned((n + kThreads - 1) / kThreads); }
int launched() { return cudaGetLastError() == cudaSuccess ? 0 : 1; }

__global__ void k_op(uint32_t op, const fe64* a, const fe64* b, size_t n, fe64* out, uint8_t* flags) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) flags[i] = fe64_apply(op, out + i, a + i, b + i);
}
__global__ void k_encode(const fe64* a, size_t n, uint8_t* out) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) fe64_encode(out + 32 * i, a + i);
}
__global__ void k_decode(const uint8_t* in, size_t n, fe64* out) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) fe64_decode(out + i, in + 32 * i);
}
__global__ void k_bytes(uint32_t op, const uint8_t* a, const uint8_t* b, size_t n, uint8_t* out, uint8_t* flags) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  fe64 x, y, r;
  fe64_decode(&x, a + 32 * i), fe64_decode(&y, b + 32 * i);
  flags[i] = fe64_apply(op, &r, &x, &y);
  fe64_encode(out + 32 * i, &r);
}

__global__ void k_chain(uint32_t op, const uint8_t* a, const uint8_t* b, size_t n, uint32_t iters, uint8_t* out) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) fe64_chain(op, out + 32 * i, a + 32 * i, b + 32 * i, iters);
}

int limb_op(void*, uint32_t op, const void* a, const void* b, size_t n, void* out, uint8_t* flags, void* stream) {
  k_op<<<blocks(n), kThreads, 0, cudaStream_t(stream)>>>(op, (const fe64*)a, (const fe64*)b, n, (fe64*)out, flags);
  return launched();
}
int limb_encode(void*, const void* a, size_t n, uint8_t* out, void* stream) {
  k_encode<<<blocks(n), kThreads, 0, cudaStream_t(stream)>>>((const fe64*)a, n, out);
  return launched();
}
int limb_decode(void*, const uint8_t* in, size_t n, void* out, void* stream) {
  k_decode<<<blocks(n), kThreads, 0, cudaStream_t(stream)>>>(in, n, (fe64*)out);
  return launched();
}
int bytes_op(void*, uint32_t op, const uint8_t* a, const uint8_t* b, size_t n, uint8_t* out, uint8_t* flags, void* stream) {
  k_bytes<<<blocks(n), kThreads, 0, cudaStream_t(stream)>>>(op, a, b, n, out, flags);
  return launched();
}

int bench_chain(void*, uint32_t op, const uint8_t* a, const uint8_t* b, size_t n, uint32_t iters, uint8_t* out, void* stream) {
  k_chain<<<blocks(n), kThreads, 0, cudaStream_t(stream)>>>(op, a, b, n, iters, out);
  return launched();
}

bx_limb_form make_form() {
  bx_limb_form f{};
  f.struct_size = sizeof f;
  f.limb_count = 4;
  f.limb_bits = 64;
  const uint64_t w = ~0ULL;
  for (int j = 0; j < 4; ++j) f.weight[j] = 64u * j, f.tight[j] = f.loose[j] = w;
  f.tight[3] = 0x7fffffffffffffffULL;
  for (int op = 0; op < BX_F25519_OP_COUNT; ++op) f.op_in[op] = BX_BOUND_LOOSE, f.op_out[op] = BX_BOUND_TIGHT;
  f.op_in[BX_F25519_ADD] = BX_BOUND_TIGHT, f.op_out[BX_F25519_ADD] = BX_BOUND_LOOSE;
  return f;
}
const bx_limb_form form = make_form();

bx_field25519_ops make_ops() {
  bx_field25519_ops t{};
  t.struct_size = sizeof t;
  t.bytes_ops = (1u << BX_F25519_OP_COUNT) - 1;
  t.bytes_input = BX_F25519_IN_BELOW_2_255;
  t.bytes_op = bytes_op;
  t.limb_form = &form;
  t.limb_ops = (1u << BX_F25519_CANONICAL) - 1;
  t.limb_op = limb_op;
  t.limb_encode = limb_encode;
  t.limb_decode = limb_decode;
  t.bench_chain = bench_chain;
  return t;
}
const bx_field25519_ops ops = make_ops();
const char* const preconditions[] = {"limb inputs within the bounds the limb form declares", nullptr};
const bx_impl impls[] = {{sizeof(bx_impl), FE64_PLUGIN_NAME, BX_FAMILY_FIELD25519, BX_PLACE_DEVICE, BX_CONTRACT_BIT_EXACT, nullptr,
                          preconditions, nullptr, &ops}};
const bx_plugin plugin = {BX_PLUGIN_ABI_VERSION, "fe64-cuda-example", 1, impls};

}  // namespace

extern "C" BX_PLUGIN_EXPORT const bx_plugin* bx_plugin_entry_v1(void) { return &plugin; }
