// The md5z oracle: every implementation answers with its own digest (steps 61..63 forced on the
// tunnel variants) and zero count, so agree compares whole digests; bad requests get an error line.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli/oracle.hpp"
#include "gpu/md5z/search.hpp"

namespace {
using json = nlohmann::json;

json ask_md5(const std::string& line) {
  static bx::Oracle oracle(bx::DeviceSelection{true, {}});
  return json::parse(oracle.reply(line));
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
  EXPECT_EQ(c["impl"].size(), bx::md5::all_variants().size());
  for (auto& [key, v] : c["impl"].items()) {  // every implementation answers with its full output
    EXPECT_EQ(v["digest"], c["ref"]["digest"]) << key;
    EXPECT_EQ(v["zeros"], c["ref"]["zeros"]) << key;
  }
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


// A digest-level disagreement shows even where the zero count is 0, as it is for nearly every index:
// every index of a window, each implementation's digest against OpenSSL's.
TEST(Oracle, Md5zDigestsAgreeOverAWindowNotOnlyZeroCounts) {
  const std::string base = ask_md5(R"({"op":"md5z.base","seed":11})")["base"];
  for (uint64_t i : {0ull, 1ull, 77ull, 0x80000000ull, 0xfffffffeull}) {
    auto c = ask_md5(R"({"op":"md5z.candidate","base":")" + base + R"(","index":)" + std::to_string(i) + "}");
    ASSERT_TRUE(c["agree"]) << c.dump();
    EXPECT_EQ(c["ref"]["digest"].get<std::string>().size(), 32u);
  }
}

}  // namespace
