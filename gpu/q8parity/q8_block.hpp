// A Q8_0 block as the kernels hold it: the scale as float32 and the 32 codes either packed (8 words of
// four int8, little-endian: code 4j + k is byte k of q[j]) or widened to float32. Every step is exact:
// fp16 -> fp32 is exact for every finite value, an int8 code is an integer below 2^8, so the variants that
// hold blocks differently compute the same floats and only the order of the sums can change a result.
#pragma once
#include <cstddef>
#include <cstdint>

#include "gpu/q8parity/float_ops.hpp"

namespace bx::q8 {

constexpr int kCodes = 32;      // codes per block
constexpr int kBlockBytes = 34;  // fp16 scale + 32 int8
constexpr int kMaxTokens = 8;

struct Q8Packed {
  float d;
  uint32_t q[8];
};
struct Q8Unpacked {
  float d;
  float q[32];
};

// fp16 bits -> float32. Finite values: the 15 magnitude bits shifted into a float's exponent and fraction
// give the value times 2^-112 (a float subnormal for fp16 subnormals), and the multiply by 2^112 is exact
// (with subnormals kept: -ftz=true would zero every fp16 subnormal here). inf and NaN: exponent all ones.
BX_HD float scale_of(uint32_t h) {
  const uint32_t sign = (h & 0x8000u) << 16, mag = h & 0x7fffu;
  float v = mul_rn(float_of(mag << 13), 0x1p112f);
  if (BX_FAULT(q8_fp16_flush_subnormal) && mag < 0x400u) v = 0.0f;
  if (mag >= 0x7c00u) v = float_of(0x7f800000u | (mag & 0x3ffu) << 13);
  return float_of(bits_of(v) | sign);
}

// Codes of a packed word, widened: with the sign bit flipped (w ^ 0x80808080) byte k is code + 128, and
// 0x4B0000xx is the float 2^23 + xx, so (2^23 + code + 128) - (2^23 + 128) = code exactly. One PRMT and
// one FADD per code (I2F runs at a quarter of the FMA pipe's rate on sm_90).
BX_HD uint32_t code_bias(uint32_t w) { return BX_FAULT(q8_packed_unsigned) ? w : w ^ 0x80808080u; }
BX_HD float code_of(uint32_t biased_word, int k) {
  const float m = float_of(byte_perm(biased_word, 0x4B000000u, 0x7540u | uint32_t(k)));
  return add_rn(m, BX_FAULT(q8_packed_unsigned) ? -8388608.0f : -8388736.0f);
}

// A block from the nine 32-bit words that cover it: w[0] holds the scale in its low half (phase 0: the
// block starts 4-aligned) or its high half (phase 2). Codes 4j..4j+3 are bytes 2..5 of w[j]:w[j+1] in phase
// 0 and all of w[j+1] in phase 2; one PRMT with a per-thread selector serves both (no divergence).
BX_HD Q8Packed unpack_block(const uint32_t w[9], uint32_t phase) {
  Q8Packed b;
  b.d = scale_of(phase ? w[0] >> 16 : w[0] & 0xffffu);
  const uint32_t sel = phase ? 0x7654u : 0x5432u;
  BX_UNROLL
  for (int j = 0; j < 8; ++j) b.q[j] = byte_perm(w[j], w[j + 1], sel);
  return b;
}
// The same with the phase known at compile time (a block at a fixed offset of an aligned buffer): phase 2
// reads the codes as whole words, phase 0 needs one PRMT per word. Same bytes, same scale_of: same block.
template <uint32_t Phase>
BX_HD Q8Packed unpack_block_at(const uint32_t* w) {
  static_assert(Phase == 0 || Phase == 2, "a block starts on an even byte");
  Q8Packed b;
  b.d = scale_of(Phase ? w[0] >> 16 : w[0] & 0xffffu);
  BX_UNROLL
  for (int j = 0; j < 8; ++j) b.q[j] = Phase ? w[j + 1] : byte_perm(w[j], w[j + 1], 0x5432u);
  return b;
}

// The block starting at byte offset `at` of a 4-aligned buffer (which extends at least 2 bytes past it).
BX_HD Q8Packed load_block(const uint32_t* words, size_t at) {
  uint32_t w[9];
  const uint32_t* p = words + (at >> 2);
  BX_UNROLL
  for (int k = 0; k < 9; ++k) w[k] = p[k];
  return unpack_block(w, uint32_t(at & 2));
}

// A block from the three aligned 16-byte quads that cover it (W[0..11]; r, its start inside the first
// quad, is even, 0..14): the nine words from r's word on picked by two selects per word (r's word index is
// per thread), then unpack_block. The kernels read the quads with three 128-bit shared-memory loads; an odd
// quad row stride (35 in the matvec kernel) spreads rows over the banks (rows at other misalignments may
// still share a bank pair two ways).
BX_HD Q8Packed unpack_block_quads(const uint32_t W[12], uint32_t r) {
  uint32_t b[11], w[9];
  const bool s1 = r & 4, s2 = r & 8;
  BX_UNROLL
  for (int k = 0; k < 11; ++k) b[k] = s1 ? W[k + 1] : W[k];
  BX_UNROLL
  for (int k = 0; k < 9; ++k) w[k] = s2 ? b[k + 2] : b[k];
  return unpack_block(w, r & 2);
}
// The block at byte offset `at` of a 16-byte aligned buffer that extends 14 bytes past the block.
BX_HD Q8Packed load_block_quads(const uint32_t* words, size_t at) {
  const uint32_t* p = words + (at >> 4) * 4;
  uint32_t W[12];
#if BX_ON_DEVICE
  BX_UNROLL
  for (int j = 0; j < 3; ++j) {
    const uint4 v = reinterpret_cast<const uint4*>(p)[j];
    W[4 * j] = v.x, W[4 * j + 1] = v.y, W[4 * j + 2] = v.z, W[4 * j + 3] = v.w;
  }
#else
  for (int j = 0; j < 12; ++j) W[j] = p[j];
#endif
  return unpack_block_quads(W, uint32_t(at & 15));
}

BX_HD Q8Unpacked widen(const Q8Packed& b) {
  Q8Unpacked u;
  u.d = b.d;
  BX_UNROLL
  for (int j = 0; j < 8; ++j) {
    const uint32_t w = code_bias(b.q[j]);
    BX_UNROLL
    for (int k = 0; k < 4; ++k) u.q[4 * j + k] = code_of(w, k);
  }
  return u;
}

}  // namespace bx::q8
