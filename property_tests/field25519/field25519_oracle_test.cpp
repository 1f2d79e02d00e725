// The field25519 oracle: replies carry the reference, every implementation's canonical bytes and agree;
// bad requests get an error line and do not stop processing.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/oracle.hpp"
#include "property_tests/field25519/field25519_layouts.hpp"

namespace {
using json = nlohmann::json;
const std::string kP = "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f";
const std::string kOne = "0100000000000000000000000000000000000000000000000000000000000000";
const std::string kZero = "0000000000000000000000000000000000000000000000000000000000000000";

json ask(const std::string& line) {
  static bx::Oracle oracle(bx::DeviceSelection{true, {}});
  return json::parse(oracle.reply(line));
}

TEST(Oracle, FieldOpsAgreeAndNonCanonicalInputsAreAllowed) {
  auto r = ask(R"({"op":"fe25519.add","a":")" + kP + R"(","b":")" + kOne + R"("})");
  EXPECT_EQ(r["ref"], kOne);  // p + 1 = 1
  EXPECT_TRUE(r["agree"]);
  EXPECT_EQ(r["impl"].size(), bx::test::layout_names().size());  // every host layout
  for (const std::string& l : bx::test::layout_names()) EXPECT_EQ(r["impl"]["field25519/" + l + "-portable@cpu"], kOne) << l;
  for (const char* op : {"sub", "mul", "sqr", "neg", "invert", "pow22523", "mul_small", "canonical"}) {
    auto q = ask(std::string(R"({"op":"fe25519.)") + op + R"(","a":")" + kP + R"(","b":")" + kOne + R"("})");
    EXPECT_TRUE(q["agree"]) << op << q.dump();
  }
  auto inv0 = ask(R"({"op":"fe25519.invert","a":")" + kZero + R"("})");
  EXPECT_EQ(inv0["ref"], kZero);
}

TEST(Oracle, SqrtRatioReplyShape) {
  auto r = ask(R"({"op":"fe25519.sqrt_ratio","a":"0400000000000000000000000000000000000000000000000000000000000000","b":")" +
               kOne + R"("})");
  EXPECT_TRUE(r["ref"]["was_square"]);
  EXPECT_TRUE(r["agree"]);
  EXPECT_EQ(r["impl"]["field25519/fe26-portable@cpu"]["root"], r["ref"]["root"]);
}

TEST(Oracle, X25519) {
  auto r = ask(R"({"op":"x25519","scalar":"a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4","u":"e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c"})");
  EXPECT_EQ(r["ref"], "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552");
  EXPECT_TRUE(r["agree"]);
  EXPECT_EQ(r["oracles"]["openssl"], r["ref"]);
  EXPECT_EQ(r["oracles"]["libsodium"], r["ref"]);
}

TEST(Oracle, BadRequestsGetAnErrorLineAndProcessingContinues) {
  const std::string high = kOne.substr(0, 62) + "80";
  std::istringstream in("not json\n{\"op\":\"fe25519.add\",\"a\":\"" + high + "\",\"b\":\"" + kOne +
                        "\"}\n{\"op\":\"fe25519.div\",\"a\":\"" + kOne + "\"}\n{\"op\":\"fe25519.mul\",\"a\":\"zz\",\"b\":\"" +
                        kOne + "\"}\n{\"op\":\"fe25519.mul\",\"a\":\"" + kOne + "\"}\n{\"op\":\"fe25519.sqr\",\"a\":\"" + kOne +
                        "\",\"c\":1}\n{\"op\":\"fe25519.sqr\",\"a\":\"" + kOne + "\"}\n");
  std::ostringstream out;
  bx::run_oracle(in, out, bx::DeviceSelection{true, {}});
  std::istringstream lines(out.str());
  std::vector<json> r;
  for (std::string l; std::getline(lines, l);) r.push_back(json::parse(l));
  ASSERT_EQ(r.size(), 7u);
  EXPECT_NE(r[0]["error"].get<std::string>().find("not valid JSON"), std::string::npos);
  EXPECT_NE(r[1]["error"].get<std::string>().find("bit 255"), std::string::npos);
  EXPECT_NE(r[2]["error"].get<std::string>().find("unknown op"), std::string::npos);
  EXPECT_NE(r[3]["error"].get<std::string>().find("hex"), std::string::npos);
  EXPECT_NE(r[4]["error"].get<std::string>().find("missing field 'b'"), std::string::npos);
  EXPECT_NE(r[5]["error"].get<std::string>().find("unknown field 'c'"), std::string::npos);
  EXPECT_TRUE(r[6]["agree"]);
}

}  // namespace
