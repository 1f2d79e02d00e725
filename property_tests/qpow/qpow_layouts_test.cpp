// The qpow host code (gpu/qpow: Goldilocks layouts, Poseidon2 permutation, sponge, miner shortcuts,
// batch plan and host search) against the exact CPU reference bx::ref::qpow (docs/specs/qpow.md).
//
// Layouts: gl64 and gl2x32<portable> are exact and share one typed suite; gl2x32_lossy<portable> (the
// host model of the lossy mining.cu engine) is *characterised*, never passed as exact: its deviations
// must be one of the documented error terms (§7) and are counted and printed. PTX variants have no host
// build (row(v).host == false) and are skipped.
//
// Comparison rule (§7): values are compared canonically (bx::gl::canonical) against the reference,
// except where a layout is checked against its own bit-exact model (gl64's reduction branch values,
// gl2x32's squaring words, the lossy model's derived raw outputs).
// Randomness: RapidCheck (RC_PARAMS; seed printed on failure) and, for bulk loops, splitmix64 with
// fixed seeds written next to each loop (so a failure reproduces exactly).
// Every failure message prints the inputs and both answers in hex.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "gpu/qpow/borrow_cases.hpp"
#include "gpu/qpow/search.hpp"
#include "reference/qpow/qpow_ref.hpp"
#include "property_tests/qpow/hash_bytes_kats.hpp"

namespace {

namespace Q = bx::ref::qpow;
namespace G = bx::gl;
using Q::Int;
using bx::qpow::kQuantusP2;
using bx::qpow::MinerJob;
using bx::qpow::U512;
using bx::qpow::Variant;

using u128 = unsigned __int128;
constexpr uint64_t kP = G::P;
constexpr uint64_t kEps = G::EPS;
using St = std::array<uint64_t, 12>;

using Gl64 = G::gl64;
using Gl2x32 = G::gl2x32<bx::carry::portable>;
using Lossy = G::gl2x32_lossy<bx::carry::portable>;

// ============================================ formatting ==============================================

std::string hx(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%016llx", static_cast<unsigned long long>(v));
  return b;
}
std::string hs(const uint64_t* s, int n) {
  std::string r;
  for (int i = 0; i < n; ++i) r += (i ? " " : "") + hx(s[i]).substr(2);
  return r;
}
std::string hs(const St& s) { return hs(s.data(), 12); }
template <class C>
std::string hex_bytes(const C& bytes) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (uint8_t b : bytes) {
    s += d[b >> 4];
    s += d[b & 15];
  }
  return s;
}
std::string hex512(const Int& v) {
  std::string s;
  for (int j = 7; j >= 0; --j) s += hx(static_cast<uint64_t>((v >> (64 * j)) & Int(~0ull))).substr(2);
  return s;
}
Int int_hex(const std::string& h) { return Int("0x" + h); }
Int pow2(int k) { return Int(1) << k; }

// ============================================ U512 <-> Int ============================================

// U512 limb[k] = bits 32k..32k+31 of the nonce (miner.hpp); n in [0, 2^512).
U512 to_u512(const Int& n) {
  U512 u{};
  for (int k = 0; k < 16; ++k) u.limb[k] = static_cast<uint32_t>((n >> (32 * k)) & Int(0xffffffffu));
  return u;
}
Int from_u512(const U512& u) {
  Int r = 0;
  for (int k = 15; k >= 0; --k) r = (r << 32) | Int(u.limb[k]);
  return r;
}
// 8 u64 words, most significant first (the hash and target layout of miner.hpp).
Int from_words(const uint64_t w[8]) {
  Int r = 0;
  for (int j = 0; j < 8; ++j) r = (r << 64) | Int(w[j]);
  return r;
}
std::array<uint64_t, 8> to_words(const Int& v) {
  std::array<uint64_t, 8> w{};
  for (int j = 0; j < 8; ++j) w[j] = static_cast<uint64_t>((v >> (448 - 64 * j)) & Int(~0ull));
  return w;
}
Int mod512(const Int& v) { return v & Q::kU512Max; }

// ============================================ inputs ==================================================

struct SplitMix {  // fixed-seed bulk randomness (every use names its seed)
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
};

// §8 field operand catalogue (lazy values >= p included), plus a sample of v in p..2^64-1: 17 evenly
// spaced and 8 random (fixed seed) lazy representatives, so every one of 2^32 - 1 lazy values has a
// near neighbour in the pairs.
const std::vector<uint64_t>& catalogue() {
  static const std::vector<uint64_t> v = [] {
    std::vector<uint64_t> c = {0,
                               1,
                               2,
                               kP - 2,
                               kP - 1,
                               kP,
                               kP + 1,
                               ~0ull - 1,
                               ~0ull,
                               (1ull << 32) - 1,
                               1ull << 32,
                               (1ull << 32) + 1,
                               1ull << 48,
                               1ull << 63,
                               kEps,
                               2 * kEps,
                               (1ull << 32) * kEps,        // = p - 1
                               ((1ull << 32) + 1) * kEps,  // = 2^64 - 1
                               0xfffffffeffffffffull,
                               0x8000000080000000ull,
                               kP + 5,
                               kP + kEps - 1};
    for (uint64_t j = 0; j <= 16; ++j) c.push_back(kP + j * ((kEps - 1) / 16));
    SplitMix r{0x51a7e5};
    for (int j = 0; j < 8; ++j) c.push_back(kP + r.next() % kEps);
    std::vector<uint64_t> u;
    for (uint64_t x : c)
      if (std::find(u.begin(), u.end(), x) == u.end()) u.push_back(x);
    return u;
  }();
  return v;
}

// Full-range u64 (RapidCheck's integers scale with size: at nominal size every bit is random).
rc::Gen<uint64_t> gen_u64() { return rc::gen::resize(100, rc::gen::arbitrary<uint64_t>()); }
rc::Gen<uint64_t> gen_operand() {
  return rc::gen::weightedOneOf<uint64_t>({{3, rc::gen::elementOf(catalogue())},
                                           {2, rc::gen::resize(100, rc::gen::inRange<uint64_t>(kP, ~0ull))},
                                           {3, rc::gen::resize(100, rc::gen::inRange<uint64_t>(0, kP))},
                                           {4, gen_u64()}});
}
rc::Gen<St> gen_state() { return rc::gen::container<St>(gen_operand()); }

using Header = Q::Header;
Header fill(uint8_t b) {
  Header h;
  h.fill(b);
  return h;
}
Header iota_header() {
  Header h;
  for (int i = 0; i < 32; ++i) h[i] = uint8_t(i);
  return h;
}
Header random_header(uint64_t seed) {
  SplitMix r{seed};
  Header h;
  for (auto& b : h) b = uint8_t(r.next());
  return h;
}
// A random 512-bit integer from a fixed seed.
Int random512(uint64_t seed) {
  SplitMix r{seed};
  Int v = 0;
  for (int j = 0; j < 8; ++j) v = (v << 64) | Int(r.next());
  return v;
}
std::array<uint64_t, 8> header_felts(const Header& h) {
  std::array<uint64_t, 8> f{};
  for (int i = 0; i < 8; ++i)
    f[i] = uint32_t(h[4 * i]) | uint32_t(h[4 * i + 1]) << 8 | uint32_t(h[4 * i + 2]) << 16 |
           uint32_t(h[4 * i + 3]) << 24;
  return f;
}

St canon(const St& s) {
  St r;
  for (int i = 0; i < 12; ++i) r[i] = G::canonical(s[i]);
  return r;
}
// "" when canonical(got) == want lane for lane, else a report.
std::string diff_state(const std::string& what, const St& in, const St& got, const St& want) {
  if (canon(got) == want) return "";
  std::ostringstream o;
  o << what << "\n  input     " << hs(in) << "\n  got (raw) " << hs(got) << "\n  got canon " << hs(canon(got))
    << "\n  reference " << hs(want) << "\n  lanes differing:";
  for (int i = 0; i < 12; ++i)
    if (G::canonical(got[i]) != want[i]) o << " " << i;
  return o.str() + "\n";
}

// ============================================ variants ================================================

// f.template operator()<Code>(v) for every variant with a host build (kVariants order).
template <class F>
void for_each_host_variant(F&& f) {
  for (int i = 0; i < bx::qpow::kVariantCount; ++i) {
    const Variant v = Variant(i);
    if (!bx::qpow::row(v).host) continue;
    bx::qpow::with_variant(v, [&]<class Code>() {
      f.template operator()<Code>(v);
      return 0;
    });
  }
}
std::string vname(Variant v) { return std::string("qpow/") + bx::qpow::row(v).name; }
bool lossy(Variant v) { return bx::qpow::row(v).lossy; }

// A variant's 512-bit hash of nonce n with a job built at base n (§6: the shortcut state is the batch's).
template <class Code>
Int variant_hash(const Header& h, const U512& base, const U512& n, unsigned shortcuts) {
  const uint64_t target[8] = {};
  const MinerJob job = bx::qpow::JobMaker<Code>::make(h.data(), target, base, shortcuts);
  uint64_t out[8];
  Code::hash(job, n, out, kQuantusP2);
  return from_words(out);
}

// Lossy deviations are reported, never asserted (contract "characterised", §7).
void report_lossy(const std::string& what, int deviations, int total) {
  std::cout << "[ lossy    ] " << what << ": " << deviations << " of " << total << " differ from the reference\n";
}

// Collects failure reports and keeps the first few: a planted fault can break thousands of checks, and
// the first ones (inputs and both answers in hex) are what a reader needs.
struct Fails {
  int n = 0;
  std::string text;
  void operator()(const std::string& e) {
    if (e.empty()) return;
    if (n++ < 4) text += e + "\n";
  }
  void expect_none(const std::string& what) const {
    EXPECT_EQ(n, 0) << what << ": " << n << " failures, the first:\n" << text;
  }
};

// ============================================ typed suite over the exact layouts =====================

template <class L>
struct QpowLayout : ::testing::Test {};
struct LayoutName {
  template <class L>
  static std::string GetName(int) {
    return L::name;
  }
};
using ExactLayouts = ::testing::Types<Gl64, Gl2x32>;
TYPED_TEST_SUITE(QpowLayout, ExactLayouts, LayoutName);

