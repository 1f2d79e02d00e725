// Shards and their merge, without running a family: the split partitions every range for every count,
// the engines' variables resolve to the index and count they mean (and a malformed one is refused), a
// result document survives its file and refuses an edit, and the merge and the merge-vs-whole
// comparison name every gap, overlap, identity difference, failed part and changed verdict.
// Each refusal below is the planted fault of the check next to it: a split that drops or doubles a unit,
// a worker that runs the whole range, a shard from another run, a count edited by hand.
#include <array>
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <map>
#include <string>

#include "cli/run_result.hpp"
#include "suite/shard.hpp"

namespace {
using bx::InputError;
using bx::RangePart;
using bx::RunResult;
using bx::ShardLevel;
using json = bx::json;  // ordered, as the documents are written

// The parts of [0, total) for every index of `count`, checked to be contiguous from 0 to total.
void expect_partition(uint64_t total, uint64_t count) {
  uint64_t next = 0;
  const uint64_t small = total / count;
  for (uint64_t i = 0; i < count; ++i) {
    const RangePart p = bx::split_part(total, {i, count});
    RC_ASSERT(p.offset == next);
    RC_ASSERT(p.size == small || p.size == small + 1);  // balanced: sizes differ by at most one
    RC_ASSERT(p.size >= 1);                             // count <= total: no worker is handed nothing
    next = p.offset + p.size;
  }
  RC_ASSERT(next == total);
}

RC_GTEST_PROP(Shard, SplitPartitionsEveryRange, ()) {
  // Sizes near 0, near 2^32 and near 2^64 (the product T * i overflows 64 bits there), counts up to 4096.
  const uint64_t total = *rc::gen::oneOf(rc::gen::inRange<uint64_t>(1, 5000),
                                         rc::gen::map(rc::gen::inRange<uint64_t>(0, 5000), [](uint64_t d) { return (uint64_t(1) << 32) + d - 2500; }),
                                         rc::gen::map(rc::gen::inRange<uint64_t>(0, 5000), [](uint64_t d) { return ~uint64_t(0) - d; }));
  const uint64_t count = *rc::gen::inRange<uint64_t>(1, std::min<uint64_t>(total, 4096) + 1);
  expect_partition(total, count);
}

TEST(Shard, CountUpToTheRangeSizeAndNoFurther) {
  for (uint64_t t : {1u, 2u, 7u, 64u}) {
    for (uint64_t n = 1; n <= t; ++n) {
      uint64_t covered = 0;
      for (uint64_t i = 0; i < n; ++i) covered += bx::split_part(t, {i, n}).size;
      EXPECT_EQ(covered, t) << t << " split " << n;
    }
    EXPECT_THROW(bx::split_part(t, {0, t + 1}), InputError) << "more shards than units";
  }
}

TEST(Shard, NestedLevelsSplitThePartBeforeThem) {
  // "i/4,j/3": the 12 parts tile the range in order (the spread of one shard over 3 GPUs).
  const uint64_t total = 1000003;
  uint64_t next = 0;
  for (uint64_t i = 0; i < 4; ++i)
    for (uint64_t j = 0; j < 3; ++j) {
      const bx::ShardPlan p = bx::parse_shard(std::to_string(i) + "/4," + std::to_string(j) + "/3");
      EXPECT_EQ(p.spec(), std::to_string(i) + "/4," + std::to_string(j) + "/3");
      const RangePart r = p.part(total);
      EXPECT_EQ(r.offset, next) << p.spec();
      next = r.offset + r.size;
      EXPECT_EQ(bx::parse_shard(std::to_string(i) + "/4").then({j, 3}).part(total), r);
    }
  EXPECT_EQ(next, total);
}

TEST(Shard, ParseIsStrict) {
  for (const char* bad : {"", "4/4", "1/0", "0/0", "a/b", "1/", "/4", "1", "1/4,", ",1/4", " 1/4", "1/4 ", "-1/4", "+1/4",
                          "1/4x", "0x1/4", "1/4/2", "99999999999999999999/4", "0/18446744073709551616"})
    EXPECT_THROW(bx::parse_shard(bad), InputError) << "'" << bad << "'";
  EXPECT_EQ(bx::parse_shard("3/4").spec(), "3/4");
  EXPECT_EQ(bx::parse_shard("0/18446744073709551615").levels.at(0).count, ~uint64_t(0));
}

// resolve_shard over a fixed environment.
bx::ShardPlan resolve(const std::map<std::string, std::string>& env, const std::string& flag = "", uint64_t count = 0) {
  return bx::resolve_shard(flag, count, [&](const char* n) -> const char* {
    auto it = env.find(n);
    return it == env.end() ? nullptr : it->second.c_str();
  });
}

void expect_plan(const bx::ShardPlan& p, uint64_t index, uint64_t count, const std::string& source_has) {
  ASSERT_EQ(p.levels.size(), 1u) << p.source;
  EXPECT_EQ(p.levels[0].index, index) << p.source;
  EXPECT_EQ(p.levels[0].count, count) << p.source;
  EXPECT_NE(p.source.find(source_has), std::string::npos) << p.source;
}

TEST(Shard, EnginesVariables) {
  EXPECT_FALSE(resolve({}).active());
  // Slurm: --array=0-7 sets TASK_COUNT; --array=3-11:4 sets MIN/MAX/STEP (tasks 3, 7, 11 are 0, 1, 2 of 3).
  expect_plan(resolve({{"SLURM_ARRAY_TASK_ID", "5"}, {"SLURM_ARRAY_TASK_COUNT", "8"}}), 5, 8, "SLURM_ARRAY_TASK_COUNT=8");
  expect_plan(resolve({{"SLURM_ARRAY_TASK_ID", "7"}, {"SLURM_ARRAY_TASK_MIN", "3"}, {"SLURM_ARRAY_TASK_MAX", "11"},
                       {"SLURM_ARRAY_TASK_STEP", "4"}, {"SLURM_ARRAY_TASK_COUNT", "3"}}),
              1, 3, "SLURM_ARRAY_TASK_STEP=4");
  expect_plan(resolve({{"SLURM_ARRAY_TASK_ID", "12"}, {"SLURM_ARRAY_TASK_MIN", "10"}, {"SLURM_ARRAY_TASK_MAX", "13"}}), 2, 4,
              "SLURM_ARRAY_TASK_MIN=10");
  // Kubernetes Indexed Job: the count from the flag, else BITEXACT_SHARD_COUNT.
  expect_plan(resolve({{"JOB_COMPLETION_INDEX", "2"}}, "", 6), 2, 6, "--shard-count 6");
  expect_plan(resolve({{"JOB_COMPLETION_INDEX", "2"}, {"BITEXACT_SHARD_COUNT", "3"}}), 2, 3, "BITEXACT_SHARD_COUNT=3");
  // GoogleTest's sharding variables.
  expect_plan(resolve({{"GTEST_SHARD_INDEX", "1"}, {"GTEST_TOTAL_SHARDS", "4"}}), 1, 4, "GTEST_TOTAL_SHARDS=4");
  // Precedence: --shard over every variable, Slurm over Kubernetes over GoogleTest.
  const std::map<std::string, std::string> all = {{"SLURM_ARRAY_TASK_ID", "1"}, {"SLURM_ARRAY_TASK_COUNT", "2"},
                                                  {"JOB_COMPLETION_INDEX", "3"}, {"BITEXACT_SHARD_COUNT", "5"},
                                                  {"GTEST_SHARD_INDEX", "0"},    {"GTEST_TOTAL_SHARDS", "7"}};
  expect_plan(resolve(all, "2/9"), 2, 9, "--shard 2/9");
  expect_plan(resolve(all), 1, 2, "SLURM");
  auto no_slurm = all;
  no_slurm.erase("SLURM_ARRAY_TASK_ID");
  expect_plan(resolve(no_slurm), 3, 5, "JOB_COMPLETION_INDEX");
}

TEST(Shard, EnginesVariablesMalformedAreRefused) {
  // A worker that ignored a broken variable would run the whole range and the merge would double-count it.
  const std::vector<std::map<std::string, std::string>> bad = {
      {{"SLURM_ARRAY_TASK_ID", "1"}},                                          // count unknown
      {{"SLURM_ARRAY_TASK_ID", "x"}, {"SLURM_ARRAY_TASK_COUNT", "4"}},         // not a number
      {{"SLURM_ARRAY_TASK_ID", "4"}, {"SLURM_ARRAY_TASK_COUNT", "4"}},         // index past the count
      {{"SLURM_ARRAY_TASK_ID", "1"}, {"SLURM_ARRAY_TASK_COUNT", "0"}},         // no shards
      {{"SLURM_ARRAY_TASK_ID", "5"}, {"SLURM_ARRAY_TASK_MIN", "3"}, {"SLURM_ARRAY_TASK_MAX", "11"}, {"SLURM_ARRAY_TASK_STEP", "4"}},
      {{"SLURM_ARRAY_TASK_ID", "2"}, {"SLURM_ARRAY_TASK_MIN", "3"}, {"SLURM_ARRAY_TASK_MAX", "11"}},  // below MIN
      {{"SLURM_ARRAY_TASK_ID", "3"}, {"SLURM_ARRAY_TASK_MIN", "3"}, {"SLURM_ARRAY_TASK_MAX", "1"}},   // MAX < MIN
      {{"SLURM_ARRAY_TASK_ID", "3"}, {"SLURM_ARRAY_TASK_MIN", "3"}, {"SLURM_ARRAY_TASK_MAX", "9"}, {"SLURM_ARRAY_TASK_STEP", "0"}},
      {{"JOB_COMPLETION_INDEX", "0"}},                                          // count unknown
      {{"JOB_COMPLETION_INDEX", "3"}, {"BITEXACT_SHARD_COUNT", "3"}},
      {{"JOB_COMPLETION_INDEX", "1"}, {"BITEXACT_SHARD_COUNT", "3 "}},
      {{"GTEST_SHARD_INDEX", "1"}},
      {{"GTEST_TOTAL_SHARDS", "2"}},
      {{"GTEST_SHARD_INDEX", "-1"}, {"GTEST_TOTAL_SHARDS", "2"}},
  };
  for (const auto& env : bad) {
    std::string text;
    for (auto& [k, v] : env) text += k + "=" + v + " ";
    EXPECT_THROW(resolve(env), InputError) << text;
  }
  EXPECT_THROW(resolve({}, "", 4), InputError) << "--shard-count without JOB_COMPLETION_INDEX";
}

// A result of part `p` of 1000 units of one run: counts proportional to the part, so parts sum to the whole.
RunResult part_result(RangePart p, const std::string& shard = "") {
  RunResult r;
  r.family = "md5z";
  r.mode = "search";
  r.params = {{"threshold", 3}};
  r.seeds = {{"bases", 42}};
  r.implementations = {"a@gpu", "b@cpu"};
  r.unit = "index";
  r.range_lo = "0";
  r.range_size = 1000;
  r.covered = p;
  r.shard = shard;
  r.add_count("a@gpu", "hits", p.size / 10);
  r.add_count("b@cpu", "hits", p.size / 10);
  r.add_seconds("a@gpu", 0.5);
  r.pass = true;
  r.version = "test";
  r.build = "test";
  return r;
}

std::vector<RunResult> four_parts() {
  std::vector<RunResult> v;
  for (uint64_t i = 0; i < 4; ++i) v.push_back(part_result(bx::split_part(1000, {i, 4}), std::to_string(i) + "/4"));
  return v;
}

bool mentions(const std::vector<std::string>& problems, const std::string& what) {
  for (const auto& p : problems)
    if (p.find(what) != std::string::npos) return true;
  return false;
}

TEST(Merge, FourPartsEqualTheWhole) {
  const RunResult whole = part_result({0, 1000});
  const bx::Merged m = bx::merge_results(four_parts(), {0, 1000});
  EXPECT_TRUE(m.problems.empty()) << m.problems.at(0);
  EXPECT_TRUE(m.result.pass);
  EXPECT_EQ(m.result.counts, whole.counts);
  EXPECT_DOUBLE_EQ(m.result.seconds["a@gpu"].get<double>(), 2.0);
  EXPECT_TRUE(bx::result_differences(m.result, whole).empty());
  // Order of the files does not matter.
  auto parts = four_parts();
  std::swap(parts[0], parts[3]);
  EXPECT_TRUE(bx::merge_results(parts, {0, 1000}).problems.empty());
}

// The fingerprint of the items found: the same set in any order and split gives the same sum (so shards'
// folds add up to the whole run's); one item changed, dropped or doubled changes it.
TEST(Merge, FoldIsOrderFreeAndSeesEveryItem) {
  auto fold_of = [](const std::vector<std::array<uint64_t, 2>>& items, size_t split) {
    RunResult a, b;
    for (size_t i = 0; i < items.size(); ++i) (i < split ? a : b).add_fold("x", "hit_fold", {items[i][0], items[i][1]});
    const uint64_t fa = a.counts.contains("x") ? a.counts["x"]["hit_fold"].get<uint64_t>() : 0;
    const uint64_t fb = b.counts.contains("x") ? b.counts["x"]["hit_fold"].get<uint64_t>() : 0;
    return fa + fb;
  };
  std::vector<std::array<uint64_t, 2>> items;
  for (uint64_t i = 0; i < 200; ++i) items.push_back({i % 3, i * 7919});
  const uint64_t whole = fold_of(items, items.size());
  for (size_t split : {size_t(0), size_t(1), size_t(77), size_t(199)}) EXPECT_EQ(fold_of(items, split), whole) << split;
  auto reversed = items;
  std::reverse(reversed.begin(), reversed.end());
  EXPECT_EQ(fold_of(reversed, 50), whole);
  auto changed = items;
  changed[10][1] += 1;
  EXPECT_NE(fold_of(changed, 100), whole);
  auto swapped = items;  // the fields of an item are ordered: (base 0, index 3) is not (base 3, index 0)
  std::swap(swapped[10][0], swapped[10][1]);
  EXPECT_NE(fold_of(swapped, 100), whole);
  auto dropped = items;
  dropped.pop_back();
  EXPECT_NE(fold_of(dropped, 100), whole);
  auto doubled = items;
  doubled.push_back(items[5]);
  EXPECT_NE(fold_of(doubled, 100), whole);
}

TEST(Merge, RefusesGapOverlapIdentityAndFailedParts) {
  auto gap = four_parts();
  gap.erase(gap.begin() + 2);
  EXPECT_TRUE(mentions(bx::merge_results(gap, {0, 1000}).problems, "gap: index range 0 + [500, 750)"));
  auto last = four_parts();
  last.pop_back();
  EXPECT_TRUE(mentions(bx::merge_results(last, {0, 1000}).problems, "gap: index range 0 + [750, 1000)"));
  auto dup = four_parts();
  dup.push_back(dup[1]);
  EXPECT_TRUE(mentions(bx::merge_results(dup, {0, 1000}).problems, "overlap: index range 0 + [250, 500)"));
  auto other = four_parts();
  other[1].params["threshold"] = 4;
  EXPECT_TRUE(mentions(bx::merge_results(other, {0, 1000}).problems, "params differs"));
  auto other_seed = four_parts();
  other_seed[3].seeds["bases"] = 43;
  EXPECT_TRUE(mentions(bx::merge_results(other_seed, {0, 1000}).problems, "seeds differs"));
  auto other_build = four_parts();
  other_build[0].build = "zoo=ON";
  EXPECT_TRUE(mentions(bx::merge_results(other_build, {0, 1000}).problems, "build differs"));
  auto failed = four_parts();
  failed[2].pass = false;
  failed[2].disagreements.push_back({{"implementation", "a@gpu"}, {"kind", "missing"}, {"index", 600}});
  const bx::Merged f = bx::merge_results(failed, {0, 1000});
  EXPECT_TRUE(mentions(f.problems, "FAILED (1 disagreement(s) listed)"));
  EXPECT_FALSE(f.result.pass);
  EXPECT_EQ(f.result.disagreements.size(), 1u);
  auto counted = four_parts();
  counted[0].counts["a@gpu"]["hits"] = -1;
  EXPECT_TRUE(mentions(bx::merge_results(counted, {0, 1000}).problems, "not an unsigned integer"));
}

// Coverage at unit resolution: for every boundary between two parts of a 7-way split, a part one unit
// short (a gap of one) or one unit long (an overlap of one) on either side is refused with its exact bounds.
TEST(Merge, RefusesAGapOrOverlapOfOneUnitAtEveryBoundary) {
  std::vector<RunResult> parts;
  for (uint64_t i = 0; i < 7; ++i) parts.push_back(part_result(bx::split_part(1000, {i, 7}), std::to_string(i) + "/7"));
  ASSERT_TRUE(bx::merge_results(parts, {0, 1000}).problems.empty());
  int refused = 0;
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    const uint64_t b = parts[i].covered.offset + parts[i].covered.size;  // the boundary between parts i and i + 1
    for (int64_t d : {-1, +1}) {
      auto left = parts;  // part i ends one unit early or late
      left[i].covered.size += d;
      auto right = parts;  // part i + 1 starts one unit late or early
      right[i + 1].covered.offset -= d, right[i + 1].covered.size += d;
      const std::string want = d < 0 ? "gap: index range 0 + [" + std::to_string(b - 1) + ", " + std::to_string(b) + ")"
                                     : "overlap: index range 0 + [" + std::to_string(b) + ", " + std::to_string(b + 1) + ")";
      const std::string want_right = d < 0 ? "gap: index range 0 + [" + std::to_string(b) + ", " + std::to_string(b + 1) + ")"
                                           : "overlap: index range 0 + [" + std::to_string(b - 1) + ", " + std::to_string(b) + ")";
      refused += mentions(bx::merge_results(left, {0, 1000}).problems, want);
      refused += mentions(bx::merge_results(right, {0, 1000}).problems, want_right);
      EXPECT_TRUE(mentions(bx::merge_results(left, {0, 1000}).problems, want)) << "boundary " << b << " left " << d;
      EXPECT_TRUE(mentions(bx::merge_results(right, {0, 1000}).problems, want_right)) << "boundary " << b << " right " << d;
    }
  }
  EXPECT_EQ(refused, 24);  // 6 boundaries x 2 sides x (gap, overlap)
}

