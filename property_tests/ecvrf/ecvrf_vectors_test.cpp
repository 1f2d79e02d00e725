// ecvrf vector files (suite/ecvrf/vectors): the files on disk are what generation writes, the loaders reject
// malformed input with one line naming the file (and the tcId and field where there is one), a tampered
// expected value is reported at its tcId with expected and actual hex, and the frozen-hit check reports
// missing, extra, wrong-score and duplicate hits of any search function.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "suite/ecvrf/vectors.hpp"
#include "property_tests/field25519/field25519_layouts.hpp"
#include "property_tests/read_file.hpp"

namespace {
namespace fs = std::filesystem;
namespace V = bx::ecvrf_vectors;
using bx::ecvrf_family::Hit;
using bx::ecvrf_family::Job;

// A fresh temporary directory, removed at the end of the scope.
struct TempDir {
  fs::path path;
  TempDir() {
    std::string t = (fs::temp_directory_path() / "ecvrf_vectors_XXXXXX").string();
    if (!mkdtemp(t.data())) throw std::runtime_error("mkdtemp failed");
    path = t;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};
// check_vectors over a root holding only `rel` (edited), and the problem lines about that file. The other
// files are absent (one "cannot read" line each, filtered out), so only `rel` is checked.
std::vector<std::string> check_edited(const std::string& rel, const std::function<std::string(std::string)>& edit) {
  TempDir d;
  fs::create_directories((d.path / rel).parent_path());
  std::ofstream(d.path / rel, std::ios::binary) << edit(bx::test::read_repo_file(rel));
  std::vector<std::string> mine;
  for (auto& p : V::check_vectors(d.path.string()))
    if (p.rfind(rel + ":", 0) == 0) mine.push_back(p);
  return mine;
}
std::string replace_once(std::string s, const std::string& from, const std::string& to) {
  const size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << "test setup: '" << from << "' not in the file";
  if (at != std::string::npos) s.replace(at, from.size(), to);
  return s;
}
bool any_has(const std::vector<std::string>& lines, const std::vector<std::string>& parts) {
  return std::any_of(lines.begin(), lines.end(), [&](const std::string& l) {
    return std::all_of(parts.begin(), parts.end(), [&](const std::string& p) { return l.find(p) != std::string::npos; });
  });
}
std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (auto& x : v) s += x + "\n";
  return s;
}

TEST(EcvrfVectors, GenerationEqualsTheFilesOnDisk) {
  const auto gen = V::generate_vectors();
  const auto files = V::vector_files();
  ASSERT_EQ(gen.size(), files.size());
  for (auto& rel : files) {
    ASSERT_TRUE(gen.count(rel)) << rel;
    EXPECT_TRUE(bx::test::read_repo_file(rel) == gen.at(rel))
        << rel << " differs from generation: run `bitexact vectors generate --family ecvrf`";
  }
}

TEST(EcvrfVectors, MalformedInputIsOneLine) {
  struct Case {
    std::string rel, from, to, expect;
  };
  const std::vector<Case> cases = {
      {"vectors/ecvrf/search.json", "\"testGroups\": [", "\"testGroups\": [[", "vectors/ecvrf/search.json: not valid JSON"},
      {"vectors/ecvrf/search.json", "\"score\":\"55f7", "\"score\":\"zzf7", "tcId 1: field 'score': bad hex digit"},
      {"vectors/ecvrf/rfc9381.json", "\"uH\"", "\"uHH\"", "tcId 1: unknown field 'uHH'"},
      {"vectors/ecvrf/batch_invert.json", "\"tcId\":20,", "\"tcId\":19,", "tcId 19: duplicate tcId"},
      {"vectors/ecvrf/decode.json", "bitexact_ecvrf_decode_v1", "v2", "field 'schema'"},
      {"vectors/ecvrf/scalarmult.json", "\"scalar\":\"00", "\"scalar\":\"0", "tcId 1: field 'scalar': expected 64 hex digits"},
      {"vectors/ecvrf/search.json", "\"lo\":\"0\"", "\"lo\":\"-1\"", "tcId 6: field 'lo'"},
      {"vectors/ecvrf/sha512.json", "\"numberOfTests\": 301", "\"numberOfTests\": 302", "numberOfTests is 302"},
  };
  for (const Case& c : cases) {
    const auto lines = check_edited(c.rel, [&](std::string s) { return replace_once(s, c.from, c.to); });
    ASSERT_EQ(lines.size(), 1u) << c.rel << " with " << c.to << ":\n" << joined(lines);
    EXPECT_NE(lines[0].find(c.expect), std::string::npos) << lines[0];
  }
}

TEST(EcvrfVectors, UnchangedFileChecksClean) {
  const auto lines = check_edited("vectors/ecvrf/batch_invert.json", [](std::string s) { return s; });
  EXPECT_TRUE(lines.empty()) << joined(lines);
}

TEST(EcvrfVectors, TamperedOutputIsReportedAtItsTest) {
  const std::string rel = "vectors/ecvrf/batch_invert.json";
  const std::string text = bx::test::read_repo_file(rel);
  const size_t line = text.find("{\"tcId\":6,");
  ASSERT_NE(line, std::string::npos);
  const size_t out = text.find("\"out\":[\"", line) + 8;
  const std::string orig = text.substr(out, 64);
  std::string bad = orig;
  bad[0] = bad[0] == '0' ? '1' : '0';
  const auto lines = check_edited(rel, [&](std::string s) { return s.replace(out, 64, bad); });
  EXPECT_TRUE(any_has(lines, {"tcId 6: golden model: field 'out'"})) << joined(lines);
  for (const std::string& layout : bx::test::layout_names())  // expected: the file's (tampered) value
    EXPECT_TRUE(any_has(lines, {"tcId 6: ", layout, "out[0]", "expected " + bad, "got " + orig})) << layout << "\n" << joined(lines);
  EXPECT_TRUE(any_has(lines, {"stale"})) << joined(lines);
}

TEST(EcvrfVectors, TamperedRfcBetaContradictsTheRfc) {
  const std::string rel = "vectors/ecvrf/rfc9381.json";
  const auto lines = check_edited(rel, [](std::string s) { return replace_once(s, "\"beta\":\"90cf1df3", "\"beta\":\"91cf1df3"); });
  EXPECT_TRUE(any_has(lines, {"tcId 1: RFC 9381 Example 16 says field 'beta'"})) << joined(lines);
  EXPECT_TRUE(any_has(lines, {"tcId 1: ecvrf/fe32-portable/w4/fused/k1@cpu: beta", "expected 91cf1df3"})) << joined(lines);
}

// Planted search functions over the file's own hits: the check must name each kind of disagreement.
TEST(EcvrfVectors, FrozenHitCheckTakesAnySearchFunction) {
  const std::string text = bx::test::read_repo_file(V::kSearchPath);
  const auto windows = V::load_search_windows(V::kSearchPath, text);
  ASSERT_FALSE(windows.empty());
  const auto window_of = [&](const Job& job, uint64_t lo) -> const V::SearchWindow& {
    for (auto& w : windows)
      if (w.job.sk == job.sk && w.job.header == job.header && w.lo == lo) return w;
    throw std::runtime_error("no such window");
  };
  const auto planted = [&](const std::string& name, std::function<void(std::vector<Hit>&, const V::SearchWindow&)> f) {
    return V::Searcher{name, [=](const Job& job, uint64_t lo, uint64_t, uint64_t) {
                         std::vector<Hit> h = window_of(job, lo).hits;
                         f(h, window_of(job, lo));
                         return h;
                       }};
  };
  const auto honest = planted("honest", [](std::vector<Hit>&, const V::SearchWindow&) {});
  EXPECT_TRUE(V::check_frozen_hits(V::kSearchPath, windows, honest).empty());
  const auto first = [&] {
    for (auto& w : windows)
      if (!w.hits.empty()) return w.tc_id;
    return -1;
  }();
  const auto on_first = [&](std::function<void(std::vector<Hit>&)> f) {
    return [=](std::vector<Hit>& h, const V::SearchWindow& w) {
      if (w.tc_id == first) f(h);
    };
  };
  const std::string at = "tcId " + std::to_string(first) + ": ";
  auto lines = V::check_frozen_hits(V::kSearchPath, windows, planted("drops", on_first([](auto& h) { h.erase(h.begin()); })));
  EXPECT_TRUE(any_has(lines, {at, "drops: missing hit"})) << joined(lines);
  lines = V::check_frozen_hits(V::kSearchPath, windows, planted("dups", on_first([](auto& h) { h.push_back(h.front()); })));
  EXPECT_TRUE(any_has(lines, {at, "dups: duplicate hit"})) << joined(lines);
  lines = V::check_frozen_hits(V::kSearchPath, windows, planted("score", on_first([](auto& h) { h.front().score ^= 1; })));
  EXPECT_TRUE(any_has(lines, {at, "score: nonce", "score: expected"})) << joined(lines);
  lines = V::check_frozen_hits(V::kSearchPath, windows,
                               planted("extra", [](std::vector<Hit>& h, const V::SearchWindow& w) {
                                 if (w.target == 0) h.push_back({w.lo, 0});
                               }));
  EXPECT_TRUE(any_has(lines, {"extra: extra hit"})) << joined(lines);
  lines = V::check_frozen_hits(V::kSearchPath, windows, V::Searcher{"throws", [](const Job&, uint64_t, uint64_t, uint64_t) -> std::vector<Hit> {
                                                                     throw std::runtime_error("no device");
                                                                   }});
  EXPECT_TRUE(any_has(lines, {"throws: search threw: no device"})) << joined(lines);
}

TEST(EcvrfVectors, GoldenSearcherReproducesTheFrozenHits) {
  const auto windows = V::load_search_windows(V::kSearchPath, bx::test::read_repo_file(V::kSearchPath));
  const auto lines = V::check_frozen_hits(V::kSearchPath, windows, V::golden_searcher());
  EXPECT_TRUE(lines.empty()) << joined(lines);
}

}  // namespace
