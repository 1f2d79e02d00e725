// field25519 vector files: the loaders reject every malformed input with the file, the tcId and the field
// in the message (freshness and embedding of every family's files: property_tests/cli_test.cpp).
#include <gtest/gtest.h>

#include "property_tests/read_file.hpp"

#include "suite/paths.hpp"

#include <fstream>
#include <set>
#include <sstream>

#include "suite/embedded.hpp"
#include "suite/field25519/vectors.hpp"

namespace {
using bx::test::read_repo_file;
using bx::InputError;


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
    bx::field25519::vectors::parse_field("f.json", text);
    ADD_FAILURE() << "accepted malformed input";
  } catch (const InputError& e) {
    for (auto& p : parts) EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << e.what() << " lacks " << p;
  }
}

TEST(Vectors, StrictLoaderAcceptsTheValidFile) { EXPECT_EQ(bx::field25519::vectors::parse_field("f.json", kSmall).size(), 1u); }

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
  const std::string text = read_repo_file("vectors/field25519/x25519_rfc7748.json");
  EXPECT_GT(bx::field25519::vectors::parse_x25519("x.json", text).size(), 100u);
  std::string bad = text;
  bad.replace(bad.find("\"iterations\":1"), 14, "\"iterations\":0");
  EXPECT_THROW(bx::field25519::vectors::parse_x25519("x.json", bad), InputError);
  EXPECT_THROW(bx::field25519::vectors::parse_x25519("x.json", text.substr(0, text.size() / 2)), InputError);
}

}  // namespace
