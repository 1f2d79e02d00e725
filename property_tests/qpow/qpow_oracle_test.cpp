// The qpow oracle: known answers of spec §9 through every request type, every implementation's full
// output (canonical field values, 12-lane states, whole 64-byte hashes), the lossy engine listed apart
// (characterised, never in "agree"), and one error line for each kind of malformed value.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli/oracle.hpp"

namespace {
using json = nlohmann::json;

json ask(const std::string& line) {
  static bx::Oracle oracle(bx::DeviceSelection{true, {}});
  return json::parse(oracle.reply(line));
}
std::string error_of(const json& j) { return j.contains("error") ? j["error"].get<std::string>() : "(no error: " + j.dump() + ")"; }

// Every exact implementation's canonical answer equals ref; the lossy model is present but apart.
void expect_every_impl(const json& r, const std::string& want) {
  ASSERT_TRUE(r.contains("impl")) << r.dump();
  EXPECT_EQ(r["ref"], want);
  EXPECT_GE(r["impl"].size(), 2u);
  for (auto& [name, v] : r["impl"].items()) EXPECT_EQ(v["canonical"], want) << name;
  EXPECT_TRUE(r["agree"]) << r.dump();
  EXPECT_TRUE(r["characterised"].contains("gl2x32-lossy-model@cpu")) << r.dump();
  EXPECT_FALSE(r["impl"].contains("gl2x32-lossy-model@cpu"));
}

TEST(QpowOracle, FieldKnownAnswers) {  // §9.1 (decimal values written as 16 hex digits)
  // a = 13835875475997267463, b = 13593300247443167546
  const std::string A = R"("c002e770975b1607")", B = R"("bca51a8dfe14593a")";
  char buf[20];
  auto hex = [&](unsigned long long v) {
    std::snprintf(buf, sizeof buf, "%016llx", v);
    return std::string(buf);
  };
  ASSERT_EQ(std::stoull("c002e770975b1607", nullptr, 16), 13835875475997267463ull);
  ASSERT_EQ(std::stoull("bca51a8dfe14593a", nullptr, 16), 13593300247443167546ull);
  expect_every_impl(ask(R"({"op":"qpow.field.add","a":)" + A + R"(,"b":)" + B + "}"), hex(8982431654025850688ull));
  expect_every_impl(ask(R"({"op":"qpow.field.sub","a":)" + A + R"(,"b":)" + B + "}"), hex(242575228554099917ull));
  expect_every_impl(ask(R"({"op":"qpow.field.mul","a":)" + A + R"(,"b":)" + B + "}"), hex(16746386726560462281ull));
  // (p-1)(p-2) = 2; lazy inputs (>= p) are accepted and reduced: (p+1)(p-2) = p-2
  expect_every_impl(ask(R"({"op":"qpow.field.mul","a":"ffffffff00000000","b":"fffffffeffffffff"})"), hex(2));
  expect_every_impl(ask(R"({"op":"qpow.field.mul","a":"ffffffff00000002","b":"fffffffeffffffff"})"),
                    hex(0xfffffffeffffffffull));
  expect_every_impl(ask(R"({"op":"qpow.field.canonical","a":"ffffffff00000006"})"), hex(5));
  expect_every_impl(ask(R"({"op":"qpow.field.sqr","a":"ffffffffffffffff"})"), hex(0xfffffffc00000004ull));
  expect_every_impl(ask(R"({"op":"qpow.field.neg","a":"0000000000000001"})"), hex(0xffffffff00000000ull));
}

TEST(QpowOracle, ReduceAndPermutation) {
  // 2^48 * 2^48 = 2^96 == -1: the exact final borrow (the lossy engine's live slip)
  auto r = ask(R"({"op":"qpow.reduce128","x":"00000001000000000000000000000000"})");
  EXPECT_EQ(r["ref"], "ffffffff00000000");
  EXPECT_TRUE(r["agree"]) << r.dump();
  ASSERT_GE(r["impl"].size(), 3u) << r.dump();
  for (auto& [name, v] : r["impl"].items()) EXPECT_EQ(v, "ffffffff00000000") << name;
  ASSERT_TRUE(r["characterised"].contains("gl2x32-lossy-model@cpu")) << r.dump();
  EXPECT_EQ(r["characterised"]["gl2x32-lossy-model@cpu"], "00000000fffffffe") << "the model keeps its slip (+EPS)";
  // perm(0^12), spec §9.2
  json zero = json::array();
  for (int i = 0; i < 12; ++i) zero.push_back("0000000000000000");
  auto p = ask(json{{"op", "qpow.permute"}, {"state", zero}}.dump());
  ASSERT_TRUE(p.contains("ref")) << p.dump();
  EXPECT_EQ(p["ref"][0], "c9bc9432e1686884");
  EXPECT_EQ(p["ref"][11], "c5140b586823b92f");
  EXPECT_TRUE(p["agree"]) << p.dump();
  ASSERT_GE(p["impl"].size(), 3u) << p.dump();
  for (auto& [name, v] : p["impl"].items()) EXPECT_EQ(v, p["ref"]) << name;  // all 12 lanes, not a summary
}

TEST(QpowOracle, HashesWholeOutput) {
  auto b = ask(R"({"op":"qpow.hash_bytes","data":""})");  // §9.3: the first 32 bytes are hash_bytes
  ASSERT_TRUE(b.contains("ref")) << b.dump();
  EXPECT_EQ(b["ref"].get<std::string>().substr(0, 64), "4d8d22af81f6c27a005a07028590ef4ee480f6c4b93f813daf9de47a07c8ae86");
  EXPECT_TRUE(b["agree"]);
  // §9.4(a): header ff x 32, nonce 2^64 - 1 (the nonce as its 64 big-endian seal bytes)
  const std::string nonce = std::string(112, '0') + "ffffffffffffffff";
  auto h = ask(R"({"op":"qpow.hash","header":")" + std::string(64, 'f') + R"(","nonce":")" + nonce + R"("})");
  ASSERT_TRUE(h.contains("ref")) << h.dump();
  const std::string want =
      "822f70999ee517f610b51bbb79ba88bfbb19cb77b316df25d8aeb4c2682673555e9fc6a588ee96dcce4ff0d2b8d97f4aa89d0f46c97f9027b386d42b14be5100";
  EXPECT_EQ(h["ref"], want);
  EXPECT_TRUE(h["agree"]) << h.dump();
  EXPECT_GE(h["impl"].size(), 10u);  // every host variant answers
  for (auto& [name, v] : h["impl"].items()) EXPECT_EQ(v, want) << name;  // 128 hex digits each
  for (auto& [name, v] : h["characterised"].items()) EXPECT_EQ(v.get<std::string>().size(), 128u) << name;
}

TEST(QpowOracle, Validity) {  // §9.5: header 00 x 32, nonce 705 at difficulties 1104 (valid) and 1105
  const std::string q = R"({"op":"qpow.valid","header":")" + std::string(64, '0') + R"(","nonce":")" + std::string(125, '0') + "2c1";
  auto v = ask(q + R"(","difficulty":"1104"})");
  ASSERT_TRUE(v.contains("valid")) << v.dump();
  EXPECT_TRUE(v["valid"]);
  EXPECT_TRUE(v["chain_accepts"]);
  EXPECT_EQ(v["hash"].get<std::string>().substr(0, 16), "003b54fe9408fb85");
  EXPECT_EQ(v["target"].get<std::string>().substr(0, 16), "003b5cc0ed7303b5");
  EXPECT_FALSE(ask(q + R"(","difficulty":"1105"})")["valid"]);
  EXPECT_FALSE(ask(q + R"(","difficulty":"0x451"})")["valid"]);  // 0x451 = 1105
  // nonce 0 hashes but the chain rejects it
  auto z = ask(R"({"op":"qpow.valid","header":")" + std::string(64, '0') + R"(","nonce":")" + std::string(128, '0') +
               R"(","difficulty":"1"})");
  EXPECT_FALSE(z["chain_accepts"]) << z.dump();
}

