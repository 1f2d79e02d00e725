// The Poseidon2 sponge of spec §4 over a layout L: bytes -> felts (4-byte LE chunks, then one terminator
// felt = leftover bytes ‖ 0x01), rate 8, capacity 4, zero IV; finalisation appends felt 1 and zeros to
// the block boundary. hash_bytes squeezes lanes 0..3, hash_squeeze_twice also lanes 0..3 after one more
// permutation; each output lane canonicalised, written little-endian.
//
// This is the general path (qpow/plain, the oracle, the byte-hash vectors): no midstate, no shortcut.
#pragma once
#include "gpu/qpow/poseidon2/permutation.hpp"

namespace bx::qpow {

template <class L>
struct Sponge {
  using Perm = Permutation<L, false>;

  // Felt k of the byte string data[0..n) with its terminator (k <= n / 4).
  BX_HD static uint64_t byte_felt(const uint8_t* data, uint32_t n, uint32_t k) {
    uint32_t v = 0;
    const uint32_t begin = 4 * k;
    int b = 0;
    for (; b < 4 && begin + b < n; ++b) v |= uint32_t(data[begin + b]) << (8 * b);
    if (b < 4) v |= uint32_t(1) << (8 * b);  // the terminator byte 0x01 after the leftover bytes
    return v;
  }

  // Absorbs data[0..n) and finalises; s ends as the state after the last absorption permutation.
  BX_HD static void absorb_bytes(uint64_t s[12], const uint8_t* data, uint32_t n, const P2Constants& K) {
    for (int i = 0; i < 12; ++i) s[i] = 0;
    const uint32_t felts = n / 4 + 1;      // chunks + terminator
    const uint32_t total = felts + 1;      // + the finalisation felt 1
    const uint32_t blocks = (total + 7) / 8;
    for (uint32_t blk = 0; blk < blocks; ++blk) {
      for (uint32_t i = 0; i < 8; ++i) {
        const uint32_t k = 8 * blk + i;
        const uint64_t f = k < felts ? byte_felt(data, n, k) : (k == felts ? 1 : 0);
        s[i] = L::add(s[i], f);
      }
      Perm::permute(s, K);
    }
  }

  // out[0..63]: hash_squeeze_twice (out[0..31] is hash_bytes).
  BX_HD static void hash_squeeze_twice(const uint8_t* data, uint32_t n, uint8_t out[64], const P2Constants& K) {
    uint64_t s[12];
    absorb_bytes(s, data, n, K);
    for (int half = 0; half < 2; ++half) {
      if (half == 1) Perm::permute(s, K);
      for (int j = 0; j < 4; ++j) {
        const uint64_t c = gl::canonical(s[j]);
        for (int b = 0; b < 8; ++b) out[32 * half + 8 * j + b] = uint8_t(c >> (8 * b));
      }
    }
  }
};

}  // namespace bx::qpow