// All field operations of layout L on (a, b) against the reference; "" or one line per wrong answer.
// Also the congruences add(sub(a, b), b) == a and sub(add(a, b), b) == a (mod p): whatever lazy
// representative add and sub return, it must be a value the other operation undoes.
template <class L>
std::string check_pair(uint64_t a, uint64_t b) {
  std::ostringstream o;
  auto cmp = [&](const char* op, uint64_t got, uint64_t want) {
    if (G::canonical(got) != want)
      o << L::name << " " << op << " a=" << hx(a) << " b=" << hx(b) << ": got " << hx(got) << " (canonical "
        << hx(G::canonical(got)) << "), reference " << hx(want) << "\n";
  };
  cmp("add", L::add(a, b), Q::add(a, b));
  cmp("sub", L::sub(a, b), Q::sub(a, b));
  cmp("mul", L::mul(a, b), Q::mul(a, b));
  cmp("reduce128(lo=a, hi=b)", L::reduce128(a, b), Q::reduce128(b, a));  // note: Q::reduce128(hi, lo)
  if constexpr (requires { L::reduce128_branchfree(a, b); })
    cmp("reduce128_branchfree(lo=a, hi=b)", L::reduce128_branchfree(a, b), Q::reduce128(b, a));
  const uint64_t ca = Q::canonical(a);
  cmp("add(sub(a,b),b)", L::add(L::sub(a, b), b), ca);
  cmp("sub(add(a,b),b)", L::sub(L::add(a, b), b), ca);
  return o.str();
}
template <class L>
std::string check_unary(uint64_t a) {
  std::ostringstream o;
  auto cmp = [&](const char* op, uint64_t got, uint64_t want) {
    if (G::canonical(got) != want)
      o << L::name << " " << op << " a=" << hx(a) << ": got " << hx(got) << " (canonical " << hx(G::canonical(got))
        << "), reference " << hx(want) << "\n";
  };
  cmp("sqr", L::sqr(a), Q::sqr(a));
  cmp("mul(a,a)", L::mul(a, a), Q::sqr(a));
  cmp("neg", L::neg(a), Q::neg(a));
  cmp("add(neg(a),a)", L::add(L::neg(a), a), 0);
  cmp("sbox", bx::qpow::Permutation<L, false>::sbox(a), Q::sbox(a));
  cmp("reduce128(lo=a, hi=0)", L::reduce128(a, 0), Q::canonical(a));
  return o.str();
}

// §8: every operation on the full catalogue cross product (lazy operands included).
TYPED_TEST(QpowLayout, FieldOpsOnCatalogueAllPairs) {
  using L = TypeParam;
  const auto& cat = catalogue();
  ASSERT_GE(cat.size(), 40u);
  int failures = 0;
  std::string first;
  for (uint64_t a : cat) {
    std::string e = check_unary<L>(a);
    for (uint64_t b : cat) e += check_pair<L>(a, b);
    if (!e.empty() && failures++ < 8) first += e;
  }
  EXPECT_EQ(failures, 0) << first;
}

// §8 reduction branches: gl64::reduce128 is the Plonky2 reduction these raw outputs were derived for,
// so its raw value must be the listed one (and reduce128_branchfree's canonical value); other layouts
// canonically. Plus the three addition edge cases (double overflow needs two EPS folds).
TYPED_TEST(QpowLayout, ReductionBranchCases) {
  using L = TypeParam;
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
    const uint64_t lo = uint64_t(x), hi = uint64_t(x >> 64);
    const uint64_t want = Q::mul(c.a, c.b);
    ASSERT_EQ(G::canonical(c.raw), want) << c.branch << ": the listed raw value is not a*b mod p";
    const uint64_t got = L::reduce128(lo, hi), gotm = L::mul(c.a, c.b);
    if constexpr (std::is_same_v<L, Gl64>) {
      EXPECT_EQ(got, c.raw) << "gl64::reduce128 " << c.branch << " a=" << hx(c.a) << " b=" << hx(c.b) << " got "
                            << hx(got) << " want raw " << hx(c.raw);
      EXPECT_EQ(gotm, c.raw) << "gl64::mul " << c.branch << " got " << hx(gotm) << " want raw " << hx(c.raw);
      EXPECT_EQ(G::canonical(L::reduce128_branchfree(lo, hi)), want)
          << "gl64::reduce128_branchfree " << c.branch << " got " << hx(L::reduce128_branchfree(lo, hi));
    }
    EXPECT_EQ(G::canonical(got), want) << L::name << " reduce128 " << c.branch << " got " << hx(got) << " want "
                                       << hx(want);
    EXPECT_EQ(G::canonical(gotm), want) << L::name << " mul " << c.branch << " got " << hx(gotm) << " want "
                                        << hx(want);
  }
  const std::pair<uint64_t, uint64_t> adds[] = {{kP - 1, kP - 2}, {~0ull, ~0ull}, {kP, kP}};
  for (auto [a, b] : adds) {
    const uint64_t got = L::add(a, b);
    EXPECT_EQ(G::canonical(got), Q::add(a, b))
        << L::name << " add a=" << hx(a) << " b=" << hx(b) << " got " << hx(got) << " want " << hx(Q::add(a, b));
  }
  EXPECT_EQ(Q::add(~0ull, ~0ull), 2 * (kEps - 1));
}

// Uniform u64, random canonical and lazy operands (RapidCheck), plus a fixed-seed bulk of 4000
// uniform and 4000 canonical pairs.
TYPED_TEST(QpowLayout, FieldOpsOnRandomOperands) {
  using L = TypeParam;
  EXPECT_TRUE(rc::check(std::string(L::name) + " field ops vs reference", [] {
    const uint64_t a = *gen_operand(), b = *gen_operand();
    const std::string e = check_unary<L>(a) + check_pair<L>(a, b);
    if (!e.empty()) RC_FAIL(e);
  }));
  SplitMix r{0xf1e1d};
  int failures = 0;
  std::string first;
  for (int i = 0; i < 8000; ++i) {
    uint64_t a = r.next(), b = r.next();
    if (i & 1) a %= kP, b %= kP;
    const std::string e = check_unary<L>(a) + check_pair<L>(a, b);
    if (!e.empty() && failures++ < 8) first += e;
  }
  EXPECT_EQ(failures, 0) << first;
}

// Random operation programs: 8 registers (raw layout lanes, lazy values kept as the layout returns
// them) and their reference values; ~50 operations each; canonical equality after every step. Catches
// a lazy representative that one operation returns and the next mishandles.
TYPED_TEST(QpowLayout, RandomOperationPrograms) {
  using L = TypeParam;
  EXPECT_TRUE(rc::check(std::string(L::name) + " programs", [] {
    constexpr int kRegs = 8;
    std::array<uint64_t, kRegs> reg, ref;
    for (int i = 0; i < kRegs; ++i) {
      reg[i] = *gen_operand();
      ref[i] = Q::canonical(reg[i]);
    }
    const auto prog = *rc::gen::container<std::vector<std::array<uint8_t, 4>>>(
        50, rc::gen::arbitrary<std::array<uint8_t, 4>>());
    static const char* names[] = {"add", "sub", "mul", "sqr", "neg", "sbox", "reduce128(lo=x,hi=y)"};
    std::ostringstream trace;
    for (size_t k = 0; k < prog.size(); ++k) {
      const int op = prog[k][0] % 7, d = prog[k][1] % kRegs, x = prog[k][2] % kRegs, y = prog[k][3] % kRegs;
      const uint64_t ax = reg[x], ay = reg[y];
      uint64_t got = 0, want = 0;
      switch (op) {
        case 0: got = L::add(ax, ay), want = Q::add(ref[x], ref[y]); break;
        case 1: got = L::sub(ax, ay), want = Q::sub(ref[x], ref[y]); break;
        case 2: got = L::mul(ax, ay), want = Q::mul(ref[x], ref[y]); break;
        case 3: got = L::sqr(ax), want = Q::sqr(ref[x]); break;
        case 4: got = L::neg(ax), want = Q::neg(ref[x]); break;
        case 5: got = bx::qpow::Permutation<L, false>::sbox(ax), want = Q::sbox(ref[x]); break;
        // x + 2^64 y mod p depends only on x, y mod p (2^64 p == 0), so the reference may use ref[]
        default: got = L::reduce128(ax, ay), want = Q::reduce128(ref[y], ref[x]); break;
      }
      trace << "  step " << k << ": r" << d << " = " << names[op] << "(r" << x << "=" << hx(ax) << ", r" << y << "="
            << hx(ay) << ") -> " << hx(got) << " (reference " << hx(want) << ")\n";
      reg[d] = got;
      ref[d] = want;
      if (G::canonical(got) != want) RC_FAIL(std::string(L::name) + " program diverged:\n" + trace.str());
    }
  }));
}

// §7 squaring identity: 2 a0 a1 can reach 2^65 (its 65th bit belongs to word r3). sqr == mul(a, a)
// canonically == reference; for gl2x32 also sqr_words(a) == mul_words(a, a) word for word (both are
// the exact 128-bit square: the layout against itself).
TYPED_TEST(QpowLayout, SquaringCarries) {
  using L = TypeParam;
  const uint64_t cases[] = {~0ull /* a0 = a1 = 2^32-1, lazy */, 0xfffffffeffffffffull, 1ull << 63, 1ull << 48,
                            kP - 1, 0xffffffff7fffffffull, 0x80000000ffffffffull, 0xc0000000c0000000ull};
  auto check = [](uint64_t a) -> std::string {
    std::ostringstream o;
    const uint64_t s = L::sqr(a), m = L::mul(a, a), want = Q::sqr(a);
    if (G::canonical(s) != want || G::canonical(m) != want)
      o << L::name << " a=" << hx(a) << ": sqr " << hx(s) << " mul(a,a) " << hx(m) << " reference " << hx(want)
        << "\n";
    if constexpr (requires { L::sqr_words(a); }) {
      const auto w = L::sqr_words(a), v = L::mul_words(a, a);
      const u128 x = u128(a) * a;
      const uint32_t e[4] = {uint32_t(x), uint32_t(x >> 32), uint32_t(x >> 64), uint32_t(x >> 96)};
      if (w.r0 != e[0] || w.r1 != e[1] || w.r2 != e[2] || w.r3 != e[3] || v.r0 != e[0] || v.r1 != e[1] ||
          v.r2 != e[2] || v.r3 != e[3]) {
        char b[200];
        std::snprintf(b, sizeof b, "%s a=%s: sqr_words %08x %08x %08x %08x mul_words %08x %08x %08x %08x want %08x %08x %08x %08x (r0..r3)\n",
                      L::name, hx(a).c_str(), w.r0, w.r1, w.r2, w.r3, v.r0, v.r1, v.r2, v.r3, e[0], e[1], e[2], e[3]);
        o << b;
      }
    }
    return o.str();
  };
  for (uint64_t a : cases) EXPECT_EQ(check(a), "");
  for (uint64_t a : catalogue()) EXPECT_EQ(check(a), "");
  EXPECT_TRUE(rc::check(std::string(L::name) + " sqr carries", [&] {
    const uint64_t a = *gen_operand();
    const std::string e = check(a);
    if (!e.empty()) RC_FAIL(e);
  }));
}

