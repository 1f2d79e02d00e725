// Vector files: the checked-in files are what generation writes, the build embeds the same bytes, and
// the loaders reject every malformed input with the file, the tcId and the field in the message.
#include <gtest/gtest.h>

#include "cli/paths.hpp"

#include <fstream>
#include <set>
#include <sstream>

#include "cli/embedded.hpp"
#include "cli/md5z_vectors.hpp"
#include "cli/vectors.hpp"

namespace {
using bx::InputError;

std::string read_file(const std::string& rel) {
  std::ifstream f(bx::source_dir() + "/" + rel, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

TEST(Vectors, CheckedInFilesAreFreshAndEmbedded) {
  const auto fresh = bx::vectors::generate_all();
  ASSERT_EQ(fresh.size(), 5u);  // field25519: ops, x25519; md5z: rfc1321, bases, candidates
  for (auto& [rel, text] : fresh) {
    EXPECT_EQ(read_file(rel), text) << rel << " is stale: run `bitexact vectors generate`";
    bool found = false;
    for (auto& e : bx::embedded_vectors())
      if (e.path == rel) {
        found = true;
        EXPECT_EQ(e.content, text) << rel << " embedded copy differs (rebuild)";
      }
    EXPECT_TRUE(found) << rel;
  }
}

TEST(Vectors, GenerationIsDeterministic) { EXPECT_EQ(bx::vectors::generate_all(), bx::vectors::generate_all()); }

// One valid field file, small enough to mutate by hand.
const char* kSmall = R"({"algorithm":"field25519","schema":"bitexact_field25519_ops_v1","generator":"g","numberOfTests":1,
"notes":{"Random":{"bugType":"BASIC","description":"d"}},
"testGroups":[{"op":"add","tests":[{"tcId":7,"comment":"c","flags":["Random"],
"a":"0100000000000000000000000000000000000000000000000000000000000000",
"b":"0200000000000000000000000000000000000000000000000000000000000000",
"out":"0300000000000000000000000000000000000000000000000000000000000000","result":"valid"}]}]})";

std::string mutate(const std::string& from, const std::string& to) {
  std::string s = kSmall;
  const auto pos = s.find(from);
  EXPECT_NE(pos, std::string::npos) << from;
  return s.replace(pos, from.size(), to);
}

void expect_error(const std::string& text, const std::vector<std::string>& parts) {
  try {
    bx::vectors::parse_field("f.json", text);
    ADD_FAILURE() << "accepted malformed input";
  } catch (const InputError& e) {
    for (auto& p : parts) EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << e.what() << " lacks " << p;
  }
}

TEST(Vectors, StrictLoaderAcceptsTheValidFile) { EXPECT_EQ(bx::vectors::parse_field("f.json", kSmall).size(), 1u); }

TEST(Vectors, StrictLoaderRejectsMalformedFiles) {
  expect_error(mutate("\"comment\":\"c\"", "\"comment\":\"c\",\"extra\":1"), {"f.json", "tcId 7", "unknown field 'extra'"});
  expect_error(mutate("\"a\":\"01", "\"a\":\"0g"), {"f.json", "tcId 7", "'a'", "bad hex"});
  expect_error(mutate("\"out\":\"03", "\"out\":\""), {"f.json", "tcId 7", "'out'", "hex digits"});
  expect_error(mutate("\"b\":\"0200000000000000000000000000000000000000000000000000000000000000\",", ""),
               {"tcId 7", "missing field 'b'"});
  expect_error(std::string(kSmall).substr(0, 200), {"f.json", "not valid JSON"});
  expect_error(mutate("\"numberOfTests\":1", "\"numberOfTests\":2"), {"f.json", "numberOfTests", "truncated"});
  expect_error(mutate("\"flags\":[\"Random\"]", "\"flags\":[\"Nope\"]"), {"tcId 7", "'flags'", "Nope"});
  expect_error(mutate("bitexact_field25519_ops_v1", "other_v9"), {"f.json", "schema"});
  expect_error(mutate("\"op\":\"add\"", "\"op\":\"div\""), {"f.json", "unknown op 'div'"});
  expect_error(mutate("\"a\":\"0100000000000000000000000000000000000000000000000000000000000000\"",
                      "\"a\":\"0100000000000000000000000000000000000000000000000000000000000080\""),
               {"tcId 7", "bit 255"});
  expect_error(mutate("\"result\":\"valid\"", "\"result\":\"maybe\""), {"tcId 7", "'result'"});
  const std::string dup = mutate("\"result\":\"valid\"}]", "\"result\":\"valid\"},{\"tcId\":7}]");
  expect_error(dup, {"tcId 7", "duplicate"});
}

TEST(Vectors, X25519LoaderRejectsMalformedFiles) {
  const std::string text = read_file("vectors/field25519/x25519_rfc7748.json");
  EXPECT_GT(bx::vectors::parse_x25519("x.json", text).size(), 100u);
  std::string bad = text;
  bad.replace(bad.find("\"iterations\":1"), 14, "\"iterations\":0");
  EXPECT_THROW(bx::vectors::parse_x25519("x.json", bad), InputError);
  EXPECT_THROW(bx::vectors::parse_x25519("x.json", text.substr(0, text.size() / 2)), InputError);
}

TEST(Md5zVectors, FilesVerifyAndFrozenHitsCoverTwoToTen) {
  const auto problems = bx::vectors::check_all(bx::source_dir(), false);
  for (auto& p : problems) ADD_FAILURE() << p;
  const auto hits = bx::md5z::parse_candidates("hits.json", read_file("vectors/md5z/hits.json"));
  std::set<int> zeros;
  for (auto& h : hits) zeros.insert(h.zeros);
  for (int k = 2; k <= 10; ++k) EXPECT_TRUE(zeros.count(k)) << "no frozen hit with " << k << " zeros";
  EXPECT_EQ(bx::md5z::load_embedded_hits().size(), hits.size());
}

TEST(Md5zVectors, LoadersRejectMalformedFiles) {
  const std::string c = read_file("vectors/md5z/candidates.json");
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
  const std::string b = read_file("vectors/md5z/bases.json");
  EXPECT_GT(bx::md5z::parse_bases("b.json", b).size(), 10u);
  std::string bb = b;
  bb.replace(bb.find("\"result\":\"invalid\""), 18, "\"result\":\"valid\"");
  EXPECT_THROW(bx::md5z::parse_bases("b.json", bb), InputError);
}

}  // namespace
