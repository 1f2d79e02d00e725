// The q8parity build-rule probe, included by each q8parity .cu file so that it runs under that file's own
// flags (cmake/q8parity.cmake): a*b + c written plainly (fused under -fmad=true) and a subnormal product
// (flushed under -ftz=true), both from run-time values.
#pragma once
#include <string>

#include "gpu/kernels/cuda_util.cuh"

namespace bx::kern {
namespace {

__global__ void q8_build_probe_kernel(const float* in, float* out) {
  out[0] = in[0] * in[1] + in[2];
  out[1] = __fmul_rn(in[3], 0.5f);
}
std::string probe_this_tu(int dev, const char* tu) {
  select(dev);
  const float h_in[4] = {1.0f + 0x1p-12f, 1.0f + 0x1p-12f, -(1.0f + 0x1p-11f), 0x1p-126f};
  DevBuf<float> in(4), out(2);
  in.put(h_in, 4);
  q8_build_probe_kernel<<<1, 1>>>(in.p, out.p);
  BX_CUDA_LAUNCH("q8 build probe");
  float h_out[2];
  out.get(h_out, 2);
  std::string p;
  if (h_out[0] != 0.0f) p += std::string(tu) + " compiled with contraction (-fmad=true); ";
  if (h_out[1] == 0.0f) p += std::string(tu) + " flushes subnormals (-ftz=true); ";
  return p;
}

}  // namespace
}  // namespace bx::kern
