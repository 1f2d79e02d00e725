// The qpow golden model (reference/qpow) against every known answer of docs/specs/qpow.md §9, the constants'
// provenance (§3), the constants document's checks, the reduction branch values of §8, and properties:
// field operations against a second, independent computation (unsigned __int128 % p, in this test only),
// the miner's midstate/prestate algebra (§6.1-6.3) and the sponge's squeeze-twice prefix.
// Seeds are RapidCheck's (RC_PARAMS; fixed under CTest, printed on failure).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "property_tests/read_file.hpp"
#include "reference/qpow/qpow_ref.hpp"
#include "property_tests/qpow/hash_bytes_kats.hpp"

#ifndef BX_SOURCE_DIR
#error "BX_SOURCE_DIR (the repository root, a string) must be defined by the build"
#endif

namespace Q = bx::ref::qpow;
using Q::Int;
using Q::kP;
using Q::State;

namespace {

using u128 = unsigned __int128;  // test-only cross-check; never the reference's arithmetic
constexpr uint64_t kEps = 0xffffffffull;

uint64_t mod128(u128 x) { return uint64_t(x % kP); }
uint64_t x_add(uint64_t a, uint64_t b) { return mod128(u128(a) + b); }
uint64_t x_sub(uint64_t a, uint64_t b) { return mod128(u128(a % kP) + kP - b % kP); }
uint64_t x_mul(uint64_t a, uint64_t b) { return mod128(u128(a) * b); }

using bx::source_dir;  // the environment wins over the compiled-in path
using bx::test::read_file;

template <class C>
std::string hex(const C& bytes) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (uint8_t b : bytes) {
    s += d[b >> 4];
    s += d[b & 15];
  }
  return s;
}
std::string hex_int(const Int& v, size_t nbytes) {
  std::string s;
  for (size_t i = 0; i < nbytes; ++i) {
    const unsigned byte = static_cast<unsigned>((v >> (8 * (nbytes - 1 - i))) & 0xff);
    static const char* d = "0123456789abcdef";
    s += d[byte >> 4];
    s += d[byte & 15];
  }
  return s;
}
Int int_hex(const std::string& h) { return Int("0x" + h); }
// A 12-word state from space-separated numerals (base 16 or 10).
State words(const std::string& list, int base) {
  std::istringstream in(list);
  State s{};
  std::string w;
  size_t i = 0;
  while (in >> w) {
    if (i == 12) throw std::logic_error("more than 12 words");
    s[i++] = std::stoull(w, nullptr, base);
  }
  if (i != 12) throw std::logic_error("fewer than 12 words");
  return s;
}
State seq(uint64_t first) {
  State s;
  for (int i = 0; i < 12; ++i) s[i] = first + i;
  return s;
}
Q::Header fill(uint8_t b) {
  Q::Header h;
  h.fill(b);
  return h;
}
Q::Header iota_header() {
  Q::Header h;
  for (int i = 0; i < 32; ++i) h[i] = uint8_t(i);
  return h;
}
Int pow2(int k) { return Int(1) << k; }
// The chain test's nonce: 64 bytes of 0x01.
std::string ones64_hex() {
  std::string s;
  for (int i = 0; i < 64; ++i) s += "01";
  return s;
}
uint64_t bswap64(uint64_t v) { return __builtin_bswap64(v); }
uint32_t bswap32(uint32_t v) { return __builtin_bswap32(v); }

// Field operands with the §8 boundary values (lazy ones included) weighted in.
rc::Gen<uint64_t> gen_operand() {
  return rc::gen::weightedOneOf<uint64_t>(
      {{4, rc::gen::element<uint64_t>(0, 1, 2, kP - 2, kP - 1, kP, kP + 1, ~0ull - 1, ~0ull, kEps, kEps + 1,
                                      kEps + 2, 1ull << 48, 1ull << 63, 2 * kEps, 0xfffffffeffffffffull,
                                      0x8000000080000000ull, kP + kEps - 1)},
       {2, rc::gen::inRange<uint64_t>(kP, ~0ull)},
       {6, rc::gen::arbitrary<uint64_t>()}});
}
// U512 nonces with the §8 carry boundaries weighted in.
rc::Gen<Int> gen_nonce() {
  auto random = rc::gen::map(rc::gen::arbitrary<std::array<uint64_t, 8>>(), [](const std::array<uint64_t, 8>& w) {
    Int r = 0;
    for (int i = 7; i >= 0; --i) r = (r << 64) | w[i];
    return r;
  });
  auto edge = rc::gen::element<Int>(Int(0), Int(1), pow2(32) - 1, pow2(32), pow2(64) - 1, pow2(64), pow2(128),
                                    pow2(224), pow2(256) - 1, pow2(256), Q::kU512Max);
  return rc::gen::weightedOneOf<Int>({{1, edge}, {4, random}});
}

void expect_parse_error(const std::string& text, const std::string& needle) {
  try {
    Q::parse_constants(text);
    ADD_FAILURE() << "parse_constants accepted a document that should fail with \"" << needle << "\"";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("qpow constants: ", 0), 0u) << what;
    EXPECT_NE(what.find(needle), std::string::npos) << "message \"" << what << "\" lacks \"" << needle << "\"";
  }
}
std::string replace_once(std::string s, const std::string& from, const std::string& to) {
  const size_t at = s.find(from);
  if (at == std::string::npos || s.find(from, at + 1) != std::string::npos)
    throw std::logic_error("replace_once: \"" + from + "\" is not unique in the text");
  return s.replace(at, from.size(), to);
}

}  // namespace

// ======================================== §3 constants ===============================================

TEST(QpowConstants, FirstAndLastValues) {
  const auto& C = Q::constants();
  EXPECT_EQ(C.initial[0][0], 0xc002e770975b1607ull);
  EXPECT_EQ(C.initial[3][11], 0xde795c20a2357af7ull);
  EXPECT_EQ(C.terminal[0][0], 0x7b72c539e0ea4c6eull);
  EXPECT_EQ(C.terminal[3][11], 0xe0a3389266fb6dc9ull);
  EXPECT_EQ(C.internal[0], 0x97f7798a784ad863ull);
  EXPECT_EQ(C.internal[21], 0x5538cdf4f23445d3ull);
  EXPECT_EQ(C.diag[0], 0xc3b6c08e23ba9300ull);
  EXPECT_EQ(C.diag[11], 0xd27dbb6944917b60ull);
  uint64_t dmax = 0;
  for (uint64_t d : C.diag) dmax = std::max(dmax, d);
  EXPECT_EQ(dmax, 0xf3faac6faee378aeull);  // §2: the largest d_i, < 2^64 - 2^59
  EXPECT_LT(dmax, ~0ull - (1ull << 59) + 1);
  const std::array<std::array<uint64_t, 4>, 4> m4{{{2, 3, 1, 1}, {1, 2, 3, 1}, {1, 1, 2, 3}, {3, 1, 1, 2}}};
  EXPECT_EQ(C.m4, m4);
}

