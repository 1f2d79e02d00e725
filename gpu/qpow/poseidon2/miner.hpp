// The qpow mining hash of header ‖ nonce (spec §4) and the miner's shortcuts (spec §6), over a layout L.
//
// Nonce: U512 as 16 little-endian 32-bit limbs (limb[k] = bits 32k..32k+31). Its 64 seal bytes are
// big-endian, so felt j (0..15) of the nonce part is bswap32(limb[15 - j]): B1 = felts 0..7 (bits
// 511..256), B2 = felts 8..15 (bits 255..0); B2 lane 6 = bswap32(limb[1]), lane 7 = bswap32(limb[0]).
// Hash: U512 read big-endian from the 64 output bytes; as 8 u64 words, most significant first,
// H[j] = bswap64(c_j) (c after π4), H[4+j] = bswap64(e_j) (e after π5), each lane canonical first.
//
// Shortcut bits (each switchable alone; the suite proves each against the path without it):
//   kMidstate   state after π1, π2 precomputed per batch (valid while no nonce carries across 2^256)
//   kPrestate   midstate + B2 lanes 0..5, M_E and RC_init[0] precomputed; per nonce only
//               x6 col6 + x7 col7 is added (valid while the low 64 bits do not wrap). Needs kMidstate.
//   kEarlyReject  after π4 only output lane 0 (the hash's top 64 bits) is computed and compared; a tie
//               falls through to the full 512-bit comparison, never decided on 64 bits.
//   kFolded     round constants folded into the previous linear layer (permutation.hpp).
//   kDeferBorrow  on the prestate path, the rounds' products skip their final borrow correction and
//               count it (gl2x32.hpp); a nonce whose count is non-zero (about 2^-55 of random nonces)
//               is recomputed without this shortcut, so every answer stays exact. Needs kPrestate and
//               a layout with L::defers_borrow.
#pragma once
#include "gpu/qpow/poseidon2/permutation.hpp"

namespace bx::qpow {

enum Shortcut : unsigned { kMidstate = 1, kPrestate = 2, kEarlyReject = 4, kFolded = 8, kDeferBorrow = 16 };
inline constexpr unsigned kLadder = kMidstate | kPrestate | kEarlyReject | kFolded;

struct U512 {
  uint32_t limb[16];
};

// nonce + k (mod 2^512).
BX_HD U512 u512_add(U512 a, uint64_t k) {
  uint64_t c = 0;
  for (int i = 0; i < 16; ++i) {
    c += uint64_t(a.limb[i]) + (i < 2 ? uint32_t(k >> (32 * i)) : 0);  // k by 32-bit halves: c < 2^34
    a.limb[i] = uint32_t(c);
    c >>= 32;
  }
  return a;
}
BX_HD uint64_t u512_low64(const U512& a) { return uint64_t(a.limb[1]) << 32 | a.limb[0]; }

// Felt j (0..15) of the nonce's 64 big-endian seal bytes.
BX_HD uint64_t nonce_felt(const U512& n, int j) {
  if (BX_FAULT(qpow_nonce_little_endian)) return n.limb[j];
  return gl::bswap32(n.limb[15 - j]);
}

// The output path of one lane: canonicalise, then byte-swap (a lazy p + v swapped would be a different
// 64-bit word than v swapped, spec §6.5).
BX_HD uint64_t hash_word(uint64_t lane) {
  if (BX_FAULT(qpow_bswap_before_canon)) return gl::bswap64(lane);
  return gl::bswap64(gl::canonical(lane));
}

// hash < target over 8 words, most significant first (strict: hash = target is invalid).
BX_HD bool hash_below(const uint64_t h[8], const uint64_t t[8]) {
  for (int j = 0; j < 8; ++j)
    if (h[j] != t[j]) return h[j] < t[j];
  return BX_FAULT(qpow_target_compare_le);
}

// Launch uniforms of one batch (kernel parameters by value: constant bank, no register residency).
struct MinerJob {
  uint64_t header[8];    // B0: u32_le of the 32 header bytes
  uint64_t mid[12];      // state after π1, π2 for the batch (kMidstate)
  uint64_t pre[12];      // prestate of the batch (kPrestate), canonical
  U512 base;             // first nonce of the batch
  uint64_t target[8];    // 512-bit target, most significant word first
};

template <class L, unsigned S>
struct Miner {
  using Layout = L;
  static constexpr bool kFold = (S & kFolded) != 0;
  using Perm = Permutation<L, kFold>;
  static constexpr unsigned kShortcuts = S;
  static constexpr bool kDefer = (S & kDeferBorrow) != 0;
  using Rounds = Permutation<L, kFold, kDefer>;  // the hot rounds (products deferred with kDefer)
  using Exact = Miner<L, S & ~kDeferBorrow>;     // the recomputation (kDefer only)
  static_assert(!(S & kPrestate) || (S & kMidstate), "the prestate is built on the midstate");
  static_assert(!kDefer || (S & kPrestate), "the deferred borrow rides on the prestate path");