// --------------------------------------------- linear layers ------------------------------------------

// M4 (per chunk, reduced with acc_reduce), M_E (plain and with folded row / lane-0 constants), its lane
// 0 alone (the early reject), M_I (plain and folded) against the reference layers, on one state.
template <class L>
std::string check_linear(const St& in, const St& rc) {
  using P = bx::qpow::Permutation<L, false>;
  using bx::qpow::Fold;
  std::string e;
  const St me = Q::external_linear(in), mi = Q::internal_linear(in), m4 = Q::m4_layer(in);
  St s = in;
  for (int c = 0; c < 3; ++c) {
    G::Acc96 y[4];
    P::m4(in.data() + 4 * c, y);
    for (int k = 0; k < 4; ++k) s[4 * c + k] = L::acc_reduce(y[k]);
  }
  e += diff_state(std::string(L::name) + " m4 (3 chunks)", in, s, m4);
  s = in;
  P::external_linear(s.data());
  e += diff_state(std::string(L::name) + " external_linear", in, s, me);
  St want = me;
  for (int i = 0; i < 12; ++i) want[i] = Q::add(me[i], rc[i]);
  s = in;
  P::template external_linear<Fold::row>(s.data(), rc.data());
  e += diff_state(std::string(L::name) + " external_linear<row> (rc " + hs(rc) + ")", in, s, want);
  want = me;
  want[0] = Q::add(me[0], rc[0]);
  s = in;
  P::template external_linear<Fold::lane0>(s.data(), nullptr, rc[0]);
  e += diff_state(std::string(L::name) + " external_linear<lane0> (rc0 " + hx(rc[0]) + ")", in, s, want);
  const uint64_t l0 = P::external_linear_lane0(in.data());
  if (G::canonical(l0) != me[0])
    e += std::string(L::name) + " external_linear_lane0 of " + hs(in) + ": got " + hx(l0) + " reference " +
         hx(me[0]) + "\n";
  s = in;
  P::internal_linear(s.data(), kQuantusP2);
  e += diff_state(std::string(L::name) + " internal_linear", in, s, mi);
  for (int i = 0; i < 12; ++i) want[i] = Q::add(mi[i], rc[i]);
  s = in;
  P::template internal_linear<Fold::row>(s.data(), kQuantusP2, rc.data());
  e += diff_state(std::string(L::name) + " internal_linear<row>", in, s, want);
  want = mi;
  want[0] = Q::add(mi[0], rc[0]);
  s = in;
  P::template internal_linear<Fold::lane0>(s.data(), kQuantusP2, nullptr, rc[0]);
  e += diff_state(std::string(L::name) + " internal_linear<lane0>", in, s, want);
  return e;
}

// Fixed extreme states (all lanes 2^64 - 1 maximise every accumulator) and random lazy states.
TYPED_TEST(QpowLayout, LinearLayersMatchReference) {
  using L = TypeParam;
  St ones, ps, pm1, seq1, e;
  ones.fill(~0ull);
  ps.fill(kP);
  pm1.fill(kP - 1);
  for (int i = 0; i < 12; ++i) seq1[i] = i + 1;
  St rcmax;
  rcmax.fill(kP - 1);
  for (const St& s : {ones, ps, pm1, seq1}) EXPECT_EQ(check_linear<L>(s, rcmax), "");
  for (int j = 0; j < 12; ++j) {  // unit vectors: the columns, incl. the miner's col6 / col7
    e.fill(0);
    e[j] = 1;
    St s = e;
    bx::qpow::Permutation<L, false>::external_linear(s.data());
    EXPECT_EQ(canon(s), Q::me_column(j)) << L::name << " M_E column " << j;
  }
  for (int i = 0; i < 12; ++i) {
    EXPECT_EQ(bx::qpow::col6(i), Q::me_column(6)[i]) << "col6 lane " << i;
    EXPECT_EQ(bx::qpow::col7(i), Q::me_column(7)[i]) << "col7 lane " << i;
  }
  EXPECT_TRUE(rc::check(std::string(L::name) + " linear layers", [] {
    const St in = *gen_state();
    const St rc = *rc::gen::container<St>(rc::gen::resize(100, rc::gen::inRange<uint64_t>(0, kP)));
    const std::string err = check_linear<L>(in, rc);
    if (!err.empty()) RC_FAIL(err);
  }));
}

// --------------------------------------------- permutation --------------------------------------------

template <class L, bool F>
std::string check_permute(const St& in) {
  St s = in;
  bx::qpow::Permutation<L, F>::permute(s.data(), kQuantusP2);
  return diff_state(std::string(L::name) + (F ? " folded" : " plain") + " permute", in, s, Q::permute(in));
}

// Layer by layer against the reference's 31 trace states, from the layout's own running state. With
// kFolded the state after a linear layer already holds the next round's constants (§6.6): RC_init[0]
// after the initial layer, RC_init[r+1] after initial round r < 3, RC_int[0] (lane 0) after initial
// round 3, RC_int[r+1] (lane 0) after internal round r < 21, RC_term[0] (all lanes) after internal
// round 21, RC_term[r+1] after terminal round r < 3, nothing after the last. The expected state is the
// trace state plus exactly that (reference add). Stops at the first wrong step.
template <class L, bool F>
std::string check_layers(const St& in) {
  using P = bx::qpow::Permutation<L, F>;
  const auto& C = Q::constants();
  const auto tr = Q::permute_trace(in);
  if (tr.size() != 31) return "reference trace has " + std::to_string(tr.size()) + " states";
  const std::string tag = std::string(L::name) + (F ? " folded" : " plain");
  auto plus_row = [](St s, const std::array<uint64_t, 12>& rc) {
    for (int i = 0; i < 12; ++i) s[i] = Q::add(s[i], rc[i]);
    return s;
  };
  auto plus_lane0 = [](St s, uint64_t rc0) {
    s[0] = Q::add(s[0], rc0);
    return s;
  };
  St s = in;
  P::initial_layer(s.data(), kQuantusP2);
  std::string e = diff_state(tag + " initial_layer", in, s, F ? plus_row(tr[0], C.initial[0]) : tr[0]);
  if (!e.empty()) return e;
  for (int r = 0; r < 4; ++r) {
    const St before = s;
    P::initial_round(s.data(), kQuantusP2, r, false);
    St want = tr[1 + r];
    if (F) want = r < 3 ? plus_row(want, C.initial[r + 1]) : plus_lane0(want, C.internal[0]);
    e = diff_state(tag + " initial_round " + std::to_string(r), before, s, want);
    if (!e.empty()) return e;
  }
  for (int r = 0; r < 22; ++r) {
    const St before = s;
    P::internal_round(s.data(), kQuantusP2, r);
    St want = tr[5 + r];
    if (F) want = r < 21 ? plus_lane0(want, C.internal[r + 1]) : plus_row(want, C.terminal[0]);
    e = diff_state(tag + " internal_round " + std::to_string(r), before, s, want);
    if (!e.empty()) return e;
  }
  for (int r = 0; r < 4; ++r) {
    const St before = s;
    P::terminal_round(s.data(), kQuantusP2, r);
    St want = tr[27 + r];
    if (F && r < 3) want = plus_row(want, C.terminal[r + 1]);
    e = diff_state(tag + " terminal_round " + std::to_string(r), before, s, want);
    if (!e.empty()) return e;
  }
  // The miner's entry at the first S-box (§6.2: the prestate already holds M_E x + RC_init[0]).
  St x = tr[0];
  for (int i = 0; i < 12; ++i) x[i] = Q::add(x[i], C.initial[0][i]);
  s = x;
  P::rounds_to_last_sbox(s.data(), kQuantusP2, true);
  P::external_linear(s.data());
  return diff_state(tag + " rounds_to_last_sbox(rc0_in) + external_linear from M_E x + RC_init[0]", x, s, tr[30]);
}

template <class L>
void permutation_suite() {
  St zero{}, seq1, seq0, ones;
  for (int i = 0; i < 12; ++i) seq1[i] = i + 1, seq0[i] = i;
  ones.fill(~0ull);
  for (const St& s : {zero, seq1, seq0, ones}) {
    EXPECT_EQ((check_permute<L, false>(s)), "");
    EXPECT_EQ((check_permute<L, true>(s)), "");
    EXPECT_EQ((check_layers<L, false>(s)), "");
    EXPECT_EQ((check_layers<L, true>(s)), "");
  }
  // §9.2 perm(0^12) as an absolute anchor (the reference is tested against the same vector).
  St s = zero;
  bx::qpow::Permutation<L, true>::permute(s.data(), kQuantusP2);
  EXPECT_EQ(canon(s)[0], 0xc9bc9432e1686884ull) << L::name << " folded perm(0)[0]";
  EXPECT_TRUE(rc::check(std::string(L::name) + " permutation (both folds) and layers", [] {
    const St in = *gen_state();
    std::string e = check_permute<L, false>(in) + check_permute<L, true>(in);
    e += check_layers<L, false>(in);
    e += check_layers<L, true>(in);
    if (!e.empty()) RC_FAIL(e);
  }));
}
TYPED_TEST(QpowLayout, PermutationAndLayersMatchReferenceTrace) { permutation_suite<TypeParam>(); }

// --------------------------------------------- sponge -------------------------------------------------