TEST(QpowConstants, Checksum) {
  EXPECT_EQ(hex(Q::constants_sha256(Q::constants())), std::string(Q::kConstantsSha256));
  EXPECT_EQ(std::string(Q::kConstantsSha256), "693427cb625ae98b99cf6e5b7ba24da8b936012047365a0fafaf4953fec87461");
}

TEST(QpowConstants, Pcg32KeyWords) {
  const std::array<uint32_t, 8> want{0x71105c7b, 0xd16816d8, 0xbdc4288d, 0x6b2c29b8,
                                     0xb01be39b, 0x519b5c3b, 0x014ce433, 0x7dd4deac};
  EXPECT_EQ(Q::pcg32_seed_words(0x3141592653589793ull), want);
}

// rand_chacha's test_chacha_true_values_a (zero key, blocks 0 and 1): libsodium's DJB ChaCha20 with
// counter from 0 and nonce 0 is ChaCha20Rng's word sequence, block by block.
TEST(QpowConstants, ChaCha20IsRandChachaStream0) {
  const std::vector<uint32_t> want{
      0xade0b876, 0x903df1a0, 0xe56a5d40, 0x28bd8653, 0xb819d2bd, 0x1aed8da0, 0xccef36a8, 0xc70d778b,
      0x7c5941da, 0x8d485751, 0x3fe02477, 0x374ad8b8, 0xf4b8436a, 0x1ca11815, 0x69b687c3, 0x8665eeb2,
      0xbee7079f, 0x7a385155, 0x7c97ba98, 0x0d082d73, 0xa0290fcb, 0x6965e348, 0x3e53c612, 0xed7aee32,
      0x7621b729, 0x434ee69c, 0xb03371d5, 0xd539d874, 0x281fed31, 0x45fb0a51, 0x1f0ae1ac, 0x6f4d794b};
  EXPECT_EQ(Q::chacha20_words({}, 0, 32), want);
  const auto key = Q::pcg32_seed_words(0x3141592653589793ull);
  const auto two = Q::chacha20_words(key, 0, 32);
  const auto second = Q::chacha20_words(key, 1, 16);
  EXPECT_EQ(std::vector<uint32_t>(two.begin() + 16, two.end()), second) << "block counter must address blocks";
}

TEST(QpowConstants, RegeneratedFromChaCha20EqualDataFile) {
  const auto rc = Q::regenerate_round_constants();
  const auto& C = Q::constants();
  EXPECT_EQ(rc.initial, C.initial);
  EXPECT_EQ(rc.terminal, C.terminal);
  EXPECT_EQ(rc.internal, C.internal);
  // No rejection among the 118 draws: the first 236 keystream words (15 blocks) are the constants in order.
  const auto w = Q::chacha20_words(Q::pcg32_seed_words(0x3141592653589793ull), 0, 15 * 16);
  std::vector<uint64_t> all;
  for (const auto& r : C.initial) all.insert(all.end(), r.begin(), r.end());
  for (const auto& r : C.terminal) all.insert(all.end(), r.begin(), r.end());
  all.insert(all.end(), C.internal.begin(), C.internal.end());
  ASSERT_EQ(all.size(), 118u);
  for (size_t k = 0; k < 118; ++k) EXPECT_EQ(uint64_t(w[2 * k]) | uint64_t(w[2 * k + 1]) << 32, all[k]) << "draw " << k;
  EXPECT_GT(236u, 14u * 16u);  // 14 blocks are not enough, so exactly 15 are consumed
}

TEST(QpowConstants, EmbeddedTextEqualsDataFile) {
  const std::string path = source_dir() + "/reference/qpow/poseidon2_goldilocks12_quantus.json";
  const std::string file = read_file(path);
  ASSERT_FALSE(file.empty()) << "cannot read " << path;
  EXPECT_EQ(std::string(Q::embedded_constants_json()), file)
      << "reference/qpow/constants_data.cpp must hold the .json byte for byte";
}

TEST(QpowConstants, ParseRejectsBrokenDocuments) {
  const std::string good(Q::embedded_constants_json());
  ASSERT_EQ(Q::parse_constants(good), Q::constants());
  expect_parse_error(good.substr(0, good.size() / 2), "malformed JSON");
  expect_parse_error("[1, 2]", "not a JSON object");
  expect_parse_error(replace_once(good, "\"0xc002e770975b1607\"", "\"0xffffffff00000001\""),
                     "initial_external[0][0]: value 0xffffffff00000001 is not below p");
  expect_parse_error(replace_once(good, "\"0x5538cdf4f23445d3\"", "\"0xffffffffffffffff\""),
                     "internal[21]: value 0xffffffffffffffff is not below p");
  expect_parse_error(replace_once(good, "693427cb", "793427cb"), "does not match the recomputed checksum");
  expect_parse_error(replace_once(good, ", \"0x2a3dd4505b478fdc\"", ""), "initial_external[0] has 11 entries, expected 12");
  expect_parse_error(replace_once(good, ",\n  \"0x3ec372e7a0fa3786\"", ""), "internal has 21 entries, expected 22");
  expect_parse_error(replace_once(good, "\"0xbca51a8dfe14593a\"", "\"0xbca51a8dfe14593g\""),
                     "initial_external[0][1]: bad hex \"0xbca51a8dfe14593g\"");
  expect_parse_error(replace_once(good, "\"0xbca51a8dfe14593a\"", "\"bca51a8dfe14593a\""), "bad hex");
  expect_parse_error(replace_once(good, "\"0xbca51a8dfe14593a\"", "\"0x\""), "bad hex");
  expect_parse_error(replace_once(good, "\"0xbca51a8dfe14593a\"", "\"0x0bca51a8dfe14593a\""), "bad hex");
  expect_parse_error(replace_once(good, "\"0xbca51a8dfe14593a\"", "12345"), "expected a hex string");
  expect_parse_error(replace_once(good, "\"0xffffffff00000001\"", "\"0xffffffff00000003\""), "modulus is 0xffffffff00000003");
  expect_parse_error(replace_once(good, "[\"0x2\", \"0x3\", \"0x1\", \"0x1\"]", "[\"0x5\", \"0x7\", \"0x1\", \"0x3\"]"),
                     "external_m4 is not the Quantus M4");
  expect_parse_error(replace_once(good, "\"internal_diagonal\"", "\"diagonal\""), "missing field \"internal_diagonal\"");
  // A consistent but altered document (value and sha256 changed together) is not the spec's.
  Q::Constants altered = Q::constants();
  altered.internal[0] = 0x97f7798a784ad864ull;
  const std::string forged = replace_once(replace_once(good, "\"0x97f7798a784ad863\"", "\"0x97f7798a784ad864\""),
                                          std::string(Q::kConstantsSha256), hex(Q::constants_sha256(altered)));
  expect_parse_error(forged, "is not the spec's");
}

