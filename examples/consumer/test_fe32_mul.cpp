// consumer::mul (my_fe32.hpp) checked against the installed bitexact package:
//   (a) bitexact::reference - exact integers mod p - on seeded random and boundary operands;
//   (b) every "mul" test of the installed vectors file field25519/ops.json;
//   (c) bitexact::headers - the project's own 8x32 layout, Fe32<portable> - on the same operands.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "gpu/field25519/fe32.hpp"
#include "my_fe32.hpp"
#include "reference/field25519/ref25519.hpp"

#ifndef CONSUMER_OPS_JSON
#error "CONSUMER_OPS_JSON (path of field25519/ops.json) must be defined by the build"
#endif

namespace {

namespace ref = bx::ref::f25519;
using ref::Bytes32;
using Fe32 = bx::f25519::Fe32<bx::carry::portable>;

std::string hex(const Bytes32& b) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (uint8_t x : b) s += {d[x >> 4], d[x & 15]};
  return s;
}
bool unhex(const std::string& s, Bytes32& out) {
  auto nib = [](char c) { return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1; };
  if (s.size() != 64) return false;
  for (int i = 0; i < 32; ++i) {
    const int h = nib(s[2 * i]), l = nib(s[2 * i + 1]);
    if (h < 0 || l < 0) return false;
    out[i] = uint8_t(h << 4 | l);
  }
  return true;
}

Bytes32 mine(const Bytes32& a, const Bytes32& b) {
  Bytes32 out;
  consumer::to_bytes(out.data(), consumer::mul(consumer::from_bytes(a.data()), consumer::from_bytes(b.data())));
  return out;
}
// The exact answer: raw 256-bit little-endian values, product mod p, canonical encoding.
Bytes32 expected(const Bytes32& a, const Bytes32& b) {
  return ref::encode(ref::field().mul(ref::raw_value(a), ref::raw_value(b)));
}
// Fe32's limbs are loaded directly: its invariant R32 admits any value in [0, 2^256), whereas
// Fe32::from_bytes would drop bit 255.
Bytes32 theirs(const Bytes32& a, const Bytes32& b) {
  const consumer::Fe x = consumer::from_bytes(a.data()), y = consumer::from_bytes(b.data());
  Fe32::fe fx, fy, r;
  for (int i = 0; i < 8; ++i) fx.v[i] = x.v[i], fy.v[i] = y.v[i];
  Fe32::mul(r, fx, fy);
  Bytes32 out;
  Fe32::to_bytes(out.data(), r);
  return out;
}

Bytes32 bytes_of(const bx::ref::Int& v) {
  const auto b = bx::ref::to_le_bytes(v, 32);
  Bytes32 out;
  std::copy(b.begin(), b.end(), out.begin());
  return out;
}

// Operands where carries and folds go wrong: small values, around p, 2^255 and 2^256, and 2^k - 1,
// 2^k, 2^k + 1, 19*2^k at every limb boundary k = 32 i. 2^256 - 1 squared takes the third fold.
std::vector<Bytes32> boundary_operands() {
  using bx::ref::Int;
  const Int p = ref::p(), two255 = Int(1) << 255, two256 = Int(1) << 256;
  std::vector<Int> v = {0, 1, 2, 19, 37, 38, 39, 121665, p - 1, p, p + 1, p + 18, two255 - 1, two255,
                        two255 + 18, two255 + 19, 2 * p - 1, 2 * p, two256 - 39, two256 - 38, two256 - 1};
  for (int k = 32; k < 256; k += 32) {
    const Int e = Int(1) << k;
    v.insert(v.end(), {e - 1, e, e + 1, 19 * e});
  }
  std::vector<Bytes32> out;
  for (const Int& x : v) out.push_back(bytes_of(x));
  return out;
}
std::vector<Bytes32> random_operands(size_t n) {
  std::mt19937_64 rng(20250519);
  std::vector<Bytes32> out(n);
  for (auto& b : out)
    for (auto& x : b) x = uint8_t(rng());
  return out;
}

