#include "suite/hex.hpp"

#include <openssl/evp.h>

namespace bx {

std::string to_hex(const uint8_t* p, size_t n) {
  static const char* d = "0123456789abcdef";
  std::string s(2 * n, '0');
  for (size_t i = 0; i < n; ++i) {
    s[2 * i] = d[p[i] >> 4];
    s[2 * i + 1] = d[p[i] & 15];
  }
  return s;
}

std::vector<uint8_t> from_hex(const std::string& s, size_t n, const std::string& what) {
  if (s.size() != 2 * n)
    throw InputError(what + ": expected " + std::to_string(2 * n) + " hex digits, got " + std::to_string(s.size()));
  std::vector<uint8_t> out(n);
  auto nib = [&](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    throw InputError(what + ": bad hex digit '" + std::string(1, c) + "'");
  };
  for (size_t i = 0; i < n; ++i) out[i] = uint8_t(nib(s[2 * i]) << 4 | nib(s[2 * i + 1]));
  return out;
}

Bytes32 bytes32_from_hex(const std::string& s, const std::string& what) {
  auto v = from_hex(s, 32, what);
  Bytes32 b;
  std::copy(v.begin(), v.end(), b.begin());
  return b;
}

std::string hexdump_diff(const uint8_t* e, const uint8_t* a, size_t n) {
  std::string out;
  for (size_t off = 0; off < n; off += 16) {
    size_t m = std::min<size_t>(16, n - off);
    out += "  expected " + to_hex(e + off, m) + "\n  actual   " + to_hex(a + off, m) + "\n           ";
    for (size_t i = 0; i < m; ++i) out += e[off + i] == a[off + i] ? "  " : "^^";
    out += "\n";
  }
  return out;
}

std::string sha256_hex(const std::string& bytes) {
  unsigned char d[32];
  unsigned len = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), d, &len, EVP_sha256(), nullptr) != 1 || len != 32)
    throw std::runtime_error("OpenSSL EVP_Digest(SHA-256) failed");
  return to_hex(d, 32);
}

}  // namespace bx