// ======================================== §9.1 field and layers =======================================

TEST(QpowField, KnownAnswers) {
  const uint64_t a = 13835875475997267463ull, b = 13593300247443167546ull;
  EXPECT_EQ(Q::add(a, b), 8982431654025850688ull);
  EXPECT_EQ(Q::sub(a, b), 242575228554099917ull);
  EXPECT_EQ(Q::mul(a, b), 16746386726560462281ull);
  EXPECT_EQ(Q::halve(a), 16141309772705925892ull);
  EXPECT_EQ(Q::sbox(a), 5716687150516714629ull);
  EXPECT_EQ(Q::mul(kP - 2, 9223372034707292161ull), 18446744069414584320ull);
  EXPECT_EQ(18446744069414584320ull, kP - 1);
  EXPECT_EQ(Q::inverse(2), 9223372034707292161ull);
  EXPECT_EQ(Q::halve(kP - 2), kP - 1);
  EXPECT_EQ(Q::add(kP - 1, kP - 2), kP - 3);
  EXPECT_EQ(Q::sub(kP - 1, kP - 2), 1u);
  EXPECT_EQ(Q::mul(kP - 1, kP - 2), 2u);
  EXPECT_EQ(Q::sub(3, 5), kP - 2);
  EXPECT_EQ(Q::sbox(0), 0u);
  EXPECT_EQ(Q::sbox(1), 1u);
  EXPECT_EQ(Q::sbox(2), 128u);
  EXPECT_EQ(Q::sbox(5), 78125u);
  EXPECT_EQ(Q::sbox(kEps), kEps);
  EXPECT_EQ(Q::inverse(0), 0u);
  EXPECT_EQ(Q::inverse(kP), 0u);
  EXPECT_EQ(Q::neg(0), 0u);
  EXPECT_EQ(Q::neg(kP), 0u);
  EXPECT_EQ(Q::neg(1), kP - 1);
  // §6.5: lazy p + 5 is 5; canonicalising before the byte swap is what makes the two agree.
  EXPECT_EQ(Q::canonical(kP + 5), 5u);
  EXPECT_EQ(bswap64(kP + 5), 0x06000000ffffffffull);
  EXPECT_EQ(bswap64(Q::canonical(kP + 5)), 0x0500000000000000ull);
}

TEST(QpowField, LayerKnownAnswers) {
  const State m4 = Q::m4_layer({1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4});
  EXPECT_EQ(m4, (State{15, 18, 21, 16, 15, 18, 21, 16, 15, 18, 21, 16}));
  EXPECT_EQ(Q::external_linear(seq(1)), (State{144, 156, 168, 148, 172, 184, 196, 176, 200, 212, 224, 204}));
  EXPECT_EQ(Q::internal_linear(seq(1)),
            words("14102670999874605902 12724564314584031161 2820561051427350843 16542800896675938601 "
                  "15306463738286039492 7752500014678011478 6061018803481092188 7074894295206835361 "
                  "12845226504185330854 9784840285965170449 9819782087245364719 15989125545469266117",
                  10));
  const State zero{};
  EXPECT_EQ(Q::external_linear(zero), zero);
  State s;
  for (int i = 0; i < 12; ++i) s[i] = Q::sbox(Q::add(0, Q::constants().initial[0][i]));
  EXPECT_EQ(s, words("5716687150516714629 12606094110489894541 7176561780833472673 2787933693728327558 "
                     "2372134002172061930 5020691920936401247 15687823912570289724 15071980520517301340 "
                     "751173130886275522 17086029608447879298 4895459708442877360 10576769927437500691",
                     10));
  const State after = words(
      "15870188304392300026 5420667415882104228 4061330223075420786 3907156211996553271 "
      "7220184397568305579 6276399041015305555 10112551490188661599 920706293309282174 "
      "6439956850909369582 10360554408705021829 3933312188334710888 6787120046090971660",
      10);
  EXPECT_EQ(Q::external_linear(s), after);
  const auto trace = Q::permute_trace(zero);
  ASSERT_EQ(trace.size(), 31u);
  EXPECT_EQ(trace[0], zero);
  EXPECT_EQ(trace[1], after);
}

TEST(QpowField, MinerColumns) {
  EXPECT_EQ(Q::me_column(6), (State{1, 3, 2, 1, 2, 6, 4, 2, 1, 3, 2, 1}));
  EXPECT_EQ(Q::me_column(7), (State{1, 1, 3, 2, 2, 2, 6, 4, 1, 1, 3, 2}));
  for (int j = 0; j < 12; ++j) {  // the y + S_k formula (external_linear) and the block matrix agree
    State e{};
    e[j] = 1;
    EXPECT_EQ(Q::external_linear(e), Q::me_column(j)) << "column " << j;
  }
  for (int i = 0; i < 12; ++i) {  // §2: every row of M_E sums to 28
    uint64_t row_sum = 0;
    for (int j = 0; j < 12; ++j) row_sum += Q::me_column(j)[i];
    EXPECT_EQ(row_sum, 28u) << "row " << i;
  }
  EXPECT_THROW(Q::me_column(12), std::out_of_range);
}

// ======================================== §8 boundary values ==========================================

TEST(QpowField, ReductionBranchValues) {
  struct Case {
    uint64_t a, b, raw;
    const char* branch;
  };
  const Case cases[] = {
      {kEps, (1ull << 32) + 1, 0xffffffffffffffffull, "no branch, output >= p"},
      {kEps, 0x8000000080000000ull, 0x7fffffff00000000ull, "carry only"},
      {1ull << 48, 1ull << 48, 0xffffffff00000000ull, "borrow only"},
      {kP - 1, kP - 1, 0xffffffff00000002ull, "borrow, output >= p"},
      {1ull << 48, 0x8000000080000000ull, 0x00007fffffff0000ull, "borrow and carry"},
  };
  for (const auto& c : cases) {
    const u128 x = u128(c.a) * c.b;
    const uint64_t hi = uint64_t(x >> 64), lo = uint64_t(x);
    EXPECT_EQ(c.raw % kP, mod128(x)) << c.branch << ": the raw output is a representative of a*b";
    EXPECT_EQ(Q::reduce128(hi, lo), c.raw % kP) << c.branch;
    EXPECT_EQ(Q::mul(c.a, c.b), c.raw % kP) << c.branch;
    EXPECT_EQ(Q::canonical(c.raw), c.raw % kP) << c.branch;
  }
  EXPECT_EQ(Q::mul(1ull << 48, 1ull << 48), 0xffffffff00000000ull);          // §7 lossy-slip input, exact
  EXPECT_EQ(Q::mul(1ull << 63, 1ull << 63), 0xfffffffec0000001ull);          // §7 second example, exact
  EXPECT_EQ(Q::add(kP - 1, kP - 2), kP - 3);
  EXPECT_EQ(Q::add(~0ull, ~0ull), x_add(~0ull, ~0ull));  // double overflow
  EXPECT_EQ(Q::add(~0ull, ~0ull), 2 * (kEps - 1));
  EXPECT_EQ(Q::add(kP, kP), 0u);
  for (uint64_t a : {~0ull, 0xfffffffeffffffffull, 1ull << 63, 1ull << 48}) {  // squaring carries
    EXPECT_EQ(Q::sqr(a), x_mul(a, a)) << std::hex << a;
    EXPECT_EQ(Q::sqr(a), Q::mul(a, a)) << std::hex << a;
  }
  EXPECT_EQ(kEps * ((1ull << 32) + 1), ~0ull);  // (2^32+1)*EPS = 2^64 - 1
  EXPECT_EQ((1ull << 32) * kEps, kP - 1);       // 2^32*EPS = p - 1
}

