// X25519 over every layout (host, portable backend): the suite's RFC 7748 vectors and every case of
// Wycheproof's x25519_test.json (vendored in third_party/wycheproof; a missing file fails).
#include <gtest/gtest.h>

#include "property_tests/read_file.hpp"

#include "property_tests/field25519/field25519_layouts.hpp"

#include "suite/paths.hpp"
#include <rapidcheck.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "suite/hex.hpp"
#include "suite/field25519/vectors.hpp"
#include "gpu/field25519/layouts.hpp"
#include "reference/field25519/ref25519.hpp"

namespace {
using bx::test::read_file;
using namespace bx::f25519;
using bx::carry::portable;

const char* const kWycheproof = "x25519_test.json";

template <class F>
struct X25519 : ::testing::Test {};
using Layouts = bx::test::HostLayouts;
TYPED_TEST_SUITE(X25519, Layouts);

template <class F>
bx::Bytes32 run(const bx::Bytes32& k, const bx::Bytes32& u) {
  bx::Bytes32 out;
  x25519<F>(out.data(), k.data(), u.data());
  return out;
}

TYPED_TEST(X25519, SuiteVectorsIncludingRfc7748) {
  using F = TypeParam;
  const std::string rel = "vectors/field25519/x25519_rfc7748.json";
  const auto tests = bx::field25519::vectors::parse_x25519(rel, read_file(bx::source_dir() + "/" + rel));
  ASSERT_GT(tests.size(), 100u);
  for (auto& t : tests) {
    const auto got = t.iterations ? bx::field25519::vectors::x25519_iterate(t.iterations, run<F>) : run<F>(t.scalar, t.u);
    EXPECT_EQ(got, t.shared) << F::name << " tcId " << t.tc_id << " (" << t.comment << ")\n"
                             << bx::hexdump_diff(t.shared.data(), got.data(), 32);
  }
}

TYPED_TEST(X25519, WycheproofAll518) {
  using F = TypeParam;
  const std::string text = bx::test::wycheproof_file(kWycheproof);
  ASSERT_FALSE(text.empty());
  const auto j = nlohmann::json::parse(text);
  ASSERT_EQ(j["schema"], "xdh_comp_schema_v1.json");
  int n = 0, bad = 0;
  for (auto& g : j["testGroups"])
    for (auto& t : g["tests"]) {
      ++n;
      const auto k = bx::bytes32_from_hex(t["private"], "private"), u = bx::bytes32_from_hex(t["public"], "public");
      const auto want = bx::bytes32_from_hex(t["shared"], "shared");
      const auto got = run<F>(k, u);
      if (got != want && bad++ < 5)
        ADD_FAILURE() << F::name << " Wycheproof x25519 tcId " << t["tcId"] << " (" << t["comment"] << ")\n"
                      << bx::hexdump_diff(want.data(), got.data(), 32);
    }
  EXPECT_EQ(n, 518);
  EXPECT_EQ(j["numberOfTests"], 518);
  EXPECT_EQ(bad, 0);
}

TEST(X25519Reference, WycheproofAll518) {
  const std::string text = bx::test::wycheproof_file(kWycheproof);
  ASSERT_FALSE(text.empty());
  const auto j = nlohmann::json::parse(text);
  for (auto& g : j["testGroups"])
    for (auto& t : g["tests"]) {
      const auto k = bx::bytes32_from_hex(t["private"], "private"), u = bx::bytes32_from_hex(t["public"], "public");
      EXPECT_EQ(bx::to_hex(bx::ref::f25519::x25519(k, u)), t["shared"].get<std::string>()) << "tcId " << t["tcId"];
    }
}

TEST(X25519, AllLayoutsAgreeOnRandomInputs) {
  EXPECT_TRUE(rc::check([](std::array<uint8_t, 32> k, std::array<uint8_t, 32> u) {
    const auto r = bx::ref::f25519::x25519(k, u);
    bx::test::for_each_host_layout([&]<class F>() { RC_ASSERT(run<F>(k, u) == r); });
  }));
}

}  // namespace
