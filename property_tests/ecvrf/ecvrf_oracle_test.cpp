// The ecvrf oracle: every CPU variant answers with its whole result and agrees with the golden model on
// the spec 9 worked examples; bad hex, wrong lengths, unknown fields and nonces >= 2^64 are error lines.
#include <gtest/gtest.h>

#include <string>

#include "cli/oracle.hpp"

namespace {
using json = nlohmann::json;
const std::string kSk = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60";
const std::string kZero32 = std::string(64, '0');

json ask(const std::string& line) {
  bx::Oracle o(bx::DeviceSelection{true, {}});
  return json::parse(o.reply(line));
}
std::string score_request(const std::string& sk, const std::string& header, const std::string& nonce) {
  return R"({"op":"ecvrf.score","sk":")" + sk + R"(","header":")" + header + R"(","nonce":")" + nonce + R"("})";
}

TEST(EcvrfOracle, SpecWorkedExamplesAgreeOnEveryVariant) {
  const std::pair<const char*, const char*> cases[] = {{"0", "55f759d5793adb8b"},
                                                       {"4294967295", "6e155162bfdd6a9f"},
                                                       {"18446744073709551615", "5a2bd05a5d188066"}};
  for (const auto& [nonce, score_hex] : cases) {
    const json r = ask(score_request(kSk, kZero32, nonce));
    ASSERT_TRUE(r.contains("ref")) << r.dump();
    EXPECT_EQ(r["ref"]["score"], std::to_string(std::stoull(score_hex, nullptr, 16))) << nonce;
    EXPECT_EQ(r["ref"]["beta"].get<std::string>().substr(0, 16), score_hex) << nonce;
    EXPECT_EQ(r["impl"].size(), 16u) << r.dump();
    for (auto& [name, got] : r["impl"].items()) EXPECT_EQ(got, r["ref"]) << name << " at nonce " << nonce;
    EXPECT_TRUE(r["agree"].get<bool>());
  }
}

TEST(EcvrfOracle, BadInputIsAnErrorLine) {
  const std::pair<std::string, const char*> bad[] = {
      {score_request(kSk, kZero32, "18446744073709551616"), "not below 2^64"},
      {score_request(kSk, kZero32, "-1"), "decimal integer"},
      {score_request(kSk, kZero32, ""), "decimal integer"},
      {score_request(kSk.substr(2), kZero32, "0"), "field 'sk'"},
      {score_request(kSk, "zz" + kZero32.substr(2), "0"), "field 'header'"},
      {R"({"op":"ecvrf.score","sk":")" + kSk + R"(","header":")" + kZero32 + R"(","nonce":5})", "decimal string"},
      {R"({"op":"ecvrf.score","sk":")" + kSk + R"(","header":")" + kZero32 + R"(","nonce":"1","x":1})", "x"},
  };
  for (const auto& [line, want] : bad) {
    const json r = ask(line);
    ASSERT_TRUE(r.contains("error")) << line << " -> " << r.dump();
    EXPECT_NE(r["error"].get<std::string>().find(want), std::string::npos) << r["error"] << " (want '" << want << "')";
  }
}

}  // namespace
