// md5z on the GPU (label gpu): every variant's kernel against the reference brute force (OpenSSL per
// candidate) over ranges at 0, across 2^31 and at the 2^32 end (T = 0, 1, 2); every variant's digest kernel;
// the hit-buffer overflow re-run; single
// indices at T = 0 (every candidate is a hit, so the zero count itself is compared); the frozen hits.
#include <gtest/gtest.h>

#include "suite/embedded.hpp"
#include "cli/md5z/md5z.hpp"
#include "suite/md5z/vectors.hpp"
#include "gpu/kernels/field25519_kernels.hpp"
#include "gpu/kernels/md5z_kernels.hpp"

namespace R = bx::ref::md5z;
namespace M = bx::md5;

namespace {
bool have_gpu() { return bx::kern::device_count() > 0; }
}  // namespace

TEST(GpuMd5z, EveryVariantEqualsReferenceAtRangeEnds) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  const uint64_t E = M::kIndexEnd, W = 1 << 18;
  const std::pair<uint64_t, uint64_t> ranges[] = {{0, W}, {(E >> 1) - W / 2, (E >> 1) + W / 2}, {E - W, E}, {E - 1, E}};
  for (uint64_t seed : {11ull, 12ull}) {
    const auto base = R::make_base(seed);
    const auto tb = bx::md5z::prepare(base, "base");
    for (auto [lo, hi] : ranges)
      for (int T : {0, 1, 2}) {  // T = 0: every index listed once, in order, across the 2^31 slice end
        const auto want = bx::md5z::reference_hits(base, lo, hi, T);
        for (auto v : M::all_variants())
          EXPECT_EQ(bx::kern::md5z_search(0, v, tb, lo, hi, T), want)
              << M::variant_name(v) << " seed " << seed << " [" << lo << ", " << hi << ") T=" << T;
      }
  }
}

// Each variant's digest kernel (steps 61..63 forced, the oracle's answer) equals OpenSSL over a window.
TEST(GpuMd5z, DigestsAlongEachVariantsPathEqualOpenSsl) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  const auto base = R::make_base(31);
  const auto tb = bx::md5z::prepare(base, "base");
  std::vector<uint32_t> idx;
  for (uint32_t i = 0; i < 4096; ++i) idx.push_back(i * 1048573u);
  R::CandidateHasher h(base);
  for (auto v : M::all_variants()) {
    const auto got = bx::kern::md5z_digests(0, v, tb, idx);
    ASSERT_EQ(got.size(), idx.size());
    for (size_t k = 0; k < idx.size(); ++k) {
      uint8_t d[16];
      M::store_digest(got[k].data(), d);
      const auto want = h.digest(idx[k]);
      ASSERT_TRUE(std::equal(want.begin(), want.end(), d)) << M::variant_name(v) << " index " << idx[k];
    }
  }
}

// Launch slice ends: with slices of 4099 indices a window holds dozens of them (and ends at 2^32); at
// T = 0 every index must still be listed once, in order.
TEST(GpuMd5z, ThresholdZeroAcrossManySliceEnds) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  const auto base = R::make_base(41);
  const auto tb = bx::md5z::prepare(base, "base");
  const uint64_t E = M::kIndexEnd;
  for (auto [lo, hi] : {std::pair<uint64_t, uint64_t>{0, 1 << 17}, {E - (1 << 17) - 5, E}}) {
    const auto want = bx::md5z::reference_hits(base, lo, hi, 0);
    for (auto v : M::all_variants())
      EXPECT_EQ(bx::kern::md5z_search(0, v, tb, lo, hi, 0, nullptr, 0, 4099), want) << M::variant_name(v) << " [" << lo << ", " << hi << ")";
  }
}

TEST(GpuMd5z, HitBufferOverflowIsRerunNotTruncated) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  const auto base = R::make_base(21);
  const auto tb = bx::md5z::prepare(base, "base");
  const auto want = bx::md5z::reference_hits(base, 1000, 1000 + (1 << 16), 1);  // about 4096 hits
  for (auto v : M::all_variants()) {
    bx::kern::Md5zSearchStats st;
    EXPECT_EQ(bx::kern::md5z_search(0, v, tb, 1000, 1000 + (1 << 16), 1, &st, 16), want) << M::variant_name(v);
    EXPECT_EQ(st.reruns, 1u) << M::variant_name(v);
  }
}

TEST(GpuMd5z, SingleIndicesAtThresholdZero) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  for (uint64_t seed : {0ull, 7ull}) {
    const auto base = R::make_base(seed);
    const auto tb = bx::md5z::prepare(base, "base");
    for (uint32_t i : {0u, 1u, 0x7fffffffu, 0x80000000u, 0xfffffffeu, 0xffffffffu}) {
      const int z = R::zeros(R::md5(R::candidate(base, i)));
      for (auto v : M::all_variants())
        EXPECT_EQ(bx::kern::md5z_search(0, v, tb, i, uint64_t(i) + 1, 0), (std::vector<uint64_t>{M::pack_hit(i, z)}))
            << M::variant_name(v) << " seed " << seed << " index " << i;
    }
  }
}

// The frozen hits (2..10 zeros, h0 == 0 from 8 on): a one-index search at T = zeros finds each.
TEST(GpuMd5z, FrozenHits) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  const auto hits = bx::md5z::load_embedded_hits();
  ASSERT_GE(hits.size(), 9u);
  for (auto& h : hits) {
    const auto tb = bx::md5z::prepare(h.base, "tcId " + std::to_string(h.tc_id));
    for (auto v : M::all_variants())
      EXPECT_EQ(bx::kern::md5z_search(0, v, tb, h.index, uint64_t(h.index) + 1, h.zeros),
                (std::vector<uint64_t>{M::pack_hit(h.index, h.zeros)}))
          << M::variant_name(v) << " tcId " << h.tc_id << " zeros " << h.zeros;
  }
}
