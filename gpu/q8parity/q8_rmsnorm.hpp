// rmsnorm per item (docs/specs/q8parity.md §2): 32 lanes, lane l sums fma(x_j, x_j, ss) for j = l, l + 32, ...
// in increasing j; an xor butterfly over offsets 16, 8, 4, 2, 1 (every lane ends with the same value:
// IEEE addition commutes); r = 1 / sqrt(ss / n + eps) with correctly rounded / and sqrt; y = (x * r) * w.
// The kernels run a lane per CUDA lane (the butterfly by __shfl_xor_sync); the host runs the 32 lanes in
// turn and the same butterfly on an array.
#pragma once
#include <cstddef>

#include "gpu/q8parity/float_ops.hpp"

namespace bx::q8 {

constexpr int kLanes = 32;

// Lane `lane`'s sum of squares over a row of n floats. Plain form: the index and the bound per step.
BX_HD float rms_lane_sum(const float* x, size_t n, int lane) {
  float ss = 0.0f;
  for (size_t j = size_t(lane); j < n; j += kLanes) ss = fma_rn(x[j], x[j], ss);
  return ss;
}
// Elements of a row of n that lane `lane` holds (j = lane, lane + 32, ... < n).
BX_HD size_t lane_count(size_t n, int lane) { return n > size_t(lane) ? (n - size_t(lane) + kLanes - 1) / kLanes : 0; }

// Pre-offset form (a decoder's gr_norm rewrite): x already points at the lane's first element, full strides
// unrolled by four with immediate offsets, then the tail. The same fmas in the same order.
BX_HD float rms_lane_sum_preoffset(const float* xl, size_t n, int lane) {
  float ss = 0.0f;
  const size_t count = lane_count(n, lane);
  size_t i = 0;
  for (; i + 4 <= count; i += 4) {
    const float* p = xl + i * kLanes;
    ss = fma_rn(p[0], p[0], ss);
    ss = fma_rn(p[kLanes], p[kLanes], ss);
    ss = fma_rn(p[2 * kLanes], p[2 * kLanes], ss);
    ss = fma_rn(p[3 * kLanes], p[3 * kLanes], ss);
  }
  for (; i < count; ++i) ss = fma_rn(xl[i * kLanes], xl[i * kLanes], ss);
  return ss;
}

// r = 1 / sqrt(ss / n + eps). Approx: the zoo's rsqrtf in place of 1 / sqrt (on the host the once-rounded
// reciprocal square root computed in double, which also differs from the two roundings of the order).
template <bool Approx = false>
BX_HD float rms_scale(float ss, size_t n, float eps) {
  const float v = add_rn(div_rn(ss, float(n)), eps);
  if (Approx && BX_FAULT(q8_rsqrtf)) {
#if BX_ON_DEVICE
    return rsqrtf(v);
#else
    return float(1.0 / std::sqrt(double(v)));
#endif
  }
  return div_rn(1.0f, sqrt_rn(v));
}

// y_i = (x_i * r) * w_i, or x_i * r without weights: the plain form decides per element.
BX_HD float rms_apply(float x, float r, const float* w, size_t i) { return w ? mul_rn(mul_rn(x, r), w[i]) : mul_rn(x, r); }
// The hoisted form for one lane's elements (pointers pre-offset by the lane): the weight branch decided once.
BX_HD void rms_apply_lane_preoffset(const float* xl, const float* wl, float* yl, size_t count, float r) {
  if (wl) {
    for (size_t i = 0; i < count; ++i) yl[i * kLanes] = mul_rn(mul_rn(xl[i * kLanes], r), wl[i * kLanes]);
  } else {
    for (size_t i = 0; i < count; ++i) yl[i * kLanes] = mul_rn(xl[i * kLanes], r);
  }
}

}  // namespace bx::q8
