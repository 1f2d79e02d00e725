// Vector files (Wycheproof shape): generation from the reference, strict loading, and the stale check.
//   vectors/field25519/ops.json             every op over the boundary catalogue + seeded random cases
//   vectors/field25519/x25519_rfc7748.json  RFC 7748 known answers (with source), catalogue u values, random
// Loaders are strict: an unknown or missing field, bad hex, a wrong length or a duplicate tcId is an
// InputError naming the file, the tcId and the field.
#pragma once
#include <map>
#include <string>
#include <vector>
#include "suite/hex.hpp"
#include "gpu/field25519/layouts.hpp"

namespace bx::field25519::vectors {

struct FieldTest {
  int tc_id;
  std::string comment;
  std::vector<std::string> flags;
  f25519::Op op;
  Bytes32 a, b, out;
  bool was_square = true;  // sqrt_ratio only
};
struct X25519Test {
  int tc_id;
  std::string comment;
  std::vector<std::string> flags;
  Bytes32 scalar, u, shared;
  int iterations = 0;  // > 0: RFC 7748 iterated test (k, u) <- (X25519(k, u), k), starting at k = u = 9
};

std::vector<FieldTest> parse_field(const std::string& file, const std::string& text);
std::vector<X25519Test> parse_x25519(const std::string& file, const std::string& text);

// relative path -> exact file content, as `bitexact vectors generate` writes it.
std::map<std::string, std::string> generate_vectors();

// Loads both files (from disk under `root`), verifies every test against the reference and compares each
// file with what generation gives. Returns one line per problem (empty: all good).
std::vector<std::string> check_vectors(const std::string& root, bool verbose);

// Runs the iterated X25519 test with the given single-shot function.
template <class Fn>
Bytes32 x25519_iterate(int iterations, Fn&& x25519_one) {
  Bytes32 k{}, u{};
  k[0] = 9;
  u[0] = 9;
  for (int i = 0; i < iterations; ++i) {
    Bytes32 r = x25519_one(k, u);
    u = k;
    k = r;
  }
  return k;
}

}  // namespace bx::field25519::vectors
