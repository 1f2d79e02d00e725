// The split52 contract of carry::portable (fe51s's product split; the ptx backend's FP64 form is held to the
// same contract on the card by field25519_gpu_test): hi = floor(a b / 2^52), lo = a b - hi 2^52 in
// [0, 2^52), against Boost's exact integers on the catalogue's edges and seeded random pairs.
#include <gtest/gtest.h>

#include <boost/multiprecision/cpp_int.hpp>
#include <string>

#include "gpu/core/carry.hpp"
#include "property_tests/field25519/split52_cases.hpp"

namespace {
using boost::multiprecision::cpp_int;

// Boost's floor division of the exact product (cpp_int's / truncates toward zero).
std::pair<cpp_int, cpp_int> exact_split(int64_t a, int64_t b) {
  const cpp_int p = cpp_int(a) * cpp_int(b), w = cpp_int(1) << 52;
  cpp_int hi = p / w;
  if (hi * w > p) hi -= 1;
  return {hi, p - hi * w};
}

TEST(Split52, PortableEqualsTheExactProductOnEdgesAndRandomPairs) {
  const auto cases = bx::test::split52_cases(0x5b1175eedULL, 200000);
  ASSERT_GT(cases.size(), 200000u / 2);
  size_t bad = 0;
  for (const auto& [a, b] : cases) {
    uint64_t hi, lo;
    bx::carry::portable::split52(hi, lo, bx::carry::portable::split52_operand(a), bx::carry::portable::split52_operand(b));
    const auto [ehi, elo] = exact_split(a, b);
    if (cpp_int(int64_t(hi)) != ehi || cpp_int(lo) != elo) {
      if (++bad <= 5)
        ADD_FAILURE() << "a = " << a << ", b = " << b << ": hi " << int64_t(hi) << " lo " << lo << ", exact hi " << ehi
                      << " lo " << elo;
    }
    EXPECT_LT(lo, uint64_t(1) << 52);
  }
  EXPECT_EQ(bad, 0u);
}

TEST(Split52, TheCatalogueReachesEveryEdge) {
  const auto cases = bx::test::split52_cases(1, 0);
  bool lo_zero = false, lo_full = false, hi_minus_one = false, near_pos = false, near_neg = false;
  for (const auto& [a, b] : cases) {
    const __int128 p = (__int128)a * b;
    const __int128 near = ((__int128)1 << 103) - ((__int128)1 << 53);
    lo_zero |= p != 0 && (p & ((__int128(1) << 52) - 1)) == 0;
    lo_full |= (p & ((__int128(1) << 52) - 1)) == (__int128(1) << 52) - 1;
    hi_minus_one |= p < 0 && p >= -(__int128(1) << 52);
    near_pos |= p > near;
    near_neg |= p < -near;
  }
  EXPECT_TRUE(lo_zero && lo_full && hi_minus_one && near_pos && near_neg);
}

}  // namespace
