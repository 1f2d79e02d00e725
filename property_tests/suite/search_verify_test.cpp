// The search-verify driver's verdict (suite/search_verify.hpp): each way a hit list can be wrong is
// counted once against the list that has it, and the probe windows and carries sit where they must.
#include "suite/search_verify.hpp"

#include <gtest/gtest.h>

#include <map>

namespace S = bx::search;

namespace {

// A stubbed judge: positions 5, 9, 12 and 0xffff are hits with these values, 40 is a judged non-hit.
const std::map<uint64_t, S::Verdict> kTruth = {{5, S::Verdict::hit_with(2)}, {9, S::Verdict::hit_with(3)}, {12, S::Verdict::hit_with(2)},
                                               {40, S::Verdict{}}, {0xffff, S::Verdict::hit_with(4)}};
constexpr uint64_t kCount = 0x10000;

S::ListVerdict judge(const S::Hits& list, std::vector<uint64_t> at = {5, 9, 12, 40, 0xffff}) {
  std::vector<S::Verdict> v;
  for (uint64_t x : at) v.push_back(kTruth.at(x));
  return S::judge_list(list, kCount, at, v);
}
std::vector<uint64_t> row(const S::ListVerdict& v) {
  return {v.counts.hits, v.counts.mismatches, v.counts.duplicates, v.counts.missing, v.counts.out_of_order};
}
const S::Hits kGood = {{5, 2}, {9, 3}, {12, 2}, {0xffff, 4}};

}  // namespace

TEST(SearchVerify, EachPlantedErrorCountedOnce) {
  EXPECT_EQ(row(judge(kGood)), (std::vector<uint64_t>{4, 0, 0, 0, 0}));
  EXPECT_EQ(row(judge({{5, 2}, {9, 3}, {9, 3}, {12, 2}, {0xffff, 4}})), (std::vector<uint64_t>{4, 0, 1, 0, 0}));  // duplicate
  EXPECT_EQ(row(judge({{5, 2}, {9, 3}, {12, 2}})), (std::vector<uint64_t>{3, 0, 0, 1, 0}));                      // misses the last
  EXPECT_EQ(row(judge({{5, 2}, {9, 2}, {12, 2}, {0xffff, 4}})), (std::vector<uint64_t>{4, 1, 0, 0, 0}));          // wrong value
  EXPECT_EQ(row(judge({{5, 2}, {9, 3}, {12, 2}, {40, 1}, {0xffff, 4}})), (std::vector<uint64_t>{5, 1, 0, 0, 0}));  // false hit
  EXPECT_EQ(row(judge({{5, 2}, {9, 3}, {12, 2}, {0xffff, 4}, {kCount, 0}})), (std::vector<uint64_t>{5, 1, 0, 0, 0}));  // outside
  EXPECT_EQ(row(judge({{9, 3}, {5, 2}, {12, 2}, {0xffff, 4}})), (std::vector<uint64_t>{4, 0, 0, 0, 1}));          // out of order
  const auto wrong = judge({{5, 2}, {9, 2}, {12, 2}, {0xffff, 4}});
  ASSERT_EQ(wrong.disagreements.size(), 1u);
  EXPECT_STREQ(wrong.disagreements[0].kind, "mismatch");
  EXPECT_EQ(wrong.disagreements[0].hit, (S::Hit{9, 2}));
  const auto missed = judge({{5, 2}, {9, 3}, {12, 2}});
  ASSERT_EQ(missed.disagreements.size(), 1u);
  EXPECT_EQ(missed.disagreements[0].hit, (S::Hit{0xffff, 4}));  // the judge's hit, with its value
}

// A hit only the probe found (no list reported it) is missing from every list.
TEST(SearchVerify, ProbedHitMissingFromEveryList) {
  EXPECT_EQ(judge({{5, 2}, {9, 3}, {12, 2}}).counts.missing, 1u);
  EXPECT_EQ(judge({}).counts.missing, 4u);
}

// A reported position the judge did not decide is the driver's bug, never a silent pass.
TEST(SearchVerify, UnjudgedPositionIsAnError) {
  EXPECT_THROW(judge({{6, 0}}), std::logic_error);
}

TEST(SearchVerify, ProbeWindowsAtEndsAndCarries) {
  using W = std::vector<S::Window>;
  EXPECT_EQ(S::probe_windows(1000, 10, {}), (W{{0, 10}, {990, 1000}}));
  EXPECT_EQ(S::probe_windows(1000, 10, {500}), (W{{0, 10}, {495, 505}, {990, 1000}}));
  EXPECT_EQ(S::probe_windows(1000, 10, {3, 998}), (W{{0, 10}, {990, 1000}}));  // overlaps merge
  EXPECT_EQ(S::probe_windows(6, 10, {}), (W{{0, 6}}));                          // wider than the part
  EXPECT_EQ(S::probe_windows(1000, 0, {500}), (W{}));                           // --probe 0: none
}

TEST(SearchVerify, CarriesStrictlyInsideThePart) {
  using V = std::vector<uint64_t>;
  EXPECT_EQ(S::carries_inside(0xfff0, 0x200, 8, 10), (V{0x10, 0x110}));
  EXPECT_EQ(S::carries_inside(0x100, 0x100, 8, 10), (V{}));  // a multiple at lo is the part's end, not a carry inside
  uint64_t rest = 0;
  EXPECT_EQ(S::carries_inside(~uint64_t(0) - 5, uint64_t(1) << 40, 32, 2, &rest), (V{6, 6 + (uint64_t(1) << 32)}));
  EXPECT_EQ(rest, 256u - 2);
  EXPECT_EQ(S::carries_inside(0, 1, 0, 10), (V{}));
}
