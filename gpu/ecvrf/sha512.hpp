// SHA-512 (FIPS 180-4) per item, host and device: the compression with a rolling 16-word message
// schedule (default) or the 80-word schedule (template flag; the notes' PX_SHA_OLD), a one-shot hash of
// a short message, and the two fixed-shape one-block messages of the ECVRF pipeline (spec 4.1, 9):
//   hash_string = SHA-512(03 || 01 || PK || alpha || ctr || 00), alpha = header(32) || LE64(nonce):
//                 76 bytes, one block; the ctr byte is patched in place between tries.
//   beta        = SHA-512(03 || 03 || encode(8 Gamma) || 00): 35 bytes, one block.
// Messages are assembled into big-endian 64-bit words directly (positions are constants once the loops
// are unrolled, so no byte array lands in local memory); rounds are unrolled under nvcc, so the round
// constants are immediates.
#pragma once
#include <cstdint>
#include "gpu/core/fault.hpp"
#include "gpu/core/hd.hpp"

namespace bx::ecvrf {

BX_HD constexpr uint64_t sha512_k(int t) {
  constexpr uint64_t K[80] = {
      0x428a2f98d728ae22ULL, 0x7137449123ef65cdULL, 0xb5c0fbcfec4d3b2fULL, 0xe9b5dba58189dbbcULL,
      0x3956c25bf348b538ULL, 0x59f111f1b605d019ULL, 0x923f82a4af194f9bULL, 0xab1c5ed5da6d8118ULL,
      0xd807aa98a3030242ULL, 0x12835b0145706fbeULL, 0x243185be4ee4b28cULL, 0x550c7dc3d5ffb4e2ULL,
      0x72be5d74f27b896fULL, 0x80deb1fe3b1696b1ULL, 0x9bdc06a725c71235ULL, 0xc19bf174cf692694ULL,
      0xe49b69c19ef14ad2ULL, 0xefbe4786384f25e3ULL, 0x0fc19dc68b8cd5b5ULL, 0x240ca1cc77ac9c65ULL,
      0x2de92c6f592b0275ULL, 0x4a7484aa6ea6e483ULL, 0x5cb0a9dcbd41fbd4ULL, 0x76f988da831153b5ULL,
      0x983e5152ee66dfabULL, 0xa831c66d2db43210ULL, 0xb00327c898fb213fULL, 0xbf597fc7beef0ee4ULL,
      0xc6e00bf33da88fc2ULL, 0xd5a79147930aa725ULL, 0x06ca6351e003826fULL, 0x142929670a0e6e70ULL,
      0x27b70a8546d22ffcULL, 0x2e1b21385c26c926ULL, 0x4d2c6dfc5ac42aedULL, 0x53380d139d95b3dfULL,
      0x650a73548baf63deULL, 0x766a0abb3c77b2a8ULL, 0x81c2c92e47edaee6ULL, 0x92722c851482353bULL,
      0xa2bfe8a14cf10364ULL, 0xa81a664bbc423001ULL, 0xc24b8b70d0f89791ULL, 0xc76c51a30654be30ULL,
      0xd192e819d6ef5218ULL, 0xd69906245565a910ULL, 0xf40e35855771202aULL, 0x106aa07032bbd1b8ULL,
      0x19a4c116b8d2d0c8ULL, 0x1e376c085141ab53ULL, 0x2748774cdf8eeb99ULL, 0x34b0bcb5e19b48a8ULL,
      0x391c0cb3c5c95a63ULL, 0x4ed8aa4ae3418acbULL, 0x5b9cca4f7763e373ULL, 0x682e6ff3d6b2b8a3ULL,
      0x748f82ee5defb2fcULL, 0x78a5636f43172f60ULL, 0x84c87814a1f0ab72ULL, 0x8cc702081a6439ecULL,
      0x90befffa23631e28ULL, 0xa4506cebde82bde9ULL, 0xbef9a3f7b2c67915ULL, 0xc67178f2e372532bULL,
      0xca273eceea26619cULL, 0xd186b8c721c0c207ULL, 0xeada7dd6cde0eb1eULL, 0xf57d4f7fee6ed178ULL,
      0x06f067aa72176fbaULL, 0x0a637dc5a2c898a6ULL, 0x113f9804bef90daeULL, 0x1b710b35131c471bULL,
      0x28db77f523047d84ULL, 0x32caab7b40c72493ULL, 0x3c9ebe0a15c9bebcULL, 0x431d67c49c100d4cULL,
      0x4cc5d4becb3e42b6ULL, 0x597f299cfc657e2aULL, 0x5fcb6fab3ad6faecULL, 0x6c44198c4a475817ULL};
  return K[t];
}

BX_HD void sha512_init(uint64_t st[8]) {
  st[0] = 0x6a09e667f3bcc908ULL;
  st[1] = 0xbb67ae8584caa73bULL;
  st[2] = 0x3c6ef372fe94f82bULL;
  st[3] = 0xa54ff53a5f1d36f1ULL;
  st[4] = 0x510e527fade682d1ULL;
  st[5] = 0x9b05688c2b3e6c1fULL;
  st[6] = 0x1f83d9abfb41bd6bULL;
  st[7] = 0x5be0cd19137e2179ULL;
}

BX_HD uint64_t sha512_rotr(uint64_t x, int n) { return (x >> n) | (x << (64 - n)); }
BX_HD uint64_t sha512_bsig0(uint64_t a) { return sha512_rotr(a, 28) ^ sha512_rotr(a, 34) ^ sha512_rotr(a, 39); }
BX_HD uint64_t sha512_bsig1(uint64_t e) { return sha512_rotr(e, 14) ^ sha512_rotr(e, 18) ^ sha512_rotr(e, 41); }
BX_HD uint64_t sha512_ssig0(uint64_t w) { return sha512_rotr(w, 1) ^ sha512_rotr(w, 8) ^ (w >> 7); }
BX_HD uint64_t sha512_ssig1(uint64_t w) { return sha512_rotr(w, 19) ^ sha512_rotr(w, 61) ^ (w >> 6); }

// One round: T1 = h + S1(e) + Ch(e,f,g) + K_t + W_t, T2 = S0(a) + Maj(a,b,c); the eight words rotate.
BX_HD void sha512_round(uint64_t s[8], uint64_t kw) {
  const uint64_t t1 = s[7] + sha512_bsig1(s[4]) + ((s[4] & s[5]) ^ (~s[4] & s[6])) + kw;
  const uint64_t t2 = sha512_bsig0(s[0]) + ((s[0] & s[1]) ^ (s[0] & s[2]) ^ (s[1] & s[2]));
  s[7] = s[6];
  s[6] = s[5];
  s[5] = s[4];
  s[4] = s[3] + t1;
  s[3] = s[2];
  s[2] = s[1];
  s[1] = s[0];
  s[0] = t1 + t2;
}

// st <- compress(st, block). block: the 16 big-endian message words.
// Rolling (default): W_t for t >= 16 overwrites w[t mod 16] (16 live words).
// 80-word: the whole schedule W_0..W_79 first, then the rounds (the reference shape).
template <bool Rolling = true>
BX_HD void sha512_compress(uint64_t st[8], const uint64_t block[16]) {
  uint64_t s[8];
  BX_UNROLL
  for (int i = 0; i < 8; ++i) s[i] = st[i];
  if constexpr (Rolling) {
    uint64_t w[16];
    BX_UNROLL
    for (int i = 0; i < 16; ++i) w[i] = block[i];
    BX_UNROLL
    for (int t = 0; t < 80; ++t) {
      if (t >= 16)
        w[t & 15] += sha512_ssig1(w[(t - 2) & 15]) + w[(t - 7) & 15] + sha512_ssig0(w[(t - 15) & 15]);
      sha512_round(s, sha512_k(t) + w[t & 15]);
    }
  } else {
    uint64_t W[80];
    BX_UNROLL
    for (int i = 0; i < 16; ++i) W[i] = block[i];
    BX_UNROLL
    for (int t = 16; t < 80; ++t) W[t] = sha512_ssig1(W[t - 2]) + W[t - 7] + sha512_ssig0(W[t - 15]) + W[t - 16];
    BX_UNROLL
    for (int t = 0; t < 80; ++t) sha512_round(s, sha512_k(t) + W[t]);
  }
  BX_UNROLL
  for (int i = 0; i < 8; ++i) st[i] += s[i];
}

// The first n digest bytes (n <= 64) of a state, big-endian words.
BX_HD void sha512_digest_bytes(uint8_t* out, const uint64_t st[8], int n) {
  BX_UNROLL
  for (int i = 0; i < 64; ++i)
    if (i < n) out[i] = uint8_t(st[i >> 3] >> (56 - 8 * (i & 7)));
}

// w |= b at message byte position pos (big-endian within each word).
BX_HD void sha512_put_byte(uint64_t w[16], int pos, uint32_t b) {
  w[pos >> 3] |= uint64_t(b & 0xffu) << (56 - 8 * (pos & 7));
}

// One-shot SHA-512 of len bytes (any length; the pipeline's messages are <= ~300 bytes). Padding:
// 0x80 after the message, zeros, the 128-bit big-endian bit length in the last 16 bytes of the last
// block, so len + 17 bytes round up to whole blocks: 111 is the last length with one block, 112..239
// take two, 240 three.
template <bool Rolling = true>
BX_HD void sha512(uint8_t out[64], const uint8_t* msg, uint32_t len) {
  uint64_t st[8];
  sha512_init(st);
  // 0x80 and the 16-byte length must fit: 112..127 bytes take two blocks (the zoo's fault sizes the
  // padding with SHA-256's 8-byte length field, so 112..119 get one block too few).
  const uint32_t nblocks = (len + (BX_FAULT(ecvrf_sha512_pad_112) ? 9 : 17) + 127) / 128;
  for (uint32_t b = 0; b < nblocks; ++b) {
    uint64_t w[16];
    BX_UNROLL
    for (int i = 0; i < 16; ++i) w[i] = 0;
    for (int j = 0; j < 128; ++j) {
      const uint32_t pos = b * 128 + uint32_t(j);
      const uint32_t byte = pos < len ? msg[pos] : pos == len ? 0x80u : 0u;
      sha512_put_byte(w, j, byte);
    }
    if (b + 1 == nblocks) {
      w[14] = uint64_t(len) >> 61;
      w[15] = uint64_t(len) << 3;
    }
    sha512_compress<Rolling>(st, w);
  }
  sha512_digest_bytes(out, st, 64);
}

// SHA-512 state of a one-block message already padded into w.
template <bool Rolling = true>
BX_HD void sha512_one_block(uint64_t st[8], const uint64_t w[16]) {
  sha512_init(st);
  sha512_compress<Rolling>(st, w);
}

// ---------------------------------------------------------------------------------------------------
// ECVRF-EDWARDS25519-SHA512-TAI messages (suite_string 0x03).

// hash_string's block: 03 01 PK alpha ctr 00, padded; ctr_pos = 34 + |alpha| is the ctr byte.
struct H2cBlock {
  uint64_t w[16];
  int ctr_pos;
};

// General alpha (|alpha| <= 75, so that 36 + |alpha| <= 111 fits one block). Used for RFC 9381's
// vectors (alpha of 0, 1 and 2 bytes); ctr starts at 0.
BX_HD void h2c_block_alpha(H2cBlock& m, const uint8_t pk[32], const uint8_t* alpha, int alpha_len) {
  BX_UNROLL
  for (int i = 0; i < 16; ++i) m.w[i] = 0;
  sha512_put_byte(m.w, 0, 0x03);
  sha512_put_byte(m.w, 1, 0x01);
  BX_UNROLL
  for (int i = 0; i < 32; ++i) sha512_put_byte(m.w, 2 + i, pk[i]);
  for (int i = 0; i < alpha_len; ++i) sha512_put_byte(m.w, 34 + i, alpha[i]);
  m.ctr_pos = 34 + alpha_len;          // ctr = 0, and the 00 after it: already zero
  sha512_put_byte(m.w, 36 + alpha_len, 0x80);
  m.w[15] = uint64_t(36 + alpha_len) * 8;
}

// The miner's shape (spec 9): alpha = header(32) || LE64(nonce), 76 bytes in all:
// bytes 0..1 03 01, 2..33 PK, 34..65 header, 66..73 nonce little-endian, 74 ctr, 75 00, 76 0x80,
// bit length 608 in word 15.
BX_HD void h2c_block_miner(H2cBlock& m, const uint8_t pk[32], const uint8_t header[32], uint64_t nonce) {
  uint8_t alpha[40];
  BX_UNROLL
  for (int i = 0; i < 32; ++i) alpha[i] = header[i];
  BX_UNROLL
  for (int i = 0; i < 8; ++i) alpha[32 + i] = uint8_t(nonce >> (8 * i));
  h2c_block_alpha(m, pk, alpha, 40);
}

// Patches the ctr byte (0..255).
BX_HD void h2c_set_ctr(H2cBlock& m, uint32_t ctr) {
  const int sh = 56 - 8 * (m.ctr_pos & 7);
  uint64_t& w = m.w[m.ctr_pos >> 3];
  w = (w & ~(uint64_t(0xff) << sh)) | (uint64_t(ctr & 0xffu) << sh);
}

// hash_string for one try of the miner's shape (64 bytes).
template <bool Rolling = true>
BX_HD void sha512_hash_string(uint8_t out[64], const uint8_t pk[32], const uint8_t header[32], uint64_t nonce,
                              uint32_t ctr) {
  H2cBlock m;
  h2c_block_miner(m, pk, header, nonce);
  h2c_set_ctr(m, ctr);
  uint64_t st[8];
  sha512_one_block<Rolling>(st, m.w);
  sha512_digest_bytes(out, st, 64);
}

// beta's block: 03 03 encode(8 Gamma) 00, padded (35 bytes, bit length 280).
BX_HD void beta_block(uint64_t w[16], const uint8_t enc[32]) {
  BX_UNROLL
  for (int i = 0; i < 16; ++i) w[i] = 0;
  sha512_put_byte(w, 0, 0x03);
  sha512_put_byte(w, 1, 0x03);
  BX_UNROLL
  for (int i = 0; i < 32; ++i) sha512_put_byte(w, 2 + i, enc[i]);
  sha512_put_byte(w, 35, 0x80);  // byte 34 is the 00
  w[15] = 35 * 8;
}
template <bool Rolling = true>
BX_HD void sha512_beta(uint8_t out[64], const uint8_t enc[32]) {
  uint64_t w[16], st[8];
  beta_block(w, enc);
  sha512_one_block<Rolling>(st, w);
  sha512_digest_bytes(out, st, 64);
}

}  // namespace bx::ecvrf
