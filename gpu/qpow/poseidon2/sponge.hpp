// The Poseidon2 sponge of spec §4 over a layout L: bytes -> felts (4-byte LE chunks, then one terminator
// felt = leftover bytes ‖ 0x01), rate 8, capacity 4, zero IV; finalisation appends felt 1 and zeros to
// the block boundary. hash_bytes squeezes lanes 0..3, hash_squeeze_twice also lanes 0..3 after one more
// permutation; each output lane canonicalised, written little-endian.
//
// The felt sponge absorbs field elements directly (qp-poseidon hash_twice, rehash_to_bytes).
//
// This is the general path (qpow/plain, the oracle, the byte-hash and felt-sponge vectors): no midstate,
// no shortcut.
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

  // Absorbs the felts felt(0..felts) and finalises (felt 1, zeros to the block boundary); s ends as the
  // state after the last absorption permutation. Felts are canonical (< p): bytes_to_felts makes them so,
  // and the felt-sponge callers (the vector files, qp-poseidon) hand in field elements.
  // (finalise = false only plants fault qpow_felt_sponge_no_final_felt.)
  template <class Felt>
  BX_HD static void absorb(uint64_t s[12], uint32_t felts, const Felt& felt, const P2Constants& K, bool finalise = true) {
    for (int i = 0; i < 12; ++i) s[i] = 0;
    const uint32_t total = felts + (finalise ? 1 : 0);  // + the finalisation felt 1
    const uint32_t blocks = (total + 7) / 8;
    for (uint32_t blk = 0; blk < blocks; ++blk) {
      for (uint32_t i = 0; i < 8; ++i) {
        const uint32_t k = 8 * blk + i;
        s[i] = L::add(s[i], k < felts ? felt(k) : (k == felts && finalise ? 1 : 0));
      }
      Perm::permute(s, K);
    }
  }

  // The byte string data[0..n): n / 4 chunks and the terminator felt.
  BX_HD static void absorb_bytes(uint64_t s[12], const uint8_t* data, uint32_t n, const P2Constants& K) {
    absorb(s, n / 4 + 1, [&](uint32_t k) { return byte_felt(data, n, k); }, K);
  }

  // qp-poseidon's felt sponge: f[0..n) absorbed as they are (no byte encoding, no terminator); out[0..3]
  // = lanes 0..3, canonical. hash_twice(x) = felt_sponge(felt_sponge(x)); rehash_to_bytes(32 bytes) =
  // felt_sponge of its 4 LE u64 words (each < p, checked by the caller).
  BX_HD static void felt_sponge(const uint64_t* f, uint32_t n, uint64_t out[4], const P2Constants& K) {
    uint64_t s[12];
    absorb(s, n, [&](uint32_t k) { return f[k]; }, K, !(BX_FAULT(qpow_felt_sponge_no_final_felt) && n % 8 == 0));
    for (int j = 0; j < 4; ++j) out[j] = gl::canonical(s[j]);
  }
  // qp-poseidon hash_twice: the felt sponge of the felt sponge's four lanes.
  BX_HD static void hash_twice(const uint64_t* f, uint32_t n, uint64_t out[4], const P2Constants& K) {
    uint64_t first[4];
    felt_sponge(f, n, first, K);
    felt_sponge(first, 4, out, K);
  }

  // Lanes 0..3 of s, canonicalised, as 32 bytes (each lane little-endian): the sponge's output encoding.
  BX_HD static void lanes_to_bytes(const uint64_t s[4], uint8_t out[32]) {
    for (int j = 0; j < 4; ++j) {
      const uint64_t c = gl::canonical(s[j]);
      for (int b = 0; b < 8; ++b) out[8 * j + b] = uint8_t(c >> (8 * b));
    }
  }

  // out[0..63]: hash_squeeze_twice (out[0..31] is hash_bytes).
  BX_HD static void hash_squeeze_twice(const uint8_t* data, uint32_t n, uint8_t out[64], const P2Constants& K) {
    uint64_t s[12];
    absorb_bytes(s, data, n, K);
    for (int half = 0; half < 2; ++half) {
      if (half == 1) Perm::permute(s, K);
      lanes_to_bytes(s, out + 32 * half);
    }
  }
};

}  // namespace bx::qpow
