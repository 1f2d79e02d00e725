// A kernel author's own field element mod p = 2^255 - 19: 8 saturated 32-bit limbs, little-endian,
// value = sum v[i] * 2^(32 i). Any value in [0, 2^256) is a legal representation (not necessarily < p).
// Plain C++ so that the same code can be marked __host__ __device__ in a kernel.
#pragma once
#include <cstdint>

namespace consumer {

struct Fe {
  uint32_t v[8];
};

// Bytes -> limbs. All 256 bits are read (bit 255 is part of the value, not ignored).
// Output bounds: v[i] in [0x0 ~> 0xffffffff].
inline Fe from_bytes(const uint8_t s[32]) {
  Fe r;
  for (int i = 0; i < 8; ++i)
    r.v[i] = uint32_t(s[4 * i]) | uint32_t(s[4 * i + 1]) << 8 | uint32_t(s[4 * i + 2]) << 16 |
             uint32_t(s[4 * i + 3]) << 24;
  return r;
}

// r = a * b (mod p), not canonical.
// Input bounds:  a.v[i], b.v[i] in [0x0 ~> 0xffffffff]  (a, b any value in [0, 2^256)).
// Output bounds: r.v[i]         in [0x0 ~> 0xffffffff]  (r in [0, 2^256), r = a*b mod p).
inline Fe mul(const Fe& a, const Fe& b) {
  // Schoolbook 8x8 -> 16 words, w = a*b < 2^512. Each step t = a_i*b_j + w_{i+j} + carry
  // <= (2^32-1)^2 + 2(2^32-1) = 2^64 - 1: no 64-bit overflow.
  uint32_t w[16] = {};
  for (int i = 0; i < 8; ++i) {
    uint64_t t = 0;
    for (int j = 0; j < 8; ++j) {
      t += uint64_t(a.v[i]) * b.v[j] + w[i + j];
      w[i + j] = uint32_t(t);
      t >>= 32;
    }
    w[i + 8] = uint32_t(t);
  }
  // Fold 1, 2^256 = 38 (mod p): lo + 38*hi < 39 * 2^256, so the carry out c1 is <= 38.
  Fe r;
  uint64_t t = 0;
  for (int i = 0; i < 8; ++i) {
    t += w[i] + uint64_t(38) * w[i + 8];
    r.v[i] = uint32_t(t);
    t >>= 32;
  }
  // Fold 2: r += 38*c1 (<= 1444); carry out c2 <= 1.
  t *= 38;
  for (int i = 0; i < 8; ++i) {
    t += r.v[i];
    r.v[i] = uint32_t(t);
    t >>= 32;
  }
  // Fold 3: r += 38*c2. If c2 = 1 the low 256 bits wrapped to < 1444, so this cannot carry.
  r.v[0] += uint32_t(38 * t);
  return r;
}

// Limbs -> canonical 32 bytes, little-endian, value in [0, p).
// Input bounds: a.v[i] in [0x0 ~> 0xffffffff].
inline void to_bytes(uint8_t s[32], const Fe& a) {
  auto add_small = [](uint32_t x[8], uint32_t k) {  // x += k; callers guarantee no carry out of x[7]
    uint64_t t = k;
    for (int i = 0; i < 8; ++i) {
      t += x[i];
      x[i] = uint32_t(t);
      t >>= 32;
    }
  };
  uint32_t x[8];
  for (int i = 0; i < 8; ++i) x[i] = a.v[i];
  // 1. Fold bit 255 (2^255 = 19): x = (a mod 2^255) + 19*(a >> 255) < 2^255 + 19 < 2p.
  const uint32_t top = x[7] >> 31;
  x[7] &= 0x7fffffffu;
  add_small(x, 19 * top);
  // 2. x < 2p, so x >= p iff x + 19 >= 2^255: q = bit 255 of x + 19. Then x - q*p = (x + 19q) mod 2^255.
  uint32_t y[8];
  for (int i = 0; i < 8; ++i) y[i] = x[i];
  add_small(y, 19);
  const uint32_t q = y[7] >> 31;
  add_small(x, 19 * q);
  x[7] &= 0x7fffffffu;
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 4; ++j) s[4 * i + j] = uint8_t(x[i] >> (8 * j));
}

}  // namespace consumer
