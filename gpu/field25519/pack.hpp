// Bit packing between 32 little-endian bytes and limbs at arbitrary bit positions, through four
// 64-bit words (positions are compile-time constants once the callers' loops are unrolled).
#pragma once
#include <cstdint>
#include "gpu/core/hd.hpp"

namespace bx::f25519 {

// Bits 0..254 of s as four words (bit 255 cleared).
BX_HD void load_words255(uint64_t w[4], const uint8_t s[32]) {
  BX_UNROLL
  for (int i = 0; i < 4; ++i) {
    w[i] = 0;
    BX_UNROLL
    for (int j = 7; j >= 0; --j) w[i] = (w[i] << 8) | s[8 * i + j];
  }
  w[3] &= 0x7fffffffffffffffULL;
}
// `width` bits starting at bit `pos` (width <= 32).
BX_HD uint64_t extract_bits(const uint64_t w[4], int pos, int width) {
  const int k = pos >> 6, off = pos & 63;
  uint64_t v = w[k] >> off;
  if (off + width > 64 && k < 3) v |= w[k + 1] << (64 - off);
  return v & ((uint64_t(1) << width) - 1);
}
// w |= x << pos, for x below 2^(64-...) fitting in the 256 bits (bits past 255 are dropped).
BX_HD void deposit_bits(uint64_t w[4], int pos, uint64_t x) {
  const int k = pos >> 6, off = pos & 63;
  w[k] |= x << off;
  if (off && k < 3) w[k + 1] |= x >> (64 - off);
}
BX_HD void store_words(uint8_t s[32], const uint64_t w[4]) {
  BX_UNROLL
  for (int i = 0; i < 4; ++i)
    BX_UNROLL
    for (int j = 0; j < 8; ++j) s[8 * i + j] = uint8_t(w[i] >> (8 * j));
}

}  // namespace bx::f25519
