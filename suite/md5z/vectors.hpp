// md5z vector files (Wycheproof shape, strict loaders):
//   vectors/md5z/rfc1321.json     RFC 1321 A.5 suite                         (bitexact vectors generate)
//   vectors/md5z/bases.json       bases from fixed seeds with Q[1..24]; non-bases that must be rejected
//   vectors/md5z/candidates.json  candidates at boundary and random indices: message, digest, zero count
//   vectors/md5z/hits.json        hits with 2..10 zeros found by a GPU search, then frozen
//                                 (bitexact vectors find-hits; checked on the CPU with OpenSSL)
#pragma once
#include <array>
#include <map>
#include <string>
#include <vector>
#include "reference/md5z/md5z_ref.hpp"

namespace bx::md5z {

struct Md5Test {
  int tc_id;
  std::string comment;
  std::vector<uint8_t> msg;
  std::string digest;
};
struct BaseTest {
  int tc_id;
  std::string comment;
  std::vector<std::string> flags;
  bool valid;  // false: a 52-byte string that is not a base (must be rejected)
  uint64_t seed = 0;
  ref::md5z::Message base;
  std::array<uint32_t, 24> q{};  // Q[1..24]
};
struct CandidateTest {  // also the frozen hits
  int tc_id;
  std::string comment;
  std::vector<std::string> flags;
  uint64_t seed;
  ref::md5z::Message base;
  uint32_t index;
  ref::md5z::Message message;
  std::string digest;
  int zeros;
};

std::vector<Md5Test> parse_md5(const std::string& file, const std::string& text);
std::vector<BaseTest> parse_bases(const std::string& file, const std::string& text);
std::vector<CandidateTest> parse_candidates(const std::string& file, const std::string& text);  // and hits.json

// relative path -> content, for the deterministic files (not hits.json).
std::map<std::string, std::string> generate_vectors();
// Verifies every md5z file under root on the CPU (OpenSSL, the reference, the host per-candidate code of
// every variant) and the deterministic ones against generation. One line per problem.
std::vector<std::string> check_vectors(const std::string& root, bool verbose);
// hits.json rendered from hits (each re-verified with OpenSSL first).
std::string render_hits(const std::vector<CandidateTest>& hits);
// The embedded (build-time) copies.
std::vector<CandidateTest> load_embedded_hits();
std::vector<CandidateTest> load_embedded_candidates();
std::vector<BaseTest> load_embedded_bases();
std::vector<Md5Test> load_embedded_md5();

}  // namespace bx::md5z
