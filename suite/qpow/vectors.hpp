// qpow vector files (Wycheproof shape as vectors/md5z and vectors/field25519: algorithm, schema, generator,
// source, numberOfTests, notes (one entry per flag, naming the bug class), testGroups; strict loaders):
//   vectors/qpow/field.json        Goldilocks field: spec §9.1 KATs, the §8 boundary catalogue (every op,
//                                  add/sub/mul over all catalogue pairs), reduction branches, squaring carries
//   vectors/qpow/permutation.json  M4 / M_E / M_I / Poseidon2 KATs (§9.1, §9.2) and generated states
//   vectors/qpow/hash_bytes.json   byte sponge hash_squeeze_twice (§9.3; its first 32 bytes = hash_bytes)
//   vectors/qpow/felt_sponge.json  felt sponge: hash_twice and rehash_to_bytes KATs (§9.3), felt_sponge
//                                  over lengths across the block boundaries
//   vectors/qpow/mining.json       mining hashes (§9.4 a-e, §9.5's nonce 705), midstates, carry nonces
//   vectors/qpow/validity.json     hash < target (strict), difficulties 0 / 1 / MAX, ties, nonce 0
// Every file is generated (bitexact vectors generate --family qpow) from the golden model
// reference/qpow; the known answers of the spec are written into the generator literally (source cited)
// and checked against the reference by check_vectors, so a disagreement is a problem line, never a
// silently regenerated value.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace bx::qpow {

// op: add sub mul sqr neg canonical sbox reduce128 (a = low word, b = high word); result canonical
// (reference). Unary ops have b = 0 (the file has no "b" for them).
struct FieldCase {
  int id;
  std::string op;
  uint64_t a = 0, b = 0, result = 0;
  std::string comment;
  std::vector<std::string> flags;
};
// layer: "m4" (M4 per chunk), "external" (M_E), "internal" (M_I), "permute". out canonical.
struct PermCase {
  int id;
  std::string layer;
  std::array<uint64_t, 12> in{}, out{};
  std::string comment;
  std::vector<std::string> flags;
};
struct ByteHashCase {
  int id;
  std::vector<uint8_t> data;
  std::array<uint8_t, 64> squeeze_twice{};  // its first 32 bytes are hash_bytes(data)
  std::string comment;
  std::vector<std::string> flags;
};
// op "feltSponge" (felts -> lanes 0..3 as 4 x LE64), "hashTwice" (felts -> feltSponge of feltSponge),
// "rehashToBytes" (msg: 32 bytes read as 4 LE u64 felts, each < p, else the case is invalid: no out).
struct FeltSpongeCase {
  int id;
  std::string op;
  std::vector<uint64_t> felts;     // feltSponge, hashTwice
  std::array<uint8_t, 32> msg{};   // rehashToBytes
  std::array<uint8_t, 32> out{};   // valid cases
  bool valid = true;
  std::string comment;
  std::vector<std::string> flags;
};
struct MiningCase {
  int id;
  std::array<uint8_t, 32> header{};
  std::array<uint8_t, 64> nonce_be{};  // the seal: nonce as 64 bytes big-endian
  std::array<uint8_t, 64> hash{};      // hash_squeeze_twice(header || nonce_be), read big-endian
  bool has_midstate = false;
  std::array<uint64_t, 12> midstate{};  // state after pi1, pi2 (canonical lanes)
  std::string comment;
  std::vector<std::string> flags;
};
struct ValidityCase {
  int id;
  std::array<uint8_t, 32> header{};
  std::array<uint8_t, 64> nonce_be{};
  std::array<uint8_t, 64> target{};  // big-endian; floor(MAX / difficulty) when a difficulty is given
                                     // (all zero for difficulty 0, which is invalid)
  std::string difficulty;            // decimal, "" when the case gives a target directly
  bool valid = false;                // hash < target (difficulty 0: false)
  bool chain_accepts = false;        // valid and nonce != 0 (the pallet rejects nonce 0 before hashing)
  std::string comment;
  std::vector<std::string> flags;
};

// Strict loaders: throw bx::InputError (suite/hex.hpp) with one line naming the file, the tcId and the
// field on malformed input (not JSON, wrong schema, bad hex, wrong length, missing or unknown field,
// flag not described in notes, duplicate tcId, numberOfTests mismatch).
std::vector<FieldCase> load_field_cases(const std::string& json_text);
std::vector<PermCase> load_perm_cases(const std::string& json_text);
std::vector<ByteHashCase> load_byte_hash_cases(const std::string& json_text);
std::vector<FeltSpongeCase> load_felt_sponge_cases(const std::string& json_text);
std::vector<MiningCase> load_mining_cases(const std::string& json_text);
std::vector<ValidityCase> load_validity_cases(const std::string& json_text);

// The embedded (build-time) copies (embedded_file), parsed once. Throw InputError as the loaders, or when
// the build has no embedded copy.
const std::vector<FieldCase>& embedded_field_cases();
const std::vector<PermCase>& embedded_perm_cases();
const std::vector<ByteHashCase>& embedded_byte_hash_cases();
const std::vector<FeltSpongeCase>& embedded_felt_sponge_cases();
const std::vector<MiningCase>& embedded_mining_cases();
const std::vector<ValidityCase>& embedded_validity_cases();

// "vectors/qpow/field.json", "vectors/qpow/permutation.json", "vectors/qpow/hash_bytes.json",
// "vectors/qpow/felt_sponge.json", "vectors/qpow/mining.json", "vectors/qpow/validity.json".
std::vector<std::string> vector_files();
// path -> exact file text, deterministic (bitexact vectors generate --family qpow).
std::map<std::string, std::string> generate_vectors();
// Reads every file of vector_files() under root, parses it, recomputes every case with the reference
// (reference/qpow), checks the spec's literal known answers against the reference, and compares each
// file with generate_vectors() byte for byte. One line per problem; empty = OK.
std::vector<std::string> check_vectors(const std::string& root);

}  // namespace bx::qpow