  BX_HD static void absorb(uint64_t s[12], const uint64_t f[8]) {
    for (int i = 0; i < 8; ++i) s[i] = L::add(s[i], f[i]);
  }
  BX_HD static void nonce_block(const U512& n, int half, uint64_t f[8]) {
    for (int i = 0; i < 8; ++i) f[i] = nonce_felt(n, 8 * half + i);
  }

  // State after π1 (B0) and π2 (B1): depends on the header and nonce bits 511..256.
  BX_HD static void midstate(const uint64_t header[8], const U512& n, uint64_t s[12], const P2Constants& K) {
    for (int i = 0; i < 12; ++i) s[i] = 0;
    absorb(s, header);
    Perm::permute(s, K);
    uint64_t f[8];
    nonce_block(n, 0, f);
    absorb(s, f);
    Perm::permute(s, K);
  }
  // Prestate (§6.2): midstate + B2 lanes 0..5, M_E, + RC_init[0], canonical. Valid for every nonce
  // with the same bits 511..64.
  BX_HD static void prestate(const uint64_t mid[12], const U512& n, uint64_t pre[12], const P2Constants& K) {
    for (int i = 0; i < 12; ++i) pre[i] = mid[i];
    for (int i = 0; i < 6; ++i) pre[i] = L::add(pre[i], nonce_felt(n, 8 + i));
    Permutation<L, false>::external_linear(pre);
    for (int i = 0; i < 12; ++i) pre[i] = gl::canonical(L::add(pre[i], K.initial[0][i]));
  }

  // π3's input from the prestate: prestate + x6 col6 + x7 col7 (RC_init[0] is in the prestate).
  BX_HD static void inject_low64(const MinerJob& job, const U512& n, uint64_t s[12]) {
    const uint64_t x6 = nonce_felt(n, 14), x7 = nonce_felt(n, 15);
    BX_UNROLL for (int i = 0; i < 12; ++i) {
      // x6 col6 + x7 col7 < 12 * 2^32: a u64 before the field add.
      const uint64_t inj = (BX_FAULT(qpow_prestate_no_col6) ? 0 : x6 * col6(i)) + x7 * col7(i);
      s[i] = L::add(job.pre[i], inj);
    }
  }

  // The state after π3 for nonce n, by the configured path.
  BX_HD static void after_pi3(const MinerJob& job, const U512& n, uint64_t s[12], const P2Constants& K) {
    if constexpr ((S & kPrestate) != 0) {
      inject_low64(job, n, s);
      uint32_t borrows = 0;
      Rounds::rounds_to_last_sbox(s, K, true, &borrows);
      if constexpr (kDefer) {
        if (borrows != 0) return Exact::after_pi3(job, n, s, K);
      }
      Perm::external_linear(s);
    } else {
      if constexpr ((S & kMidstate) != 0) {
        for (int i = 0; i < 12; ++i) s[i] = job.mid[i];
      } else {
        midstate(job.header, n, s, K);
      }
      uint64_t f[8];
      nonce_block(n, 1, f);
      absorb(s, f);
      Perm::permute(s, K);
    }
  }

