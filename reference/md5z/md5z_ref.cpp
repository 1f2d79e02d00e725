#include "reference/md5z/md5z_ref.hpp"

#include <openssl/evp.h>

#include <cmath>
#include <cstring>

namespace bx::ref::md5z {
namespace {

// RFC 1321, written from the definition: K[t] = floor(2^32 |sin(t + 1)|) (double is exact enough for
// all 64 values), rotations per round, word order per round.
struct Tables {
  uint32_t K[64];
  int s[64];
  int w[64];
  Tables() {
    static const int rot[4][4] = {{7, 12, 17, 22}, {5, 9, 14, 20}, {4, 11, 16, 23}, {6, 10, 15, 21}};
    for (int t = 0; t < 64; ++t) {
      K[t] = uint32_t(std::floor(std::fabs(std::sin(double(t + 1))) * 4294967296.0));
      s[t] = rot[t / 16][t % 4];
      w[t] = t < 16 ? t : t < 32 ? (5 * t + 1) % 16 : t < 48 ? (3 * t + 5) % 16 : (7 * t) % 16;
    }
  }
};
const Tables& tab() {
  static const Tables t;
  return t;
}

uint32_t rotl(uint32_t x, int s) { return (x << s) | (x >> (32 - s)); }
uint32_t rotr(uint32_t x, int s) { return (x >> s) | (x << (32 - s)); }
uint32_t f(int t, uint32_t x, uint32_t y, uint32_t z) {
  if (t < 16) return (x & y) | (~x & z);
  if (t < 32) return (x & z) | (y & ~z);
  if (t < 48) return x ^ y ^ z;
  return y ^ (x | ~z);
}

// Q is indexed with an offset of 3: q(k) = Q[k] for k in -3..64.
struct State {
  uint32_t v[68];
  uint32_t& q(int k) { return v[k + 3]; }
};
void init(State& S) {
  S.q(-3) = 0x67452301;
  S.q(-2) = 0x10325476;
  S.q(-1) = 0x98badcfe;
  S.q(0) = 0xefcdab89;
}
void forward(State& S, int t, uint32_t word) {
  const auto& T = tab();
  S.q(t + 1) = S.q(t) + rotl(S.q(t - 3) + f(t, S.q(t), S.q(t - 1), S.q(t - 2)) + T.K[t] + word, T.s[t]);
}
uint32_t backward(State& S, int t) {  // the word step t used, given Q[t-3..t+1]
  const auto& T = tab();
  return rotr(S.q(t + 1) - S.q(t), T.s[t]) - S.q(t - 3) - f(t, S.q(t), S.q(t - 1), S.q(t - 2)) - T.K[t];
}

void words(const Message& m, uint32_t out[16]) {
  for (int i = 0; i < 13; ++i) out[i] = uint32_t(m[4 * i]) | uint32_t(m[4 * i + 1]) << 8 | uint32_t(m[4 * i + 2]) << 16 |
                                        uint32_t(m[4 * i + 3]) << 24;
  out[13] = 0x80;
  out[14] = 52 * 8;
  out[15] = 0;
}
Message bytes(const uint32_t in[13]) {
  Message m;
  for (int i = 0; i < 13; ++i)
    for (int j = 0; j < 4; ++j) m[4 * i + j] = uint8_t(in[i] >> (8 * j));
  return m;
}

uint64_t splitmix64(uint64_t& x) {
  uint64_t z = (x += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

std::string hex32(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%08x", v);
  return b;
}

}  // namespace

Digest md5(const uint8_t* data, size_t n) {
  Digest d;
  unsigned len = 0;
  if (EVP_Digest(data, n, d.data(), &len, EVP_md5(), nullptr) != 1 || len != 16)
    throw std::runtime_error("OpenSSL EVP_Digest(MD5) failed");
  return d;
}

std::string digest_hex(const Digest& d) {
  static const char* x = "0123456789abcdef";
  std::string s;
  for (uint8_t b : d) s += x[b >> 4], s += x[b & 15];
  return s;
}

int zeros(const Digest& d) {
  const std::string s = digest_hex(d);
  int k = 0;
  while (k < int(s.size()) && s[k] == '0') ++k;
  return k;
}

std::array<uint32_t, 65> states(const Message& m) {
  uint32_t w[16];
  words(m, w);
  State S;
  init(S);
  for (int t = 0; t < 64; ++t) forward(S, t, w[tab().w[t]]);
  std::array<uint32_t, 65> out;
  for (int k = 0; k <= 64; ++k) out[k] = S.q(k);
  return out;
}

Message make_base(uint64_t seed) { return make_message(seed, 0, 0xffffffffu); }

Message make_message(uint64_t seed, uint32_t q10, uint32_t q11) {
  uint64_t x = seed;
  auto draw = [&] { return uint32_t(splitmix64(x) >> 16); };
  uint32_t m[13];
  State S;
  init(S);
  for (int t = 0; t < 8; ++t) {
    m[t] = draw();
    forward(S, t, m[t]);
  }
  S.q(9) = draw();
  S.q(10) = q10;
  S.q(11) = q11;
  S.q(12) = draw();
  S.q(13) = draw();
  for (int t = 8; t <= 12; ++t) m[t] = backward(S, t);
  return bytes(m);
}

std::string base_problem(const Message& msg) {
  uint32_t w[16];
  words(msg, w);
  State S;
  init(S);
  for (int t = 0; t <= 10; ++t) forward(S, t, w[t]);
  if (S.q(10) == 0 && S.q(11) == 0xffffffffu) return "";
  return "not a Q9-tunnel base: Q[10] = " + hex32(S.q(10)) + " (must be 0x00000000), Q[11] = " + hex32(S.q(11)) +
         " (must be 0xffffffff)";
}

void require_base(const Message& m) {
  const std::string why = base_problem(m);
  if (!why.empty()) throw NotABase(why);
}

TunnelJob tunnel_job(const Message& base) {
  require_base(base);
  TunnelJob j;
  words(base, j.m);
  State S;
  init(S);
  for (int t = 0; t < 24; ++t) forward(S, t, j.m[tab().w[t]]);
  for (int k = -3; k <= 24; ++k) j.q[k + 3] = S.q(k);
  j.q[9 + 3] = 0;  // Q[9] is the candidate's index
  return j;
}

CandidateHasher::CandidateHasher(const Message& base)
    : ctx_(EVP_MD_CTX_new()), md_(EVP_MD_fetch(nullptr, "MD5", nullptr)) {
  // An explicitly fetched MD5: EVP_md5() would repeat the provider lookup (a global lock) on every
  // digest, which serialises the multi-threaded re-hashing in verify.
  if (!ctx_ || !md_) {
    EVP_MD_CTX_free(static_cast<EVP_MD_CTX*>(ctx_));
    EVP_MD_free(static_cast<EVP_MD*>(md_));
    throw std::runtime_error("OpenSSL: cannot fetch MD5");
  }
  try {
    require_base(base);
  } catch (...) {
    EVP_MD_CTX_free(static_cast<EVP_MD_CTX*>(ctx_));
    EVP_MD_free(static_cast<EVP_MD*>(md_));
    throw;
  }
  words(base, w_);
  State S;
  init(S);
  for (int t = 0; t <= 12; ++t) forward(S, t, w_[t]);  // Q[1..13] of the base
  for (int k = 0; k < 17; ++k) q_[k] = S.v[k];
}
CandidateHasher::~CandidateHasher() {
  EVP_MD_CTX_free(static_cast<EVP_MD_CTX*>(ctx_));
  EVP_MD_free(static_cast<EVP_MD*>(md_));
}

Message CandidateHasher::message(uint32_t index) const {
  State S;
  for (int k = 0; k < 17; ++k) S.v[k] = q_[k];
  S.q(9) = index;
  uint32_t w[16];
  std::memcpy(w, w_, sizeof w);
  w[8] = backward(S, 8);
  w[9] = backward(S, 9);
  w[12] = backward(S, 12);
  return bytes(w);
}

Digest CandidateHasher::digest(uint32_t index) {
  const Message m = message(index);
  auto* c = static_cast<EVP_MD_CTX*>(ctx_);
  Digest d;
  unsigned len = 0;
  if (EVP_DigestInit_ex(c, static_cast<const EVP_MD*>(md_), nullptr) != 1 || EVP_DigestUpdate(c, m.data(), m.size()) != 1 ||
      EVP_DigestFinal_ex(c, d.data(), &len) != 1 || len != 16)
    throw std::runtime_error("OpenSSL MD5 digest failed");
  return d;
}

Message candidate(const Message& base, uint32_t index) { return CandidateHasher(base).message(index); }

std::vector<Hit> search(const Message& base, uint64_t lo, uint64_t hi, int threshold) {
  CandidateHasher h(base);
  std::vector<Hit> hits;
  for (uint64_t i = lo; i < hi && i < (uint64_t(1) << 32); ++i) {
    const int z = h.zeros(uint32_t(i));
    if (z >= threshold) hits.push_back({uint32_t(i), z});
  }
  return hits;
}

}  // namespace bx::ref::md5z
