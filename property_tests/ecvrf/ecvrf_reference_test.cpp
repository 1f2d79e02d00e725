// The ecvrf golden model (reference/ecvrf): curve constants, decoding and its lax models, torsion,
// RFC 9381 Examples 16-18 end to end, the §9 search job, the libsodium and OpenSSL oracles, and
// Wycheproof's ed25519_test.json through a cofactorless verify. Spec: docs/specs/field25519_ecvrf.md.
// Random properties run few cases (the model is slow): at most kFewCases each, seeded by RC_PARAMS.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "property_tests/read_file.hpp"
#include "reference/ecvrf/edwards.hpp"
#include "reference/ecvrf/oracles.hpp"
#include "reference/ecvrf/vrf.hpp"

namespace E = bx::ref::ecvrf;
namespace F = bx::ref::f25519;
using bx::ref::Int;
using E::Bytes32;
using E::Bytes64;
using E::DecodeError;
using E::Point;

namespace {

constexpr int kFewCases = 30;

std::vector<uint8_t> bytes(const std::string& hex) {
  if (hex.size() % 2) throw std::invalid_argument("odd hex length");
  std::vector<uint8_t> out(hex.size() / 2);
  for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<uint8_t>(std::stoi(hex.substr(2 * i, 2), nullptr, 16));
  return out;
}
template <size_t N>
std::array<uint8_t, N> fixed(const std::string& hex) {
  const auto v = bytes(hex);
  if (v.size() != N) throw std::invalid_argument("hex of the wrong length: " + hex);
  std::array<uint8_t, N> a;
  std::copy(v.begin(), v.end(), a.begin());
  return a;
}
Bytes32 b32(const std::string& hex) { return fixed<32>(hex); }
std::string hex(std::span<const uint8_t> b) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (uint8_t c : b) {
    s += digits[c >> 4];
    s += digits[c & 15];
  }
  return s;
}
std::string hex(const Point& P) { return hex(E::encode(P)); }
std::string hex_int(const Int& v) { return hex(bx::ref::to_le_bytes(v, 32)); }
Bytes32 int_bytes(const Int& v, bool sign = false) {
  const auto v8 = bx::ref::to_le_bytes(v, 32);
  Bytes32 b;
  std::copy(v8.begin(), v8.end(), b.begin());
  if (sign) b[31] |= 0x80;
  return b;
}
// A copy, so that no pointer into a temporary Decoded survives.
std::optional<Point> point_of(const E::Decoded& d) {
  if (const Point* P = std::get_if<Point>(&d)) return *P;
  return std::nullopt;
}
// The point, or an exception that fails the test (never a dereferenced nullopt).
Point must_point(const E::Decoded& d) {
  if (const Point* P = std::get_if<Point>(&d)) return *P;
  throw std::runtime_error("expected a point, decoder said " + std::string(E::name(std::get<DecodeError>(d))));
}
std::string show(const E::Decoded& d) {
  if (const Point* P = std::get_if<Point>(&d)) return "point " + hex(*P);
  return std::string(E::name(std::get<DecodeError>(d)));
}

// RapidCheck with at most n cases; the seed (and the rest of RC_PARAMS) still applies.
template <class Testable>
void check_few(int n, Testable&& testable) {
  const auto& config = rc::detail::configuration();
  rc::detail::TestParams params = config.testParams;
  params.maxSuccess = std::min(params.maxSuccess, n);
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  rc::detail::TestMetadata metadata;
  metadata.id = std::string(info->test_suite_name()) + "/" + info->name();
  metadata.description = info->name();
  const auto result = rc::detail::checkTestable(std::forward<Testable>(testable), metadata, params);
  if (!result.template is<rc::detail::SuccessResult>()) {
    std::ostringstream ss;
    rc::detail::printResultMessage(result, ss);
    FAIL() << ss.str();
  }
}

Int random_scalar_mod_l() {
  const Bytes32 b = *rc::gen::arbitrary<Bytes32>();
  return bx::ref::from_le_bytes(b.data(), 32) % E::L();
}
// a·B + T_i: any point of the full group (order-L part times torsion part).
Point random_point() {
  const Point P = E::mul(random_scalar_mod_l(), E::base_point());
  return E::add(P, E::torsion_points()[*rc::gen::inRange(0, 8)]);
}

// ---- RFC 9381 Examples 16-18 (spec §4.2, §4.4) ----

struct Candidate {
  std::string bytes;
  std::optional<DecodeError> error;  // nullopt: valid
  int torsion = 1;                   // order of the torsion component when valid
};
struct Rfc9381Vector {
  const char* name;
  std::string sk, pk, alpha, x, x_mod_l;
  unsigned x_mod_l_bits;
  uint8_t ctr;
  std::string h, gamma, gamma8, beta, u_h, u_gamma;
  std::vector<Candidate> candidates;
};

