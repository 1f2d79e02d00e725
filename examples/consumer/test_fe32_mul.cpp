// consumer::mul (my_fe32.hpp) against the installed package's C++ libraries, on seeded random operands:
//   (a) bitexact::reference - exact integers mod p;
//   (b) bitexact::headers - the project's own 8x32 layout, Fe32<portable>.
// The boundary cases, limb corners and vectors are bitexact's: consumer_fe32_plugin.cpp puts the same code
// under `bitexact selftest` (the consumer_fe32_under_bitexact test).
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "gpu/field25519/fe32.hpp"
#include "my_fe32.hpp"
#include "reference/field25519/ref25519.hpp"


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

TEST(ConsumerFe32Mul, MatchesReferenceOnRandomOperands) {
  const auto ops = random_operands(4000);  // full 256-bit operands, bit 255 included
  Mismatches m;
  for (size_t i = 0; i + 1 < ops.size(); i += 2)
    m.check("random mul vs bitexact::reference", ops[i], ops[i + 1], mine(ops[i], ops[i + 1]),
            expected(ops[i], ops[i + 1]));
  EXPECT_EQ(m.count, 0) << "of " << ops.size() / 2 << " random pairs";
}

TEST(ConsumerFe32Mul, AgreesWithBitexactFe32Portable) {
  const auto ops = random_operands(400);
  Mismatches m;
  for (size_t i = 0; i < ops.size(); ++i)
    for (size_t j = i; j < ops.size(); j += 7)
      m.check("mul vs bitexact Fe32<portable>", ops[i], ops[j], mine(ops[i], ops[j]), theirs(ops[i], ops[j]));
  EXPECT_EQ(m.count, 0);
}

}  // namespace