// Parts of two shard plans never merge: 0/3 and 1/3 with 1/2 (which also overlap), and a mixed set that
// tiles the range exactly (0/2 + 3/6 + 2/3 of 6 units), which coverage alone would accept.
TEST(Merge, RefusesMixedShardPlans) {
  std::vector<RunResult> mixed{part_result(bx::split_part(1000, {0, 3}), "0/3"), part_result(bx::split_part(1000, {1, 3}), "1/3"),
                               part_result(bx::split_part(1000, {1, 2}), "1/2")};
  EXPECT_TRUE(mentions(bx::merge_results(mixed, {0, 1000}).problems, "mixed shard plans"));
  auto six = [](RangePart p, const std::string& shard) {
    RunResult r = part_result(p, shard);
    r.range_size = 6;
    return r;
  };
  std::vector<RunResult> tiles{six(bx::split_part(6, {0, 2}), "0/2"), six(bx::split_part(6, {3, 6}), "3/6"),
                               six(bx::split_part(6, {2, 3}), "2/3")};
  const auto problems = bx::merge_results(tiles, {0, 6}).problems;
  EXPECT_TRUE(mentions(problems, "mixed shard plans: shard 3/6 beside shard 0/2")) << (problems.empty() ? "" : problems[0]);
  EXPECT_EQ(problems.size(), 1u) << "the parts tile the range: only the plan is wrong";
  std::vector<RunResult> nested{part_result(bx::split_part(1000, {0, 2}), "0/2,0/2"), part_result({500, 500}, "0/2")};
  EXPECT_TRUE(mentions(bx::merge_results(nested, {0, 1000}).problems, "mixed shard plans"));
}