const std::vector<Rfc9381Vector>& rfc9381() {
  static const std::vector<Rfc9381Vector> v = {
      {"Ex16", "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
       "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
       "307c83864f2833cb427a2ef1c00a013cfdff2768d980c0a3a520f006904de94f",
       "7c2cac12e69be96ae9065065462385e8fcff2768d980c0a3a520f006904de90f", 252, 0,
       "91bbed02a99461df1ad4c6564a5f5d829d0b90cfc7903e7a5797bd658abf3318",
       "8657106690b5526245a92b003bb079ccd1a92130477671f6fc01ad16f26f723f",
       "f73a6475357f4a1ea70f5df101478fe6e51a18996da58571352665bfa75847b4",
       "90cf1df3b703cce59e2a35b925d411164068269d7b2d29f3301c03dd757876ff66b71dda49d2de59d03450451af026798e8f81cd2e333de5cdf4f3e140fdd8ae",
       "3d59e44b5885ef84757295604d3607322de9a1b8a18160e1bf8213acb0416b35",
       "0cc38279b865d5906256acb1cdff2e9d71a2481f72f65057cd9746606cad2d76",
       {{"d924e111020a9ff4887bc9e56e9e5b80c2ceb93f861a2f56d8ee2c52fd255466", std::nullopt, 1}}},
      {"Ex17", "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
       "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
       "68bd9ed75882d52815a97585caf4790a7f6c6b3b7f821c5e259a24b02e502e51",
       "c799d106d5927970e5989f5671131fa27e6c6b3b7f821c5e259a24b02e502e01", 249, 1,
       "5b659fc3d4e9263fd9a4ed1d022d75eaacc20df5e09f9ea937502396598dc551",
       "f3141cd382dc42909d19ec5110469e4feae18300e94f304590abdced48aed593",
       "9e31a48e0cbc6d405e9e9b1b76eaf1710d57323745a9c0dcaf32fe8e81bbc2f0",
       "eb4440665d3891d668e7e0fcaf587f1b4bd7fbfe99d0eb2211ccec90496310eb5e33821bc613efb94db5e5b54c70a848a0bef4553a41befc57663b56373a5031",
       "d4e6b2ee1d2c0efb8bcfcc0e39167df32eefa29881a012483bbd715ad436ee58",
       "29b6873554939e90a78eb495ea083b1cedba89e1500e5d22417a347b4a0fcc6f",
       {{"bde5e949af7cf4bc066450de29d9933d49ea8fa0ccb6b4eb51c7bd40f13d9b53", DecodeError::not_square},
        {"234d1b2b5084b2c5b322325d652fa081f277814e6c0b7201a1d1682b4b5f45f1", std::nullopt, 8}}},
      {"Ex18", "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
       "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025", "af82",
       "909a8b755ed902849023a55b15c23d11ba4d7f4ec5c2f51b1325a181991ea95c",
       "ef76bea4dae9a6cb6013cf2cbce0e2a8b94d7f4ec5c2f51b1325a181991ea90c", 252, 0,
       "bf4339376f5542811de615e3313d2b36f6f53c0acfebb482159711201192576a",
       "9bc0f79119cc5604bf02d23b4caede71393cedfbb191434dd016d30177ccbf80",
       "b04b5ab1905a87a86809610e0138dac24b7de924210cd94f7629212d44477ad6",
       "645427e5d00c62a23fb703732fa5d892940935942101e456ecca7bb217c61c452118fec1219202a0edcf038bb6373241578be7217ba85a2687f7a0310b2df19f",
       "add8dd98846a52e5c3497df4d50f900cdb149279b607fef2910fd914c88a012b",
       "8c1272853ef24ef6cb07c8d9e96bd2a7e5e644db3dc7a130ada63f5dbb8fba6a",
       {{"69dbad2aaff2ab565593ed5579ce0dab6797f6096c9a955cc413166d63d718f8", std::nullopt, 8}}},
  };
  return v;
}

}  // namespace

namespace bx::ref::ecvrf {
void PrintTo(const Hit& h, std::ostream* os) { *os << "{nonce " << h.nonce << ", score 0x" << std::hex << h.score << std::dec << "}"; }
}  // namespace bx::ref::ecvrf

TEST(EcvrfConstants, DerivedValuesMatchTheSpec) {
  EXPECT_EQ(F::mul(E::d(), 121666), F::neg(121665));
  EXPECT_EQ(hex(F::encode(E::d())), "a3785913ca4deb75abd841414d0a700098e879777940c78c73fe6f2bee6c0352");
  EXPECT_EQ(hex(F::encode(E::d2())), "59f1b226949bd6eb56b183829a14e00030d1f3eef2808e19e7fcdf56dcd90624");
  EXPECT_EQ(hex(F::encode(F::sqrt_m1())), "b0a00e4a271beec478e42fad0618432fa7d7fb3d99004d2b0bdfc14f8024832b");
  EXPECT_EQ(hex_int(E::L()), "edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010");
  EXPECT_FALSE(F::sqrt_ratio(E::d(), 1).was_square);  // d non-square: the law is complete
  const Point& B = E::base_point();
  EXPECT_EQ(hex(B), "5866666666666666666666666666666666666666666666666666666666666666");
  EXPECT_EQ(hex(F::encode(B.x)), "1ad5258f602d56c9b2a7259560c72c695cdcd6fd31e2a4c0fe536ecdd3366921");
  EXPECT_EQ(F::mul(B.y, 5), 4);
  EXPECT_TRUE(E::is_on_curve(B));
  EXPECT_EQ(E::order(B), E::L());
  EXPECT_TRUE(E::is_on_curve(E::identity()));
  EXPECT_EQ(hex(E::identity()), "0100000000000000000000000000000000000000000000000000000000000000");
}

// k·P against a plain affine double-and-add over add()/dbl(), including 255-bit scalars (bit 254).
TEST(EcvrfScalarMul, MatchesAffineDoubleAndAddOnEveryBit) {
  const Point& B = E::base_point();
  auto affine = [](const Int& k, const Point& P) {
    Point R = E::identity();
    for (long i = k == 0 ? -1 : static_cast<long>(msb(k)); i >= 0; --i) {
      R = E::dbl(R);
      if (bit_test(k, static_cast<unsigned>(i))) R = E::add(R, P);
    }
    return R;
  };
  const Int x16 = E::vrf_key(bytes(rfc9381()[0].sk)).x;
  for (const Int& k : {Int(0), Int(1), Int(2), Int(7), Int(8), Int(1) << 254, x16}) {
    EXPECT_EQ(E::mul(k, B), affine(k, B)) << "k = " << k;
  }
  EXPECT_TRUE(E::is_identity(E::mul(E::L(), B)));
  EXPECT_EQ(E::mul(E::L() - 1, B), E::neg(B));
  EXPECT_EQ(E::mul(E::L() + 1, B), B);
  EXPECT_EQ(E::mul((Int(1) << 255) - 1, B), E::mul(((Int(1) << 255) - 1) % E::L(), B));
  EXPECT_THROW(E::mul(-1, B), std::invalid_argument);
}