RC_GTEST_PROP(QpowFieldProperty, OperationsMatchInt128, ()) {
  const uint64_t a = *gen_operand(), b = *gen_operand();
  RC_ASSERT(Q::add(a, b) == x_add(a, b));
  RC_ASSERT(Q::sub(a, b) == x_sub(a, b));
  RC_ASSERT(Q::mul(a, b) == x_mul(a, b));
  RC_ASSERT(Q::sqr(a) == x_mul(a, a));
  RC_ASSERT(Q::neg(a) == x_sub(0, a));
  RC_ASSERT(Q::canonical(a) == a % kP);
  const uint64_t a2 = x_mul(a, a), a4 = x_mul(a2, a2);
  RC_ASSERT(Q::sbox(a) == x_mul(x_mul(a4, a2), a));
  RC_ASSERT(Q::reduce128(a, b) == mod128(u128(a) << 64 | b));
  RC_ASSERT(x_add(Q::halve(a), Q::halve(a)) == a % kP);
  const uint64_t inv = Q::inverse(a);
  const bool inverse_ok = a % kP == 0 ? inv == 0 : x_mul(a, inv) == 1;
  RC_ASSERT(inverse_ok);
}

RC_GTEST_PROP(QpowFieldProperty, LinearLayersMatchInt128, (std::array<uint64_t, 12> s)) {
  // M_E from the block matrix [[2M4, M4, M4], ...], M_I from J + diag(d), both in 128-bit arithmetic.
  static const std::array<std::array<uint64_t, 4>, 4> M4{{{2, 3, 1, 1}, {1, 2, 3, 1}, {1, 1, 2, 3}, {3, 1, 1, 2}}};
  const auto& d = Q::constants().diag;
  State me, mi, m4;
  u128 sum = 0;
  for (uint64_t v : s) sum += v;
  for (int i = 0; i < 12; ++i) {
    u128 acc = 0, acc4 = 0;
    for (int j = 0; j < 12; ++j) {
      const u128 m = M4[i % 4][j % 4] * (i / 4 == j / 4 ? 2 : 1);
      acc += m * s[j];
      if (i / 4 == j / 4) acc4 += u128(M4[i % 4][j % 4]) * s[j];
    }
    me[i] = mod128(acc);
    m4[i] = mod128(acc4);
    mi[i] = mod128(sum % kP + mod128(u128(d[i]) * s[i]));
  }
  RC_ASSERT(Q::external_linear(s) == me);
  RC_ASSERT(Q::m4_layer(s) == m4);
  RC_ASSERT(Q::internal_linear(s) == mi);
  // Lazy inputs are values mod p: replacing lanes by p-shifted twins changes nothing.
  State lazy = s;
  for (auto& v : lazy)
    if (v < kEps) v += kP;
  RC_ASSERT(Q::permute(lazy) == Q::permute(s));
  for (uint64_t v : Q::permute(s)) RC_ASSERT(v < kP);
}

// ======================================== §9.2 permutations ===========================================

TEST(QpowPermutation, KnownAnswers) {
  EXPECT_EQ(Q::permute(State{}),
            words("c9bc9432e1686884 03ecbab0dcdd2189 5e7ac885b3dc1215 6ac07513801d191f ca5c593fb184dcfc "
                  "414dec5f3e455287 1a17df170127ae41 e7e592bd0af9b0a5 c71a9b27edc66a4c 2728671759ac43c2 "
                  "b9969c20f7f672f9 c5140b586823b92f",
                  16));
  EXPECT_EQ(Q::permute(seq(1)),
            words("7e9574e2a3d6c48b 9d7bc16d282d2f2b 798826626d94a498 0831011bb22304c7 bdccb5931fffd16c "
                  "e98687714dacbefc c6a1ed29dd75e027 1aec96681d15f765 c74b2c710b170a23 5fb4aff45e9c24fb "
                  "1fb3d228db0127eb e201a7e214b16e74",
                  16));
  EXPECT_EQ(Q::permute(seq(0)),  // derived
            words("3c255c29c0029764 3c48ad460707bcbb ed87631c58a59fc8 3b5922b5cf78a93e 0996bcad4c1b17dc "
                  "4c69032fa5763dde 2a22052ca28059ae aac048bf637d0e44 b6ac092db0a4726f 27208f2c604c179f "
                  "2275c76e2b994314 9dd6a3e90b5b02d0",
                  16));
  // §9.2's HorizenLabs vector is a different instance (other M4 and constants): deliberately not tested.
}

RC_GTEST_PROP(QpowPermutationProperty, TraceAndEntryPoints, (std::array<uint64_t, 12> s)) {
  const auto t = Q::permute_trace(s);
  RC_ASSERT(t.size() == 31u);
  RC_ASSERT(t.back() == Q::permute(s));
  RC_ASSERT(t[0] == Q::external_linear(s));
  const auto& C = Q::constants();
  State r0 = t[0];
  for (int i = 0; i < 12; ++i) r0[i] = Q::sbox(Q::add(r0[i], C.initial[0][i]));
  RC_ASSERT(t[1] == Q::external_linear(r0));
  State i0 = t[4];
  i0[0] = Q::sbox(Q::add(i0[0], C.internal[0]));
  RC_ASSERT(t[5] == Q::internal_linear(i0));
  State f0 = t[26];
  for (int i = 0; i < 12; ++i) f0[i] = Q::sbox(Q::add(f0[i], C.terminal[0][i]));
  RC_ASSERT(t[27] == Q::external_linear(f0));
  State pre = t[0];
  for (int i = 0; i < 12; ++i) pre[i] = Q::add(pre[i], C.initial[0][i]);
  RC_ASSERT(Q::permute_from_first_sbox(pre) == Q::permute(s));
}

// ======================================== §9.3 byte and felt hashes ===================================

