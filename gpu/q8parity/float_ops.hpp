// The IEEE float32 operations the q8parity orders are made of, one name each, so that no expression is
// left for a compiler to contract or reassociate: on the device the _rn intrinsics (never fused, never
// flushed unless the whole TU is built -ftz=true, which the build-rule probe rejects); on the host the
// plain operators in translation units built with -ffp-contract=off (cmake/q8parity.cmake) and std::fma.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>

#include "gpu/core/hd.hpp"

namespace bx::q8 {

BX_HD float fma_rn(float a, float b, float c) {
#if BX_ON_DEVICE
  return __fmaf_rn(a, b, c);
#else
  return std::fma(a, b, c);
#endif
}
BX_HD float mul_rn(float a, float b) {
#if BX_ON_DEVICE
  return __fmul_rn(a, b);
#else
  return a * b;
#endif
}
BX_HD float add_rn(float a, float b) {
#if BX_ON_DEVICE
  return __fadd_rn(a, b);
#else
  return a + b;
#endif
}
BX_HD float div_rn(float a, float b) {
#if BX_ON_DEVICE
  return __fdiv_rn(a, b);
#else
  return a / b;
#endif
}
BX_HD float sqrt_rn(float a) {
#if BX_ON_DEVICE
  return __fsqrt_rn(a);
#else
  return std::sqrt(a);
#endif
}
// expf of the place it runs on: CUDA's expf on the device (not correctly rounded, no CPU library
// reproduces it), the host libm's elsewhere. Only the transcendental epilogues use it (their contract is
// bitwise between variants of one place, NMSE <= 1e-7 against float64).
BX_HD float exp_place(float a) {
#if BX_ON_DEVICE
  return expf(a);
#else
  return std::exp(a);
#endif
}

BX_HD uint32_t bits_of(float f) {
#if BX_ON_DEVICE
  return __float_as_uint(f);
#else
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
#endif
}
BX_HD float float_of(uint32_t u) {
#if BX_ON_DEVICE
  return __uint_as_float(u);
#else
  float f;
  std::memcpy(&f, &u, 4);
  return f;
#endif
}

// __byte_perm: result byte k is byte (s >> 4k) & 7 of the 8-byte value b:a (PRMT without sign modes).
BX_HD uint32_t byte_perm(uint32_t a, uint32_t b, uint32_t s) {
#if BX_ON_DEVICE
  return __byte_perm(a, b, s);
#else
  const uint64_t v = uint64_t(b) << 32 | a;
  uint32_t r = 0;
  for (int k = 0; k < 4; ++k) r |= uint32_t((v >> (8 * ((s >> (4 * k)) & 7))) & 0xff) << (8 * k);
  return r;
#endif
}

// Four consecutive floats (16-byte aligned on the device: one 128-bit load).
struct F4 {
  float v[4];
};
BX_HD F4 load4(const float* p) {
#if BX_ON_DEVICE
  const float4 f = *reinterpret_cast<const float4*>(p);
  return {{f.x, f.y, f.z, f.w}};
#else
  return {{p[0], p[1], p[2], p[3]}};
#endif
}

// An xor butterfly over 32 lane values held in one array (the host form of a warp's __shfl_xor_sync
// steps 16, 8, 4, 2, 1: lane l adds lane l ^ o). Every lane ends with the same value (addition commutes).
BX_HD void butterfly_sum32(float v[32]) {
  for (int o = 16; o >= 1; o >>= 1) {
    float next[32];
    for (int l = 0; l < 32; ++l) next[l] = add_rn(v[l], v[l ^ o]);
    for (int l = 0; l < 32; ++l) v[l] = next[l];
  }
}

}  // namespace bx::q8