// Shards that each judged no hit pass on their own (a part may hold none), but their merge over the whole
// range compared nothing and fails; a merge of a part of the range (a spread under a shard) passes and
// carries the sum on.
TEST(Merge, RefusesAWholeRangeInWhichNoPartJudgedAHit) {
  auto parts = four_parts();
  for (auto& p : parts) p.details["judged"] = 0;
  EXPECT_TRUE(mentions(bx::merge_results(parts, {0, 1000}).problems, "nothing was compared"));
  std::vector<RunResult> half(parts.begin(), parts.begin() + 2);
  const bx::Merged m = bx::merge_results(half, {0, 500});
  EXPECT_TRUE(m.problems.empty()) << m.problems.at(0);
  EXPECT_EQ(m.result.details["judged"], 0u);
  parts[2].details["judged"] = 3;
  const bx::Merged some = bx::merge_results(parts, {0, 1000});
  EXPECT_TRUE(some.problems.empty()) << some.problems.at(0);
  EXPECT_EQ(some.result.details["judged"], 3u);
}

TEST(Merge, DifferencesFromTheWholeRun) {
  const RunResult whole = part_result({0, 1000});
  auto changed = [&](auto edit) {
    RunResult r = whole;
    edit(r);
    return bx::result_differences(r, whole);
  };
  EXPECT_TRUE(mentions(changed([](RunResult& r) { r.add_count("a@gpu", "hits", 1); }), "count a@gpu.hits: 101 vs 100"));
  EXPECT_TRUE(mentions(changed([](RunResult& r) { r.add_count("c@gpu", "hits", 0); }), "count c@gpu.hits: 0 vs absent"));
  EXPECT_TRUE(mentions(changed([](RunResult& r) { r.counts.erase("b@cpu"); }), "count b@cpu.hits: absent vs 100"));
  EXPECT_TRUE(mentions(changed([](RunResult& r) { r.disagreements.push_back({{"index", 1}}); }), "disagreements: 1 vs 0"));
  EXPECT_TRUE(mentions(changed([](RunResult& r) { r.pass = false; }), "pass: false vs true"));
  EXPECT_TRUE(mentions(changed([](RunResult& r) { r.covered = {0, 999}; }), "covered"));
  EXPECT_TRUE(mentions(changed([](RunResult& r) { r.implementations.pop_back(); }), "implementations differs"));
  // Seconds and details are facts of a run, not its verdict; disagreements compare as a multiset.
  EXPECT_TRUE(changed([](RunResult& r) { r.add_seconds("a@gpu", 9); r.details["x"] = 1; }).empty());
  RunResult two = whole;
  two.disagreements = {{{"index", 1}}, {{"index", 2}}};
  RunResult swapped = two;
  std::swap(swapped.disagreements[0], swapped.disagreements[1]);
  EXPECT_TRUE(bx::result_differences(two, swapped).empty());
}

