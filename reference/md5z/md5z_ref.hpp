// The md5z golden model (docs/specs/md5z.md): MD5 through OpenSSL's EVP interface, the deterministic Q9-tunnel
// base generator, the base checker, the candidate builder and the zero count of a printed digest.
// It shares no code with gpu/: its own step function (forward and backward) exists only to construct
// bases and candidates; every digest it reports comes from OpenSSL.
#pragma once
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace bx::ref::md5z {

using Digest = std::array<uint8_t, 16>;
using Message = std::array<uint8_t, 52>;  // words m0..m12, little-endian

// MD5 of any byte string (OpenSSL EVP_Digest with EVP_md5()). Throws std::runtime_error if OpenSSL fails.
Digest md5(const uint8_t* data, size_t n);
inline Digest md5(const Message& m) { return md5(m.data(), m.size()); }

// Leading '0' characters of the 32-digit lowercase hex string of the digest (0..32).
int zeros(const Digest& d);
std::string digest_hex(const Digest& d);

struct NotABase : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// The state words Q[1..64] of the single compression of a 52-byte message (padded as in the spec);
// index 0 holds Q[0] = b0. Used for the tunnel invariant and to document bases.
std::array<uint32_t, 65> states(const Message& m);

// Deterministic base from a 64-bit seed (documented construction):
//   words from splitmix64(seed): m0..m7 (steps 0..7 give Q[1..8]), then Q[9], Q[12], Q[13];
//   Q[10] = 0, Q[11] = 0xffffffff; m8..m12 from steps 8..12 run backwards.
Message make_base(uint64_t seed);
// The same construction with Q[10] and Q[11] given: a base for (0, 0xffffffff), otherwise a 52-byte
// string that misses the tunnel conditions exactly as chosen (e.g. by one bit).
Message make_message(uint64_t seed, uint32_t q10, uint32_t q11);
// Empty string if `m` meets Q[10] = 0 and Q[11] = 0xffffffff; otherwise the reason, naming both values.
std::string base_problem(const Message& m);
// Throws NotABase (with base_problem's reason) unless `m` is a base.
void require_base(const Message& m);
// Candidate (base, index): Q[9] = index; m8, m9, m12 recomputed from steps 8, 9, 12 run backwards.
// Throws NotABase for a non-base.
Message candidate(const Message& base, uint32_t index);

// The tunnel state of a base (the plugin contract's job-level form, include/bitexact/plugin.h): the padded
// block's words m0..m15, and Q[-3..24] at q[k + 3] with Q[9] (the index) set to 0. Throws NotABase.
struct TunnelJob {
  uint32_t m[16];
  uint32_t q[28];
};
TunnelJob tunnel_job(const Message& base);

// Zero counts of many candidates of one base: the base's states are computed once and one OpenSSL
// digest context is reused (for re-hashing millions of hits). Throws NotABase for a non-base.
class CandidateHasher {
 public:
  explicit CandidateHasher(const Message& base);
  ~CandidateHasher();
  CandidateHasher(const CandidateHasher&) = delete;
  CandidateHasher& operator=(const CandidateHasher&) = delete;
  Message message(uint32_t index) const;
  Digest digest(uint32_t index);
  int zeros(uint32_t index) { return md5z::zeros(digest(index)); }

 private:
  uint32_t w_[16];
  uint32_t q_[17];  // Q[-3..13] of the base
  void* ctx_;       // EVP_MD_CTX
  void* md_;        // EVP_MD (fetched once)
};

// The hits of a search over [lo, hi) at threshold T, by brute force (OpenSSL per candidate): index and
// zero count, in index order. For tests and the selftest on small ranges.
struct Hit {
  uint32_t index;
  int zeros;
  bool operator==(const Hit&) const = default;
};
std::vector<Hit> search(const Message& base, uint64_t lo, uint64_t hi, int threshold);

}  // namespace bx::ref::md5z
