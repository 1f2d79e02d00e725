// MD5 (RFC 1321) per step, host/device. State words are kept in a window q[] with q[k + 3] = Q[k]
// (k = -3..64, docs/specs/md5z.md): step t reads Q[t-3..t] and writes Q[t+1]. Step indices are template
// parameters, so under nvcc every table lookup is a compile-time constant and q[] lives in registers.
#pragma once
#include <cstdint>
#include <type_traits>
#include <utility>
#include "gpu/core/hd.hpp"

namespace bx::md5 {

inline constexpr uint32_t kA0 = 0x67452301u, kB0 = 0xefcdab89u, kC0 = 0x98badcfeu, kD0 = 0x10325476u;  // IV

BX_HD constexpr uint32_t k_of(int t) {
  constexpr uint32_t K[64] = {
      0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
      0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
      0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
      0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
      0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
      0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
      0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
      0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391};
  return K[t];
}
BX_HD constexpr int s_of(int t) {
  constexpr int S[4][4] = {{7, 12, 17, 22}, {5, 9, 14, 20}, {4, 11, 16, 23}, {6, 10, 15, 21}};
  return S[t / 16][t % 4];
}
// Message word used by step t.
BX_HD constexpr int w_of(int t) {
  return t < 16 ? t : t < 32 ? (5 * t + 1) % 16 : t < 48 ? (3 * t + 5) % 16 : (7 * t) % 16;
}

BX_HD uint32_t rotl(uint32_t x, int s) {
#if BX_ON_DEVICE
  return __funnelshift_l(x, x, s);
#else
  return (x << s) | (x >> (32 - s));
#endif
}
BX_HD uint32_t rotr(uint32_t x, int s) {
#if BX_ON_DEVICE
  return __funnelshift_r(x, x, s);
#else
  return (x >> s) | (x << (32 - s));
#endif
}

// Round function of step t: F, G, H, I.
template <int t>
BX_HD uint32_t f_round(uint32_t x, uint32_t y, uint32_t z) {
  if constexpr (t < 16) return (x & y) | (~x & z);
  else if constexpr (t < 32) return (x & z) | (y & ~z);
  else if constexpr (t < 48) return x ^ y ^ z;
  else return y ^ (x | ~z);
}

// Step t forward with the addend K[t] + m[w(t)] already formed: Q[t+1] from Q[t-3..t].
template <int t>
BX_HD void step(uint32_t* q, uint32_t k_plus_m) {
  q[t + 4] = q[t + 3] + rotl(q[t] + f_round<t>(q[t + 3], q[t + 2], q[t + 1]) + k_plus_m, s_of(t));
}
// Step t backwards: the word m[w(t)] that takes Q[t-3..t] to Q[t+1].
template <int t>
BX_HD uint32_t step_word(const uint32_t* q) {
  return rotr(q[t + 4] - q[t + 3], s_of(t)) - q[t] - f_round<t>(q[t + 3], q[t + 2], q[t + 1]) - k_of(t);
}

// static_for<A, B>(fn): fn(std::integral_constant<int, t>{}) for t = A..B-1, fully unrolled by construction.
template <int First, class Fn, int... I>
BX_HD void static_for_impl(Fn&& fn, std::integer_sequence<int, I...>) {
  (fn(std::integral_constant<int, First + I>{}), ...);
}
template <int First, int Last, class Fn>
BX_HD void static_for(Fn&& fn) {
  static_for_impl<First>(fn, std::make_integer_sequence<int, Last - First>{});
}

// Q[-3..0] = a0, d0, c0, b0.
BX_HD void load_iv(uint32_t* q) {
  q[0] = kA0;
  q[1] = kD0;
  q[2] = kC0;
  q[3] = kB0;
}

// One compression of a 16-word block, chaining h = (h0, h1, h2, h3) += the 64 steps from h.
BX_HD void compress_into(uint32_t* h, const uint32_t* m) {
  uint32_t q[68];
  q[0] = h[0];  // Q[-3..0] = a, d, c, b
  q[1] = h[3];
  q[2] = h[2];
  q[3] = h[1];
  static_for<0, 64>([&](auto c) {
    constexpr int t = decltype(c)::value;
    step<t>(q, k_of(t) + m[w_of(t)]);
  });
  h[0] += q[64];  // Q[61]
  h[3] += q[65];  // Q[62]
  h[2] += q[66];  // Q[63]
  h[1] += q[67];  // Q[64]
}

// One compression from the IV (a single-block message).
BX_HD void compress(const uint32_t* m, uint32_t* h) {
  h[0] = kA0;
  h[1] = kB0;
  h[2] = kC0;
  h[3] = kD0;
  compress_into(h, m);
}

// The 16 digest bytes of the state words h0..h3 (little-endian words).
BX_HD void store_digest(const uint32_t* h, uint8_t* digest) {
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) digest[4 * i + j] = uint8_t(h[i] >> (8 * j));
}

// MD5 of any byte string (host use: the RFC 1321 suite and the oracle's "md5" op): padded blocks
// chained through compress_into; writes the 16-byte digest.
inline void md5_bytes(const uint8_t* data, size_t n, uint8_t* digest) {
  uint32_t h[4] = {kA0, kB0, kC0, kD0};
  // n bytes + 0x80 + the 8-byte length, rounded up to blocks. Fault: the 0x80 byte forgotten, so for
  // n = 56 mod 64 the length overwrites it and one block is missing.
  const size_t padded = (n + (BX_FAULT(md5z_md5_pad_forgets_0x80) ? 8 : 9) + 63) / 64 * 64;
  const uint64_t bits = uint64_t(n) * 8;
  for (size_t off = 0; off < padded; off += 64) {
    uint8_t blk[64];
    for (size_t j = 0; j < 64; ++j) {
      const size_t k = off + j;
      blk[j] = k < n ? data[k] : k == n ? 0x80 : k >= padded - 8 ? uint8_t(bits >> (8 * (k - (padded - 8)))) : 0;
    }
    uint32_t m[16];
    for (int i = 0; i < 16; ++i)
      m[i] = uint32_t(blk[4 * i]) | uint32_t(blk[4 * i + 1]) << 8 | uint32_t(blk[4 * i + 2]) << 16 | uint32_t(blk[4 * i + 3]) << 24;
    compress_into(h, m);
  }
  store_digest(h, digest);
}

// Words m0..m12 of a 52-byte message (little-endian) plus the padding m13 = 0x80, m14 = 416, m15 = 0.
BX_HD void message_words(const uint8_t* msg52, uint32_t* m) {
  for (int i = 0; i < 13; ++i)
    m[i] = uint32_t(msg52[4 * i]) | uint32_t(msg52[4 * i + 1]) << 8 | uint32_t(msg52[4 * i + 2]) << 16 |
           uint32_t(msg52[4 * i + 3]) << 24;
  m[13] = 0x80u;
  m[14] = 52u * 8u;
  m[15] = 0;
}

}  // namespace bx::md5
