#include "reference/ecvrf/oracles.hpp"

#include <openssl/evp.h>
#include <sodium.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "reference/field25519/x25519_oracles.hpp"

namespace bx::ref::ecvrf {

namespace {
void init_sodium() {
  if (sodium_init() < 0) throw std::runtime_error("libsodium: sodium_init failed");
}
void require_sk(std::span<const uint8_t> sk) {
  if (sk.size() != 32)
    throw std::invalid_argument("ecvrf oracle: SK must have 32 bytes, got " + std::to_string(sk.size()));
}

constexpr Bytes32 kIdentity{1};

// The low 255 bits as an integer are >= p = 2^255 - 19: ed..ff (bytes 1..30 ff) 7f, bit 255 ignored.
bool low255_at_least_p(const Bytes32& c) {
  if ((c[31] & 0x7f) != 0x7f || c[0] < 0xed) return false;
  for (int i = 1; i < 31; ++i)
    if (c[i] != 0xff) return false;
  return true;
}
// y = ±1 with the sign bit set (x = 0): the two canonical encodings libsodium accepts and strict rejects.
bool zero_x_with_sign(const Bytes32& c) {
  Bytes32 one_signed{1}, minus_one_signed;
  one_signed[31] = 0x80;
  minus_one_signed.fill(0xff);
  minus_one_signed[0] = 0xec;
  return c == one_signed || c == minus_one_signed;
}

std::optional<Bytes32> times8(Bytes32 p) {
  for (int i = 0; i < 3; ++i) {
    const auto q = sodium_add(p, p);
    if (!q) return std::nullopt;
    p = *q;
  }
  return p;
}
}  // namespace

std::optional<Bytes32> sodium_add(const Bytes32& p, const Bytes32& q) {
  init_sodium();
  Bytes32 r;
  if (crypto_core_ed25519_add(r.data(), p.data(), q.data()) != 0) return std::nullopt;
  return r;
}

std::optional<Bytes32> sodium_scalarmult_noclamp(const Bytes32& n, const Bytes32& p) {
  init_sodium();
  Bytes32 r;
  if (crypto_scalarmult_ed25519_noclamp(r.data(), n.data(), p.data()) != 0) return std::nullopt;
  return r;
}

std::optional<Bytes32> sodium_scalarmult_base_noclamp(const Bytes32& n) {
  init_sodium();
  Bytes32 r;
  if (crypto_scalarmult_ed25519_base_noclamp(r.data(), n.data()) != 0) return std::nullopt;
  return r;
}

std::optional<Bytes32> sodium_strict_decode(const Bytes32& cand) {
  if (low255_at_least_p(cand) || zero_x_with_sign(cand)) return std::nullopt;
  return sodium_add(cand, kIdentity);
}

std::optional<SodiumVrf> sodium_vrf(std::span<const uint8_t> sk, std::span<const uint8_t> alpha) {
  require_sk(sk);
  init_sodium();
  SodiumVrf out{};
  std::array<uint8_t, crypto_hash_sha512_BYTES> h;
  crypto_hash_sha512(h.data(), sk.data(), sk.size());
  Bytes32 x;
  std::copy(h.begin(), h.begin() + 32, x.begin());
  x[0] &= 248;
  x[31] &= 127;
  x[31] |= 64;
  const auto pk = sodium_scalarmult_base_noclamp(x);
  if (!pk) return std::nullopt;
  out.pk = *pk;

  bool found = false;
  for (unsigned ctr = 0; ctr <= 255 && !found; ++ctr) {
    std::vector<uint8_t> m{0x03, 0x01};
    m.insert(m.end(), out.pk.begin(), out.pk.end());
    m.insert(m.end(), alpha.begin(), alpha.end());
    m.push_back(static_cast<uint8_t>(ctr));
    m.push_back(0x00);
    crypto_hash_sha512(h.data(), m.data(), m.size());
    Bytes32 cand;
    std::copy(h.begin(), h.begin() + 32, cand.begin());
    const auto P = sodium_strict_decode(cand);
    if (!P) continue;
    const auto H = times8(*P);
    if (!H) return std::nullopt;
    if (*H == kIdentity) continue;
    out.ctr = static_cast<uint8_t>(ctr);
    out.h = *H;
    found = true;
  }
  if (!found) return std::nullopt;

  const auto gamma = sodium_scalarmult_noclamp(x, out.h);
  if (!gamma) return std::nullopt;
  out.gamma = *gamma;
  const auto gamma8 = times8(out.gamma);
  if (!gamma8) return std::nullopt;
  out.gamma8 = *gamma8;
  std::vector<uint8_t> m{0x03, 0x03};
  m.insert(m.end(), out.gamma8.begin(), out.gamma8.end());
  m.push_back(0x00);
  crypto_hash_sha512(out.beta.data(), m.data(), m.size());
  return out;
}

std::optional<Bytes32> openssl_ed25519_pk(std::span<const uint8_t> sk) {
  require_sk(sk);
  std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(
      EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nullptr, sk.data(), sk.size()), EVP_PKEY_free);
  if (!key) return std::nullopt;
  Bytes32 pk;
  size_t len = pk.size();
  if (EVP_PKEY_get_raw_public_key(key.get(), pk.data(), &len) != 1 || len != pk.size()) return std::nullopt;
  return pk;
}

std::optional<Bytes32> openssl_gamma_u(std::span<const uint8_t> sk, const Bytes32& u_h) {
  require_sk(sk);
  std::array<uint8_t, 64> h;
  unsigned len = 0;
  if (EVP_Digest(sk.data(), sk.size(), h.data(), &len, EVP_sha512(), nullptr) != 1 || len != h.size())
    throw std::runtime_error("OpenSSL: SHA-512 failed");
  f25519::Bytes32 scalar;
  std::copy(h.begin(), h.begin() + 32, scalar.begin());
  return f25519::x25519_openssl(scalar, u_h);
}

}  // namespace bx::ref::ecvrf