TEST(EcvrfRfc9381, SecretScalarAndPublicKey) {
  for (const auto& v : rfc9381()) {
    SCOPED_TRACE(v.name);
    const E::VrfKey k = E::vrf_key(bytes(v.sk));
    EXPECT_EQ(hex_int(k.x), v.x);
    EXPECT_EQ(hex_int(k.x_mod_l), v.x_mod_l);
    EXPECT_EQ(msb(k.x), 254u);  // clamped: exactly 255 bits
    EXPECT_EQ(k.x % 8, 0);
    EXPECT_EQ(msb(k.x_mod_l) + 1, v.x_mod_l_bits);
    EXPECT_EQ(hex(k.pk), v.pk);
  }
  EXPECT_THROW(E::vrf_key(bytes("00")), std::invalid_argument);
}

TEST(EcvrfRfc9381, HashInputOfEx16Ctr0) {
  const auto& v = rfc9381()[0];
  EXPECT_EQ(hex(E::tai_hash_input(bytes(v.pk), bytes(v.alpha), 0)),
            "0301d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a0000");
  EXPECT_THROW(E::tai_hash_input(bytes("0102"), {}, 0), std::invalid_argument);
}

TEST(EcvrfRfc9381, CandidatesAndTheirStrictDecodeOutcomes) {
  for (const auto& v : rfc9381()) {
    SCOPED_TRACE(v.name);
    const E::TaiResult t = E::encode_to_curve_tai(bytes(v.pk), bytes(v.alpha));
    ASSERT_EQ(t.tries.size(), v.candidates.size());
    for (size_t i = 0; i < t.tries.size(); ++i) {
      const E::TaiTry& got = t.tries[i];
      const Candidate& want = v.candidates[i];
      EXPECT_EQ(got.ctr, i);
      EXPECT_EQ(hex(got.candidate), want.bytes);
      if (want.error) {
        ASSERT_TRUE(std::holds_alternative<DecodeError>(got.decoded)) << show(got.decoded);
        EXPECT_EQ(std::get<DecodeError>(got.decoded), *want.error);
        EXPECT_FALSE(got.cleared);
      } else {
        const auto P = point_of(got.decoded);
        ASSERT_TRUE(P) << show(got.decoded);
        EXPECT_TRUE(E::is_on_curve(*P));
        EXPECT_EQ(E::torsion_order(*P), want.torsion);
        EXPECT_EQ(E::order(*P), E::L() * want.torsion);
        ASSERT_TRUE(got.cleared);
        EXPECT_EQ(*got.cleared, E::mul_by_cofactor(*P));
        EXPECT_TRUE(E::in_prime_subgroup(*got.cleared));
      }
    }
    ASSERT_TRUE(t.ctr);
    EXPECT_EQ(*t.ctr, v.ctr);
    ASSERT_TRUE(t.h);
    EXPECT_EQ(hex(*t.h), v.h);
  }
}

TEST(EcvrfRfc9381, EndToEndGammaAndBeta) {
  for (const auto& v : rfc9381()) {
    SCOPED_TRACE(v.name);
    const E::VrfTrace t = E::vrf_trace(bytes(v.sk), bytes(v.alpha));
    EXPECT_EQ(hex(t.key.pk), v.pk);
    ASSERT_TRUE(t.tai.ctr && t.tai.h && t.gamma && t.gamma8 && t.beta);
    EXPECT_EQ(*t.tai.ctr, v.ctr);
    EXPECT_EQ(hex(*t.tai.h), v.h);
    EXPECT_EQ(hex(*t.gamma), v.gamma);
    EXPECT_EQ(hex(*t.gamma8), v.gamma8);
    EXPECT_EQ(hex(*t.beta), v.beta);
    EXPECT_EQ(E::mul(t.key.x_mod_l, *t.tai.h), *t.gamma);  // H is in the order-L subgroup
    EXPECT_EQ(hex(E::proof_to_hash(*t.gamma)), v.beta);
  }
}

// The explicit "no H within ctr <= 255" outcome, and the lax decoder of type (c) taking Ex17's ctr 0.
TEST(EcvrfRfc9381, TryAndIncrementOutcomesUnderSubstitutedDecoders) {
  const auto& v = rfc9381()[1];
  const auto pk = bytes(v.pk), alpha = bytes(v.alpha);
  const E::TaiResult none =
      E::encode_to_curve_tai(pk, alpha, [](std::span<const uint8_t>) -> E::Decoded { return DecodeError::not_square; });
  EXPECT_FALSE(none.ctr);
  EXPECT_FALSE(none.h);
  ASSERT_EQ(none.tries.size(), 256u);
  EXPECT_EQ(none.tries.back().ctr, 255);
  const E::TaiResult small =
      E::encode_to_curve_tai(pk, alpha, [](std::span<const uint8_t>) -> E::Decoded { return E::torsion_points()[3]; });
  EXPECT_FALSE(small.ctr);
  ASSERT_EQ(small.tries.size(), 256u);
  ASSERT_TRUE(small.tries[7].cleared);
  EXPECT_TRUE(E::is_identity(*small.tries[7].cleared));
  const E::TaiResult lax_c = E::encode_to_curve_tai(
      pk, alpha, [](std::span<const uint8_t> s) { return E::decode_lax(s, {.skip_square_check = true}); });
  ASSERT_TRUE(lax_c.ctr);
  EXPECT_EQ(*lax_c.ctr, 0);  // strict: 1
  EXPECT_FALSE(E::is_on_curve(must_point(lax_c.tries[0].decoded)));
}

// ---- Oracles (spec §4.3, §4.4) ----

