// q8parity on every GPU: each kernel against the CPU reference, bitwise with NaNs as a class: every
// matvec variant at ntok 1..8 on row counts with tails and K from 32 to 16384, random and special inputs,
// and a real-size 14336 x 4096 matrix; a token's outputs independent of ntok; the negative control
// different; rmsnorm; the gr read (xn and the pre-activations bitwise, the gate bitwise from the device's
// own lo, every output of the fused read bitwise equal to the plain read's, NMSE against float64); the
// build-rule probes of both kernel translation units.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "cli/q8parity/q8parity.hpp"
#include "property_tests/q8parity/rc_require.hpp"
#include "gpu/kernels/q8parity_kernels.hpp"

namespace {
using namespace bx;
using namespace bx::q8parity;

// Every GPU's device number: a variant there is make_impl(v, device), as selftest runs it.
std::vector<int> gpus() {
  std::vector<int> p;
  for (int g = 0; g < kern::device_count(); ++g) p.push_back(g);
  return p;
}
std::string where(int g) { return suite::Implementation::place_of(g); }
std::vector<size_t> variants_of(Op op, bool with_control = false) {
  std::vector<size_t> v;
  for (size_t i = 0; i < kVariantCount; ++i)
    if (kVariants[i].op == op && (with_control || !kVariants[i].negative)) v.push_back(i);
  return v;
}

TEST(GpuQ8, ThereIsAGpuAndEveryOpHasVariants) {
  ASSERT_FALSE(gpus().empty()) << "the gpu-labelled tests need a CUDA device";
  for (Op op : {Op::matvec, Op::rmsnorm, Op::gr}) EXPECT_FALSE(variants_of(op).empty());
}

TEST(GpuQ8, BuildRulesHoldInEveryKernelTranslationUnit) {
  for (int device : gpus()) EXPECT_EQ(kern::q8_device_build_problems(device), "") << where(device);
}

TEST(GpuQ8, MatvecEveryVariantEveryNtokBitwise) {
  struct Shape {
    size_t rows, k;
  };
  for (int device : gpus())
    for (bool special : {false, true})
      for (Shape s : {Shape{1, 32}, Shape{65, 288}, Shape{131, 544}, Shape{3, 16384}, Shape{257, 2080}}) {
        const MatvecInput all = random_matvec(s.rows + s.k, s.rows, s.k, 8, special);
        for (int t = 1; t <= 8; ++t) {
          const MatvecInput in = first_tokens(all, t);
          const auto want = reference_matvec(in);
          for (size_t v : variants_of(Op::matvec)) {
            const Diff d = diff(make_impl(v, device).matvec(in, nullptr), want);
            EXPECT_TRUE(d.same()) << kVariants[v].name << " on " << where(device) << " rows " << s.rows << " K " << s.k << " ntok " << t
                                  << (special ? " special" : "") << ": " << describe(d, s.rows);
          }
        }
      }
}

RC_GTEST_PROP(GpuQ8, MatvecRandomShapesBitwise, ()) {
  const size_t k = 32 * *rc::gen::inRange<size_t>(1, 65), rows = *rc::gen::inRange<size_t>(1, 400);
  const int ntok = *rc::gen::inRange(1, 9);
  const MatvecInput in = random_matvec(*rc::gen::arbitrary<uint64_t>(), rows, k, ntok, *rc::gen::arbitrary<bool>());
  const auto want = reference_matvec(in);
  for (int device : gpus())
    for (size_t v : variants_of(Op::matvec)) {
      const Diff d = diff(make_impl(v, device).matvec(in, nullptr), want);
      Q8_RC_REQUIRE(d.same(), kVariants[v].name << " rows " << rows << " K " << k << " ntok " << ntok << ": " << describe(d, rows));
    }
}

TEST(GpuQ8, MatvecRealSizeMatrix) {
  const MatvecInput all = random_matvec(14336, 14336, 4096, 8, false);
  const auto want_all = reference_matvec_parallel(all);
  for (int device : gpus()) {
    kern::Q8MatvecOnDevice dev(device, all.w.data(), all.rows, all.k, all.x.data(), 8);
    for (int t : {1, 8}) {
      const std::vector<float> want(want_all.begin(), want_all.begin() + std::ptrdiff_t(size_t(t) * all.rows));
      for (size_t v : variants_of(Op::matvec, true)) {
        const Diff d = diff(dev.run(v, t, kPoison), want);
        if (kVariants[v].negative)
          EXPECT_GE(d.count * 10, d.size * 8) << "negative control ntok " << t << ": " << describe(d, all.rows);
        else
          EXPECT_TRUE(d.same()) << kVariants[v].name << " ntok " << t << ": " << describe(d, all.rows);
      }
    }
  }
}

// More row groups than the grid holds at once: thread blocks loop over groups.
TEST(GpuQ8, MatvecGridStrideOverManyRowGroups) {
  for (int device : gpus())
    for (int t : {1, 8}) {
      const MatvecInput in = random_matvec(40001, 40001, 64, t, true);
      const auto want = reference_matvec_parallel(in);
      for (size_t v : variants_of(Op::matvec)) EXPECT_TRUE(diff(make_impl(v, device).matvec(in, nullptr), want).same()) << kVariants[v].name << " ntok " << t;
    }
}

TEST(GpuQ8, TokenOutputsDoNotDependOnNtok) {
  const MatvecInput all = random_matvec(77, 129, 544, 8, true);
  for (int device : gpus())
    for (size_t v : variants_of(Op::matvec, true)) {
      const auto full = make_impl(v, device).matvec(all, nullptr);
      for (int t = 0; t < 8; ++t) {
        MatvecInput one = all;
        one.ntok = 1;
        one.x.assign(all.x.begin() + std::ptrdiff_t(size_t(t) * all.k), all.x.begin() + std::ptrdiff_t(size_t(t + 1) * all.k));
        const std::vector<float> part(full.begin() + std::ptrdiff_t(size_t(t) * all.rows),
                                      full.begin() + std::ptrdiff_t(size_t(t + 1) * all.rows));
        EXPECT_TRUE(diff(part, make_impl(v, device).matvec(one, nullptr)).same()) << kVariants[v].name << " token " << t;
      }
    }
}

TEST(GpuQ8, RmsnormEveryVariantBitwise) {
  for (int device : gpus())
    for (bool special : {false, true})
      for (bool has_w : {true, false})
        for (size_t n : {1, 31, 32, 33, 100, 2560, 4097, 16384}) {
          const NormInput in = random_norm(n, n, 5, has_w, special);
          const auto want = reference_rmsnorm(in);
          for (size_t v : variants_of(Op::rmsnorm)) {
            const Diff d = diff(make_impl(v, device).rmsnorm(in), want);
            EXPECT_TRUE(d.same()) << kVariants[v].name << " on " << where(device) << " n " << n << ": " << describe(d, 0);
          }
        }
}

TEST(GpuQ8, GrReadPartsExactEpiloguesBetweenVariantsAndNmse) {
  for (int device : gpus())
    for (auto [shape, ntok] : {std::pair{R::GrShape{4, 2560, 320}, 1}, std::pair{R::GrShape{4, 2560, 320}, 8},
                               std::pair{R::GrShape{3, 96, 64}, 3}}) {
      const R::GrInputs in = random_gr(uint64_t(ntok), shape, ntok);
      const R::GrOutputs want = R::gr_read(in);
      const R::GrOutputs64 want64 = R::gr_read64(in);
      const q8::GrResult plain = make_impl(q8::kGrPlain, device).gr(in, nullptr);
      for (size_t v : variants_of(Op::gr)) {
        const q8::GrResult got = make_impl(v, device).gr(in, nullptr);
        EXPECT_TRUE(diff(got.xn, want.xn).same()) << kVariants[v].name << " xn " << describe(diff(got.xn, want.xn), 0);
        EXPECT_TRUE(diff(got.pre, want.pre).same()) << kVariants[v].name << " pre " << describe(diff(got.pre, want.pre), 0);
        std::vector<float> gate;
        for (int t = 0; t < ntok; ++t) {
          const auto g = R::matvec(in.w_up.data(), shape.width(), size_t(shape.hc_lr), &got.lo[size_t(t) * size_t(shape.hc_lr)], 1);
          gate.insert(gate.end(), g.begin(), g.end());
        }
        EXPECT_TRUE(diff(got.gate, gate).same()) << kVariants[v].name << " gate " << describe(diff(got.gate, gate), 0);
        EXPECT_LE(R::nmse(got.lo, want64.lo), 1e-7) << kVariants[v].name;
        EXPECT_LE(R::nmse(got.mixed, want64.mixed), 1e-7) << kVariants[v].name;
        for (auto [what, a, b] : {std::tuple{"lo", &got.lo, &plain.lo}, std::tuple{"gate", &got.gate, &plain.gate},
                                  std::tuple{"mixed", &got.mixed, &plain.mixed}})
          EXPECT_TRUE(diff(*a, *b).same()) << kVariants[v].name << " " << what << " against gr/plain: " << describe(diff(*a, *b), 0);
      }
    }
}

}  // namespace
