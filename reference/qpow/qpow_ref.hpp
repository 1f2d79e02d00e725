// The qpow golden model (docs/specs/qpow.md): Poseidon2 over Goldilocks (t = 12, Quantus constants), the
// qp-poseidon sponge, the Quantus mining hash, the miner's midstate/prestate and the validity rule.
// It shares no code with gpu/ and includes nothing from it. Every field add, multiply and S-box is an
// exact big-integer operation on bx::ref::PrimeField (Boost cpp_int) followed by mod p: no Goldilocks
// reduction identity and no 128-bit machine arithmetic is used for field values, so this is the oracle
// against which every fast reduction is tested.
// Thread safety: every function is re-entrant; constants() is built once (function-local static).
#pragma once
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "reference/common/prime_field.hpp"

namespace bx::ref::qpow {

constexpr uint64_t kP = 0xFFFFFFFF00000001ull;  // 2^64 - 2^32 + 1
using State = std::array<uint64_t, 12>;  // lane values as u64: inputs may be lazy (>= p), outputs canonical
using Int = bx::ref::Int;                // boost cpp_int

// ---- constants (spec §3) -------------------------------------------------------------------------
struct Constants {
  std::array<std::array<uint64_t, 12>, 4> initial, terminal;  // RC_init, RC_term (canonical)
  std::array<uint64_t, 22> internal;                         // RC_int (canonical)
  std::array<uint64_t, 12> diag;                             // internal_diagonal d (canonical)
  std::array<std::array<uint64_t, 4>, 4> m4;                 // external_m4 rows (always the spec's M4)
  bool operator==(const Constants&) const = default;
};

// The spec's checksum of the 130 constants (lowercase hex of 32 bytes).
constexpr std::string_view kConstantsSha256 = "693427cb625ae98b99cf6e5b7ba24da8b936012047365a0fafaf4953fec87461";

// Parses and checks a constants document (fields modulus, initial_external 4x12, terminal_external 4x12,
// internal 22, internal_diagonal 12, external_m4 4x4, sha256; other fields such as source are ignored).
// Values are "0x" + 1..16 hex digits and must be < p; modulus must be p; external_m4 must be the spec's
// rows; the sha256 field must equal the recomputed checksum, which must equal kConstantsSha256.
// Throws std::runtime_error("qpow constants: <what and where>") on the first violation.
Constants parse_constants(const std::string& json_text);
// SHA-256 (OpenSSL EVP) over the little-endian u64 encodings of RC_init (row-major) || RC_term ||
// RC_int || diag = 1040 bytes. Throws std::runtime_error if OpenSSL fails.
std::array<uint8_t, 32> constants_sha256(const Constants&);
// The checked constants of the embedded document (parsed on first use; throws as parse_constants).
const Constants& constants();
// The exact text of reference/qpow/poseidon2_goldilocks12_quantus.json (reference/qpow/constants_data.cpp).
std::string_view embedded_constants_json();

// ---- regeneration of the round constants (spec §3 provenance) ------------------------------------
struct RoundConstants {
  std::array<std::array<uint64_t, 12>, 4> initial, terminal;
  std::array<uint64_t, 22> internal;
  bool operator==(const RoundConstants&) const = default;
};
// rand_core SeedableRng::seed_from_u64: 8 PCG32 outputs (state stepped before each output), the
// 256-bit ChaCha key words in order (key byte 4i+j = byte j of word i, little-endian).
std::array<uint32_t, 8> pcg32_seed_words(uint64_t seed);
// n_words ChaCha20 keystream words (little-endian u32) from libsodium crypto_stream_chacha20 (the
// original DJB variant: 64-bit block counter in words 12..13, 64-bit nonce in words 14..15), block
// counter starting at first_block, nonce (= rand_chacha's stream) 0. This is rand_chacha's
// ChaCha20Rng word sequence at word position 16*first_block, stream 0. Throws std::runtime_error if
// libsodium cannot be initialised.
std::vector<uint32_t> chacha20_words(const std::array<uint32_t, 8>& key, uint64_t first_block, size_t n_words);
// ChaCha20Rng::seed_from_u64(0x3141592653589793); u64 draws = word[2k] + 2^32 word[2k+1], redrawn
// while >= p; drawn in the order RC_init rounds 0..3 (lanes 0..11), RC_term rounds 0..3, RC_int 0..21.
RoundConstants regenerate_round_constants();

// ---- field (spec §1), exact: inputs any u64 (reduced mod p first), outputs canonical [0, p) --------
uint64_t add(uint64_t a, uint64_t b);
uint64_t sub(uint64_t a, uint64_t b);
uint64_t mul(uint64_t a, uint64_t b);
uint64_t sqr(uint64_t a);
uint64_t neg(uint64_t a);
uint64_t canonical(uint64_t a);
uint64_t sbox(uint64_t a);                     // a^7
uint64_t reduce128(uint64_t hi, uint64_t lo);  // (hi*2^64 + lo) mod p, any hi, lo
uint64_t halve(uint64_t a);                    // a * 2^-1
uint64_t inverse(uint64_t a);                  // a^(p-2): a^-1 for a != 0, and inverse(0) = 0

// ---- permutation (spec §2): input lanes any u64, output lanes canonical ---------------------------
State m4_layer(const State&);         // M4 applied to each chunk (s0..3), (s4..7), (s8..11)
State external_linear(const State&);  // M_E = [[2M4, M4, M4], [M4, 2M4, M4], [M4, M4, 2M4]]
State internal_linear(const State&);  // M_I = J + diag(d): y_i = sum_j s_j + d_i s_i
State permute(const State&);
// The 31 states of permute: [0] after the initial M_E, [1..4] after initial rounds 0..3 (S-box + M_E),
// [5..26] after internal rounds 0..21 (S-box + M_I), [27..30] after terminal rounds 0..3; [30] = permute.
std::vector<State> permute_trace(const State&);
// The permutation entered at the first S-box of initial round 0: s must already be M_E(x) + RC_init[0]
// (the miner's injected prestate, spec §6.2). permute(x) = permute_from_first_sbox(M_E(x) + RC_init[0]).
State permute_from_first_sbox(const State&);

// ---- sponge (spec §4): rate 8, capacity 4, zero IV; felt inputs any u64 (field-added, so reduced) ---
// Complete 4-byte chunks as u32_le, then one terminator felt: the 0..3 leftover bytes, byte 0x01, zero
// padding, read as u32_le. Output length n/4 + 1, every felt < 2^32.
std::vector<uint64_t> bytes_to_felts(const std::vector<uint8_t>&);
// Absorb the felts as given (no encoding, no terminator), finalise (felt 1, zeros to a block boundary),
// squeeze lanes 0..3 (canonical). Twice: lanes 0..3, one more permutation, lanes 0..3.
std::array<uint64_t, 4> felt_sponge(const std::vector<uint64_t>& felts);
std::array<uint64_t, 8> felt_sponge_squeeze_twice(const std::vector<uint64_t>& felts);
// felt_sponge(bytes_to_felts(x)) as 4 x LE64; the squeeze-twice form is 64 bytes, its first 32 = hash_bytes.
std::array<uint8_t, 32> hash_bytes(const std::vector<uint8_t>&);
std::array<uint8_t, 64> hash_squeeze_twice(const std::vector<uint8_t>&);
// qp-poseidon hash_twice: felt_sponge(felt_sponge(felts)) as 4 x LE64.
std::array<uint8_t, 32> hash_twice(const std::vector<uint64_t>& felts);
// qp-poseidon rehash_to_bytes: the 32 bytes as 4 LE u64 felts, felt_sponge, 4 x LE64.
// Throws std::invalid_argument if any felt is >= p (non-canonical digests alias).
std::array<uint8_t, 32> rehash_to_bytes(const std::array<uint8_t, 32>&);

// ---- mining (spec §4-§6): nonces are integers in [0, 2^512) ---------------------------------------
using Header = std::array<uint8_t, 32>;
extern const Int kU512Max;  // 2^512 - 1
// The seal: nonce as 64 bytes big-endian. Throws std::out_of_range if nonce < 0 or nonce > kU512Max.
std::array<uint8_t, 64> nonce_be_bytes(const Int& nonce);
// hash_squeeze_twice(header || nonce_be_bytes(nonce)); nonce range as nonce_be_bytes.
std::array<uint8_t, 64> mining_hash_bytes(const Header&, const Int& nonce);
// mining_hash_bytes read big-endian: a value in [0, 2^512).
Int mining_hash(const Header&, const Int& nonce);
// Sponge state after pi1 (block B0 = header) and pi2 (B1 = nonce bits 511..256); canonical lanes.
State midstate(const Header&, const Int& nonce);
// M_E(midstate + B2 lanes 0..5, lanes 6, 7 not added) + RC_init[0]; canonical lanes (spec §6.2).
// Depends on the header and nonce bits 511..64 only.
State prestate_low64(const Header&, const Int& nonce);
// B2 lanes 6 and 7 for a nonce: x6 = bswap32(bits 63..32), x7 = bswap32(bits 31..0).
std::array<uint64_t, 2> low64_lanes(const Int& nonce);
// Column j of M_E (entries in 1..6), from the block structure; columns 6 and 7 are the miner's
// injection vectors. j in 0..11, throws std::out_of_range otherwise.
State me_column(int j);
// c0..c3 = lanes 0..3 after pi4 (absorption of B3), canonical: the hash's top 256 bits are their bswap64.
std::array<uint64_t, 4> absorbed_c(const Header&, const Int& nonce);

// Validity (spec §5): difficulty and hashes are U512 values in [0, kU512Max].
// floor(kU512Max / difficulty). Throws std::invalid_argument for 0, std::out_of_range outside [0, MAX].
Int target_of(const Int& difficulty);
// false for difficulty 0, else mining_hash < target_of(difficulty) (strict). Ranges as target_of.
bool is_valid_nonce(const Header&, const Int& nonce, const Int& difficulty);
// hash < target (strict; hash == target is not a hit).
bool hash_meets_target(const Int& hash, const Int& target);
// The pallet: nonce 0 is rejected before hashing, otherwise is_valid_nonce.
bool chain_accepts(const Header&, const Int& nonce, const Int& difficulty);
// floor(kU512Max / hash), kU512Max for hash 0. Throws std::out_of_range outside [0, MAX].
Int achieved_difficulty(const Int& hash);

}  // namespace bx::ref::qpow