TEST(EcvrfOracles, LibsodiumRecipeReproducesAllThreeVectors) {
  for (const auto& v : rfc9381()) {
    SCOPED_TRACE(v.name);
    const auto s = E::sodium_vrf(bytes(v.sk), bytes(v.alpha));
    ASSERT_TRUE(s);
    EXPECT_EQ(hex(s->pk), v.pk);
    EXPECT_EQ(s->ctr, v.ctr);
    EXPECT_EQ(hex(s->h), v.h);
    EXPECT_EQ(hex(s->gamma), v.gamma);
    EXPECT_EQ(hex(s->gamma8), v.gamma8);
    EXPECT_EQ(hex(s->beta), v.beta);
    // x mod L through _noclamp gives the same Gamma (the clamping variant would re-clamp it).
    const auto g = E::sodium_scalarmult_noclamp(int_bytes(E::vrf_key(bytes(v.sk)).x_mod_l), s->h);
    ASSERT_TRUE(g);
    EXPECT_EQ(hex(*g), v.gamma);
  }
}

TEST(EcvrfOracles, OpenSslFixedBaseReproducesPk) {
  for (const auto& v : rfc9381()) {
    const auto pk = E::openssl_ed25519_pk(bytes(v.sk));
    ASSERT_TRUE(pk) << v.name;
    EXPECT_EQ(hex(*pk), v.pk) << v.name;
  }
  EXPECT_THROW(E::openssl_ed25519_pk(bytes("00")), std::invalid_argument);
}

TEST(EcvrfOracles, OpenSslUCoordinateMatchesGamma) {
  for (const auto& v : rfc9381()) {
    SCOPED_TRACE(v.name);
    const E::VrfTrace t = E::vrf_trace(bytes(v.sk), bytes(v.alpha));
    ASSERT_TRUE(t.gamma);
    const Bytes32 u_h = E::montgomery_u(*t.tai.h);
    EXPECT_EQ(hex(u_h), v.u_h);
    EXPECT_EQ(hex(E::montgomery_u(*t.gamma)), v.u_gamma);
    const auto u = E::openssl_gamma_u(bytes(v.sk), u_h);
    ASSERT_TRUE(u);
    EXPECT_EQ(hex(*u), v.u_gamma);
  }
}

TEST(EcvrfOracles, RandomKeysAndAlphasAgreeWithLibsodiumAndOpenSsl) {
  check_few(kFewCases / 2, [] {
    const auto sk = *rc::gen::arbitrary<Bytes32>();
    const auto alpha = *rc::gen::container<std::vector<uint8_t>>(*rc::gen::inRange<size_t>(0, 48),
                                                                   rc::gen::arbitrary<uint8_t>());
    const E::VrfTrace t = E::vrf_trace(sk, alpha);
    const auto s = E::sodium_vrf(sk, alpha);
    RC_ASSERT(t.beta.has_value());
    RC_ASSERT(s.has_value());
    RC_ASSERT(hex(t.key.pk) == hex(s->pk));
    RC_ASSERT(*t.tai.ctr == s->ctr);
    RC_ASSERT(hex(*t.tai.h) == hex(s->h));
    RC_ASSERT(hex(*t.gamma) == hex(s->gamma));
    RC_ASSERT(hex(*t.beta) == hex(s->beta));
    const auto pk = E::openssl_ed25519_pk(sk);
    const auto u = E::openssl_gamma_u(sk, E::montgomery_u(*t.tai.h));
    RC_ASSERT(pk.has_value());
    RC_ASSERT(u.has_value());
    RC_ASSERT(hex(*pk) == hex(t.key.pk));
    RC_ASSERT(hex(*u) == hex(E::montgomery_u(*t.gamma)));
  });
}

// Any two points of the full group (torsion components included): crypto_core_ed25519_add only checks
// "on the curve".
TEST(EcvrfOracles, GoldenAddMatchesLibsodium) {
  check_few(kFewCases, [] {
    const Point P = random_point(), Q = random_point();
    const auto s = E::sodium_add(E::encode(P), E::encode(Q));
    RC_ASSERT(s.has_value());
    RC_ASSERT(hex(*s) == hex(E::add(P, Q)));
    RC_ASSERT(E::add(P, Q) == E::add(Q, P));
  });
}

TEST(EcvrfOracles, GoldenScalarMulMatchesLibsodiumOnTheOrderLSubgroup) {
  check_few(kFewCases, [] {
    const Point P = E::mul(random_scalar_mod_l(), E::base_point());
    Bytes32 n = *rc::gen::arbitrary<Bytes32>();
    n[31] &= 0x7f;  // libsodium clears bit 255; every other bit counts
    const Int k = bx::ref::from_le_bytes(n.data(), 32);
    const Point want = E::mul(k, P), want_base = E::mul(k, E::base_point());
    const auto got = E::sodium_scalarmult_noclamp(n, E::encode(P));
    const auto got_base = E::sodium_scalarmult_base_noclamp(n);
    // libsodium refuses an identity input or result (and k = 0).
    RC_ASSERT(got.has_value() == !(E::is_identity(P) || E::is_identity(want)));
    if (got) {
      RC_ASSERT(hex(*got) == hex(want));
    }
    RC_ASSERT(got_base.has_value() == !E::is_identity(want_base));
    if (got_base) {
      RC_ASSERT(hex(*got_base) == hex(want_base));
    }
  });
}

// ---- Decoding (spec §2.3) ----

namespace {
const std::set<int> kYpjOnCurve = {0, 1, 3, 4, 5, 6, 9, 10, 14, 15, 16, 18};  // y = p + j decodes when reduced
const std::set<int> kTaiChanges = {3, 4, 5, 6, 9, 10, 14, 15, 16, 18};
const E::Laxness kLaxA{.reduce_y = true};
const E::Laxness kLaxB{.accept_x_zero_sign = true};
const E::Laxness kLaxAB{.reduce_y = true, .accept_x_zero_sign = true};
const Bytes32 kOneSigned = b32("0100000000000000000000000000000000000000000000000000000000000080");
const Bytes32 kMinusOneSigned = b32("ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff");
}  // namespace

