// Independent X25519 oracles: OpenSSL 3 (EVP_PKEY_derive) and libsodium (crypto_scalarmult).
// Both refuse an all-zero shared secret: nullopt then (RFC 7748 section 6.1 check), so they cannot judge
// the ZeroSharedSecret cases; the golden model (ref25519) does.
#pragma once
#include <optional>
#include "reference/field25519/ref25519.hpp"

namespace bx::ref::f25519 {
std::optional<Bytes32> x25519_openssl(const Bytes32& scalar, const Bytes32& u);
std::optional<Bytes32> x25519_sodium(const Bytes32& scalar, const Bytes32& u);
}  // namespace bx::ref::f25519