template <class L>
std::string check_sponge(const std::vector<uint8_t>& x) {
  uint8_t out[64];
  bx::qpow::Sponge<L>::hash_squeeze_twice(x.data(), uint32_t(x.size()), out, kQuantusP2);
  const auto want = Q::hash_squeeze_twice(x);
  if (std::equal(want.begin(), want.end(), out)) return "";
  return std::string(L::name) + " hash_squeeze_twice of " + std::to_string(x.size()) + " bytes " + hex_bytes(x) +
         "\n  got       " + hex_bytes(std::vector<uint8_t>(out, out + 64)) + "\n  reference " + hex_bytes(want) +
         "\n";
}

TYPED_TEST(QpowLayout, SpongeMatchesReferenceAndKats) {
  using L = TypeParam;
  SplitMix r{0x5b0a9e};
  for (size_t n = 0; n <= 100; ++n) {  // every length 0..100 (all terminator / block-boundary cases)
    std::vector<uint8_t> x(n);
    for (auto& b : x) b = uint8_t(r.next());
    EXPECT_EQ(check_sponge<L>(x), "");
  }
  const auto kat = bx::qpow::kat::hash_bytes_kats();  // §9.3 hash_bytes
  for (const auto& [x, want] : kat) {
    uint8_t out[64];
    bx::qpow::Sponge<L>::hash_squeeze_twice(x.data(), uint32_t(x.size()), out, kQuantusP2);
    EXPECT_EQ(hex_bytes(std::vector<uint8_t>(out, out + 32)), want) << L::name << " hash_bytes of " << hex_bytes(x);
    EXPECT_EQ(check_sponge<L>(x), "");  // and the second squeeze
  }
  EXPECT_TRUE(rc::check(std::string(L::name) + " sponge random lengths", [] {
    const auto x = *rc::gen::container<std::vector<uint8_t>>(*rc::gen::inRange<size_t>(0, 200),
                                                              rc::gen::arbitrary<uint8_t>());
    const std::string e = check_sponge<L>(x);
    if (!e.empty()) RC_FAIL(e);
  }));
}

// The felt sponge (qp-poseidon hash_twice, rehash_to_bytes): felts absorbed as they are, every length 0..40
// (each block-boundary case), random felts and p - 1, against the reference; hash_twice on top.
TYPED_TEST(QpowLayout, FeltSpongeMatchesReference) {
  using L = TypeParam;
  SplitMix r{0xfe17};
  for (size_t n = 0; n <= 40; ++n) {
    std::vector<uint64_t> f(n);
    for (auto& x : f) x = r.next() % kP;
    if (n % 3 == 2) f.back() = kP - 1;
    uint64_t w[4];
    bx::qpow::Sponge<L>::felt_sponge(f.data(), uint32_t(n), w, kQuantusP2);
    EXPECT_EQ((std::array<uint64_t, 4>{w[0], w[1], w[2], w[3]}), Q::felt_sponge(f)) << L::name << " felt_sponge of " << n << " felts";
    uint64_t t[4];
    bx::qpow::Sponge<L>::hash_twice(f.data(), uint32_t(n), t, kQuantusP2);
    std::array<uint8_t, 32> tb;
    bx::qpow::Sponge<L>::lanes_to_bytes(t, tb.data());
    EXPECT_EQ(tb, Q::hash_twice(f)) << L::name << " hash_twice of " << n << " felts";
  }
}

// --------------------------------------------- miner midstate / prestate ------------------------------

// Miner<L, S>::midstate / prestate (S with and without kFolded) vs reference midstate / prestate_low64.
template <class L, unsigned S>
std::string check_mid_pre(const Header& h, const Int& nonce) {
  using M = bx::qpow::Miner<L, S>;
  const auto hf = header_felts(h);
  const U512 n = to_u512(nonce);
  St mid, pre;
  M::midstate(hf.data(), n, mid.data(), kQuantusP2);
  M::prestate(mid.data(), n, pre.data(), kQuantusP2);
  const std::string tag = std::string(L::name) + ((S & bx::qpow::kFolded) ? " folded" : " plain") +
                          " header " + hex_bytes(h) + " nonce " + hex512(nonce);
  std::string e = diff_state(tag + " midstate", St{}, mid, Q::midstate(h, nonce));
  e += diff_state(tag + " prestate", St{}, pre, Q::prestate_low64(h, nonce));
  for (uint64_t v : pre)
    if (v >= kP) e += tag + " prestate lane not canonical: " + hx(v) + "\n";
  return e;
}

TYPED_TEST(QpowLayout, MinerMidstateAndPrestate) {
  using L = TypeParam;
  using bx::qpow::kLadder;
  using bx::qpow::kNoFold;
  struct Kv {
    Header h;
    Int nonce;
    const char* mid;
  };
  const Kv kvs[] = {  // §9.4(b) midstates
      {fill(0), 0, "8646d336b5a0fccd 818ca59548916345 49475e8bc9c928bc c469163bcdc4900b e4421fafacd59087 633f49b998698d66 4a9067e3883e76da 193039e85ea14472 203d2d3ee6a8eba8 ef5b9ce39bcff072 c16a3c8dd5680003 d77c52ab5bf7cf1f"},
      {fill(1), 1, "788cf743676a5c85 dce1d727e1189b53 36e0e019f5a0bf3a 806487dd9c3bf83f cb6d7300de1ab5fe 7dbe191fa64fc6b7 95dedc7fe99861be b1a3885303f7467d 891eb002a34a0f17 4be4cf057a87208a e9113e7dc541745f faeda908097d00f1"},
      {iota_header(), Int(0x1234567890abcdefull), "f6fc848ab2dddc18 fd88d1f0ccda99fe 27cfa43b8ab9947a 6a505b37f02183d3 5f98f1d3524fb0c6 d6de4efd98793e2e f3f205bd1e4d4526 c0c9046201e91dd6 cd2d28eef32b18de a303ecbc8e98000c 3db245e7738f3aca bc55f7553023863e"},
      {fill(0xff), pow2(64) - 1, "d1fe93daa1f07409 0ea440f2b57a0ecf 3b7a1f3cb2d48e39 43a5a1255658d1b2 ebe00ad8f0fe28c0 b5618e7c6d6072d1 158b7b19f80ec62c 329a91c8de5575c2 d1637d851a474212 2d927735708f3b7d 6219c7cf8ef5af51 802028c39ccd8f13"},
      {fill(7), (Int(0xdeadbeefcafeull) << 300) | Int(0x1234567890abcdefull), "41885398f5b05a0d b7f17cee3f70d242 307aecc5bca54c7e b74164c0d6de7e91 0c0a9b27281c8181 d84ddf12fdddf0ee 88f8cdf552c0a15e 88da4cfbfbf92d22 8c344261349149db 0c0fd0d6a8444652 7a57b00736d58568 9ad40597f4fe2abc"},
  };
  for (const auto& kv : kvs) {
    St want;
    std::istringstream in(kv.mid);
    for (auto& w : want) {
      std::string t;
      in >> t;
      w = std::stoull(t, nullptr, 16);
    }
    St mid;
    bx::qpow::Miner<L, kLadder>::midstate(header_felts(kv.h).data(), to_u512(kv.nonce), mid.data(), kQuantusP2);
    EXPECT_EQ(diff_state(std::string(L::name) + " §9.4(b) midstate", St{}, mid, want), "");
    EXPECT_EQ((check_mid_pre<L, kLadder>(kv.h, kv.nonce)), "");
    EXPECT_EQ((check_mid_pre<L, kNoFold>(kv.h, kv.nonce)), "");
  }
  St pre, mid;  // §9.4(d) prestate, header 00x32, nonce 0
  bx::qpow::Miner<L, kLadder>::midstate(header_felts(fill(0)).data(), to_u512(0), mid.data(), kQuantusP2);
  bx::qpow::Miner<L, kLadder>::prestate(mid.data(), to_u512(0), pre.data(), kQuantusP2);
  const St pre_want = {0xfb417e232c4bcaacull, 0xce354f2db159e45full, 0x82e3a1629069ddb4ull, 0xff54ddb43f4d09fdull,
                       0xc83e0345164fc14aull, 0x77c6c17e0a3358a3ull, 0x99534d0c611fa463ull, 0x2cfa6c6dcd8b967dull,
                       0x27c1587224a286f6ull, 0xdc46a2c2c9a4d56aull, 0x2730156999ce6f39ull, 0x1e9b1022c8be145aull};
  EXPECT_EQ(pre, pre_want) << L::name << " §9.4(d) prestate got " << hs(pre) << " want " << hs(pre_want);
  EXPECT_TRUE(rc::check(std::string(L::name) + " midstate/prestate", [] {
    const auto h = *rc::gen::arbitrary<Header>();
    const auto w = *rc::gen::container<std::array<uint64_t, 8>>(gen_u64());
    Int nonce = 0;
    for (uint64_t x : w) nonce = (nonce << 64) | Int(x);
    const std::string e = check_mid_pre<L, kLadder>(h, nonce) + check_mid_pre<L, kNoFold>(h, nonce);
    if (!e.empty()) RC_FAIL(e);
  }));
}

// ============================================ the lossy model (characterised) ========================

// The documented error terms of the lossy reduce128 (§7), as (canonical lossy - exact) mod p.
enum Slip { kExact = 0, kBorrow /* (iii) +EPS */, kR3Wrap /* (i) +2^32 */, kHighCarry /* (ii) -EPS */, kOther };
Slip classify(uint64_t lossy_raw, uint64_t exact_canonical) {
  const uint64_t d = Q::sub(G::canonical(lossy_raw), exact_canonical);
  if (d == 0) return kExact;
  if (d == kEps) return kBorrow;
  if (d == (1ull << 32)) return kR3Wrap;
  if (d == kP - kEps) return kHighCarry;
  return kOther;
}
const char* slip_name(Slip s) {
  static const char* n[] = {"exact", "+EPS (final borrow)", "+2^32 (r3 + c wrap)", "-EPS (high carry)", "OTHER"};
  return n[s];
}

