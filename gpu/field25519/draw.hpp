// Counter-based operand generator for bulk checks: operand(seed, index, slot) is a pure function, so
// the device draws billions of inputs without state and the host regenerates any of them exactly.
// Biased toward boundaries: half uniform, half from structured classes (values near 0, p and 2^255,
// single bits and 2^k +- small at limb boundaries, words of all-zeros/all-ones runs).
#pragma once
#include <cstdint>
#include "gpu/core/hd.hpp"

namespace bx::f25519 {

BX_HD uint64_t mix64(uint64_t z) {  // splitmix64 finaliser
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

BX_HD uint64_t draw_word(uint64_t seed, uint64_t index, uint32_t slot, uint32_t word) {
  return mix64(mix64(seed ^ mix64(index)) + (uint64_t(slot) << 32 | word));
}

// 32 little-endian bytes, bit 255 clear.
BX_HD void draw_operand(uint8_t s[32], uint64_t seed, uint64_t index, uint32_t slot) {
  uint64_t w[4];
  for (uint32_t i = 0; i < 4; ++i) w[i] = draw_word(seed, index, slot, i);
  const uint64_t ctl = draw_word(seed, index, slot, 7);
  const uint32_t cls = uint32_t(ctl & 7);
  const uint32_t small = uint32_t((ctl >> 8) & 63);
  const uint32_t k = uint32_t((ctl >> 16) % 255);
  switch (cls) {
    case 4: {  // near p: p - small or p + (small mod 19), or 2^255 - 1 - small
      const uint64_t sel = (ctl >> 24) % 3;
      w[0] = w[1] = w[2] = ~0ULL;
      w[3] = 0x7fffffffffffffffULL;
      if (sel == 0) w[0] = 0xffffffffffffffedULL - small;
      else if (sel == 1) w[0] = 0xffffffffffffffedULL + (small % 19);
      else w[0] = ~0ULL - small;
      break;
    }
    case 5: {  // near zero or a single bit / 2^k +- small at any position
      const uint64_t sel = (ctl >> 24) % 3;
      w[0] = w[1] = w[2] = w[3] = 0;
      w[k >> 6] = uint64_t(1) << (k & 63);
      if (sel == 0) {
        w[0] = small;
        w[1] = w[2] = w[3] = 0;
      } else if (sel == 1) {  // 2^k - 1 - small: all ones below k
        for (uint32_t i = 0; i < 4; ++i) {
          uint32_t lo = 64 * i;
          w[i] = k >= lo + 64 ? ~0ULL : (k > lo ? (uint64_t(1) << (k - lo)) - 1 : 0);
        }
        w[0] -= (w[0] >= small ? small : 0);
      } else {
        w[0] += small;
      }
      break;
    }
    case 6: {  // 32-bit words drawn from {0, 0xffffffff, 1, random}
      for (uint32_t i = 0; i < 4; ++i) {
        uint64_t r = 0;
        for (uint32_t h = 0; h < 2; ++h) {
          const uint32_t pick = uint32_t(ctl >> (24 + 2 * (2 * i + h))) & 3;
          const uint64_t word = pick == 0 ? 0 : pick == 1 ? 0xffffffffULL : pick == 2 ? 1 : (w[i] >> (32 * h)) & 0xffffffffULL;
          r |= word << (32 * h);
        }
        w[i] = r;
      }
      break;
    }
    case 7: {  // value in [p, 2^255): the non-canonical encodings
      w[0] = 0xffffffffffffffedULL + (small % 19);
      w[1] = w[2] = ~0ULL;
      w[3] = 0x7fffffffffffffffULL;
      break;
    }
    default:
      break;  // uniform
  }
  w[3] &= 0x7fffffffffffffffULL;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 8; ++j) s[8 * i + j] = uint8_t(w[i] >> (8 * j));
}

// The bulk program: 7 operations per draw, four canonical outputs. Contract-respecting for every
// layout: add takes tight (mul/sqr/from_bytes outputs), sub takes at most loose.
//   r1 = a*b; r2 = a^2; r3 = (a+b)*(a-b); r4 = r1 - (r2 + r3)
template <class F>
BX_HD void bulk_program(uint8_t out[4][32], const uint8_t a_bytes[32], const uint8_t b_bytes[32]) {
  typename F::fe a, b, r1, r2, r3, s, d;
  F::from_bytes(a, a_bytes);
  F::from_bytes(b, b_bytes);
  F::mul(r1, a, b);
  F::sqr(r2, a);
  F::add(s, a, b);
  F::sub(d, a, b);
  F::mul(r3, s, d);
  F::add(s, r2, r3);
  F::sub(d, r1, s);
  F::to_bytes(out[0], r1);
  F::to_bytes(out[1], r2);
  F::to_bytes(out[2], r3);
  F::to_bytes(out[3], d);
}
constexpr int kBulkOpsPerDraw = 7;

}  // namespace bx::f25519
