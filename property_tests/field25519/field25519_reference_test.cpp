// The golden model itself: constants, decoding, and X25519 against two independent oracles.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "reference/field25519/catalogue.hpp"
#include "reference/field25519/ref25519.hpp"
#include "reference/field25519/x25519_oracles.hpp"

namespace R = bx::ref::f25519;
using bx::ref::Int;

TEST(Reference25519, Constants) {
  EXPECT_EQ(R::p(), (Int(1) << 255) - 19);
  EXPECT_EQ(R::sqr(R::sqrt_m1()), R::p() - 1);
  Int d;
  for (auto& e : R::boundary_catalogue())
    if (e.label == "d") d = e.value;
  EXPECT_EQ(R::mul(d, 121666), R::neg(121665));  // d = -121665/121666
  EXPECT_EQ(R::invert(0), 0);
  EXPECT_EQ(R::mul(R::invert(12345), 12345), 1);
}

TEST(Reference25519, StrictAndLaxDecoding) {
  auto bytes = [](const Int& v) {
    auto b = bx::ref::to_le_bytes(v, 32);
    R::Bytes32 r;
    std::copy(b.begin(), b.end(), r.begin());
    return r;
  };
  for (int j = 0; j < 19; ++j) {
    EXPECT_FALSE(R::decode_strict(bytes(R::p() + j))) << "p+" << j;
    EXPECT_EQ(R::decode_lax(bytes(R::p() + j)), j);
  }
  EXPECT_EQ(*R::decode_strict(bytes(R::p() - 1)), R::p() - 1);
  auto hi = bytes(5);
  hi[31] |= 0x80;
  EXPECT_FALSE(R::decode_strict(hi));
  EXPECT_EQ(R::decode_lax(hi), 5);
  EXPECT_THROW(bx::ref::to_le_bytes(Int(1) << 256, 32), std::range_error);
}

TEST(Reference25519, SqrtRatioBranches) {
  const Int v = 7, r = 1234567;
  const Int u_plus = R::mul(R::sqr(r), v), u_minus = R::neg(u_plus);
  auto a = R::sqrt_ratio(u_plus, v), b = R::sqrt_ratio(u_minus, v), c = R::sqrt_ratio(R::mul(2, u_plus), v);
  EXPECT_TRUE(a.was_square);
  EXPECT_EQ(R::mul(v, R::sqr(a.root)), u_plus);
  EXPECT_TRUE(b.was_square);
  EXPECT_EQ(R::mul(v, R::sqr(b.root)), u_minus);
  EXPECT_FALSE(c.was_square);
  EXPECT_TRUE(R::sqrt_ratio(0, 5).was_square);
  EXPECT_FALSE(R::sqrt_ratio(1, 0).was_square);
}

// The golden X25519 against OpenSSL and libsodium (both refuse an all-zero output).
RC_GTEST_PROP(Reference25519, X25519MatchesOpenSSLAndLibsodium, (std::array<uint8_t, 32> k, std::array<uint8_t, 32> u)) {
  const auto ref = R::x25519(k, u);
  const auto o = R::x25519_openssl(k, u);
  const auto s = R::x25519_sodium(k, u);
  const bool zero = ref == R::Bytes32{};
  RC_ASSERT(o.has_value() == !zero);
  RC_ASSERT(s.has_value() == !zero);
  if (!zero) {
    RC_ASSERT(*o == ref);
    RC_ASSERT(*s == ref);
  }
}

TEST(PrimeField, GenericInTheModulus) {
  const bx::ref::PrimeField gl((Int(1) << 64) - (Int(1) << 32) + 1);  // Goldilocks
  EXPECT_EQ(gl.mul(gl.inv(3), 3), 1);
  EXPECT_EQ(gl.sub(0, 1), gl.modulus() - 1);
  EXPECT_EQ(gl.inv(0), 0);
}