TEST(EcvrfDecoding, StrictRejectsEveryYAtLeastPAndLaxTypeAReducesIt) {
  std::set<std::string> accepted_ab;
  std::set<uint8_t> first_bytes;
  for (int j = 0; j <= 18; ++j)
    for (bool sign : {false, true}) {
      const Bytes32 s = int_bytes(F::p() + j, sign);
      SCOPED_TRACE("y = p + " + std::to_string(j) + (sign ? ", sign set" : ""));
      const auto strict = E::decode(s), a = E::decode_lax(s, kLaxA), ab = E::decode_lax(s, kLaxAB);
      ASSERT_FALSE(point_of(strict)) << show(strict);
      EXPECT_EQ(std::get<DecodeError>(strict), DecodeError::y_not_below_p);
      EXPECT_EQ(std::get<DecodeError>(E::decode_lax(s, kLaxB)), DecodeError::y_not_below_p);
      // (a) behaves exactly as strict on the canonical encoding of y = j.
      EXPECT_EQ(show(a), show(E::decode(int_bytes(j, sign))));
      if (kYpjOnCurve.count(j)) {
        ASSERT_TRUE(point_of(ab)) << show(ab);
        EXPECT_TRUE(E::is_on_curve(must_point(ab)));
        EXPECT_EQ(point_of(ab)->y, j);
        accepted_ab.insert(hex(s));
        first_bytes.insert(s[0]);
        EXPECT_EQ(s[31], sign ? 0xff : 0x7f);
      } else {
        EXPECT_EQ(show(ab), "not_square");
      }
    }
  EXPECT_EQ(accepted_ab.size(), 24u);
  EXPECT_EQ(first_bytes, (std::set<uint8_t>{0xed, 0xee, 0xf0, 0xf1, 0xf2, 0xf3, 0xf6, 0xf7, 0xfb, 0xfc, 0xfd, 0xff}));
  // y = p + 1 with the sign set needs (a) and (b) together.
  const Bytes32 ee = b32("eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff");
  EXPECT_EQ(show(E::decode_lax(ee, kLaxA)), "x_zero_sign_set");
  EXPECT_EQ(must_point(E::decode_lax(ee, kLaxAB)), E::identity());
}

TEST(EcvrfDecoding, XZeroWithSignSetOnlyUnderTypeB) {
  EXPECT_EQ(show(E::decode(kOneSigned)), "x_zero_sign_set");
  EXPECT_EQ(show(E::decode(kMinusOneSigned)), "x_zero_sign_set");
  EXPECT_EQ(show(E::decode_lax(kOneSigned, kLaxA)), "x_zero_sign_set");
  EXPECT_EQ(must_point(E::decode_lax(kOneSigned, kLaxB)), E::identity());
  EXPECT_EQ(must_point(E::decode_lax(kMinusOneSigned, kLaxB)), (Point{0, F::p() - 1}));
  EXPECT_EQ(hex(must_point(E::decode_lax(kOneSigned, kLaxB))), hex(E::identity()));  // re-encoded canonically
  EXPECT_EQ(must_point(E::decode(int_bytes(1))), E::identity());
  EXPECT_EQ(must_point(E::decode(int_bytes(F::p() - 1))), (Point{0, F::p() - 1}));
}

// The 24 + 2 lax-only encodings: strict rejects all 26; libsodium's decoder is exactly type (a)+(b),
// and the §4.3 recipe's byte rejects on top of it make it strict.
TEST(EcvrfDecoding, LaxOnlyEncodingsAndLibsodiumsDecoders) {
  std::vector<Bytes32> lax_only = {kOneSigned, kMinusOneSigned};
  for (int j : kYpjOnCurve)
    for (bool sign : {false, true}) lax_only.push_back(int_bytes(F::p() + j, sign));
  ASSERT_EQ(lax_only.size(), 26u);
  for (const Bytes32& s : lax_only) {
    SCOPED_TRACE(hex(s));
    EXPECT_FALSE(point_of(E::decode(s)));
    const auto P = point_of(E::decode_lax(s, kLaxAB));
    ASSERT_TRUE(P);
    const auto sodium = E::sodium_add(s, E::encode(E::identity()));
    ASSERT_TRUE(sodium);
    EXPECT_EQ(hex(*sodium), hex(*P));
    EXPECT_FALSE(E::sodium_strict_decode(s));
  }
  for (int j = 0; j <= 18; ++j)
    if (!kYpjOnCurve.count(j)) {
      EXPECT_FALSE(E::sodium_add(int_bytes(F::p() + j), E::encode(E::identity()))) << j;
    }
}

TEST(EcvrfDecoding, LibsodiumRecipeDecoderEqualsStrictOnRandomStrings) {
  check_few(4 * kFewCases, [] {
    const Bytes32 s = *rc::gen::arbitrary<Bytes32>();
    const auto strict = E::decode(s);
    const auto sodium = E::sodium_strict_decode(s);
    RC_ASSERT(sodium.has_value() == point_of(strict).has_value());
    if (sodium) {
      RC_ASSERT(hex(*sodium) == hex(s));  // strict accepts only canonical encodings
    }
  });
}

// TAI's ×8 turns the small-order lax-only points into the identity (the loop moves on as under
// rejection); the 20 others would give an H: the only encodings where a type (a) decoder changes TAI.
TEST(EcvrfDecoding, LaxOnlyEncodingsThatChangeTai) {
  int changes = 0;
  for (int j : kYpjOnCurve)
    for (bool sign : {false, true}) {
      const Point P = must_point(E::decode_lax(int_bytes(F::p() + j, sign), kLaxAB));
      EXPECT_EQ(E::is_small_order(P), !kTaiChanges.count(j)) << "p + " << j << (sign ? " signed" : "");
      changes += !E::is_small_order(P);
    }
  EXPECT_EQ(changes, 20);
  EXPECT_TRUE(E::is_small_order(must_point(E::decode_lax(kOneSigned, kLaxB))));
  EXPECT_TRUE(E::is_small_order(must_point(E::decode_lax(kMinusOneSigned, kLaxB))));
}