// Reports the first few mismatches in full and counts them all.
struct Mismatches {
  int count = 0;
  void check(const std::string& what, const Bytes32& a, const Bytes32& b, const Bytes32& got,
             const Bytes32& want) {
    if (got == want) return;
    if (++count <= 5)
      ADD_FAILURE() << what << "\n  a    = " << hex(a) << "\n  b    = " << hex(b) << "\n  got  = " << hex(got)
                    << "\n  want = " << hex(want);
  }
};

TEST(ConsumerFe32Mul, MatchesReferenceOnBoundaryOperands) {
  const auto ops = boundary_operands();
  Mismatches m;
  for (const auto& a : ops)
    for (const auto& b : ops) m.check("boundary mul vs bitexact::reference", a, b, mine(a, b), expected(a, b));
  EXPECT_EQ(m.count, 0) << "of " << ops.size() * ops.size() << " boundary pairs";
}

TEST(ConsumerFe32Mul, MatchesReferenceOnRandomOperands) {
  const auto ops = random_operands(4000);  // full 256-bit operands, bit 255 included
  Mismatches m;
  for (size_t i = 0; i + 1 < ops.size(); i += 2)
    m.check("random mul vs bitexact::reference", ops[i], ops[i + 1], mine(ops[i], ops[i + 1]),
            expected(ops[i], ops[i + 1]));
  EXPECT_EQ(m.count, 0) << "of " << ops.size() / 2 << " random pairs";
}

TEST(ConsumerFe32Mul, MatchesInstalledMulVectors) {
  constexpr int kMinMulVectors = 1000;  // the shipped file has 1532; fewer means a wrong or truncated file
  const std::string path = CONSUMER_OPS_JSON;
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  if (in) text << in.rdbuf();  // a read error (e.g. the path is a directory) sets text's failbit
  ASSERT_TRUE(in && text && !text.str().empty())
      << "cannot read the bitexact vectors file " << path << " (bitexact_VECTORS_DIR of the installed package)";
  const auto doc = nlohmann::json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  ASSERT_FALSE(doc.is_discarded()) << path << " is not valid JSON";
  ASSERT_EQ(doc.value("schema", ""), "bitexact_field25519_ops_v1") << path;
  ASSERT_TRUE(doc.contains("testGroups") && doc["testGroups"].is_array()) << path << ": no testGroups";

  int total = 0, checked = 0;
  Mismatches m;
  for (const auto& group : doc["testGroups"]) {
    total += int(group.at("tests").size());
    if (group.value("op", "") != "mul") continue;
    for (const auto& t : group["tests"]) {
      const int id = t.value("tcId", -1);
      Bytes32 a, b, out;
      ASSERT_TRUE(unhex(t.value("a", ""), a) && unhex(t.value("b", ""), b) && unhex(t.value("out", ""), out))
          << "tcId " << id << ": a, b, out must be 64 hex digits";
      ASSERT_EQ(t.value("result", ""), "valid") << "tcId " << id;
      m.check("tcId " + std::to_string(id) + " (" + t.value("comment", "") + ")", a, b, mine(a, b), out);
      ++checked;
    }
  }
  std::cout << "checked " << checked << " mul vectors from " << path << "\n";
  EXPECT_EQ(total, doc.value("numberOfTests", -1)) << path << ": numberOfTests disagrees with the tests present";
  EXPECT_GE(checked, kMinMulVectors) << "mul vectors checked in " << path;
  EXPECT_EQ(m.count, 0) << "of " << checked << " mul vectors";
}

TEST(ConsumerFe32Mul, AgreesWithBitexactFe32Portable) {
  auto ops = boundary_operands();
  const auto rnd = random_operands(400);
  ops.insert(ops.end(), rnd.begin(), rnd.end());
  Mismatches m;
  for (size_t i = 0; i < ops.size(); ++i)
    for (size_t j = i; j < ops.size(); j += 7)
      m.check("mul vs bitexact Fe32<portable>", ops[i], ops[j], mine(ops[i], ops[j]), theirs(ops[i], ops[j]));
  EXPECT_EQ(m.count, 0);
}

}  // namespace