TEST(QpowSponge, BytesToFelts) {
  EXPECT_EQ(Q::bytes_to_felts({}), std::vector<uint64_t>{1});
  EXPECT_EQ(Q::bytes_to_felts({0xaa}), std::vector<uint64_t>{0x01aa});
  EXPECT_EQ(Q::bytes_to_felts({1, 2, 3}), std::vector<uint64_t>{0x01030201});
  EXPECT_EQ(Q::bytes_to_felts({1, 2, 3, 4}), (std::vector<uint64_t>{0x04030201, 1}));
  EXPECT_EQ(Q::bytes_to_felts({0xff, 0xff, 0xff, 0xff, 0xff}), (std::vector<uint64_t>{0xffffffff, 0x01ff}));
}

TEST(QpowSponge, HashBytesKnownAnswers) {
  const auto kat = bx::qpow::kat::hash_bytes_kats();
  for (const auto& [in, want] : kat) {
    EXPECT_EQ(hex(Q::hash_bytes(in)), want) << in.size() << " bytes " << hex(in);
    const auto two = Q::hash_squeeze_twice(in);
    EXPECT_EQ(hex(std::vector<uint8_t>(two.begin(), two.begin() + 32)), want) << "squeeze-twice prefix";
    std::array<uint8_t, 32> via_felts;
    const auto f = Q::felt_sponge(Q::bytes_to_felts(in));
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 8; ++k) via_felts[8 * j + k] = uint8_t(f[j] >> (8 * k));
    EXPECT_EQ(hex(via_felts), want) << "felt_sponge(bytes_to_felts(x))";
  }
}

TEST(QpowSponge, HashTwiceAndRehash) {
  const std::vector<std::pair<std::vector<uint64_t>, std::string>> kat = {
      {{}, "b8a2f205ad2e2682ab8af6e49946a597920a24d916ca1139b6fce113c207365b"},
      {{0}, "6e962ae00104d1c8907142439156035ad71242caab590a74ba8c9850df03ff11"},
      {{1}, "50be997dba65a402610d93f8fe853b0974fc72e4605effd5603deb900667e497"},
      {{1, 2, 3, 4}, "153624f84074a4503ea9139d64ad54da77849d83eb0e6a8e1f839bfe31c222b5"},
      {{1, 2, 3, 4, 5, 6, 7, 8}, "958293c7f14ec2ef872955b510eee16f041217f37f8db0c0287fbe182afde6af"},
  };
  for (const auto& [in, want] : kat) {
    EXPECT_EQ(hex(Q::hash_twice(in)), want) << in.size() << " felts";
    // hash_twice = rehash_to_bytes of the first hash's bytes (qp-poseidon test_rehash_equals_hash_twice).
    const auto f = Q::felt_sponge(in);
    std::array<uint8_t, 32> first;
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 8; ++k) first[8 * j + k] = uint8_t(f[j] >> (8 * k));
    EXPECT_EQ(hex(Q::rehash_to_bytes(first)), want);
  }
  std::array<uint8_t, 32> x{};
  EXPECT_EQ(hex(Q::rehash_to_bytes(x)), "ca0aefbd2e87c9ecc4716b7db8e83937a45dfb06ea10e1d62a4c2f2784002290");
  for (int i = 0; i < 32; ++i) x[i] = uint8_t(i);
  EXPECT_EQ(hex(Q::rehash_to_bytes(x)), "c0877470eb2fbfc7cc6f22ab70955509de54f3b89856d6a58399a7b7d9d26252");
  x.fill(0xff);
  EXPECT_THROW(Q::rehash_to_bytes(x), std::invalid_argument);
  x.fill(0);
  for (int k = 0; k < 8; ++k) x[24 + k] = uint8_t(kP >> (8 * k));  // limb 3 = p exactly: aliases 0
  EXPECT_THROW(Q::rehash_to_bytes(x), std::invalid_argument);
  for (int k = 0; k < 8; ++k) x[24 + k] = uint8_t((kP - 1) >> (8 * k));
  EXPECT_NO_THROW(Q::rehash_to_bytes(x));
}

RC_GTEST_PROP(QpowSpongeProperty, SqueezeTwicePrefixIsHashBytes, (std::vector<uint8_t> x)) {
  const auto two = Q::hash_squeeze_twice(x);
  const auto one = Q::hash_bytes(x);
  RC_ASSERT(std::equal(one.begin(), one.end(), two.begin()));
  const auto felts = Q::bytes_to_felts(x);
  RC_ASSERT(felts.size() == x.size() / 4 + 1);
  for (uint64_t f : felts) RC_ASSERT(f < (1ull << 32));
  const auto f8 = Q::felt_sponge_squeeze_twice(felts);
  for (int j = 0; j < 8; ++j)
    for (int k = 0; k < 8; ++k) RC_ASSERT(two[8 * j + k] == uint8_t(f8[j] >> (8 * k)));
}

// ======================================== §9.4 mining hashes ==========================================

namespace {
struct MiningKat {
  Q::Header header;
  Int nonce;
  std::string hash;
};
void expect_mining(const MiningKat& k, const char* where) {
  const auto bytes = Q::mining_hash_bytes(k.header, k.nonce);
  EXPECT_EQ(hex(bytes), k.hash) << where << ": header " << hex(k.header) << " nonce " << k.nonce;
  EXPECT_EQ(Q::mining_hash(k.header, k.nonce), int_hex(k.hash)) << where;
  std::vector<uint8_t> in(k.header.begin(), k.header.end());
  const auto be = Q::nonce_be_bytes(k.nonce);
  in.insert(in.end(), be.begin(), be.end());
  EXPECT_EQ(hex(Q::hash_squeeze_twice(in)), k.hash) << where << ": hash_squeeze_twice(header || nonce_be)";
}
}  // namespace

TEST(QpowMining, GoldenVectorsQpPoseidon) {
  const MiningKat kat[] = {
      {fill(0x00), 0, "8e64e3d8e0f38f882e8501f9e525df0a95d2e91e9cfc32c9248d756fb07780e2f8fdca2c5a54441e6fcd8d774a5f6aae72f36d1c76bc19f691a0d4f6c607e8cc"},
      {fill(0x00), 1, "9a18eabb9d910135a553a511209963dfafd2dc62989e2e013c18d626fa17c66fd3899fc3fe2bcc88be8ce416a4bd15e9f157cc5b251112f93938b38617548f6c"},
      {fill(0x01), 123, "0c580156318afca56700b7a2cafa4f44277a6c7ea668717984ed26b8169d277521951b73329d898590e953c35d036726becb74bc29d765112ec99b14d0dc5189"},
      {fill(0xff), pow2(64) - 1, "822f70999ee517f610b51bbb79ba88bfbb19cb77b316df25d8aeb4c2682673555e9fc6a588ee96dcce4ff0d2b8d97f4aa89d0f46c97f9027b386d42b14be5100"},
      {fill(0x2a), 0xdeadbeef, "f974a312ffd7b21ba3e71c499cf178e39d19d178b4483da321da23c48c02e7c874561d93d6e590656905c21a0142a512fe1ebbf69babc904fe1c359f72e5420c"},
  };
  for (const auto& k : kat) expect_mining(k, "9.4(a)");
}