// (c) differs from strict exactly where strict finds a non-square, and then yields a point off the curve.
TEST(EcvrfDecoding, SkipSquareCheckDiffersExactlyOnNonSquares) {
  const Bytes32 ex17_ctr0 = b32(rfc9381()[1].candidates[0].bytes);
  EXPECT_EQ(show(E::decode(ex17_ctr0)), "not_square");
  EXPECT_FALSE(E::is_on_curve(must_point(E::decode_lax(ex17_ctr0, {.skip_square_check = true}))));
  check_few(4 * kFewCases, [] {
    const Bytes32 s = *rc::gen::arbitrary<Bytes32>();
    const auto strict = E::decode(s), c = E::decode_lax(s, {.skip_square_check = true});
    const bool non_square = !point_of(strict) && std::get<DecodeError>(strict) == DecodeError::not_square;
    if (non_square) {
      RC_ASSERT(point_of(c).has_value());
      RC_ASSERT(!E::is_on_curve(must_point(c)));
    } else {
      RC_ASSERT(show(c) == show(strict));
    }
  });
}

// (d) reads bit 255 as 0: strict on the cleared string; it differs from strict exactly on strings with
// bit 255 set that strict accepts (it returns the negation) or rejects as x = 0 with the sign set.
TEST(EcvrfDecoding, IgnoreSignBitDiffersExactlyOnSignedEncodings) {
  EXPECT_EQ(must_point(E::decode_lax(kOneSigned, {.ignore_sign_bit = true})), E::identity());
  Bytes32 minus_b = E::encode(E::base_point());
  minus_b[31] |= 0x80;
  EXPECT_EQ(must_point(E::decode(minus_b)), E::neg(E::base_point()));
  EXPECT_EQ(must_point(E::decode_lax(minus_b, {.ignore_sign_bit = true})), E::base_point());
  check_few(4 * kFewCases, [] {
    const Bytes32 s = *rc::gen::arbitrary<Bytes32>();
    Bytes32 cleared = s;
    cleared[31] &= 0x7f;
    const auto strict = E::decode(s), dd = E::decode_lax(s, {.ignore_sign_bit = true});
    RC_ASSERT(show(dd) == show(E::decode(cleared)));
    if (!(s[31] & 0x80)) {
      RC_ASSERT(show(dd) == show(strict));
    } else if (point_of(strict)) {
      RC_ASSERT(must_point(dd) == E::neg(must_point(strict)));
    }
  });
}

TEST(EcvrfDecoding, EncodeDecodeRoundTripAndCurveMembership) {
  check_few(kFewCases, [] {
    const Point P = random_point();
    RC_ASSERT(E::is_on_curve(P));
    const auto dec = E::decode(E::encode(P));
    RC_ASSERT(point_of(dec).has_value());
    RC_ASSERT(must_point(dec) == P);
  });
}

TEST(EcvrfDecoding, WrongLengthThrows) {
  EXPECT_THROW(E::decode(bytes("01")), std::invalid_argument);
  EXPECT_THROW(E::decode(std::vector<uint8_t>(33)), std::invalid_argument);
  EXPECT_THROW(E::decode_lax(std::vector<uint8_t>(31), kLaxAB), std::invalid_argument);
}

// ---- Torsion (spec §2.4) ----

TEST(EcvrfTorsion, EightEncodingsOrdersAndCompleteLaw) {
  const std::vector<std::pair<std::string, int>> spec = {
      {"0100000000000000000000000000000000000000000000000000000000000000", 1},
      {"ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", 2},
      {"0000000000000000000000000000000000000000000000000000000000000000", 4},
      {"0000000000000000000000000000000000000000000000000000000000000080", 4},
      {"26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05", 8},
      {"26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85", 8},
      {"c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a", 8},
      {"c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa", 8},
  };
  std::set<std::string> want, got;
  for (const auto& [enc, order] : spec) {
    SCOPED_TRACE(enc);
    want.insert(enc);
    const auto T = point_of(E::decode(b32(enc)));
    ASSERT_TRUE(T);
    EXPECT_TRUE(E::is_on_curve(*T));
    EXPECT_EQ(E::order(*T), order);
    EXPECT_EQ(E::torsion_order(*T), order);
    EXPECT_TRUE(E::is_small_order(*T));
    EXPECT_EQ(E::add(*T, *T), E::dbl(*T));
    EXPECT_TRUE(E::is_identity(E::add(*T, E::neg(*T))));
    EXPECT_EQ(E::mul_by_cofactor(*T), E::identity());
  }
  const auto& table = E::torsion_points();
  for (int k = 0; k < 8; ++k) {
    got.insert(hex(table[k]));
    EXPECT_EQ(E::order(table[k]), 8 / std::gcd(k, 8)) << "k = " << k;
    EXPECT_EQ(E::mul(k, table[1]), table[k]);
  }
  EXPECT_EQ(got, want);
  // 8(P + T) = 8P for every torsion T, and P + T keeps P's order-L part.
  const Point& B = E::base_point();
  for (const Point& T : table) {
    EXPECT_EQ(E::mul_by_cofactor(E::add(B, T)), E::mul_by_cofactor(B));
    EXPECT_EQ(E::add(E::add(B, T), E::neg(T)), B);
  }
}

TEST(EcvrfTorsion, DoublingAgreesWithAdditionOnRandomPoints) {
  check_few(kFewCases, [] {
    const Point P = random_point();
    RC_ASSERT(E::dbl(P) == E::add(P, P));
    RC_ASSERT(E::is_identity(E::add(P, E::neg(P))));
    RC_ASSERT(E::mul(3, P) == E::add(E::dbl(P), P));
  });
}

// ---- The search job (spec §9) ----

