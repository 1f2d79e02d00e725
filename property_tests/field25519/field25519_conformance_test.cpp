// The field25519 conformance suite: one set of properties, templated over layout x backend.
// A layout added to f25519::AllLayouts is tested here without edits. Each property names the fault it catches (ci/zoo).
#include <gtest/gtest.h>

#include "property_tests/field25519/field25519_layouts.hpp"
#include <rapidcheck.h>

#include <array>
#include <utility>
#include <vector>

#include "suite/field25519/reference_op.hpp"
#include "property_tests/field25519/field25519_gen.hpp"

namespace bx::test {
namespace {

using namespace bx::f25519;
namespace R = ref::f25519;
using carry::portable;

using Layouts = HostLayouts;

template <class F>
struct Conformance : ::testing::Test {};
TYPED_TEST_SUITE(Conformance, Layouts);

using OpSpec = field25519::OpContract;
const auto& kOps = field25519::op_contracts();

// Evaluates one op on limbs and returns "" or a full report: op, inputs (limbs and values), the
// reference's answer and the implementation's, as canonical bytes with a hexdump diff.
template <class F>
std::string check_op(const OpSpec& s, const typename F::fe& x, const typename F::fe& y) {
  typename F::fe r;
  const bool flag = eval_limbs<F>(s.op, r, x, y);
  const Int a = value_of<F>(x), b = value_of<F>(y);
  auto [want, want_flag] = reference_op(s.op, a, b);
  uint8_t got[32];
  F::to_bytes(got, r);
  const auto exp = R::encode(want);
  std::string why;
  if (!within<F>(r, s.out)) why = "output limbs exceed the declared bound";
  else if (R::field().reduce(value_of<F>(r)) != want) why = "output value differs from the reference";
  else if (!std::equal(exp.begin(), exp.end(), got)) why = "canonical bytes differ from the reference";
  else if (s.op == Op::sqrt_ratio && flag != want_flag) why = "was_square differs from the reference";
  if (why.empty()) return "";
  std::ostringstream o;
  o << F::name << "/" << F::backend::name << " " << op_name(s.op) << ": " << why << "\n  a limbs " << limbs_hex<F>(x)
    << "\n  b limbs " << limbs_hex<F>(y) << "\n  out limbs " << limbs_hex<F>(r) << "\n"
    << hexdump_bytes(exp.data(), got);
  return o.str();
}

TYPED_TEST(Conformance, EveryOpMatchesReferenceOnRandomAndNonCanonicalOperands) {
  using F = TypeParam;
  for (const OpSpec& s : kOps) {
    const bool ok = rc::check(std::string(F::name) + " " + op_name(s.op), [s] {
      const auto [x, xo] = *gen_operand<F>(s.in);
      const auto [y, yo] = *gen_operand<F>(s.in);
      RC_TAG(xo.origin.substr(0, 10));
      const std::string err = check_op<F>(s, x, y);
      if (!err.empty()) RC_FAIL(err + "  a from " + xo.origin + "\n  b from " + yo.origin);
    });
    EXPECT_TRUE(ok) << op_name(s.op);
  }
}

// Every catalogue value the layout can hold as a tight representation (values up to 2^256-1 and 2^261
// where they fit), through every op, binary ops over the full cross product.
TYPED_TEST(Conformance, BoundaryCatalogueCrossProduct) {
  using F = TypeParam;
  std::vector<typename F::fe> reps;
  for (auto& e : R::boundary_catalogue()) {
    if (auto r = represent<F>(e.value)) reps.push_back(*r);
    if (auto r = represent<F>(R::field().reduce(e.value))) reps.push_back(*r);
  }
  ASSERT_GT(reps.size(), 100u);
  int failures = 0;
  for (const OpSpec& s : kOps) {
    const bool slow = s.op == Op::invert || s.op == Op::pow22523 || s.op == Op::sqrt_ratio;
    for (size_t i = 0; i < reps.size(); ++i)
      for (size_t j = 0; j < (s.binary ? reps.size() : 1); j += (slow ? 7 : 1)) {
        const std::string err = check_op<F>(s, reps[i], reps[j]);
        if (!err.empty() && failures++ < 5) ADD_FAILURE() << err;
      }
  }
  EXPECT_EQ(failures, 0);
}

using field25519::corner_reps;

TYPED_TEST(Conformance, DeclaredBoundCorners) {
  using F = TypeParam;
  int failures = 0;
  for (const OpSpec& s : kOps) {
    auto reps = corner_reps<F>(s.in);
    auto tight = corner_reps<F>(Bound::tight);
    reps.insert(reps.end(), tight.begin(), tight.end());
    for (auto& x : reps)
      for (auto& y : reps) {
        const std::string err = check_op<F>(s, x, y);
        if (!err.empty() && failures++ < 5) ADD_FAILURE() << err;
        if (!s.binary) break;
      }
  }
  // Subtraction also takes lazy2 operands where the layout declares it (9x29: a second lazy add).
  if (model<F>().lazy2_sub)
    for (auto& x : corner_reps<F>(Bound::lazy2))
      for (auto& y : corner_reps<F>(Bound::lazy2)) {
        const std::string err = check_op<F>({Op::sub, true, Bound::lazy2, Bound::tight}, x, y);
        if (!err.empty() && failures++ < 5) ADD_FAILURE() << err;
      }
  EXPECT_EQ(failures, 0);
}

// Random operation programs within the layout's lazy budget: registers carry their declared bound,
// each step picks an op whose contract the operands meet, and after every step the bound and the
// value (against the golden model) are checked. Catches bound accumulation (e.g. a too-small
// subtraction bias) that single operations with fresh operands miss.
TYPED_TEST(Conformance, RandomProgramsWithinLazyBudget) {
  using F = TypeParam;
  const bool ok = rc::check(std::string(F::name) + " programs", [] {
    struct Reg {
      typename F::fe fe;
      Bound bound;
      Int value;  // golden model, reduced
    };
    std::vector<Reg> regs;
    for (int i = 0; i < 4; ++i) {
      auto [x, o] = *gen_operand<F>(Bound::tight);
      regs.push_back({x, Bound::tight, R::field().reduce(o.value)});
    }
    const bool lazy2 = model<F>().lazy2_sub;
    const int steps = *rc::gen::inRange(1, 48);
    std::string trace;
    for (int step = 0; step < steps; ++step) {
      const int op = *rc::gen::inRange(0, 6);
      const size_t i = *rc::gen::inRange<size_t>(0, regs.size()), j = *rc::gen::inRange<size_t>(0, regs.size());
      const size_t d = *rc::gen::inRange<size_t>(0, regs.size());
      Reg &a = regs[i], &b = regs[j];
      Reg r;
      auto ok_in = [&](Bound have, Bound need) { return int(have) <= int(need); };
      const char* name = "";
      if (op == 0 && ok_in(a.bound, Bound::tight) && ok_in(b.bound, Bound::tight)) {
        F::add(r.fe, a.fe, b.fe), r.bound = Bound::loose, r.value = R::add(a.value, b.value), name = "add";
      } else if (op == 1 && ok_in(a.bound, Bound::loose) && ok_in(b.bound, Bound::loose)) {
        // where declared, a second lazy add as the subtrahend: c - (a + b) with a, b loose
        if (lazy2 && *rc::gen::arbitrary<bool>()) {
          typename F::fe s;
          F::add(s, a.fe, b.fe);
          RC_ASSERT(within<F>(s, Bound::lazy2));
          F::sub(r.fe, regs[d].fe, s);
          r.value = R::sub(regs[d].value, R::add(a.value, b.value));
          name = "sub(rd, lazy2 add)";
        } else {
          F::sub(r.fe, a.fe, b.fe), r.value = R::sub(a.value, b.value), name = "sub";
        }
        r.bound = Bound::tight;
      } else if (op == 2) {
        F::mul(r.fe, a.fe, b.fe), r.bound = Bound::tight, r.value = R::mul(a.value, b.value), name = "mul";
      } else if (op == 3) {
        F::sqr(r.fe, a.fe), r.bound = Bound::tight, r.value = R::sqr(a.value), name = "sqr";
      } else if (op == 4) {
        F::mul_small(r.fe, a.fe, kMulSmallK), r.bound = Bound::tight, r.value = R::mul_small(a.value, kMulSmallK),
            name = "mul_small";
      } else {
        F::neg(r.fe, a.fe), r.bound = Bound::tight, r.value = R::neg(a.value), name = "neg";
      }
      trace += std::string(name) + " r" + std::to_string(i) + " r" + std::to_string(j) + " -> r" + std::to_string(d) + "; ";
      if (!within<F>(r.fe, r.bound))
        RC_FAIL(std::string(F::name) + " program: bound exceeded after " + trace + "\n  limbs " + limbs_hex<F>(r.fe));
      if (R::field().reduce(value_of<F>(r.fe)) != r.value) RC_FAIL(std::string(F::name) + " program: wrong value after " + trace);
      uint8_t got[32];
      F::to_bytes(got, r.fe);
      const auto exp = R::encode(r.value);
      if (!std::equal(exp.begin(), exp.end(), got))
        RC_FAIL(std::string(F::name) + " program: wrong canonical bytes after " + trace + "\n" + hexdump_bytes(exp.data(), got));
      regs[d] = r;
    }
  });
  EXPECT_TRUE(ok);
}

// Dedicated squaring equals mul(x, x) limb for limb (same integer, same folds).
TYPED_TEST(Conformance, SquareEqualsSelfMultiplyLimbForLimb) {
  using F = TypeParam;
  EXPECT_TRUE(rc::check(std::string(F::name) + " sqr == mul(x,x)", [] {
    const auto [x, o] = *gen_operand<F>(Bound::loose);
    typename F::fe s, m;
    F::sqr(s, x);
    F::mul(m, x, x);
    for (int i = 0; i < F::N; ++i)
      if (s.v[i] != m.v[i]) RC_FAIL("sqr != mul(x,x) at limb " + std::to_string(i) + " for " + limbs_hex<F>(x));
  }));
}

// sqrt_ratio on constructed inputs hitting each branch: u = r^2 v, u = -r^2 v, u = 2 r^2 v (non-square).
TYPED_TEST(Conformance, SqrtRatioEveryBranch) {
  using F = TypeParam;
  EXPECT_TRUE(rc::check(std::string(F::name) + " sqrt_ratio branches", [] {
    const Int r = *gen_value_255(), v = *gen_value_255();
    const int kind = *rc::gen::inRange(0, 3);
    const Int r2v = R::mul(R::sqr(r), v);
    const Int u = kind == 0 ? r2v : kind == 1 ? R::neg(r2v) : R::mul(2, r2v);
    RC_TAG(kind);
    auto ub = ref::to_le_bytes(u, 32), vb = ref::to_le_bytes(R::field().reduce(v), 32);
    typename F::fe x, y;
    F::from_bytes(x, ub.data());
    F::from_bytes(y, vb.data());
    const std::string err = check_op<F>({Op::sqrt_ratio, true, Bound::loose, Bound::tight}, x, y);
    if (!err.empty()) RC_FAIL(err);
  }));
}

TYPED_TEST(Conformance, FromBytesIsTightAndExact) {
  using F = TypeParam;
  EXPECT_TRUE(rc::check(std::string(F::name) + " from_bytes", [] {
    const Int v = *gen_value_255();
    auto b = ref::to_le_bytes(v, 32);
    typename F::fe x;
    F::from_bytes(x, b.data());
    RC_ASSERT(within<F>(x, Bound::tight));
    RC_ASSERT(R::field().reduce(value_of<F>(x)) == R::field().reduce(v));
  }));
}

// All layouts agree byte for byte on every op for the same 32-byte operands.
TEST(CrossLayout, AllLayoutsAgreeOnEveryOp) {
  EXPECT_TRUE(rc::check("cross-layout agreement", [] {
    const Int a = *gen_value_255(), b = *gen_value_255();
    auto ab = ref::to_le_bytes(a, 32), bb = ref::to_le_bytes(b, 32);
    for (const OpSpec& s : kOps) {
      std::vector<std::pair<std::string, std::array<uint8_t, 33>>> outs;  // 32 bytes and the flag
      for_each_host_layout([&]<class F>() {
        std::array<uint8_t, 33> o{};
        o[32] = eval_bytes<F>(s.op, o.data(), ab.data(), bb.data());
        outs.emplace_back(F::name, o);
      });
      for (size_t k = 1; k < outs.size(); ++k)
        if (outs[k].second != outs[0].second)
          RC_FAIL(std::string(op_name(s.op)) + ": " + outs[k].first + " differs from " + outs[0].first + "\n" +
                  hexdump_bytes(outs[0].second.data(), outs[k].second.data()));
    }
  }));
}

}  // namespace
}  // namespace bx::test