namespace {
struct Kv {
  Q::Header header;
  Int nonce;
  std::string hash, mid;
};
std::vector<Kv> nonce_hash_kvs() {
  return {
      {fill(0x00), 0, "8e64e3d8e0f38f882e8501f9e525df0a95d2e91e9cfc32c9248d756fb07780e2f8fdca2c5a54441e6fcd8d774a5f6aae72f36d1c76bc19f691a0d4f6c607e8cc",
       "8646d336b5a0fccd 818ca59548916345 49475e8bc9c928bc c469163bcdc4900b e4421fafacd59087 633f49b998698d66 4a9067e3883e76da 193039e85ea14472 203d2d3ee6a8eba8 ef5b9ce39bcff072 c16a3c8dd5680003 d77c52ab5bf7cf1f"},
      {fill(0x01), 1, "e4ef79db80b642a093d7e38e6a6daac7ec1cca7293ddbe3710b4e6781be4add0b93f7e3440626df5bb23b757436787ba8d3fd0a2652e387f8af5bd8a5cc2ce2f",
       "788cf743676a5c85 dce1d727e1189b53 36e0e019f5a0bf3a 806487dd9c3bf83f cb6d7300de1ab5fe 7dbe191fa64fc6b7 95dedc7fe99861be b1a3885303f7467d 891eb002a34a0f17 4be4cf057a87208a e9113e7dc541745f faeda908097d00f1"},
      {iota_header(), Int(0x1234567890abcdefull), "7f6c410ce62e7fc54811ad3b8b92664ac0f8b1d2cd6eb163129251146e7ee34d27794aaae1b31eaaeb98ab835bae6a2b9ac4ad6f08c95903e1423f0b865816ff",
       "f6fc848ab2dddc18 fd88d1f0ccda99fe 27cfa43b8ab9947a 6a505b37f02183d3 5f98f1d3524fb0c6 d6de4efd98793e2e f3f205bd1e4d4526 c0c9046201e91dd6 cd2d28eef32b18de a303ecbc8e98000c 3db245e7738f3aca bc55f7553023863e"},
      {fill(0xff), pow2(64) - 1, "822f70999ee517f610b51bbb79ba88bfbb19cb77b316df25d8aeb4c2682673555e9fc6a588ee96dcce4ff0d2b8d97f4aa89d0f46c97f9027b386d42b14be5100",
       "d1fe93daa1f07409 0ea440f2b57a0ecf 3b7a1f3cb2d48e39 43a5a1255658d1b2 ebe00ad8f0fe28c0 b5618e7c6d6072d1 158b7b19f80ec62c 329a91c8de5575c2 d1637d851a474212 2d927735708f3b7d 6219c7cf8ef5af51 802028c39ccd8f13"},
      {fill(0x07), (Int(0xdeadbeefcafeull) << 300) | Int(0x1234567890abcdefull),
       "eab81cdb33db293aef7e1f10f85cb08d17bc197c284d46a25d9dc57cdb7ba878adf3f5c354318121876795aab08c0941afda21d835383faa2f139c26be31a30a",
       "41885398f5b05a0d b7f17cee3f70d242 307aecc5bca54c7e b74164c0d6de7e91 0c0a9b27281c8181 d84ddf12fdddf0ee 88f8cdf552c0a15e 88da4cfbfbf92d22 8c344261349149db 0c0fd0d6a8444652 7a57b00736d58568 9ad40597f4fe2abc"},
  };
}
}  // namespace

TEST(QpowMining, NonceHashKvsAndMidstates) {
  int n = 0;
  for (const auto& kv : nonce_hash_kvs()) {
    ++n;
    expect_mining({kv.header, kv.nonce, kv.hash}, "9.4(b)");
    EXPECT_EQ(Q::midstate(kv.header, kv.nonce), words(kv.mid, 16)) << "KV" << n << " midstate";
  }
}

TEST(QpowMining, GpuGoldenVectors) {
  const MiningKat kat[] = {
      {fill(0x01), 123456789, "715331a49bffbb8c0a42935113041b6d9d17d64952136b7a533627cf6ce280be17a8d61c656543159c68332fb64ab7fe5ec396bb80b71f219ee282ed661a0522"},
      {fill(0xab), pow2(64) - 1, "4933afa670ead2a3e350f9d1a3fda366c85fe6f4bde4746d6e934860a157c658aa69949ec4be51d6b05e7e9ca9dbfc496c1cde141c75501cb5d7778e18f0c193"},
      {iota_header(), 987654321, "c4e198c0c86b117719a86d039d4ee239d2484161af628e34639943338d066a2a140d9cf9c51da80625cdc4d6b8d33513d9bed3faa3f164628d0472d1b9aca392"},
      {fill(0xff), 42, "d637170b8aa94e2d020ae5ccf96149e338cbb5185623f30ec8df4df6497e72f78f9b43cf2475894a4e9d9da8d0e97092f50a8ac0667b247d4c3ccd96194f64d4"},
      {fill(0x07), pow2(40), "8316c75199697e0a7315def7b4b25038a53403cbb3a6c7f43ba65705cab02057fb30dfdf3e2a663808924035ec77fa3d4223ec9044e65b9fb9bb7313813f6614"},
  };
  for (const auto& k : kat) expect_mining(k, "9.4(c)");
}

TEST(QpowMining, DerivedIntermediates) {
  const auto c = Q::absorbed_c(fill(0), 0);
  EXPECT_EQ(c, (std::array<uint64_t, 4>{0x888ff3e0d8e3648eull, 0x0adf25e5f901852eull, 0xc932fc9c1ee9d295ull,
                                        0xe28077b06f758d24ull}));
  EXPECT_EQ(bswap64(c[0]), 0x8e64e3d8e0f38f88ull);
  EXPECT_EQ(Q::mining_hash(fill(0), 0) >> 448, Int(0x8e64e3d8e0f38f88ull));
  EXPECT_EQ(Q::prestate_low64(fill(0), 0),
            words("fb417e232c4bcaac ce354f2db159e45f 82e3a1629069ddb4 ff54ddb43f4d09fd c83e0345164fc14a "
                  "77c6c17e0a3358a3 99534d0c611fa463 2cfa6c6dcd8b967d 27c1587224a286f6 dc46a2c2c9a4d56a "
                  "2730156999ce6f39 1e9b1022c8be145a",
                  16));
  const Int chain_nonce = int_hex(ones64_hex());
  ASSERT_EQ(hex(Q::nonce_be_bytes(chain_nonce)), ones64_hex());
  expect_mining({fill(0x01), chain_nonce,
                 "7200d9e324776e2a2da728ba5d2fb479fc679cc59b7258dfbe38cdc6d528ade6aa42c39f5fe6393cb9abef00a0d9c1612610a894eeaa7323b336a88f8ae7b155"},
                "9.4(d) chain input");
}