namespace {
struct WorkedExample {
  uint64_t nonce;
  uint8_t ctr;
  std::string h, gamma;
  uint64_t score;
};
const std::vector<WorkedExample> kWorked = {
    {0, 0, "b8f7970ad5967478b3317f7b6d84439c002b222add9fa9ed3a9bd1a9be9d8a5d",
     "fffa802f1b54099a8f593e14912d399f2292e2d8cb5e97ab0da8f56d7aed26fe", 0x55f759d5793adb8bull},
    {1, 0, "47d367fa137ef304f641795e475448edae51e505f5fed2776d0860c6d7ea3d04",
     "d19f15e3bf6f8afa1cffb4d471a2c7002a3450aab03e969f649195de0347b31f", 0xc0a2f748a72b78ebull},
    {0xffffffffull, 2, "665e06335a5839e2efb9d483c482c4aa0d978dfe18d56aa94e769a7546f7a615",
     "3e79a877ca1a540e1e58c59fd91bc8ba8d2097964b760f46750f8bd374d5d8b1", 0x6e155162bfdd6a9full},
    {0x100000000ull, 0, "25e840e66f7874e066e53a8ef40cc1f801dcf64753e1f8560d983c93bb344688",
     "fa2455727991f4a1c6ce26e5de0e2f614909628facee2040212a17f81c93166c", 0xdaba37dfa5d476e5ull},
    {UINT64_MAX, 0, "be6cfc3296169af8ddca7c7b431545c41e8b0d91785c3f1dfb392476b3f8d197",
     "8e0c85ce3c79b9d2a5eb1d6adee82f2b182e900f08459b77250e3aeac825783e", 0x5a2bd05a5d188066ull},
};
const Bytes32 kZeroHeader{};
std::vector<uint8_t> sk16() { return bytes(rfc9381()[0].sk); }
}  // namespace

TEST(EcvrfJob, WorkedExamples) {
  const E::VrfKey key = E::vrf_key(sk16());
  for (const auto& w : kWorked) {
    SCOPED_TRACE("nonce " + std::to_string(w.nonce));
    const auto alpha = E::job_alpha(kZeroHeader, w.nonce);
    for (int i = 0; i < 8; ++i) EXPECT_EQ(alpha[32 + i], static_cast<uint8_t>(w.nonce >> (8 * i)));
    const E::VrfTrace t = E::vrf_trace(key, alpha);
    ASSERT_TRUE(t.beta);
    EXPECT_EQ(*t.tai.ctr, w.ctr);
    EXPECT_EQ(hex(*t.tai.h), w.h);
    EXPECT_EQ(hex(*t.gamma), w.gamma);
    EXPECT_EQ(E::score(*t.beta), w.score);
    if (w.nonce == 0) {
      EXPECT_EQ(hex(*t.beta),
                "55f759d5793adb8b60c5693c667b52049a40636fed36ea84aece3040824661479ce4f39c19dfd5b82e1f8fd6ae636efc38c167b35aeb981b95682302b6b318d5");
    }
  }
}

TEST(EcvrfJob, SearchReportsExactlyTheHitsBelowTarget) {
  const uint64_t s0 = kWorked[0].score, s1 = kWorked[1].score;
  ASSERT_LT(s0, s1);
  EXPECT_EQ(E::search(sk16(), kZeroHeader, 0, 2, s0 + (s1 - s0) / 2), (std::vector<E::Hit>{{0, s0}}));
  EXPECT_EQ(E::search(sk16(), kZeroHeader, 0, 2, s0), std::vector<E::Hit>{});  // strict: score < target
  EXPECT_EQ(E::search(sk16(), kZeroHeader, 0, 2, s0 + 1), (std::vector<E::Hit>{{0, s0}}));
  EXPECT_EQ(E::search(sk16(), kZeroHeader, 0, 2, UINT64_MAX), (std::vector<E::Hit>{{0, s0}, {1, s1}}));
  EXPECT_EQ(E::search(sk16(), kZeroHeader, 0, 2, 0), std::vector<E::Hit>{});
  EXPECT_EQ(E::search(sk16(), kZeroHeader, 0, 0, UINT64_MAX), std::vector<E::Hit>{});
  // Across 2^32, and a range ending at 2^64.
  EXPECT_EQ(E::search(sk16(), kZeroHeader, 0xffffffffull, 2, 0x7000000000000000ull),
            (std::vector<E::Hit>{{0xffffffffull, kWorked[2].score}}));
  EXPECT_EQ(E::search(sk16(), kZeroHeader, UINT64_MAX, 1, UINT64_MAX), (std::vector<E::Hit>{{UINT64_MAX, kWorked[4].score}}));
}

TEST(EcvrfJob, BadInputThrows) {
  EXPECT_THROW(E::search(sk16(), bytes("00"), 0, 1, 1), std::invalid_argument);
  EXPECT_THROW(E::search(bytes("00"), kZeroHeader, 0, 1, 1), std::invalid_argument);
  EXPECT_THROW(E::search(sk16(), kZeroHeader, UINT64_MAX, 2, 1), std::invalid_argument);
  EXPECT_THROW(E::job_alpha(std::vector<uint8_t>(31), 0), std::invalid_argument);
}

// ---- Wycheproof ed25519_test.json (spec §7) ----

namespace {
// third_party/wycheproof/ed25519_test.json; a missing file fails the test (null here, failure recorded).
nlohmann::json load_wycheproof() {
  const std::string text = bx::test::wycheproof_file("ed25519_test.json");
  return text.empty() ? nlohmann::json(nullptr) : nlohmann::json::parse(text);
}

// Cofactorless: strict decodes of A and R, S < L, [S]B = R + [k]A with k = SHA-512(R ‖ A ‖ M) mod L.
bool verify_cofactorless(const std::vector<uint8_t>& pk, const std::vector<uint8_t>& msg,
                         const std::vector<uint8_t>& sig) {
  if (pk.size() != 32 || sig.size() != 64) return false;
  const std::span<const uint8_t> r_bytes(sig.data(), 32);
  const auto A = E::decode(pk), R = E::decode(r_bytes);
  if (!point_of(A) || !point_of(R)) return false;
  const Int S = bx::ref::from_le_bytes(sig.data() + 32, 32);
  if (S >= E::L()) return false;
  std::vector<uint8_t> m(r_bytes.begin(), r_bytes.end());
  m.insert(m.end(), pk.begin(), pk.end());
  m.insert(m.end(), msg.begin(), msg.end());
  const Bytes64 h = E::sha512(m);
  const Int k = bx::ref::from_le_bytes(h.data(), 64) % E::L();
  return E::mul(S, E::base_point()) == E::add(must_point(R), E::mul(k, must_point(A)));
}
}  // namespace

