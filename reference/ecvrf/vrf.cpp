#include "reference/ecvrf/vrf.hpp"

#include <openssl/evp.h>

#include <stdexcept>
#include <string>

namespace bx::ref::ecvrf {

namespace {
constexpr uint8_t kSuite = 0x03;  // ECVRF-EDWARDS25519-SHA512-TAI

void require_size(std::span<const uint8_t> s, size_t n, const char* what) {
  if (s.size() != n)
    throw std::invalid_argument(std::string("ecvrf: ") + what + " must have " + std::to_string(n) + " bytes, got " +
                                std::to_string(s.size()));
}
}  // namespace

Bytes64 sha512(std::span<const uint8_t> m) {
  Bytes64 out;
  unsigned len = 0;
  if (EVP_Digest(m.data(), m.size(), out.data(), &len, EVP_sha512(), nullptr) != 1 || len != out.size())
    throw std::runtime_error("OpenSSL: SHA-512 failed");
  return out;
}

Bytes32 clamp(Bytes32 h) {
  h[0] &= 248;
  h[31] &= 127;
  h[31] |= 64;
  return h;
}

VrfKey vrf_key(std::span<const uint8_t> sk) {
  require_size(sk, 32, "SK");
  const Bytes64 h = sha512(sk);
  Bytes32 lo;
  std::copy(h.begin(), h.begin() + 32, lo.begin());
  VrfKey k;
  k.x = from_le_bytes(clamp(lo).data(), 32);
  k.x_mod_l = k.x % L();
  k.pk = encode(mul(k.x, base_point()));
  return k;
}

std::vector<uint8_t> tai_hash_input(std::span<const uint8_t> pk, std::span<const uint8_t> alpha, uint8_t ctr) {
  require_size(pk, 32, "PK");
  std::vector<uint8_t> m{kSuite, 0x01};
  m.insert(m.end(), pk.begin(), pk.end());
  m.insert(m.end(), alpha.begin(), alpha.end());
  m.push_back(ctr);
  m.push_back(0x00);
  return m;
}

TaiResult encode_to_curve_tai(std::span<const uint8_t> pk, std::span<const uint8_t> alpha, const Decoder& decoder) {
  TaiResult r;
  for (unsigned ctr = 0; ctr <= 255; ++ctr) {
    const Bytes64 h = sha512(tai_hash_input(pk, alpha, static_cast<uint8_t>(ctr)));
    Bytes32 candidate;
    std::copy(h.begin(), h.begin() + 32, candidate.begin());
    TaiTry t{static_cast<uint8_t>(ctr), candidate, decoder(candidate), std::nullopt};
    if (const Point* P = std::get_if<Point>(&t.decoded)) t.cleared = mul_by_cofactor(*P);
    r.tries.push_back(t);
    if (t.cleared && !is_identity(*t.cleared)) {
      r.ctr = t.ctr;
      r.h = t.cleared;
      break;
    }
  }
  return r;
}

Bytes64 proof_to_hash(const Point& gamma) {
  const Bytes32 g8 = encode(mul_by_cofactor(gamma));
  std::vector<uint8_t> m{kSuite, 0x03};
  m.insert(m.end(), g8.begin(), g8.end());
  m.push_back(0x00);
  return sha512(m);
}

VrfTrace vrf_trace(const VrfKey& key, std::span<const uint8_t> alpha) {
  VrfTrace t{key, encode_to_curve_tai(key.pk, alpha), std::nullopt, std::nullopt, std::nullopt};
  if (!t.tai.h) return t;
  t.gamma = mul(key.x, *t.tai.h);
  t.gamma8 = mul_by_cofactor(*t.gamma);
  t.beta = proof_to_hash(*t.gamma);
  return t;
}
VrfTrace vrf_trace(std::span<const uint8_t> sk, std::span<const uint8_t> alpha) {
  return vrf_trace(vrf_key(sk), alpha);
}

std::array<uint8_t, 40> job_alpha(std::span<const uint8_t> header, uint64_t nonce) {
  require_size(header, 32, "header");
  std::array<uint8_t, 40> a;
  std::copy(header.begin(), header.end(), a.begin());
  for (int i = 0; i < 8; ++i) a[32 + i] = static_cast<uint8_t>(nonce >> (8 * i));
  return a;
}

uint64_t score(const Bytes64& beta) {
  uint64_t s = 0;
  for (int i = 0; i < 8; ++i) s = (s << 8) | beta[i];
  return s;
}

std::vector<Hit> search(std::span<const uint8_t> sk, std::span<const uint8_t> header, uint64_t lo, uint64_t count,
                        uint64_t target) {
  require_size(header, 32, "header");
  if (lo != 0 && count > UINT64_MAX - lo + 1) throw std::invalid_argument("ecvrf search: range ends past 2^64");
  const VrfKey key = vrf_key(sk);
  std::vector<Hit> hits;
  for (uint64_t i = 0; i < count; ++i) {
    const uint64_t n = lo + i;  // lo + count <= 2^64, so no wrap
    const VrfTrace t = vrf_trace(key, job_alpha(header, n));
    if (!t.beta) continue;
    const uint64_t s = score(*t.beta);
    if (s < target) hits.push_back({n, s});
  }
  return hits;
}

}  // namespace bx::ref::ecvrf