  // π4 and π5: the full 8-word hash of the state after π3. The out-of-line permutation works on a copy:
  // an array whose address reaches a call lives in local memory, and the caller's state must not.
  BX_HD static void hash_from_pi3(const uint64_t s[12], uint64_t h[8], const P2Constants& K) {
    uint64_t t[12];
    for (int i = 0; i < 12; ++i) t[i] = s[i];
    t[0] = L::add(t[0], 1);  // B3 = [1, 1, 0, ...]
    t[1] = L::add(t[1], 1);
    Perm::permute_outlined(t, K);
    for (int j = 0; j < 4; ++j) h[j] = hash_word(t[j]);
    Perm::permute_outlined(t, K);
    for (int j = 0; j < 4; ++j) h[4 + j] = hash_word(t[j]);
  }

  // The full hash of nonce n (every shortcut of S except the early reject, which needs a target).
  BX_HD static void hash(const MinerJob& job, const U512& n, uint64_t h[8], const P2Constants& K) {
    uint64_t s[12];
    after_pi3(job, n, s, K);
    hash_from_pi3(s, h, K);
  }

  // Is nonce n valid for job.target? (The caller skips nonce 0, which the chain rejects.)
  BX_HD static bool valid(const MinerJob& job, const U512& n, const P2Constants& K) {
    return valid_of(job, [&] { return n; }, K);
  }
  // The same for the nonce nonce_at() returns. On the deferred path it is called again only when the
  // nonce is recomputed, so a kernel that rebuilds it from uniform values holds no nonce across the rounds.
  template <class NonceAt>
  BX_HD static bool valid_of(const MinerJob& job, NonceAt&& nonce_at, const P2Constants& K) {
    uint64_t s[12];
    if constexpr ((S & kEarlyReject) != 0 && (S & kPrestate) != 0) {
      // π3 and π4 up to its last S-box through one copy of the rounds (a rolled loop: code size).
      inject_low64(job, nonce_at(), s);
      uint32_t borrows = 0;
      BX_ROLLED for (int k = 0; k < 2; ++k) {
        Rounds::rounds_to_last_sbox(s, K, k == 0, &borrows);
        if (k == 0) {
          Perm::external_linear(s);  // π3 done
          s[0] = L::add(s[0], 1);    // B3 = [1, 1, 0, ...]
          s[1] = L::add(s[1], 1);
          Perm::initial_layer(s, K);
        }
      }
      if constexpr (kDefer) {
        if (borrows != 0) return Exact::valid(job, nonce_at(), K);
      }
    } else {
      after_pi3(job, nonce_at(), s, K);
      if constexpr ((S & kEarlyReject) != 0) {
        s[0] = L::add(s[0], 1);
        s[1] = L::add(s[1], 1);
        Perm::initial_layer(s, K);
        Perm::rounds_to_last_sbox(s, K, false);
      }
    }
    if constexpr ((S & kEarlyReject) != 0) {
      const uint64_t h0 = hash_word(Perm::external_linear_lane0(s));
      if (h0 > job.target[0]) return false;
      if (h0 < job.target[0]) return true;
      if (BX_FAULT(qpow_early_reject_tie_rejects)) return false;
      // A tie on the top 64 bits: finish π4 and π5 and compare all 512 bits (π5 on a copy, see above).
      Perm::external_linear(s);
      uint64_t h[8], t[12];
      for (int j = 0; j < 4; ++j) h[j] = hash_word(s[j]);
      for (int i = 0; i < 12; ++i) t[i] = s[i];
      Perm::permute_outlined(t, K);
      for (int j = 0; j < 4; ++j) h[4 + j] = hash_word(t[j]);
      return hash_below(h, job.target);
    } else {
      uint64_t h[8];
      hash_from_pi3(s, h, K);
      return hash_below(h, job.target);
    }
  }
};

}  // namespace bx::qpow