TEST(ResultDocument, RoundTripsAndRefusesAnEdit) {
  RunResult r = part_result({250, 250}, "1/4");
  r.disagreements.push_back({{"implementation", "a@gpu"}, {"kind", "mismatch"}, {"index", 300}});
  const json doc = bx::result_json(r);
  const RunResult back = bx::result_from_json(doc, "doc");
  EXPECT_TRUE(bx::result_differences(back, r).empty());
  EXPECT_EQ(back.shard, "1/4");
  // Keys in another order (jq -S, a JSON library's dump) keep the digest; a value changed does not.
  EXPECT_NO_THROW(bx::result_from_json(json(nlohmann::json(doc)), "sorted"));
  for (auto edit : std::vector<std::function<void(json&)>>{
           [](json& d) { d["counts"]["a@gpu"]["hits"] = 26; },
           [](json& d) { d["covered"]["size"] = 251; },
           [](json& d) { d["pass"] = false; },
           [](json& d) { d["disagreements"] = json::array(); },
           [](json& d) { d.erase("digest"); },
           [](json& d) { d["format"] = "other/1"; },
       }) {
    json d = doc;
    edit(d);
    EXPECT_THROW(bx::result_from_json(d, "edited"), InputError) << d.dump();
  }
  // A covered part outside the declared range is refused even with a digest that matches.
  RunResult out = r;
  out.covered = {900, 200};
  EXPECT_THROW(bx::result_from_json(bx::result_json(out), "outside"), InputError);
}

}  // namespace