// mul and sqr of every catalogue pair (vs the reference) and 10^6 random pairs (vs gl64, itself proven
// against the reference above): the lossy result is the exact one plus one documented error term. The
// derived claims of §7 are asserted too: for products, (i) and (ii) never occur. Counts are printed.
TEST(QpowLossyModel, MulAndSqrDeviateOnlyByDocumentedTerms) {
  std::array<long, 5> cat_count{}, rnd_count{}, canon_count{};
  std::string first;
  int bad = 0;
  auto record = [&](std::array<long, 5>& count, const char* op, uint64_t a, uint64_t b, uint64_t got,
                    uint64_t want) {
    const Slip s = classify(got, want);
    ++count[s];
    if ((s == kOther || s == kR3Wrap || s == kHighCarry) && bad++ < 8)
      first += std::string("lossy ") + op + " a=" + hx(a) + " b=" + hx(b) + ": got " + hx(got) + ", exact " +
               hx(want) + " -> " + slip_name(s) + "\n";
  };
  for (uint64_t a : catalogue()) {
    record(cat_count, "sqr", a, a, Lossy::sqr(a), Q::sqr(a));
    for (uint64_t b : catalogue()) record(cat_count, "mul", a, b, Lossy::mul(a, b), Q::mul(a, b));
  }
  SplitMix r{0x1055e5};
  for (int i = 0; i < 1000000; ++i) {
    const uint64_t a = r.next(), b = r.next();
    record(rnd_count, "mul", a, b, Lossy::mul(a, b), G::canonical(Gl64::mul(a, b)));
    record(rnd_count, "sqr", a, a, Lossy::sqr(a), G::canonical(Gl64::sqr(a)));
  }
  for (int i = 0; i < 1000000; ++i) {  // canonical operands, the state lanes the kernel mostly sees
    const uint64_t a = r.next() % kP, b = r.next() % kP;
    record(canon_count, "mul", a, b, Lossy::mul(a, b), G::canonical(Gl64::mul(a, b)));
  }
  EXPECT_EQ(bad, 0) << first;
  auto show = [](const char* what, const std::array<long, 5>& c) {
    std::cout << "[ lossy    ] " << what << ":";
    for (int s = 0; s < 5; ++s) std::cout << " " << slip_name(Slip(s)) << "=" << c[s];
    std::cout << "\n";
  };
  show("catalogue mul+sqr", cat_count);
  show("random u64 mul+sqr (2e6)", rnd_count);
  show("random canonical mul (1e6)", canon_count);
  EXPECT_GT(cat_count[kBorrow], 0) << "the catalogue holds the §7 slip inputs (2^48 * 2^48)";
}

// §7 derived examples: raw outputs of the lossy model on canonical inputs (the live slip (iii)).
TEST(QpowLossyModel, DerivedSlipExamples) {
  EXPECT_EQ(Lossy::mul(1ull << 48, 1ull << 48), 0xffffffffffffffffull) << hx(Lossy::mul(1ull << 48, 1ull << 48));
  EXPECT_EQ(Lossy::sqr(1ull << 48), 0xffffffffffffffffull) << hx(Lossy::sqr(1ull << 48));
  EXPECT_EQ(Lossy::mul(1ull << 63, 1ull << 63), 0xffffffffc0000000ull) << hx(Lossy::mul(1ull << 63, 1ull << 63));
  EXPECT_EQ(Lossy::sqr(1ull << 63), 0xffffffffc0000000ull) << hx(Lossy::sqr(1ull << 63));
  EXPECT_EQ(Q::mul(1ull << 48, 1ull << 48), 0xffffffff00000000ull);
  EXPECT_EQ(Q::mul(1ull << 63, 1ull << 63), 0xfffffffec0000001ull);
  EXPECT_EQ(classify(Lossy::mul(1ull << 48, 1ull << 48), Q::mul(1ull << 48, 1ull << 48)), kBorrow);
  // So the lossy S-box of 2^48 is wrong: a bit-exact suite fails the engine there (correctly).
  EXPECT_NE(G::canonical(bx::qpow::Permutation<Lossy, false>::sbox(1ull << 48)), Q::sbox(1ull << 48));
}

// Lossy reduce128 of arbitrary 128-bit inputs (accumulators, fused products): still only documented terms.
TEST(QpowLossyModel, Reduce128DeviatesOnlyByDocumentedTerms) {
  std::array<long, 5> count{};
  int bad = 0;
  std::string first;
  SplitMix r{0x7ed128};
  auto one = [&](uint64_t lo, uint64_t hi) {
    const Slip s = classify(Lossy::reduce128(lo, hi), Q::reduce128(hi, lo));
    ++count[s];
    if (s == kOther && bad++ < 8)
      first += "lossy reduce128 lo=" + hx(lo) + " hi=" + hx(hi) + ": got " + hx(Lossy::reduce128(lo, hi)) +
               " exact " + hx(Q::reduce128(hi, lo)) + "\n";
  };
  for (uint64_t a : catalogue())
    for (uint64_t b : catalogue()) one(a, b);
  for (int i = 0; i < 200000; ++i) one(r.next(), r.next());
  for (int i = 0; i < 2000; ++i) one(r.next() & 0xffffffffull, ~0ull - (r.next() & 0xffff));  // r3 = 2^32 - 1
  EXPECT_EQ(bad, 0) << first;
  std::cout << "[ lossy    ] reduce128:";
  for (int s = 0; s < 5; ++s) std::cout << " " << slip_name(Slip(s)) << "=" << count[s];
  std::cout << "\n";
}

// Lossy add folds a 2^64 overflow once: -EPS exactly when a + b >= 2^65 - 2^32 + 1 (both operands >= p);
// otherwise the same raw value as the exact gl2x32 add and the reference's value.
TEST(QpowLossyModel, AddSlipsOnlyOnDoubleOverflow) {
  const u128 kLimit = (u128(1) << 65) - (u128(1) << 32) + 1;
  int bad = 0, slips = 0, total = 0;
  std::string first;
  auto one = [&](uint64_t a, uint64_t b) {
    ++total;
    const uint64_t got = Lossy::add(a, b);
    const bool dbl = u128(a) + b >= kLimit;
    const uint64_t want = dbl ? Q::sub(Q::add(a, b), kEps) : Q::add(a, b);
    bool ok = G::canonical(got) == want;
    if (!dbl) ok = ok && got == Gl2x32::add(a, b);
    slips += dbl;
    if (!ok && bad++ < 8)
      first += "lossy add a=" + hx(a) + " b=" + hx(b) + (dbl ? " (double overflow)" : "") + ": got " + hx(got) +
               " want canonical " + hx(want) + " exact gl2x32 " + hx(Gl2x32::add(a, b)) + "\n";
  };
  for (uint64_t a : catalogue())
    for (uint64_t b : catalogue()) one(a, b);
  SplitMix r{0xadd5};
  for (int i = 0; i < 100000; ++i) one(kP + r.next() % kEps, kP + r.next() % kEps);  // both lazy
  for (int i = 0; i < 100000; ++i) one(r.next(), r.next());
  EXPECT_EQ(bad, 0) << first;
  EXPECT_GT(slips, 0);
  std::cout << "[ lossy    ] add: " << slips << " double overflows (-EPS) of " << total << " sums\n";
}

// Midstate / prestate computed with the lossy arithmetic (the engine's host precomputes them exactly,
// HostTwin, so this only characterises the model): deviations reported, not asserted.
TEST(QpowLossyModel, MidstateAndPrestateReported) {
  int dev = 0, total = 0;
  for (uint64_t seed = 1; seed <= 24; ++seed) {
    const Header h = random_header(0x3d00 + seed);
    const Int nonce = random512(0x3e00 + seed);
    St mid, pre;
    const auto hf = header_felts(h);
    bx::qpow::Miner<Lossy, bx::qpow::kLadder>::midstate(hf.data(), to_u512(nonce), mid.data(), kQuantusP2);
    bx::qpow::Miner<Lossy, bx::qpow::kLadder>::prestate(mid.data(), to_u512(nonce), pre.data(), kQuantusP2);
    dev += canon(mid) != Q::midstate(h, nonce);
    dev += pre != Q::prestate_low64(h, nonce);
    total += 2;
  }
  report_lossy("gl2x32-lossy-model midstate/prestate", dev, total);
}

// ============================================ constants ===============================================

TEST(QpowConstantsTable, KQuantusP2EqualsReference) {
  const auto& C = Q::constants();
  for (int r = 0; r < 4; ++r)
    for (int i = 0; i < 12; ++i) {
      EXPECT_EQ(kQuantusP2.initial[r][i], C.initial[r][i]) << "RC_init[" << r << "][" << i << "]";
      EXPECT_EQ(kQuantusP2.terminal[r][i], C.terminal[r][i]) << "RC_term[" << r << "][" << i << "]";
    }
  for (int r = 0; r < 22; ++r) EXPECT_EQ(kQuantusP2.internal[r], C.internal[r]) << "RC_int[" << r << "]";
  for (int i = 0; i < 12; ++i) {
    EXPECT_EQ(kQuantusP2.diag[i], C.diag[i]) << "diag[" << i << "]";
    EXPECT_LT(kQuantusP2.diag[i], ~0ull - (1ull << 59) + 1) << "the fused product needs d_i < 2^64 - 2^59";
  }
  // The folded external layers' rows (the rolled loop's table), from the reference's constants.
  for (int i = 0; i < 12; ++i) {
    for (int r = 0; r < 3; ++r) {
      EXPECT_EQ(kQuantusP2.fold_row[r][i], C.initial[r + 1][i]) << "fold_row[" << r << "][" << i << "]";
      EXPECT_EQ(kQuantusP2.fold_row[4 + r][i], C.terminal[r + 1][i]) << "fold_row[" << 4 + r << "][" << i << "]";
    }
    EXPECT_EQ(kQuantusP2.fold_row[3][i], i == 0 ? C.internal[0] : 0) << "fold_row[3][" << i << "]";
  }
  // M4 rows: the layout's m4 on unit vectors gives the reference's columns.
  for (int j = 0; j < 4; ++j) {
    uint64_t x[4] = {0, 0, 0, 0};
    x[j] = 1;
    G::Acc96 y[4];
    bx::qpow::Permutation<Gl64, false>::m4(x, y);
    for (int k = 0; k < 4; ++k) EXPECT_EQ(Gl64::acc_reduce(y[k]), C.m4[k][j]) << "M4[" << k << "][" << j << "]";
  }
}

// ============================================ mining hash per variant =================================