TEST(QpowMining, CarryBoundaryNonces) {
  const MiningKat kat[] = {
      {iota_header(), pow2(32) - 1, "41a318dbecec5d908c80a7e5950267fb9c2bbcecf87b40ce7f5f713544f97ee7e74b316f6b6b5adb580bcdecd6036e3669044b1510e9be778fcb545eb91c4737"},
      {iota_header(), pow2(32), "ab898b186ec1150296aaa02cf81c506f1b60f50eb6102c17dd47dd336cdb7532214cb4bf0c5e8504ce9e4f117f34cb71a9792b13143c67822fd3babc416fac2c"},
      {iota_header(), pow2(64) - 1, "b63dbaebd10aa32e0a40d4bf57bd226579c4bebb0e7374911d7abbb90db0afd06fea3616d51a0b64d87b784df06ab92805adb0fb51ca178b7973f36a582fd596"},
      {iota_header(), pow2(64), "ddf630a598fe449556301deda7c9fe1c09fb7464ab7336a4432d18d488c406f8607e7b3e6c25783b320e21dfdb2f2c81e04aefe8c036953a3b5160b2165bf460"},
      {iota_header(), pow2(256) - 1, "885e7a2ab901d94dd06688e3c31ff9992714f5eda4cf4d66dfffbddb2f9aa353f691ff72b7226332c8331aa02fbbe868bb16362c4023d99444377611da02455b"},
      {iota_header(), pow2(256), "d33b265e75febc3db4abd24e1e849612fe5d20cbeecb5d6f287f29288bed8276867ae5a21ec3604cda9261256d4461018bf3232ed57fba5bbb7685b2700783b9"},
      {iota_header(), Q::kU512Max, "ea1bcc6705a0aea6fc71c3aa289fb66864443d7ccba76f2adaf4ba3628f874ecdd3d308b0e738642cd6144247ec3b87ec23b3901ea2040c4c22bf3abd6dc07bb"},
  };
  for (const auto& k : kat) expect_mining(k, "9.4(e)");
  // The wrap 2^512 - 1 -> 0 lands on the hash of nonce 0, which the chain refuses.
  EXPECT_EQ(Q::mining_hash(iota_header(), (Q::kU512Max + 1) & Q::kU512Max), Q::mining_hash(iota_header(), 0));
  EXPECT_FALSE(Q::chain_accepts(iota_header(), 0, 1));
}

TEST(QpowMining, NonceEncoding) {
  EXPECT_THROW(Q::nonce_be_bytes(Int(-1)), std::out_of_range);
  EXPECT_THROW(Q::nonce_be_bytes(pow2(512)), std::out_of_range);
  EXPECT_THROW(Q::mining_hash(fill(0), pow2(512)), std::out_of_range);
  EXPECT_EQ(hex(Q::nonce_be_bytes(0)), std::string(128, '0'));
  EXPECT_EQ(hex(Q::nonce_be_bytes(Q::kU512Max)), std::string(128, 'f'));
  const auto be = Q::nonce_be_bytes(Int(0x0102030405060708ull));
  EXPECT_EQ(hex(std::vector<uint8_t>(be.begin() + 56, be.end())), "0102030405060708");
  EXPECT_EQ(Q::low64_lanes(Int(0x0102030405060708ull)), (std::array<uint64_t, 2>{0x04030201, 0x08070605}));
}

// §6.1-6.3: the miner's shortcuts equal the sponge, for random headers and nonces.
RC_GTEST_PROP(QpowMiningProperty, MidstateAndPrestateAlgebra, (Q::Header header)) {
  const Int nonce = *gen_nonce();
  const auto be = Q::nonce_be_bytes(nonce);
  const Int low64 = nonce & (pow2(64) - 1);
  // Lanes 6, 7 of B2 are bswap32 of bits 63..32 and 31..0.
  const auto x = Q::low64_lanes(nonce);
  RC_ASSERT(x[0] == bswap32(static_cast<uint32_t>(low64 >> 32)));
  RC_ASSERT(x[1] == bswap32(static_cast<uint32_t>(low64 & 0xffffffffu)));
  // Absorb B2 into the midstate; M_E of it + RC_init[0] = prestate + x6*col6 + x7*col7 (§6.2).
  const State mid = Q::midstate(header, nonce);
  State absorbed = mid;
  for (int i = 0; i < 8; ++i) {
    const uint64_t lane = uint64_t(be[32 + 4 * i]) | uint64_t(be[33 + 4 * i]) << 8 | uint64_t(be[34 + 4 * i]) << 16 |
                          uint64_t(be[35 + 4 * i]) << 24;
    absorbed[i] = Q::add(absorbed[i], lane);
  }
  State want = Q::external_linear(absorbed);
  for (int i = 0; i < 12; ++i) want[i] = Q::add(want[i], Q::constants().initial[0][i]);
  const State pre = Q::prestate_low64(header, nonce);
  const State c6 = Q::me_column(6), c7 = Q::me_column(7);
  State injected;
  for (int i = 0; i < 12; ++i) {
    const uint64_t term = x[0] * c6[i] + x[1] * c7[i];  // < 12 * 2^32: no u64 overflow (§6.2)
    RC_ASSERT(term < 12 * (1ull << 32));
    injected[i] = Q::add(pre[i], term);
    RC_ASSERT(injected[i] == Q::add(pre[i], Q::add(Q::mul(x[0], c6[i]), Q::mul(x[1], c7[i]))));
  }
  RC_ASSERT(injected == want);
  // Continue at the first S-box (pi3), absorb B3 = [1, 1, 0...] (pi4): the absorbed lanes c0..c3.
  State s = Q::permute_from_first_sbox(injected);
  s[0] = Q::add(s[0], 1);
  s[1] = Q::add(s[1], 1);
  s = Q::permute(s);
  const auto c = Q::absorbed_c(header, nonce);
  RC_ASSERT((std::array<uint64_t, 4>{s[0], s[1], s[2], s[3]}) == c);
  // The hash: bits 511..256 are bswap64(c_j), bits 255..0 bswap64(e_j) with e = pi5 (§4).
  const State e = Q::permute(s);
  Int h = 0;
  for (int j = 0; j < 4; ++j) h = (h << 64) | bswap64(c[j]);
  for (int j = 0; j < 4; ++j) h = (h << 64) | bswap64(e[j]);
  RC_ASSERT(h == Q::mining_hash(header, nonce));
  // Dependencies: the midstate ignores bits 255..0, the prestate bits 63..0.
  const Int hi256 = nonce >> 256 << 256, hi448 = nonce >> 64 << 64;
  const Int low = *gen_nonce();
  RC_ASSERT(Q::midstate(header, hi256 | (low & (pow2(256) - 1))) == mid);
  RC_ASSERT(Q::prestate_low64(header, hi448 | (low & (pow2(64) - 1))) == pre);
  for (uint64_t v : pre) RC_ASSERT(v < kP);
  for (uint64_t v : mid) RC_ASSERT(v < kP);
}

