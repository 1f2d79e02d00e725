// The conformance properties on the GPU, for every layout x backend (the PTX backend exists only here):
// inputs from the host generators, a batch evaluated on the device, GPU limbs compared with the host
// (portable) limbs exactly and canonical bytes with the golden model. Skips, visibly, without a GPU.
#include <gtest/gtest.h>

#include "property_tests/read_file.hpp"

#include "property_tests/field25519/field25519_layouts.hpp"

#include "suite/paths.hpp"
#include <rapidcheck.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/field25519/impls.hpp"
#include "suite/field25519/vectors.hpp"
#include "gpu/field25519/draw.hpp"
#include "gpu/kernels/field25519_kernels.hpp"
#include "suite/field25519/reference_op.hpp"
#include "property_tests/field25519/field25519_gen.hpp"
#include "property_tests/field25519/split52_cases.hpp"

namespace bx::test {
namespace {
using bx::test::read_file;
using namespace bx::f25519;
namespace R = ref::f25519;
using carry::portable;
using carry::ptx;

template <class F>
struct HostTwin;
template <template <class> class L, class B>
struct HostTwin<L<B>> {
  using type = L<portable>;
};

template <class F>
struct GpuConformance : ::testing::Test {
  void SetUp() override {
    if (kern::device_count() == 0) GTEST_SKIP() << "NOT RUN: no CUDA device";
    const std::string impl = std::string(F::name) + "/" + F::backend::name;
    const auto built = kern::fe_device_impls();
    if (std::find(built.begin(), built.end(), impl) == built.end())
      GTEST_SKIP() << "NOT RUN: " << impl << " has no per-implementation kernels in this build (BX_FIELD25519_KERNELS=one)";
  }
};
TYPED_TEST_SUITE(GpuConformance, DeviceLayouts);

const Op kOps[] = {Op::add, Op::sub, Op::neg, Op::mul, Op::sqr, Op::mul_small, Op::invert, Op::pow22523, Op::sqrt_ratio, Op::canonical};
Bound input_bound(Op op) { return op == Op::add ? Bound::tight : Bound::loose; }


// Evaluates a batch on the device and judges it; returns "" or the first failure's report.
template <class F>
std::string judge_batch(Op op, const std::vector<typename F::fe>& a, const std::vector<typename F::fe>& b) {
  using H = typename HostTwin<F>::type;
  const size_t n = a.size();
  std::vector<typename F::fe> out(n);
  std::vector<uint8_t> bytes(32 * n);
  kern::fe_eval_limbs<F>(0, op, a.data(), b.data(), n, out.data(), bytes.data());
  for (size_t i = 0; i < n; ++i) {
    typename H::fe ha, hb, hr;
    std::copy(std::begin(a[i].v), std::end(a[i].v), ha.v);
    std::copy(std::begin(b[i].v), std::end(b[i].v), hb.v);
    eval_limbs<H>(op, hr, ha, hb);
    const auto want = R::encode(reference_op(op, value_of<F>(a[i]), value_of<F>(b[i])).first);
    const bool limbs_equal = std::equal(std::begin(hr.v), std::end(hr.v), std::begin(out[i].v));
    const bool bytes_equal = std::equal(want.begin(), want.end(), &bytes[32 * i]);
    if (!limbs_equal || !bytes_equal)
      return std::string(F::name) + "/" + F::backend::name + " on GPU, " + op_name(op) + ": " +
             (!bytes_equal ? "canonical bytes differ from the reference" : "limbs differ from the host emulation") +
             "\n  a limbs " + limbs_hex<F>(a[i]) + "\n  b limbs " + limbs_hex<F>(b[i]) + "\n  gpu limbs " +
             limbs_hex<F>(out[i]) + "\n  host limbs " + limbs_hex<H>(hr) + "\n" + hexdump_diff(want.data(), &bytes[32 * i], 32);
  }
  return "";
}

TYPED_TEST(GpuConformance, EveryOpMatchesHostLimbsAndReference) {
  using F = TypeParam;
  for (Op op : kOps) {
    const bool ok = rc::check(std::string(F::name) + "/" + F::backend::name + " gpu " + op_name(op), [op] {
      using H = typename HostTwin<F>::type;
      const size_t n = op == Op::invert || op == Op::pow22523 || op == Op::sqrt_ratio ? 16 : 128;
      std::vector<typename F::fe> a(n), b(n);
      for (size_t i = 0; i < n; ++i) {
        auto x = *gen_operand<H>(input_bound(op));
        auto y = *gen_operand<H>(input_bound(op));
        std::copy(std::begin(x.first.v), std::end(x.first.v), a[i].v);
        std::copy(std::begin(y.first.v), std::end(y.first.v), b[i].v);
      }
      const std::string err = judge_batch<F>(op, a, b);
      if (!err.empty()) RC_FAIL(err);
    });
    EXPECT_TRUE(ok) << op_name(op);
  }
}

TYPED_TEST(GpuConformance, BoundaryCatalogueCrossProduct) {
  using F = TypeParam;
  using H = typename HostTwin<F>::type;
  std::vector<typename F::fe> reps;
  for (auto& e : R::boundary_catalogue())
    for (const Int& v : {e.value, R::field().reduce(e.value)})
      if (auto r = represent<H>(v)) {
        typename F::fe x;
        std::copy(std::begin(r->v), std::end(r->v), x.v);
        reps.push_back(x);
      }
  for (Op op : {Op::add, Op::sub, Op::mul, Op::sqr, Op::mul_small, Op::neg, Op::canonical}) {
    std::vector<typename F::fe> a, b;
    for (auto& x : reps)
      for (auto& y : reps) a.push_back(x), b.push_back(y);
    EXPECT_EQ(judge_batch<F>(op, a, b), "");
  }
}


// RFC 7748 and suite vectors plus all 518 Wycheproof cases on every device implementation.
TEST(GpuX25519, VectorsAndWycheproofOnEveryImplementation) {
  if (kern::device_count() == 0) GTEST_SKIP() << "NOT RUN: no CUDA device";
  std::vector<Bytes32> k, u, want;
  for (auto& t : field25519::vectors::parse_x25519("x", read_file(bx::source_dir() + "/vectors/field25519/x25519_rfc7748.json")))
    if (!t.iterations) k.push_back(t.scalar), u.push_back(t.u), want.push_back(t.shared);
  const std::string wp = bx::test::wycheproof_file("x25519_test.json");
  ASSERT_FALSE(wp.empty());
  size_t n_wp = 0;
  const auto doc = nlohmann::json::parse(wp);  // kept alive: a range over a member of a temporary dangles
  for (auto& g : doc["testGroups"])
    for (auto& t : g["tests"]) {
      k.push_back(bytes32_from_hex(t["private"], "private"));
      u.push_back(bytes32_from_hex(t["public"], "public"));
      want.push_back(bytes32_from_hex(t["shared"], "shared"));
      ++n_wp;
    }
  EXPECT_EQ(n_wp, 518u);
  for (auto& name : kern::fe_device_impls()) {
    std::vector<Bytes32> out(k.size());
    kern::x25519_batch(0, name, k[0].data(), u[0].data(), k.size(), out[0].data());
    int bad = 0;
    for (size_t i = 0; i < k.size(); ++i)
      if (out[i] != want[i] && bad++ < 3)
        ADD_FAILURE() << name << " x25519 case " << i << "\n" << hexdump_diff(want[i].data(), out[i].data(), 32);
    EXPECT_EQ(bad, 0) << name;
  }
}

// A short bulk run: no disagreement between any implementations, and the sample agrees with the reference.
TEST(GpuBulk, ShortRunHasNoDisagreementAndSamplesMatchReference) {
  if (kern::device_count() == 0) GTEST_SKIP() << "NOT RUN: no CUDA device";
  const uint64_t seed = 77;
  auto r = kern::fe_bulk(0, seed, 0, uint64_t(1) << 22, 10);
  EXPECT_EQ(r.disagreements, 0u);
  EXPECT_GT(r.samples.size(), 1000u);
  for (auto& s : r.samples) {
    const auto want = reference_bulk_program(seed, s.index);
    for (int i = 0; i < 4; ++i)
      ASSERT_TRUE(std::equal(want[i].begin(), want[i].end(), s.out[i])) << "sample " << s.index << " output " << i;
  }
}

// fe51s's FP64 product split (carry::ptx::split52: DFMA.RZ, DADD, DFMA.RZ) against the 128-bit product of
// carry::portable on the edges of its preconditions and 2^20 seeded random pairs.
TEST(GpuSplit52, Fp64SplitEqualsThe128BitProduct) {
  if (kern::device_count() == 0) GTEST_SKIP() << "NOT RUN: no CUDA device";
  const auto cases = split52_cases(0x5b1175eedULL, size_t(1) << 20);
  std::vector<int64_t> a, b;
  for (const auto& [x, y] : cases) a.push_back(x), b.push_back(y);
  std::vector<uint64_t> hi(a.size()), lo(a.size());
  kern::split52_on_device(0, a.data(), b.data(), a.size(), hi.data(), lo.data());
  size_t bad = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    uint64_t h, l;
    portable::split52(h, l, portable::split52_operand(a[i]), portable::split52_operand(b[i]));
    if (h != hi[i] || l != lo[i]) {
      if (++bad <= 5)
        ADD_FAILURE() << "a = " << a[i] << ", b = " << b[i] << ": card hi " << int64_t(hi[i]) << " lo " << lo[i]
                      << ", 128-bit product hi " << int64_t(h) << " lo " << l;
    }
  }
  EXPECT_EQ(bad, 0u) << "of " << a.size() << " pairs";
}

}  // namespace
}  // namespace bx::test