TEST(QpowOracle, MalformedValuesGetOneErrorLine) {
  const std::string H = std::string(64, '0'), N = std::string(128, '0');
  EXPECT_NE(error_of(ask(R"({"op":"qpow.field.mul","a":"123","b":"0000000000000000"})")).find("field 'a'"), std::string::npos);
  EXPECT_NE(error_of(ask(R"({"op":"qpow.field.mul","a":"zz00000000000000","b":"0000000000000000"})")).find("field 'a'"),
            std::string::npos);
  EXPECT_NE(error_of(ask(R"({"op":"qpow.field.mul","a":"0000000000000000"})")).find("missing field 'b'"), std::string::npos);
  EXPECT_NE(error_of(ask(R"({"op":"qpow.field.mul","a":1,"b":"0000000000000000"})")).find("16 hex digits"), std::string::npos);
  EXPECT_NE(error_of(ask(R"({"op":"qpow.field.div","a":"0000000000000000"})")).find("unknown field op"), std::string::npos);
  EXPECT_NE(error_of(ask(R"({"op":"qpow.reduce128","x":"00"})")).find("field 'x'"), std::string::npos);
  EXPECT_NE(error_of(ask(R"({"op":"qpow.permute","state":["0000000000000000"]})")).find("12"), std::string::npos);
  EXPECT_NE(error_of(ask(R"({"op":"qpow.hash_bytes","data":"abc"})")).find("odd"), std::string::npos);
  EXPECT_NE(error_of(ask(R"({"op":"qpow.hash","header":"00","nonce":")" + N + R"("})")).find("header"), std::string::npos);
  EXPECT_NE(error_of(ask(R"({"op":"qpow.hash","header":")" + H + R"(","nonce":"00"})")).find("128 hex digits"),
            std::string::npos);
  EXPECT_NE(error_of(ask(R"({"op":"qpow.hash","header":")" + H + R"(","nonce":")" + N + R"(","extra":1})")).find("unknown field"),
            std::string::npos);
  EXPECT_NE(error_of(ask(R"({"op":"qpow.valid","header":")" + H + R"(","nonce":")" + N + R"(","difficulty":"12x"})"))
                .find("difficulty"),
            std::string::npos);
  EXPECT_NE(error_of(ask(R"({"op":"qpow.nope"})")).find("unknown op"), std::string::npos);
}

}  // namespace