// ======================================== §9.5 validity ===============================================

TEST(QpowValidity, TargetsAndDifficultyEdges) {
  const auto h1 = fill(0x01);
  const Int n1 = int_hex(ones64_hex());
  EXPECT_TRUE(Q::is_valid_nonce(h1, n1, 1));
  EXPECT_TRUE(Q::chain_accepts(h1, n1, 1));
  EXPECT_FALSE(Q::is_valid_nonce(h1, n1, Q::kU512Max));
  EXPECT_FALSE(Q::is_valid_nonce(h1, n1, 0));
  EXPECT_FALSE(Q::chain_accepts(h1, n1, 0));
  EXPECT_THROW(Q::target_of(0), std::invalid_argument);
  EXPECT_THROW(Q::target_of(-1), std::out_of_range);
  EXPECT_THROW(Q::target_of(pow2(512)), std::out_of_range);
  EXPECT_EQ(Q::target_of(1), Q::kU512Max);
  EXPECT_EQ(Q::target_of(Q::kU512Max), 1);
  EXPECT_TRUE(Q::hash_meets_target(0, 1));  // difficulty MAX: only hash 0
  EXPECT_FALSE(Q::hash_meets_target(1, 1));
  EXPECT_FALSE(Q::hash_meets_target(Q::kU512Max, Q::kU512Max));  // difficulty 1: all but MAX
  EXPECT_TRUE(Q::hash_meets_target(Q::kU512Max - 1, Q::kU512Max));
  EXPECT_EQ(Q::achieved_difficulty(0), Q::kU512Max);
  EXPECT_EQ(Q::achieved_difficulty(1), Q::kU512Max);
  EXPECT_EQ(Q::achieved_difficulty(Q::kU512Max), 1);
  EXPECT_THROW(Q::achieved_difficulty(pow2(512)), std::out_of_range);
  // Nonce 0 hashes (KAT above) and meets difficulty 1, yet the pallet refuses it.
  EXPECT_TRUE(Q::is_valid_nonce(fill(0), 0, 1));
  EXPECT_FALSE(Q::chain_accepts(fill(0), 0, 1));
  EXPECT_TRUE(Q::chain_accepts(fill(0), 1, 1));
}

TEST(QpowValidity, KvTargetsAroundTheHash) {
  for (const auto& kv : nonce_hash_kvs()) {
    const Int h = Q::mining_hash(kv.header, kv.nonce);
    ASSERT_EQ(h, int_hex(kv.hash));
    EXPECT_FALSE(Q::hash_meets_target(h, h - 1)) << kv.hash;
    EXPECT_FALSE(Q::hash_meets_target(h, h)) << "hash = target is invalid";
    EXPECT_TRUE(Q::hash_meets_target(h, h + 1));
    // §8 ties: top 64 bits equal, and top 256 bits equal.
    const Int top64 = h >> 448 << 448, top256 = h >> 256 << 256;
    EXPECT_FALSE(Q::hash_meets_target(h, top64));
    EXPECT_TRUE(Q::hash_meets_target(h, top64 + pow2(448) - 1));
    EXPECT_FALSE(Q::hash_meets_target(h, top256));
    EXPECT_TRUE(Q::hash_meets_target(h, top256 + pow2(256) - 1));
    // Through a difficulty: the exact achieved difficulty accepts iff the hash is below its target.
    const Int d = Q::achieved_difficulty(h);
    EXPECT_GE(Q::target_of(d), h);
    EXPECT_FALSE(Q::is_valid_nonce(kv.header, kv.nonce, d + 1));
    EXPECT_EQ(Q::is_valid_nonce(kv.header, kv.nonce, d), h < Q::target_of(d));
  }
}

TEST(QpowValidity, Nonce705Example) {
  const auto h0 = fill(0);
  const Int want = int_hex(
      "003b54fe9408fb8505db12607e3f6524ae543844bcd5d71a0689931214d429698f0440ddefab5aba70d424dc60ff5dcecaf41ef0cb34c459249aa18fe4d897b7");
  const Int h = Q::mining_hash(h0, 705);
  EXPECT_EQ(h, want);
  EXPECT_EQ(Q::achieved_difficulty(h), 1104);
  EXPECT_EQ(hex_int(Q::target_of(1104), 64),
            "003b5cc0ed7303b5cc0ed7303b5cc0ed7303b5cc0ed7303b5cc0ed7303b5cc0ed7303b5cc0ed7303b5cc0ed7303b5cc0ed7303b5cc0ed7303b5cc0ed7303b5cc");
  EXPECT_EQ(hex_int(Q::target_of(1105), 64),
            "003b4f003b4f003b4f003b4f003b4f003b4f003b4f003b4f003b4f003b4f003b4f003b4f003b4f003b4f003b4f003b4f003b4f003b4f003b4f003b4f003b4f00");
  EXPECT_TRUE(Q::is_valid_nonce(h0, 705, 1104));
  EXPECT_FALSE(Q::is_valid_nonce(h0, 705, 1105));
  EXPECT_TRUE(Q::chain_accepts(h0, 705, 1104));
  // The top 64 bits alone decide both.
  EXPECT_EQ(h >> 448, Int(0x003b54fe9408fb85ull));
  EXPECT_EQ(Q::target_of(1104) >> 448, Int(0x003b5cc0ed7303b5ull));
  EXPECT_EQ(Q::target_of(1105) >> 448, Int(0x003b4f003b4f003bull));
}

// The derived claim "705 has the smallest hash among nonces 1..3000" (3000 exact hashes).
TEST(QpowValidity, Nonce705IsTheMinimumOf1To3000) {
  const auto h0 = fill(0);
  Int best = Q::kU512Max + 1;
  int arg = 0;
  for (int n = 1; n <= 3000; ++n) {
    const Int h = Q::mining_hash(h0, n);
    if (h < best) best = h, arg = n;
  }
  EXPECT_EQ(arg, 705);
}

// Re-entrancy: hashes computed concurrently (the suite re-hashes on many cores) equal the serial ones.
TEST(QpowThreads, ConcurrentHashesEqualSerial) {
  constexpr int kThreads = 8, kPerThread = 16;
  const auto header = iota_header();
  std::vector<Int> serial(kThreads * kPerThread), parallel(kThreads * kPerThread);
  const Int base = pow2(64) - kThreads * kPerThread / 2;  // straddles the 2^64 carry
  for (int i = 0; i < kThreads * kPerThread; ++i) serial[i] = Q::mining_hash(header, base + i);
  std::vector<std::thread> pool;
  for (int t = 0; t < kThreads; ++t)
    pool.emplace_back([&, t] {
      for (int k = 0; k < kPerThread; ++k) {
        const int i = t * kPerThread + k;
        parallel[i] = Q::mining_hash(header, base + i);
      }
    });
  for (auto& th : pool) th.join();
  EXPECT_EQ(serial, parallel);
}
