// Zero count of a digest as printed (docs/specs/md5z.md "Zero count"): the digest prints h0, h1, h2, h3 as
// little-endian bytes, so the first hex digit is the high nibble of h0's LOWEST byte. Counting needs a
// byte swap before clz; a plain clz(h0) is the classic bug (fault md5z_zeros_no_bswap).
#pragma once
#include <cstdint>
#include "gpu/core/hd.hpp"

namespace bx::md5 {

BX_HD uint32_t bswap32(uint32_t x) {
#if BX_ON_DEVICE
  return __byte_perm(x, 0, 0x0123);
#else
  return __builtin_bswap32(x);
#endif
}
BX_HD int clz32(uint32_t x) {  // x != 0
#if BX_ON_DEVICE
  return __clz(int(x));
#else
  return __builtin_clz(x);
#endif
}

// Leading zero hex digits among the 8 that print word h: 0..8.
BX_HD int word_zeros(uint32_t h) {
  const uint32_t v = BX_FAULT(md5z_zeros_no_bswap) ? h : bswap32(h);
  return v ? clz32(v) >> 2 : 8;
}
// Leading zero hex digits of the whole digest: 0..32.
BX_HD int digest_zeros(uint32_t h0, uint32_t h1, uint32_t h2, uint32_t h3) {
  if (h0) return word_zeros(h0);
  if (h1) return 8 + word_zeros(h1);
  if (h2) return 16 + word_zeros(h2);
  return 24 + word_zeros(h3);
}

// The early exit on h0 after step 60: reject iff (h0 & mask) != 0, where mask covers the first
// min(T, 8) printed digits (digit d is byte d/2 of h0, high nibble for even d). Exact: for T <= 8 a
// candidate passes iff word_zeros(h0) >= T; for T > 8 iff h0 == 0. Never rejects a candidate with >= T
// zeros (checked exhaustively over h0 byte patterns in md5z_test). T = 0: mask 0, nothing rejected.
BX_HD uint32_t early_exit_mask(int threshold) {
  int digits = threshold < 8 ? threshold : 8;
  if (BX_FAULT(md5z_early_exit_rejects_equal) && digits < 8) ++digits;  // rejects zeros == T
  uint32_t mask = 0;
  for (int d = 0; d < digits; ++d) mask |= 0xfu << (8 * (d / 2) + ((d & 1) ? 0 : 4));
  return mask;
}

}  // namespace bx::md5
