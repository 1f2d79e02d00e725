#include "reference/field25519/x25519_oracles.hpp"

#include <openssl/evp.h>
#include <sodium.h>

#include <memory>
#include <stdexcept>

namespace bx::ref::f25519 {

std::optional<Bytes32> x25519_openssl(const Bytes32& scalar, const Bytes32& u) {
  using Key = std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)>;
  using Ctx = std::unique_ptr<EVP_PKEY_CTX, decltype(&EVP_PKEY_CTX_free)>;
  Key priv(EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, nullptr, scalar.data(), 32), EVP_PKEY_free);
  Key pub(EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, nullptr, u.data(), 32), EVP_PKEY_free);
  if (!priv || !pub) throw std::runtime_error("OpenSSL: cannot create X25519 keys");
  Ctx ctx(EVP_PKEY_CTX_new(priv.get(), nullptr), EVP_PKEY_CTX_free);
  if (!ctx || EVP_PKEY_derive_init(ctx.get()) != 1) throw std::runtime_error("OpenSSL: derive init failed");
  if (EVP_PKEY_derive_set_peer(ctx.get(), pub.get()) != 1) return std::nullopt;
  Bytes32 out{};
  size_t len = out.size();
  if (EVP_PKEY_derive(ctx.get(), out.data(), &len) != 1 || len != 32) return std::nullopt;
  return out;
}

std::optional<Bytes32> x25519_sodium(const Bytes32& scalar, const Bytes32& u) {
  if (sodium_init() < 0) throw std::runtime_error("libsodium: sodium_init failed");
  Bytes32 out{};
  if (crypto_scalarmult(out.data(), scalar.data(), u.data()) != 0) return std::nullopt;
  return out;
}

}  // namespace bx::ref::f25519
