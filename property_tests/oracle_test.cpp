// The oracle protocol: replies carry the reference, every implementation and agree; bad requests get
// an error line and do not stop processing.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/md5z.hpp"
#include "cli/oracle.hpp"

namespace {
using json = nlohmann::json;
const std::string kP = "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f";
const std::string kOne = "0100000000000000000000000000000000000000000000000000000000000000";
const std::string kZero = "0000000000000000000000000000000000000000000000000000000000000000";

json ask(const std::string& line) {
  static const auto impls = bx::field_impls(bx::DeviceSelection{true, {}});
  return json::parse(bx::oracle_reply(line, impls));
}

TEST(Oracle, FieldOpsAgreeAndNonCanonicalInputsAreAllowed) {
  auto r = ask(R"({"op":"fe25519.add","a":")" + kP + R"(","b":")" + kOne + R"("})");
  EXPECT_EQ(r["ref"], kOne);  // p + 1 = 1
  EXPECT_TRUE(r["agree"]);
  EXPECT_EQ(r["impl"].size(), 4u);
  EXPECT_EQ(r["impl"]["fe29/portable"], kOne);
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
  EXPECT_EQ(r["impl"]["fe26/portable"]["root"], r["ref"]["root"]);
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

json ask_md5(const std::string& line) {
  static const auto impls = bx::md5z::impls({std::begin(bx::md5::kAllVariants), std::end(bx::md5::kAllVariants)},
                                            bx::DeviceSelection{true, {}});
  return json::parse(bx::oracle_reply(line, {}, impls));
}

TEST(Oracle, Md5AndMd5zRequests) {
  auto r = ask_md5(R"({"op":"md5","data":"616263"})");
  EXPECT_EQ(r["ref"], "900150983cd24fb0d6963f7d28e17f72");
  EXPECT_TRUE(r["agree"]);
  auto b = ask_md5(R"({"op":"md5z.base","seed":5})");
  ASSERT_TRUE(b.contains("base")) << b.dump();
  EXPECT_EQ(b["base"].get<std::string>().size(), 104u);
  auto c = ask_md5(R"({"op":"md5z.candidate","base":")" + b["base"].get<std::string>() + R"(","index":4294967295})");
  EXPECT_TRUE(c["agree"]) << c.dump();
  EXPECT_EQ(c["impl"].size(), 4u);
  EXPECT_EQ(c["impl"]["md5z/q9-v2@cpu"], c["ref"]["zeros"]);
  EXPECT_EQ(c["ref"]["message"].get<std::string>().size(), 104u);
}

TEST(Oracle, Md5zBadRequestsGetErrorLines) {
  const std::string base = ask_md5(R"({"op":"md5z.base","seed":5})")["base"];
  auto err = [](const json& j) { return j.contains("error") ? j["error"].get<std::string>() : std::string("(no error)"); };
  EXPECT_NE(err(ask_md5(R"({"op":"md5z.candidate","base":")" + base + R"(","index":4294967296})")).find("index"), std::string::npos);
  EXPECT_NE(err(ask_md5(R"({"op":"md5z.candidate","base":")" + std::string(104, '0') + R"(","index":1})")).find("not a Q9-tunnel base"),
            std::string::npos);
  EXPECT_NE(err(ask_md5(R"({"op":"md5z.candidate","base":"00","index":1})")).find("hex digits"), std::string::npos);
  EXPECT_NE(err(ask_md5(R"({"op":"md5","data":"abc"})")).find("odd"), std::string::npos);
  EXPECT_NE(err(ask_md5(R"({"op":"md5z.base","seed":-1})")).find("seed"), std::string::npos);
  EXPECT_NE(err(ask_md5(R"({"op":"md5z.base"})")).find("missing field 'seed'"), std::string::npos);
}

}  // namespace