TEST(EcvrfWycheproof, EveryGroupPublicKeyDecodesStrictly) {
  const auto j = load_wycheproof();
  ASSERT_FALSE(j.is_null());
  ASSERT_EQ(j["schema"], "eddsa_verify_schema_v1.json");
  int groups = 0;
  for (const auto& g : j["testGroups"]) {
    ++groups;
    const std::string pk = g["publicKey"]["pk"];
    const auto A = E::decode(bytes(pk));
    EXPECT_TRUE(point_of(A)) << pk << ": " << show(A);
  }
  EXPECT_EQ(groups, 78);
}

TEST(EcvrfWycheproof, CofactorlessVerifyAll151) {
  const auto j = load_wycheproof();
  ASSERT_FALSE(j.is_null());
  ASSERT_EQ(j["schema"], "eddsa_verify_schema_v1.json");
  int n = 0, valid = 0, agree = 0;
  std::map<std::string, int> r_rejects;  // R of the InvalidEncoding/InvalidSignature cases, by reason
  for (const auto& g : j["testGroups"]) {
    const auto pk = bytes(g["publicKey"]["pk"]);
    for (const auto& t : g["tests"]) {
      ++n;
      const auto sig = bytes(t["sig"]);
      const bool want = t["result"] == "valid";
      valid += want;
      const bool got = verify_cofactorless(pk, bytes(t["msg"]), sig);
      if (got == want)
        ++agree;
      else
        ADD_FAILURE() << "tcId " << t["tcId"] << " (" << t["comment"] << "): expected " << t["result"];
      const auto& flags = t["flags"];
      const bool r_case = std::find(flags.begin(), flags.end(), "InvalidEncoding") != flags.end() ||
                          std::find(flags.begin(), flags.end(), "InvalidSignature") != flags.end();
      if (r_case && sig.size() == 64) {
        const auto R = E::decode(std::span<const uint8_t>(sig.data(), 32));
        if (!point_of(R)) ++r_rejects[std::string(E::name(std::get<DecodeError>(R)))];
        if (t["tcId"] == 151) {
          EXPECT_EQ(show(R), "x_zero_sign_set");
        }
      }
    }
  }
  EXPECT_EQ(n, 151);
  EXPECT_EQ(j["numberOfTests"], 151);
  EXPECT_EQ(valid, 88);
  EXPECT_EQ(agree, 151);
  EXPECT_EQ(r_rejects, (std::map<std::string, int>{{"not_square", 12}, {"x_zero_sign_set", 1}, {"y_not_below_p", 6}}));
}

// ---- djb's Ed25519 sign.input (1,024 keys, messages and signatures), from Debian's
// python3-cryptography-vectors (ci/deps installs it; BX_ED25519_SIGN_INPUT points at another copy).
// Each line: SK||PK : PK : MSG : SIG||MSG : (hex). The reference derives PK from the 32-byte secret, signs MSG
// (RFC 8032 5.1.6: r = SHA-512(prefix || M) mod L, R = rB, S = r + k a mod L) and must give SIG byte for
// byte, and the cofactorless verify must accept it: 1,024 end-to-end checks of the reference's SHA-512,
// clamping, fixed-base multiplication, encoding and scalar arithmetic mod L.
namespace {
std::string sign_input_path() {
  return bx::env_or("BX_ED25519_SIGN_INPUT",
                    "/usr/lib/python3/dist-packages/cryptography_vectors/asymmetric/Ed25519/sign.input");
}

Bytes64 sha512_of(std::initializer_list<std::span<const uint8_t>> parts) {
  std::vector<uint8_t> m;
  for (auto p : parts) m.insert(m.end(), p.begin(), p.end());
  return E::sha512(m);
}

std::vector<uint8_t> le32(const Int& v) { return bx::ref::to_le_bytes(v, 32); }
}  // namespace

TEST(EcvrfSignInput, AllKeysSignaturesAndVerifies1024) {
  const std::string text = bx::test::require_file(sign_input_path());
  ASSERT_FALSE(text.empty()) << "install python3-cryptography-vectors (ci/deps)";
  std::istringstream lines(text);
  std::string line;
  int n = 0, bad = 0;
  while (std::getline(lines, line)) {
    if (line.empty()) continue;
    ++n;
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string x; std::getline(ss, x, ':');) f.push_back(x);
    ASSERT_GE(f.size(), 4u) << "line " << n;
    const auto sk = bytes(f[0].substr(0, 64)), pk = bytes(f[1]), msg = bytes(f[2]), sig_msg = bytes(f[3]);
    ASSERT_EQ(sig_msg.size(), 64 + msg.size()) << "line " << n;
    const std::vector<uint8_t> sig(sig_msg.begin(), sig_msg.begin() + 64);
    const E::VrfKey key = E::vrf_key(sk);
    const Bytes64 h = E::sha512(sk);
    const Int r = bx::ref::from_le_bytes(sha512_of({std::span<const uint8_t>(h.data() + 32, 32), msg}).data(), 64) % E::L();
    const Bytes32 R = E::encode(E::mul(r, E::base_point()));
    const Int k = bx::ref::from_le_bytes(sha512_of({R, key.pk, msg}).data(), 64) % E::L();
    const Int S = (r + k * key.x) % E::L();
    std::vector<uint8_t> mine(R.begin(), R.end());
    const auto s_bytes = le32(S);
    mine.insert(mine.end(), s_bytes.begin(), s_bytes.end());
    const bool ok = std::vector<uint8_t>(key.pk.begin(), key.pk.end()) == pk && mine == sig && verify_cofactorless(pk, msg, sig);
    if (!ok && bad++ < 3) ADD_FAILURE() << "sign.input line " << n << ": public key, signature or verify differs";
  }
  EXPECT_EQ(n, 1024);
  EXPECT_EQ(bad, 0);
  std::printf("sign.input: %d keys signed and verified\n", n);
}
