// Hex text <-> bytes with strict parsing, and the side-by-side hexdump printed on every mismatch.
#pragma once
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace bx {
using Bytes32 = std::array<uint8_t, 32>;

struct InputError : std::runtime_error {  // bad user input: one clear line, non-zero exit
  using std::runtime_error::runtime_error;
};

std::string to_hex(const uint8_t* p, size_t n);
// SHA-256 (OpenSSL EVP) of a byte string, as 64 lowercase hex digits; throws std::runtime_error if OpenSSL fails.
std::string sha256_hex(const std::string& bytes);
inline std::string to_hex(const Bytes32& b) { return to_hex(b.data(), b.size()); }
// Exactly `n` bytes from exactly 2n hex digits (either case); throws InputError naming `what`.
std::vector<uint8_t> from_hex(const std::string& s, size_t n, const std::string& what);
Bytes32 bytes32_from_hex(const std::string& s, const std::string& what);
// "expected"/"actual" rows of 16 bytes with a ^^ marker under each differing byte.
std::string hexdump_diff(const uint8_t* expected, const uint8_t* actual, size_t n);
}  // namespace bx