// The chain test's nonce: 64 bytes of 0x01.
Int ones64() {
  Int v = 0;
  for (int i = 0; i < 64; ++i) v = (v << 8) | 1;
  return v;
}
struct MiningKat {
  Header h;
  Int nonce;
  const char* hash;
};
const std::vector<MiningKat>& mining_kats() {
  static const std::vector<MiningKat> k = {
      // §9.4(a)
      {fill(0), 0, "8e64e3d8e0f38f882e8501f9e525df0a95d2e91e9cfc32c9248d756fb07780e2f8fdca2c5a54441e6fcd8d774a5f6aae72f36d1c76bc19f691a0d4f6c607e8cc"},
      {fill(0), 1, "9a18eabb9d910135a553a511209963dfafd2dc62989e2e013c18d626fa17c66fd3899fc3fe2bcc88be8ce416a4bd15e9f157cc5b251112f93938b38617548f6c"},
      {fill(1), 123, "0c580156318afca56700b7a2cafa4f44277a6c7ea668717984ed26b8169d277521951b73329d898590e953c35d036726becb74bc29d765112ec99b14d0dc5189"},
      {fill(0xff), pow2(64) - 1, "822f70999ee517f610b51bbb79ba88bfbb19cb77b316df25d8aeb4c2682673555e9fc6a588ee96dcce4ff0d2b8d97f4aa89d0f46c97f9027b386d42b14be5100"},
      {fill(0x2a), Int(0xdeadbeefull), "f974a312ffd7b21ba3e71c499cf178e39d19d178b4483da321da23c48c02e7c874561d93d6e590656905c21a0142a512fe1ebbf69babc904fe1c359f72e5420c"},
      // §9.4(b)
      {fill(1), 1, "e4ef79db80b642a093d7e38e6a6daac7ec1cca7293ddbe3710b4e6781be4add0b93f7e3440626df5bb23b757436787ba8d3fd0a2652e387f8af5bd8a5cc2ce2f"},
      {iota_header(), Int(0x1234567890abcdefull), "7f6c410ce62e7fc54811ad3b8b92664ac0f8b1d2cd6eb163129251146e7ee34d27794aaae1b31eaaeb98ab835bae6a2b9ac4ad6f08c95903e1423f0b865816ff"},
      {fill(7), (Int(0xdeadbeefcafeull) << 300) | Int(0x1234567890abcdefull), "eab81cdb33db293aef7e1f10f85cb08d17bc197c284d46a25d9dc57cdb7ba878adf3f5c354318121876795aab08c0941afda21d835383faa2f139c26be31a30a"},
      // §9.4(c)
      {fill(1), 123456789, "715331a49bffbb8c0a42935113041b6d9d17d64952136b7a533627cf6ce280be17a8d61c656543159c68332fb64ab7fe5ec396bb80b71f219ee282ed661a0522"},
      {fill(0xab), pow2(64) - 1, "4933afa670ead2a3e350f9d1a3fda366c85fe6f4bde4746d6e934860a157c658aa69949ec4be51d6b05e7e9ca9dbfc496c1cde141c75501cb5d7778e18f0c193"},
      {iota_header(), 987654321, "c4e198c0c86b117719a86d039d4ee239d2484161af628e34639943338d066a2a140d9cf9c51da80625cdc4d6b8d33513d9bed3faa3f164628d0472d1b9aca392"},
      {fill(0xff), 42, "d637170b8aa94e2d020ae5ccf96149e338cbb5185623f30ec8df4df6497e72f78f9b43cf2475894a4e9d9da8d0e97092f50a8ac0667b247d4c3ccd96194f64d4"},
      {fill(7), pow2(40), "8316c75199697e0a7315def7b4b25038a53403cbb3a6c7f43ba65705cab02057fb30dfdf3e2a663808924035ec77fa3d4223ec9044e65b9fb9bb7313813f6614"},
      // §9.4(d) chain input: nonce bytes 01 x 64
      {fill(1), ones64(),
       "7200d9e324776e2a2da728ba5d2fb479fc679cc59b7258dfbe38cdc6d528ade6aa42c39f5fe6393cb9abef00a0d9c1612610a894eeaa7323b336a88f8ae7b155"},
      // §9.4(e) carry-boundary nonces
      {iota_header(), pow2(32) - 1, "41a318dbecec5d908c80a7e5950267fb9c2bbcecf87b40ce7f5f713544f97ee7e74b316f6b6b5adb580bcdecd6036e3669044b1510e9be778fcb545eb91c4737"},
      {iota_header(), pow2(32), "ab898b186ec1150296aaa02cf81c506f1b60f50eb6102c17dd47dd336cdb7532214cb4bf0c5e8504ce9e4f117f34cb71a9792b13143c67822fd3babc416fac2c"},
      {iota_header(), pow2(64) - 1, "b63dbaebd10aa32e0a40d4bf57bd226579c4bebb0e7374911d7abbb90db0afd06fea3616d51a0b64d87b784df06ab92805adb0fb51ca178b7973f36a582fd596"},
      {iota_header(), pow2(64), "ddf630a598fe449556301deda7c9fe1c09fb7464ab7336a4432d18d488c406f8607e7b3e6c25783b320e21dfdb2f2c81e04aefe8c036953a3b5160b2165bf460"},
      {iota_header(), pow2(256) - 1, "885e7a2ab901d94dd06688e3c31ff9992714f5eda4cf4d66dfffbddb2f9aa353f691ff72b7226332c8331aa02fbbe868bb16362c4023d99444377611da02455b"},
      {iota_header(), pow2(256), "d33b265e75febc3db4abd24e1e849612fe5d20cbeecb5d6f287f29288bed8276867ae5a21ec3604cda9261256d4461018bf3232ed57fba5bbb7685b2700783b9"},
      {iota_header(), Q::kU512Max, "ea1bcc6705a0aea6fc71c3aa289fb66864443d7ccba76f2adaf4ba3628f874ecdd3d308b0e738642cd6144247ec3b87ec23b3901ea2040c4c22bf3abd6dc07bb"},
      // §9.5 nonce 705
      {fill(0), 705, "003b54fe9408fb8505db12607e3f6524ae543844bcd5d71a0689931214d429698f0440ddefab5aba70d424dc60ff5dcecaf41ef0cb34c459249aa18fe4d897b7"},
  };
  return k;
}

// Every host variant's Code::hash (job built at base == nonce) vs the §9.4 vectors; exact variants must
// match, the lossy model is reported.
TEST(QpowMinerHash, EveryVariantOnKnownAnswers) {
  for_each_host_variant([&]<class Code>(Variant v) {
    int dev = 0;
    Fails fails;
    for (const auto& k : mining_kats()) {
      const U512 n = to_u512(k.nonce);
      const Int got = variant_hash<Code>(k.h, n, n, bx::qpow::row(v).shortcuts);
      if (lossy(v)) {
        dev += got != int_hex(k.hash);
        continue;
      }
      if (hex512(got) != k.hash)
        fails(vname(v) + " header " + hex_bytes(k.h) + " nonce " + hex512(k.nonce) + "\n  got  " + hex512(got) +
              "\n  want " + k.hash);
    }
    fails.expect_none(vname(v) + " §9.4 mining hashes");
    if (lossy(v)) report_lossy(vname(v) + " §9.4 vectors", dev, int(mining_kats().size()));
  });
}

// Nonces a few either side of each carry (2^32: x6 and x7 change together; 2^64: the prestate's lane 5;
// 2^128, 2^224: B2 lanes; 2^256: the midstate; 2^512 - 1 -> 0 -> 1: the wrap), for three headers
// (one fixed, two random): every host variant's hash equals the reference mining_hash.
TEST(QpowMinerHash, EveryVariantAcrossCarryBoundaries) {
  std::vector<Int> nonces;
  for (int k : {32, 64, 128, 224, 256, 512})
    for (int d = -3; d <= 2; ++d) nonces.push_back(mod512(pow2(k) + d));
  const Header headers[] = {iota_header(), random_header(0xbead1), random_header(0xbead2)};
  std::vector<Int> want;
  for (const auto& h : headers)
    for (const Int& n : nonces) want.push_back(Q::mining_hash(h, n));
  for_each_host_variant([&]<class Code>(Variant v) {
    int dev = 0, total = 0, idx = 0;
    Fails fails;
    for (const auto& h : headers)
      for (const Int& nonce : nonces) {
        const U512 n = to_u512(nonce);
        const Int got = variant_hash<Code>(h, n, n, bx::qpow::row(v).shortcuts);
        const Int& w = want[idx++];
        ++total;
        if (lossy(v)) {
          dev += got != w;
          continue;
        }
        if (got != w)
          fails(vname(v) + " header " + hex_bytes(h) + " nonce " + hex512(nonce) + "\n  got       " + hex512(got) +
                "\n  reference " + hex512(w));
      }
    fails.expect_none(vname(v) + " carry-boundary hashes");
    if (lossy(v)) report_lossy(vname(v) + " carry-boundary nonces", dev, total);
  });
}

// ============================================ batch plan ==============================================

// The invariants of plan_batches (search.hpp): batches are non-empty, at most max_batch long, in order,
// base == lo + offset (mod 2^512); consecutive batches are contiguous except for exactly the nonce 0,
// which is skipped; together they cover [lo, lo + n) minus nonce 0; no batch wraps 2^512 (so none holds
// nonce 0), none crosses a 2^64 multiple when kPrestate is set, none a 2^256 multiple when kMidstate is.
std::string check_plan(const Int& lo, uint64_t n, unsigned s, uint64_t max_batch) {
  const auto plan = bx::qpow::plan_batches(to_u512(lo), n, s, max_batch);
  std::ostringstream o;
  o << "plan_batches(lo=" << hex512(lo) << ", n=" << n << ", shortcuts=" << s << ", max_batch=" << max_batch
    << "): ";
  uint64_t expect = 0;
  auto skip_zero = [&] {
    if (expect < n && mod512(lo + expect) == 0) ++expect;
  };
  skip_zero();
  for (size_t i = 0; i < plan.size(); ++i) {
    const auto& b = plan[i];
    const Int base = from_u512(b.base), last = base + b.count - 1;
    o << "batch " << i << " (offset " << b.offset << ", count " << b.count << ", base " << hex512(base) << ") ";
    if (b.offset != expect) return o.str() + "offset should be " + std::to_string(expect);
    if (b.count == 0 || b.count > max_batch) return o.str() + "count out of range";
    if (base != mod512(lo + b.offset)) return o.str() + "base != lo + offset";
    if (base == 0) return o.str() + "holds nonce 0";
    if (last > Q::kU512Max) return o.str() + "wraps 2^512 (holds nonce 0)";
    if ((s & bx::qpow::kPrestate) && (base >> 64) != (last >> 64)) return o.str() + "crosses a 2^64 carry";
    if ((s & bx::qpow::kMidstate) && (base >> 256) != (last >> 256)) return o.str() + "crosses a 2^256 carry";
    expect = b.offset + b.count;
    skip_zero();
  }
  if (expect != n) return o.str() + "covers [0, " + std::to_string(expect) + ") of the range, not all " + std::to_string(n);
  return "";
}