namespace bx::test {
namespace {

// Named inputs from the spec's representation catalogue (6.1), each the minimal case of a known bug class.
template <class F>
std::string run_named(const OpSpec& s, const typename F::fe& x, const typename F::fe& y) {
  return check_op<F>(s, x, y);
}

TEST(NamedCases, Fe51DonnaSubOfAnAddOutput) {  // sub(0, add(m, m)), m = 2^51 - 1: limb 0 wraps with a 2p bias
  using F = Fe51<portable>;
  const uint64_t m = (uint64_t(1) << 51) - 1;
  F::fe mm = {{m, m, m, m, m}}, zero = {{0, 0, 0, 0, 0}}, s;
  F::add(s, mm, mm);
  EXPECT_EQ(run_named<F>({Op::sub, true, Bound::loose, Bound::tight}, zero, s), "");
}

TEST(NamedCases, Fe32AllOnesAndTheThirdFold) {  // add raw 74, sub(0, 2^256-1) raw 2^256-75, mul/sqr raw 1369
  using F = Fe32<portable>;
  F::fe ones, zero = {{0, 0, 0, 0, 0, 0, 0, 0}};
  for (auto& w : ones.v) w = 0xffffffffu;
  EXPECT_EQ(run_named<F>({Op::add, true, Bound::tight, Bound::loose}, ones, ones), "");
  EXPECT_EQ(run_named<F>({Op::sub, true, Bound::loose, Bound::tight}, zero, ones), "");
  EXPECT_EQ(run_named<F>({Op::mul, true, Bound::loose, Bound::tight}, ones, ones), "");
  EXPECT_EQ(run_named<F>({Op::sqr, false, Bound::loose, Bound::tight}, ones, ones), "");
  F::fe r;
  F::mul(r, ones, ones);
  EXPECT_EQ(r.v[0], 1369u);  // (2^256-1)^2 = 37^2 (mod p) after the third fold, as the spec derives
}

// The Karatsuba multiply's middle term (a0 - a1)(b1 - b0) over 128-bit halves: every sign pattern (<, =, >
// on each side), with halves at 0, all ones and one apart in the lowest or the highest word, where the
// borrow chain of |a0 - a1| runs the whole length. Catches fe32_karatsuba_sign_ignored.
TEST(NamedCases, Fe32KaratsubaEveryHalvesOrder) {
  using F = Fe32<portable>;
  using Half = std::array<uint32_t, 4>;
  const Half zero = {0, 0, 0, 0}, ones = {~0u, ~0u, ~0u, ~0u}, lo1 = {1, 0, 0, 0}, hi1 = {0, 0, 0, 0x80000000u},
             mixed = {0xfffffffeu, 0x80000000u, 1, 0x7fffffffu}, mixed_lo = {0xfffffffdu, 0x80000000u, 1, 0x7fffffffu};
  const std::vector<std::pair<Half, Half>> pairs = {{zero, zero}, {zero, ones}, {ones, zero}, {ones, ones},
                                                    {zero, lo1},  {lo1, zero},  {zero, hi1}, {hi1, zero},
                                                    {mixed, mixed_lo}, {mixed_lo, mixed}, {mixed, ones}};
  int cases = 0;
  for (const auto& [a0, a1] : pairs)
    for (const auto& [b0, b1] : pairs) {
      F::fe a, b;
      for (int i = 0; i < 4; ++i) a.v[i] = a0[i], a.v[i + 4] = a1[i], b.v[i] = b0[i], b.v[i + 4] = b1[i];
      EXPECT_EQ(run_named<F>({Op::mul, true, Bound::loose, Bound::tight}, a, b), "");
      ++cases;
    }
  EXPECT_EQ(cases, 121);
}

TEST(NamedCases, Fe29MulAtItsHardCeiling) {  // all limbs 0x55555554: 9 B^2 = 2^64 - 2^35 + 16, no column overflow
  using F = Fe29<portable>;
  F::fe c;
  for (auto& w : c.v) w = 0x55555554u;
  typename F::fe r;
  F::mul(r, c, c);
  EXPECT_EQ(R::field().reduce(value_of<F>(r)), R::sqr(value_of<F>(c)));
  EXPECT_TRUE(within<F>(r, Bound::tight));
}

TEST(NamedCases, Fe29SubWithTopLimbAboveTheSmallBias) {  // subtrahend top limb 2^31 > 8p's 0x3fffff8
  using F = Fe29<portable>;
  F::fe zero = {{0, 0, 0, 0, 0, 0, 0, 0, 0}}, b = zero;
  b.v[8] = 1u << 31;
  EXPECT_EQ(run_named<F>({Op::sub, true, Bound::lazy2, Bound::tight}, zero, b), "");
}

}  // namespace
}  // namespace bx::test
