// md5z vector files: they verify against OpenSSL and the reference, the frozen hits cover 2..10 zeros,
// and the loaders reject malformed input naming the file, the tcId and the field.
#include <gtest/gtest.h>

#include "property_tests/read_file.hpp"

#include <fstream>
#include <set>
#include <sstream>

#include "suite/hex.hpp"
#include "suite/md5z/vectors.hpp"
#include "suite/paths.hpp"

namespace {
using bx::test::read_repo_file;
using bx::InputError;


TEST(Md5zVectors, FilesVerifyAndFrozenHitsCoverTwoToTen) {
  const auto problems = bx::md5z::check_vectors(bx::source_dir(), false);
  for (auto& p : problems) ADD_FAILURE() << p;
  const auto hits = bx::md5z::parse_candidates("hits.json", read_repo_file("vectors/md5z/hits.json"));
  std::set<int> zeros;
  for (auto& h : hits) zeros.insert(h.zeros);
  for (int k = 2; k <= 10; ++k) EXPECT_TRUE(zeros.count(k)) << "no frozen hit with " << k << " zeros";
  EXPECT_EQ(bx::md5z::load_embedded_hits().size(), hits.size());
}

TEST(Md5zVectors, LoadersRejectMalformedFiles) {
  const std::string c = read_repo_file("vectors/md5z/candidates.json");
  auto bad = [&](const std::string& from, const std::string& to, const std::string& want) {
    std::string t = c;
    const auto at = t.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    t.replace(at, from.size(), to);
    try {
      bx::md5z::parse_candidates("c.json", t);
      ADD_FAILURE() << "accepted: " << to;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << e.what();
    }
  };
  bad("\"index\":0,", "\"index\":4294967296,", "'index'");
  bad("\"index\":0,", "\"index\":-1,", "'index'");
  bad("\"zeros\":", "\"zeroes\":", "unknown field 'zeroes'");
  bad("\"message\":\"", "\"message\":\"zz", "'message'");
  bad("\"message\":\"", "\"message\":\"00", "hex digits");
  const std::string b = read_repo_file("vectors/md5z/bases.json");
  EXPECT_GT(bx::md5z::parse_bases("b.json", b).size(), 10u);
  std::string bb = b;
  bb.replace(bb.find("\"result\":\"invalid\""), 18, "\"result\":\"valid\"");
  EXPECT_THROW(bx::md5z::parse_bases("b.json", bb), InputError);
}

}  // namespace