TEST(QpowBatchPlan, FixedCarryStraddles) {
  const unsigned sets[] = {0, bx::qpow::kMidstate, bx::qpow::kMidstate | bx::qpow::kPrestate, bx::qpow::kLadder,
                           bx::qpow::kNoMid, bx::qpow::kNoPre, bx::qpow::kNoEr, bx::qpow::kNoFold};
  const Int los[] = {0, 1, pow2(32) - 5, pow2(64) - 5, pow2(64) * 7 - 5, pow2(128) - 5, pow2(256) - 5,
                     pow2(256) * 3 - 5, Q::kU512Max - 4, Q::kU512Max, pow2(256) - pow2(64) - 5};
  Fails fails;
  for (unsigned s : sets)
    for (const Int& lo : los)
      for (uint64_t mb : {uint64_t(1), uint64_t(3), uint64_t(64), uint64_t(1) << 16}) fails(check_plan(lo, 20, s, mb));
  fails.expect_none("plan_batches on fixed straddles");
  // A long range with few batches: n = 2^40 from 2^64 - 2^20 (prestate: the carry split; big max_batch).
  EXPECT_EQ(check_plan(pow2(64) - pow2(20), uint64_t(1) << 40, bx::qpow::kLadder, uint64_t(1) << 36), "");
  EXPECT_EQ(check_plan(Q::kU512Max - 1000, uint64_t(1) << 40, 0, uint64_t(1) << 38), "");
  // The wrap: 2^512 - 2 .. 1 is [MAX-1, MAX], (0 skipped), [1].
  const auto p = bx::qpow::plan_batches(to_u512(Q::kU512Max - 1), 4, 0, 100);
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0].count, 2u);
  EXPECT_EQ(p[1].offset, 3u);
  EXPECT_EQ(from_u512(p[1].base), 1);
}

// Random ranges near carries: lo = m * 2^k - d (k in 32, 64, 256, 512; m random, d < 2n) or random.
RC_GTEST_PROP(QpowBatchPlanProperty, PartitionsAndNeverCrossesCarries, ()) {
  const uint64_t n = *rc::gen::inRange<uint64_t>(1, 3000);
  const int k = *rc::gen::element(32, 64, 256, 512, 0);
  const auto w = *rc::gen::container<std::array<uint64_t, 8>>(gen_u64());
  Int r = 0;
  for (uint64_t x : w) r = (r << 64) | Int(x);
  const Int d = Int(*rc::gen::inRange<uint64_t>(0, 2 * n));
  const Int lo = k == 0 ? r : mod512(((r >> k) << k) - d);
  const unsigned s = *rc::gen::element(0u, unsigned(bx::qpow::kMidstate), unsigned(bx::qpow::kMidstate | bx::qpow::kPrestate),
                                       bx::qpow::kLadder, bx::qpow::kNoPre, bx::qpow::kNoMid);
  const uint64_t mb = *rc::gen::element(uint64_t(1), uint64_t(5), uint64_t(64), uint64_t(1000), uint64_t(1) << 16);
  const std::string e = check_plan(lo, n, s, mb);
  if (!e.empty()) RC_FAIL(e);
}

// ============================================ host search vs reference brute force ====================

// A range of nonces with the reference's verdict per offset (is_valid_nonce; nonce 0 never a hit) and
// its hash. Difficulty 8: target = floor((2^512 - 1) / 8), top word 0x1fff..., about 1/8 hits.
struct RefRange {
  std::string what;
  Header h;
  Int lo;
  uint64_t n;
  std::vector<Int> hash;       // per offset (nonce 0's hash is defined too)
  std::vector<uint64_t> hits;  // offsets
};
const Int kDifficulty = 8;
const std::vector<RefRange>& ref_ranges() {
  static const std::vector<RefRange> rs = [] {
    std::vector<RefRange> v;
    auto add = [&](std::string what, Header h, Int lo, uint64_t n) {
      RefRange r{std::move(what), h, mod512(lo), n, {}, {}};
      for (uint64_t i = 0; i < n; ++i) {
        const Int nonce = mod512(r.lo + i);
        r.hash.push_back(Q::mining_hash(h, nonce));
        if (nonce != 0 && Q::is_valid_nonce(h, nonce, kDifficulty)) r.hits.push_back(i);
      }
      v.push_back(std::move(r));
    };
    const Int r1 = random512(0xa11ce), r2 = random512(0xb0b);
    add("2^32 straddle", iota_header(), pow2(32) - 96, 192);
    add("2^64 straddle", iota_header(), pow2(64) - 96, 192);
    add("2^128 straddle", iota_header(), pow2(128) - 96, 192);
    add("2^224 straddle", iota_header(), pow2(224) - 96, 192);
    add("2^256 straddle", iota_header(), pow2(256) - 96, 192);
    add("wrap 2^512-1 -> 0 -> 1", iota_header(), Q::kU512Max - 95, 192);
    add("2^64 straddle, random bits 511..64", random_header(0xc1), ((r1 >> 64) << 64) - 64, 128);
    add("2^256 straddle, random bits 511..256", random_header(0xc2), ((r2 >> 256) << 256) - 64, 128);
    add("from nonce 0", fill(0), 0, 64);
    return v;
  }();
  return rs;
}

// Per nonce, through the batch plan the searcher uses (each nonce hashed with its batch's job; small
// and large batches): every exact variant's 512-bit hash equals the reference. This is each shortcut
// against its unshortcut path (the no-X variants) and against the oracle, carries included.
TEST(QpowSearch, EveryVariantHashesEveryNonceOfItsBatches) {
  for_each_host_variant([&]<class Code>(Variant v) {
    const unsigned s = bx::qpow::row(v).shortcuts;
    int dev = 0, total = 0;
    Fails fails;
    for (const auto& rr : ref_ranges())
      for (uint64_t mb : {uint64_t(37), uint64_t(1) << 16}) {
        std::vector<bool> seen(rr.n, false);
        for (const auto& b : bx::qpow::plan_batches(to_u512(rr.lo), rr.n, s, mb)) {
          const uint64_t zero_target[8] = {};
          const MinerJob job = bx::qpow::JobMaker<Code>::make(rr.h.data(), zero_target, b.base, s);
          for (uint64_t i = 0; i < b.count; ++i) {
            const uint64_t off = b.offset + i;
            uint64_t out[8];
            Code::hash(job, bx::qpow::u512_add(b.base, i), out, kQuantusP2);
            const Int got = from_words(out);
            seen[off] = true;
            ++total;
            if (lossy(v)) {
              dev += got != rr.hash[off];
              continue;
            }
            if (got != rr.hash[off])
              fails(vname(v) + " " + rr.what + " max_batch " + std::to_string(mb) + ": nonce " +
                    hex512(mod512(rr.lo + off)) + " (batch base " + hex512(from_u512(b.base)) + " + " +
                    std::to_string(i) + ")\n  got       " + hex512(got) + "\n  reference " + hex512(rr.hash[off]));
          }
        }
        for (uint64_t off = 0; off < rr.n; ++off)
          if (seen[off] != (mod512(rr.lo + off) != 0))
            fails(vname(v) + " " + rr.what + " offset " + std::to_string(off) +
                  (seen[off] ? " (nonce 0) was planned" : " was not planned"));
      }
    fails.expect_none(vname(v) + " per-nonce batch hashes");
    if (lossy(v)) report_lossy(vname(v) + " batch hashes", dev, total);
  });
}

// kDeferBorrow (gl2x32.hpp): a deferred product equals the exact one bit for bit when it counted no
// borrow, and the exact one + EPS (mod 2^64) when it counted one; on the catalogue cross product some
// pairs must take it (2^48 squared is 2^96) or the property would hold vacuously.
TEST(QpowDeferredBorrow, DeferredProductsEqualExactUnlessCounted) {
  using L = Gl2x32;
  Fails fails;
  int counted = 0;
  auto one = [&](const char* op, uint64_t a, uint64_t b, uint64_t exact, uint64_t got, uint32_t borrows) {
    counted += borrows != 0;
    const uint64_t want = borrows ? exact + kEps : exact;
    if (got != want || (borrows != 0 && borrows != 0xffffffffu))  // one product: one borrow at most
      fails(std::string(op) + " a=" + hx(a) + " b=" + hx(b) + ": deferred " + hx(got) + " borrows " +
            std::to_string(borrows) + ", exact " + hx(exact));
  };
  SplitMix r{0xdefe};
  std::vector<std::pair<uint64_t, uint64_t>> pairs;
  for (uint64_t a : catalogue())
    for (uint64_t b : catalogue()) pairs.push_back({a, b});
  for (int k = 0; k < 100000; ++k) pairs.push_back({r.next(), r.next()});
  for (int k = 0; k < 2000; ++k) pairs.push_back({r.next() >> (r.next() % 64), r.next() >> (r.next() % 64)});
  for (auto [a, b] : pairs) {
    uint32_t bw = 0;
    const uint64_t m = L::mul_deferred(a, b, bw);
    one("mul", a, b, L::mul(a, b), m, bw);
    bw = 0;
    const uint64_t q = L::sqr_deferred(a, bw);
    one("sqr", a, a, L::sqr(a), q, bw);
    for (int i : {0, 9}) {  // a diagonal entry times a, plus an accumulator b + 12 * 2^64 (the layer's largest)
      bw = 0;
      const G::Acc96 acc{b, 12};
      const uint64_t f = L::mul_add_reduce_deferred(a, kQuantusP2.diag[i], acc, bw);
      one("mul_add_reduce", a, b, L::mul_add_reduce(a, kQuantusP2.diag[i], acc), f, bw);
    }
  }
  fails.expect_none("deferred products");
  EXPECT_GT(counted, 0) << "no catalogue pair took the deferred borrow: the property above proved nothing";
}

