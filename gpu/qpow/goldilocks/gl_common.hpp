// What every Goldilocks layout shares: the modulus, the lane type, canonicalisation, the 96-bit
// linear-layer accumulator and the byte swap of the output path.
//
// Representation (all layouts): a field element is a u64 lane v in [0, 2^64), standing for v mod p.
// Values in [p, 2^64) are legal lazy representatives of v - p (only 0..EPS-1 have two). Every layout
// function accepts any u64 lane and returns a u64 lane; where a function guarantees more (canonical,
// < 2^64 - 2^33, ...) its comment says so. Tests compare canonical values, except when checking a
// layout against its own bit-exact model.
#pragma once
#include <cstdint>

#include "gpu/core/hd.hpp"

namespace bx::gl {

inline constexpr uint64_t P = 0xFFFFFFFF00000001ull;  // 2^64 - 2^32 + 1
inline constexpr uint64_t EPS = 0xFFFFFFFFull;        // 2^64 mod p = 2^32 - 1

// in: any u64. out: canonical, in [0, p). One conditional subtraction suffices since 2p > 2^64.
BX_HD uint64_t canonical(uint64_t v) { return v >= P ? v - P : v; }

BX_HD uint64_t bswap64(uint64_t v) {
#if BX_ON_DEVICE
  const uint32_t lo = uint32_t(v), hi = uint32_t(v >> 32);
  return (uint64_t(__byte_perm(lo, 0, 0x0123)) << 32) | __byte_perm(hi, 0, 0x0123);
#else
  return __builtin_bswap64(v);
#endif
}
BX_HD uint32_t bswap32(uint32_t v) {
#if BX_ON_DEVICE
  return __byte_perm(v, 0, 0x0123);
#else
  return __builtin_bswap32(v);
#endif
}

// High 64 bits of a 64x64 product.
BX_HD uint64_t mulhi64(uint64_t a, uint64_t b) {
#if BX_ON_DEVICE
  return __umul64hi(a, b);
#else
  return uint64_t(((unsigned __int128)a * b) >> 64);
#endif
}

// a - b on u64 lanes (any values): each 2^64 borrow subtracts EPS; a second borrow (b lazy, a small)
// subtracts it again (the result is then a - b + 2p). Shared by gl64 and gl2x32's portable backend.
BX_HD uint64_t sub_lazy(uint64_t a, uint64_t b) {
  uint64_t d = a - b;
  if (a < b) {
    const bool second = d < EPS;
    d -= EPS;
    if (second) d -= EPS;
  }
  return d;
}

// A linear-layer accumulator: lo + 2^64 * hi with hi < 2^32 (a 96-bit value). The external layer's
// outputs stay below 29 * 2^64 (row sum 28, plus a folded round constant), the internal layer's row
// sum below 13 * 2^64: hi never exceeds 29, so no accumulator operation can overflow.
struct Acc96 {
  uint64_t lo;
  uint32_t hi;
};

}  // namespace bx::gl
