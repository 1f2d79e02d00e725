// The ecvrf oracle: every CPU variant answers with its whole result and agrees with the golden model on
// the spec 9 worked examples; bad hex, wrong lengths, unknown fields and nonces >= 2^64 are error lines.
// The point ops and ecvrf.hash against values known independently of the golden model (RFC 8032's base
// point, L B = identity, 2B, the spec 2.3/2.4 torsion and rejection cases, RFC 9381 Examples 16-17): the
// reference, every implementation (each named) and libsodium give the known bytes, and agree is true.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "cli/oracle.hpp"
#include "property_tests/field25519/field25519_layouts.hpp"

namespace {
using json = nlohmann::json;
const std::string kSk = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60";
const std::string kZero32 = std::string(64, '0');
const std::vector<std::string> kLayouts = bx::test::layout_names();
const size_t kPointImpls = kLayouts.size();            // one point code per host layout
const size_t kStrategyImpls = 4 * kLayouts.size();     // host layouts x scalar strategies

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
    EXPECT_EQ(r["impl"].size(), kStrategyImpls) << r.dump();
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

const std::string kB = "58" + std::string(62, '6');                                   // RFC 8032 base point
const std::string kIdentity = "01" + std::string(62, '0');
const std::string kOrder2 = "ec" + std::string(60, 'f') + "7f";                          // (0, -1), spec 2.4
const std::string kYp = "ed" + std::string(60, 'f') + "7f";                              // y = p
const std::string kNonSquare = "bde5e949af7cf4bc066450de29d9933d49ea8fa0ccb6b4eb51c7bd40f13d9b53";  // Ex17 ctr 0
const std::string kL = "edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010";
const std::string kEx16H = "91bbed02a99461df1ad4c6564a5f5d829d0b90cfc7903e7a5797bd658abf3318";
const std::string kEx16X = "307c83864f2833cb427a2ef1c00a013cfdff2768d980c0a3a520f006904de94f";     // even
const std::string kEx16XmodL = "7c2cac12e69be96ae9065065462385e8fcff2768d980c0a3a520f006904de90f";  // even
const std::string kEx16Gamma = "8657106690b5526245a92b003bb079ccd1a92130477671f6fc01ad16f26f723f";

std::string one(const char* op, const char* k1, const std::string& v1) {
  return std::string(R"({"op":")") + op + R"(",")" + k1 + R"(":")" + v1 + R"("})";
}
std::string two(const char* op, const char* k1, const std::string& v1, const char* k2, const std::string& v2) {
  return std::string(R"({"op":")") + op + R"(",")" + k1 + R"(":")" + v1 + R"(",")" + k2 + R"(":")" + v2 + R"("})";
}
json point(const std::string& hex) { return {{"point", hex}}; }
json rejected(const char* reason, const char* input) { return {{"rejected", reason}, {"input", input}}; }

// ref and every implementation answer `want` (those named in `refusing` refuse instead), n answers in all.
void expect_answers(const std::string& line, const json& want, size_t n, const std::set<std::string>& refusing = {}) {
  const json r = ask(line);
  ASSERT_TRUE(r.contains("ref")) << line << " -> " << r.dump();
  EXPECT_EQ(r["ref"], want) << line;
  EXPECT_EQ(r["impl"].size(), n) << r.dump();
  for (auto& [name, got] : r["impl"].items()) {
    if (refusing.count(name)) {
      EXPECT_TRUE(got.contains("refused")) << name << ": " << got << " for " << line;
    } else {
      EXPECT_EQ(got, want) << name << " for " << line;
    }
  }
  EXPECT_TRUE(r["agree"].get<bool>()) << line;
}

TEST(EcvrfOracle, DecodeKnownAnswersOnEveryLayout) {
  expect_answers(one("ed25519.decode", "point", kB), point(kB), kPointImpls);
  expect_answers(one("ed25519.decode", "point", kOrder2), point(kOrder2), kPointImpls);
  expect_answers(one("ed25519.decode", "point", kYp), rejected("y_not_below_p", "point"), kPointImpls);
  expect_answers(one("ed25519.decode", "point", kNonSquare), rejected("not_square", "point"), kPointImpls);
  expect_answers(one("ed25519.decode", "point", "01" + std::string(60, '0') + "80"), rejected("x_zero_sign_set", "point"), kPointImpls);
  const json r = ask(one("ed25519.decode", "point", kB));
  EXPECT_TRUE(r["impl"].contains("ecvrf/fe26-portable@cpu")) << r.dump();
}

TEST(EcvrfOracle, AddKnownAnswersOnEveryLayout) {
  expect_answers(two("ed25519.add", "p", kB, "q", kB), point("c9a3f86aae465f0e56513864510f3997561fa2c9e85ea21dc2292309f3cd6022"), kPointImpls);
  expect_answers(two("ed25519.add", "p", kB, "q", kIdentity), point(kB), kPointImpls);
  expect_answers(two("ed25519.add", "p", kOrder2, "q", kOrder2), point(kIdentity), kPointImpls);
  expect_answers(two("ed25519.add", "p", kB, "q", kYp), rejected("y_not_below_p", "q"), kPointImpls);
  expect_answers(two("ed25519.add", "p", kNonSquare, "q", kYp), rejected("not_square", "p"), kPointImpls);  // the first rejection
}

TEST(EcvrfOracle, ScalarmultKnownAnswersOnEveryStrategy) {
  const std::string one_k = "01" + std::string(62, '0');
  expect_answers(two("ed25519.scalarmult", "scalar", one_k, "point", kB), point(kB), kStrategyImpls + 1);
  expect_answers(two("ed25519.scalarmult", "scalar", kEx16X, "point", kEx16H), point(kEx16Gamma), kStrategyImpls + 1);
  expect_answers(two("ed25519.scalarmult", "scalar", kEx16XmodL, "point", kEx16H), point(kEx16Gamma), kStrategyImpls + 1);
  // L B = identity: libsodium refuses an identity result.
  expect_answers(two("ed25519.scalarmult", "scalar", kL, "point", kB), point(kIdentity), kStrategyImpls + 1, {"libsodium"});
  // 8L + 1 (bit 255 set) times B = B: Joye-Tunstall recodes k < 2^255 only, libsodium clears bit 255.
  std::set<std::string> refusing{"libsodium"};
  for (const std::string& l : kLayouts) refusing.insert("ecvrf/" + l + "-portable/jt/fused/k1@cpu");
  expect_answers(two("ed25519.scalarmult", "scalar", "699faee7d21893c0b2e6bc17f5cef7a600000000000000000000000000000080", "point", kB),
                 point(kB), kStrategyImpls + 1, refusing);
  expect_answers(two("ed25519.scalarmult", "scalar", one_k, "point", kYp), rejected("y_not_below_p", "point"), kStrategyImpls + 1, {"libsodium"});
}

TEST(EcvrfOracle, HashRfc9381Examples) {
  const std::string ex16 = "90cf1df3b703cce59e2a35b925d411164068269d7b2d29f3301c03dd757876ff66b71dda49d2de59d03450451af026798e8f81cd2e333de5cdf4f3e140fdd8ae";
  const std::string ex17 = "eb4440665d3891d668e7e0fcaf587f1b4bd7fbfe99d0eb2211ccec90496310eb5e33821bc613efb94db5e5b54c70a848a0bef4553a41befc57663b56373a5031";
  const json want16 = {{"pk", "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"}, {"ctr", 0}, {"h", kEx16H},
                       {"gamma", kEx16Gamma}, {"beta", ex16}};
  const json r = ask(two("ecvrf.hash", "sk", kSk, "alpha", ""));
  ASSERT_TRUE(r.contains("ref")) << r.dump();
  EXPECT_EQ(r["ref"], want16);
  EXPECT_EQ(r["impl"]["libsodium"], want16);
  EXPECT_EQ(r["impl"].size(), kStrategyImpls + 1) << r.dump();
  for (auto& [name, got] : r["impl"].items()) {
    if (name == "libsodium") continue;
    EXPECT_EQ(got, json({{"ctr", 0}, {"beta", ex16}})) << name;
  }
  EXPECT_TRUE(r["agree"].get<bool>());
  const json r17 = ask(two("ecvrf.hash", "sk", "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb", "alpha", "72"));
  EXPECT_EQ(r17["ref"]["ctr"], 1);
  EXPECT_EQ(r17["ref"]["beta"], ex17);
  for (auto& [name, got] : r17["impl"].items()) EXPECT_EQ(got["beta"], ex17) << name;
  EXPECT_TRUE(r17["agree"].get<bool>());
}

TEST(EcvrfOracle, HashLongAlphaHostPipelinesRefuse) {  // 76 bytes: two SHA-512 blocks
  const json r = ask(two("ecvrf.hash", "sk", kSk, "alpha", std::string(152, 'a')));
  ASSERT_TRUE(r.contains("ref")) << r.dump();
  ASSERT_TRUE(r["ref"]["beta"].is_string()) << r.dump();
  EXPECT_EQ(r["impl"]["libsodium"], r["ref"]);
  for (auto& [name, got] : r["impl"].items()) {
    if (name == "libsodium") continue;
    EXPECT_TRUE(got.contains("refused")) << name << ": " << got;
  }
  EXPECT_TRUE(r["agree"].get<bool>());
}

TEST(EcvrfOracle, PointAndHashBadInputIsAnErrorLine) {
  const std::pair<std::string, const char*> bad[] = {
      {one("ed25519.decode", "point", "zz" + kB.substr(2)), "field 'point': bad hex digit"},
      {one("ed25519.decode", "point", kB.substr(2)), "field 'point': expected 64 hex digits"},
      {R"({"op":"ed25519.decode"})", "missing field 'point'"},
      {R"({"op":"ed25519.decode","point":5})", "field 'point' must be a hex string"},
      {two("ed25519.decode", "point", kB, "q", kB), "unknown field 'q'"},
      {one("ed25519.add", "p", kB), "missing field 'q'"},
      {two("ed25519.add", "p", kB, "q", kB + "00"), "field 'q': expected 64 hex digits"},
      {one("ed25519.scalarmult", "point", kB), "missing field 'scalar'"},
      {two("ed25519.scalarmult", "scalar", "0g" + kB.substr(2), "point", kB), "field 'scalar': bad hex digit"},
      {one("ecvrf.hash", "sk", kSk), "missing field 'alpha'"},
      {two("ecvrf.hash", "sk", kSk, "alpha", "abc"), "field 'alpha': expected an even number"},
      {two("ecvrf.hash", "sk", kSk, "alpha", "zz"), "field 'alpha': bad hex digit"},
      {two("ecvrf.hash", "sk", kSk.substr(1), "alpha", ""), "field 'sk': expected 64 hex digits"},
  };
  for (const auto& [line, want] : bad) {
    const json r = ask(line);
    ASSERT_TRUE(r.contains("error")) << line << " -> " << r.dump();
    EXPECT_EQ(r.size(), 1u) << r.dump();
    EXPECT_NE(r["error"].get<std::string>().find(want), std::string::npos) << r["error"] << " (want '" << want << "')";
  }
}

}  // namespace