// Every host variant with kDeferBorrow on crafted prestates whose π3 takes the borrow: the recomputed
// hash (512 bits) equals the exact path's (gl64, same shortcuts otherwise), and valid() accepts the
// target hash + 1 and rejects the target hash (the early-reject loop's own recomputation).
TEST(QpowDeferredBorrow, CraftedPrestatesAreRecomputedExactly) {
  int variants = 0;
  for_each_host_variant([&]<class Code>(Variant v) {
    if constexpr (requires { Code::kShortcuts; }) {
      if (!(Code::kShortcuts & bx::qpow::kDeferBorrow)) return;
      ++variants;
      Fails fails;
      std::vector<MinerJob> jobs = bx::qpow::deferred_borrow_jobs<Code>(random_header(0xb0a).data(), 24);
      for (size_t k = 0; k < jobs.size(); ++k) {
        MinerJob& job = jobs[k];
        const std::string what = vname(v) + " crafted job " + std::to_string(k);
        if (!bx::qpow::takes_deferred_borrow<Code>(job)) fails(what + ": pi3 takes no deferred borrow");
        uint64_t got[8], want[8];
        Code::hash(job, job.base, got, kQuantusP2);
        bx::qpow::exact_job_hash<Code>(job, want);
        if (from_words(got) != from_words(want))
          fails(what + " hash\n  got  " + hex512(from_words(got)) + "\n  want " + hex512(from_words(want)));
        for (const bool above : {true, false}) {
          const auto t = to_words(from_words(want) + (above ? 1 : 0));
          std::copy(t.begin(), t.end(), job.target);
          if (Code::valid(job, job.base, kQuantusP2) != above)
            fails(what + " valid() vs target " + hex512(from_words(t.data())) + " (exact: " + (above ? "valid" : "invalid") + ")");
        }
      }
      fails.expect_none(vname(v) + " crafted deferred borrows");
    }
  });
  EXPECT_GE(variants, 3);  // the gl2x32-portable ladder and its -no-early-reject and -no-fold rows
}

// host_search (2 threads) hit lists equal the reference brute force, for every host variant.
TEST(QpowSearch, EveryVariantHitListEqualsReferenceBruteForce) {
  const auto target = to_words(Q::target_of(kDifficulty));
  ASSERT_EQ(target[0], 0x1fffffffffffffffull);
  for (const auto& rr : ref_ranges()) {
    EXPECT_GT(rr.hits.size(), 0u) << rr.what;
    EXPECT_LT(rr.hits.size(), rr.n / 3) << rr.what;
  }
  for_each_host_variant([&]<class Code>(Variant v) {
    int dev = 0;
    for (const auto& rr : ref_ranges()) {
      bx::qpow::SearchRequest rq{};
      std::copy(rr.h.begin(), rr.h.end(), rq.header);
      rq.lo = to_u512(rr.lo);
      rq.count = rr.n;
      std::copy(target.begin(), target.end(), rq.target);
      const auto got = bx::qpow::host_search(v, rq, 2);
      if (lossy(v)) {
        dev += got != rr.hits;
        continue;
      }
      if (got != rr.hits) {
        std::ostringstream o;
        o << vname(v) << " " << rr.what << " (lo " << hex512(rr.lo) << ", n " << rr.n << "): hits got {";
        for (auto x : got) o << " " << x;
        o << " } reference {";
        for (auto x : rr.hits) o << " " << x;
        o << " }";
        ADD_FAILURE() << o.str();
      }
    }
    if (lossy(v)) report_lossy(vname(v) + " hit lists", dev, int(ref_ranges().size()));
  });
}

// ============================================ early reject on structured targets ======================

// For a fixed header and nonce with reference hash H (8 words): targets around H on every tie pattern:
// T0 = H0 - 1, H0 + 1; T0 = H0 and the first differing word k = 1..7 set to H_k - 1 or H_k + 1 (the
// words after it all zeros, all ones, or H's); T == H (invalid: strict); T == H + 1 in the last word
// (valid); the §8 top-64 and top-256 ties. Each variant's valid() must equal hash_meets_target(H, T).
TEST(QpowEarlyReject, StructuredTargetsAroundTheHash) {
  struct Case {
    Header h;
    Int nonce;
  };
  const Case cases[] = {{iota_header(), 1}, {fill(0), 705}, {iota_header(), pow2(64) - 1},
                        {random_header(0xe1), random512(0xe2)}};
  for (const auto& c : cases) {
    const Int H = Q::mining_hash(c.h, c.nonce);
    const auto hw = to_words(H);
    std::vector<std::array<uint64_t, 8>> targets;
    for (int dk : {-1, 1}) {
      auto t = hw;
      t[0] += dk;
      targets.push_back(t);
      for (int j = 1; j < 8; ++j) t[j] = dk < 0 ? ~0ull : 0;  // the rest can never rescue the verdict
      targets.push_back(t);
    }
    for (int k = 1; k < 8; ++k)
      for (int dk : {-1, 1})
        for (int rest = 0; rest < 3; ++rest) {
          auto t = hw;
          t[k] += dk;
          for (int j = k + 1; j < 8; ++j) t[j] = rest == 0 ? 0 : rest == 1 ? ~0ull : hw[j];
          targets.push_back(t);
        }
    targets.push_back(hw);  // T == H: invalid
    auto t = hw;
    t[7] += 1;  // H + 1 in the last word: valid
    targets.push_back(t);
    t = {};
    t[0] = hw[0];  // (H64 << 448): invalid tie on 64 bits
    targets.push_back(t);
    for (int j = 1; j < 8; ++j) t[j] = ~0ull;  // (H64 << 448) + 2^448 - 1: valid tie
    targets.push_back(t);
    t = {hw[0], hw[1], hw[2], hw[3], 0, 0, 0, 0};  // top 256 bits equal
    targets.push_back(t);
    t = {hw[0], hw[1], hw[2], hw[3], ~0ull, ~0ull, ~0ull, ~0ull};
    targets.push_back(t);
    targets.push_back({~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull});  // difficulty 1
    targets.push_back({0, 0, 0, 0, 0, 0, 0, 1});                                  // difficulty MAX
    std::vector<bool> want;
    for (const auto& tt : targets) want.push_back(Q::hash_meets_target(H, from_words(tt.data())));
    const U512 n = to_u512(c.nonce);
    for_each_host_variant([&]<class Code>(Variant v) {
      int dev = 0;
      Fails fails;
      for (size_t i = 0; i < targets.size(); ++i) {
        const MinerJob job = bx::qpow::JobMaker<Code>::make(c.h.data(), targets[i].data(), n, bx::qpow::row(v).shortcuts);
        const bool got = Code::valid(job, n, kQuantusP2);
        if (lossy(v)) {
          dev += got != want[i];
          continue;
        }
        if (got != want[i])
          fails(vname(v) + " header " + hex_bytes(c.h) + " nonce " + hex512(c.nonce) + "\n  hash   " + hex512(H) +
                "\n  target " + hex512(from_words(targets[i].data())) + "\n  valid() " + (got ? "true" : "false") +
                ", reference hash_meets_target " + (want[i] ? "true" : "false"));
      }
      fails.expect_none(vname(v) + " valid() on structured targets");
      if (lossy(v)) report_lossy(vname(v) + " structured targets", dev, int(targets.size()));
    });
  }
}

// ============================================ output path =============================================

// §6.5: a lazy lane c + p (c < EPS) must give the same hash word as c: canonicalise, then swap.
TEST(QpowOutputPath, LazyLanesCanonicalisedBeforeByteSwap) {
  EXPECT_EQ(bx::qpow::hash_word(kP + 5), 0x0500000000000000ull) << hx(bx::qpow::hash_word(kP + 5));
  EXPECT_EQ(bx::qpow::hash_word(5), 0x0500000000000000ull);
  SplitMix r{0x0c7};
  std::vector<uint64_t> cs = {0, 1, 5, 0xff, 0x100, kEps - 1, kEps - 2, 0x80000000};
  for (int i = 0; i < 64; ++i) cs.push_back(r.next() % kEps);
  for (uint64_t c : cs) {
    EXPECT_EQ(bx::qpow::hash_word(c + kP), bx::qpow::hash_word(c)) << "c=" << hx(c) << " lazy " << hx(c + kP) << " -> "
                                                                   << hx(bx::qpow::hash_word(c + kP));
    EXPECT_EQ(bx::qpow::hash_word(c), __builtin_bswap64(c)) << "c=" << hx(c);
  }
  for (uint64_t v : catalogue()) EXPECT_EQ(bx::qpow::hash_word(v), __builtin_bswap64(Q::canonical(v))) << hx(v);
}

// hash < target, strict, most significant word first.
TEST(QpowOutputPath, HashBelowIsStrictAndMostSignificantFirst) {
  SplitMix r{0xb1};
  for (int i = 0; i < 200; ++i) {
    uint64_t h[8], t[8];
    for (int j = 0; j < 8; ++j) h[j] = t[j] = r.next();
    EXPECT_FALSE(bx::qpow::hash_below(h, t)) << "h == t must be invalid";
    if (t[7] != ~0ull) {
      t[7] = h[7] + 1;  // h = t - 1 in the last word
      EXPECT_TRUE(bx::qpow::hash_below(h, t));
      EXPECT_FALSE(bx::qpow::hash_below(t, h));
    }
    const int k = int(r.next() % 8);  // first difference at k, later words opposite
    for (int j = 0; j < 8; ++j) t[j] = h[j];
    if (h[k] == ~0ull) continue;
    t[k] = h[k] + 1;
    for (int j = k + 1; j < 8; ++j) h[j] = ~0ull, t[j] = 0;
    EXPECT_TRUE(bx::qpow::hash_below(h, t)) << "word " << k;
    EXPECT_FALSE(bx::qpow::hash_below(t, h)) << "word " << k;
    EXPECT_EQ(bx::qpow::hash_below(h, t), Q::hash_meets_target(from_words(h), from_words(t)));
  }
}

}  // namespace
