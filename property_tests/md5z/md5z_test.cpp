// md5z on the host: the golden model, the tunnel invariant, the per-candidate code of every variant
// (exactly what the kernels run) against OpenSSL, the early exit's soundness, the zero count, the launch
// plan and the rejection of non-bases. Seeds are RapidCheck's (fixed under CTest, printed on failure).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cstring>
#include <map>

#include "suite/hex.hpp"
#include "cli/md5z/md5z.hpp"
#include "suite/md5z/vectors.hpp"
#include "cli/md5z/sass_path.hpp"
#include "gpu/md5z/search.hpp"
#include "reference/md5z/md5z_ref.hpp"

namespace R = bx::ref::md5z;
namespace M = bx::md5;
using M::Variant;

namespace {

M::TunnelBase tunnel_of(const R::Message& base) {
  uint32_t w[16];
  M::message_words(base.data(), w);
  M::TunnelBase tb;
  EXPECT_TRUE(M::tunnel_prepare(w, tb));
  return tb;
}

// Digest bytes from the four output words (little-endian), for the reference zero count.
R::Digest digest_of(uint32_t h0, uint32_t h1, uint32_t h2, uint32_t h3) {
  R::Digest d;
  const uint32_t h[4] = {h0, h1, h2, h3};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) d[4 * i + j] = uint8_t(h[i] >> (8 * j));
  return d;
}

rc::Gen<uint32_t> gen_index() {
  return rc::gen::weightedOneOf<uint32_t>(
      {{3, rc::gen::element<uint32_t>(0u, 1u, 2u, 0x7fffffffu, 0x80000000u, 0x80000001u, 0xfffffffeu, 0xffffffffu)},
       {7, rc::gen::arbitrary<uint32_t>()}});
}

template <class V>
int zeros_via(const M::TunnelBase& tb, uint32_t i) {
  return M::candidate_zeros<V>(tb, i, 0, 1);  // mask 0: no early exit
}

}  // namespace

TEST(Md5zReference, Rfc1321Suite) {
  const auto suite = bx::md5z::load_embedded_md5();
  ASSERT_EQ(suite.size(), 7u);
  EXPECT_EQ(suite[2].digest, "900150983cd24fb0d6963f7d28e17f72");  // "abc", RFC 1321 A.5
  for (auto& t : suite) {
    EXPECT_EQ(R::digest_hex(R::md5(t.msg.data(), t.msg.size())), t.digest) << "OpenSSL, " << t.comment;
    uint8_t d[16];
    M::md5_bytes(t.msg.data(), t.msg.size(), d);
    EXPECT_EQ(bx::to_hex(d, 16), t.digest) << "gpu/md5 compress, " << t.comment;
  }
}

TEST(Md5zReference, ZeroCountFromHex) {
  R::Digest d{};
  EXPECT_EQ(R::zeros(d), 32);
  d[0] = 0x01;
  EXPECT_EQ(R::zeros(d), 1);
  d[0] = 0x10;
  EXPECT_EQ(R::zeros(d), 0);
  d[0] = 0;
  d[4] = 0x0f;
  EXPECT_EQ(R::zeros(d), 9);
}

RC_GTEST_PROP(Md5zReference, BasesMeetTheTunnelConditions, (uint64_t seed)) {
  const auto base = R::make_base(seed);
  RC_ASSERT(R::base_problem(base).empty());
  const auto q = R::states(base);
  RC_ASSERT(q[10] == 0u);
  RC_ASSERT(q[11] == 0xffffffffu);
}

RC_GTEST_PROP(Md5zTunnel, InvariantOverIndices, (uint64_t seed)) {
  const auto base = R::make_base(seed);
  const auto qb = R::states(base);
  const uint32_t i = *gen_index();
  const auto c = R::candidate(base, i);
  RC_ASSERT(R::base_problem(c).empty());  // every candidate is itself a base
  const auto qc = R::states(c);
  for (int k = 1; k <= 24; ++k)
    if (k != 9) RC_ASSERT(qc[k] == qb[k]);
  RC_ASSERT(qc[9] == i);
  // Only m8, m9, m12 change.
  for (int w = 0; w < 13; ++w)
    if (w != 8 && w != 9 && w != 12) RC_ASSERT(std::memcmp(&c[4 * w], &base[4 * w], 4) == 0);
}

TEST(Md5zTunnel, InvariantAtNamedIndices) {
  for (uint64_t seed : {0ull, 1ull, 0xffffffffffffffffull}) {
    const auto base = R::make_base(seed);
    const auto qb = R::states(base);
    for (uint32_t i : {0u, 1u, 0x80000000u, 0xffffffffu}) {
      const auto qc = R::states(R::candidate(base, i));
      for (int k = 1; k <= 24; ++k) EXPECT_EQ(qc[k], k == 9 ? i : qb[k]) << "seed " << seed << " index " << i << " Q[" << k << "]";
      EXPECT_NE(qc[25], 0u);  // Q[25] depends on i; nothing to assert but that it was computed
    }
  }
}

RC_GTEST_PROP(Md5zTunnel, CandidateWordsEqualTheReferenceMessage, (uint64_t seed)) {
  const auto base = R::make_base(seed);
  const auto tb = tunnel_of(base);
  const uint32_t i = *gen_index();
  uint32_t w[16];
  M::message_words(R::candidate(base, i).data(), w);
  uint32_t m8, m9, m12;
  M::candidate_words(tb, i, m8, m9, m12);
  RC_ASSERT(m8 == w[8]);
  RC_ASSERT(m9 == w[9]);
  RC_ASSERT(m12 == w[12]);
  uint32_t h[4];
  M::compress(w, h);
  RC_ASSERT(digest_of(h[0], h[1], h[2], h[3]) == R::md5(R::candidate(base, i)));
}

// Host runs of every variant's per-candidate code (no early exit) equal OpenSSL's count.
RC_GTEST_PROP(Md5zVariants, PerCandidateCodeEqualsOpenSsl, (uint64_t seed)) {
  const auto base = R::make_base(seed);
  const auto tb = tunnel_of(base);
  const uint32_t i = *gen_index();
  const int z = R::zeros(R::md5(R::candidate(base, i)));
  M::for_each_variant([&](auto v) {
    using V = decltype(v);
    if (zeros_via<V>(tb, i) != z) RC_FAIL(std::string(V::name) + ": zero count differs from OpenSSL at index " + std::to_string(i));
    uint32_t h[4];
    M::candidate_digest<V>(tb, i, 1, h);
    if (bx::to_hex(digest_of(h[0], h[1], h[2], h[3]).data(), 16) != R::digest_hex(R::md5(R::candidate(base, i))))
      RC_FAIL(std::string(V::name) + ": digest along its own path differs from OpenSSL at index " + std::to_string(i));
  });
}

// Searches over ranges that start at 0, straddle 2^31 and end at 2^32, at T = 1 and 2: every variant's
// host search equals the reference brute force (OpenSSL per candidate).
TEST(Md5zVariants, HostSearchEqualsReference) {
  const uint64_t E = M::kIndexEnd;
  const std::pair<uint64_t, uint64_t> ranges[] = {{0, 3000}, {0x80000000ull - 1500, 0x80000000ull + 1500}, {E - 3000, E}};
  for (uint64_t seed : {3ull, 4ull})
    for (auto [lo, hi] : ranges)
      for (int T : {1, 2}) {
        const auto base = R::make_base(seed);
        const auto tb = tunnel_of(base);
        const auto want = bx::md5z::reference_hits(base, lo, hi, T);
        ASSERT_FALSE(want.empty());
        M::for_each_variant([&](auto v) {
          using V = decltype(v);
          EXPECT_EQ(M::host_search<V>(tb, lo, hi, T), want) << V::name << " seed " << seed << " [" << lo << "," << hi << ") T=" << T;
        });
      }
}

// The zero count of four words agrees with the printed hex string, over structured and random digests.
RC_GTEST_PROP(Md5zZeros, DigestZerosEqualHexCount, ()) {
  auto word = rc::gen::weightedOneOf<uint32_t>(
      {{2, rc::gen::just(0u)},
       {4, rc::gen::map(rc::gen::inRange(0, 32), [](int k) { return uint32_t(1) << k; })},
       {4, rc::gen::map(rc::gen::inRange(0, 8), [](int k) { return uint32_t(0xf) << (4 * k); })},
       {4, rc::gen::arbitrary<uint32_t>()}});
  const uint32_t h0 = *word, h1 = *word, h2 = *word, h3 = *word;
  RC_ASSERT(M::digest_zeros(h0, h1, h2, h3) == R::zeros(digest_of(h0, h1, h2, h3)));
}

// The early exit is exact and therefore sound: over every h0 whose 8 nibbles are each 0, 1, 8 or f
// (4^8 patterns) and every threshold 0..32, (h0 & mask) == 0 iff the printed h0 has >= min(T, 8) zeros.
TEST(Md5zZeros, EarlyExitExhaustiveOverNibblePatterns) {
  const uint32_t nib[4] = {0x0, 0x1, 0x8, 0xf};
  for (int T = 0; T <= 32; ++T) {
    const uint32_t mask = M::early_exit_mask(T);
    for (uint32_t code = 0; code < (1u << 16); ++code) {
      uint32_t h0 = 0;
      for (int k = 0; k < 8; ++k) h0 |= nib[(code >> (2 * k)) & 3] << (4 * k);
      const int z = R::zeros(digest_of(h0, 0x01010101u, 0, 0));  // h1 printed "01...": counts stop there
      const bool passes = (h0 & mask) == 0;
      ASSERT_EQ(passes, std::min(z, 8) >= std::min(T, 8))
          << "T=" << T << " h0=0x" << std::hex << h0 << " mask=0x" << mask << " zeros(h0)=" << std::dec << z;
    }
  }
}

RC_GTEST_PROP(Md5zZeros, EarlyExitNeverRejectsAHit, (uint32_t h0, uint32_t h1)) {
  const int T = *rc::gen::inRange(0, 33);
  const int z = R::zeros(digest_of(h0, h1, 0x80u, 0));
  if (z >= T) RC_ASSERT((h0 & M::early_exit_mask(T)) == 0u);
}

// The launch plan partitions [lo, hi) in order, for ranges ending anywhere up to 2^32.
RC_GTEST_PROP(Md5zSearch, SlicesPartitionTheRange, ()) {
  const uint64_t E = M::kIndexEnd;
  const uint64_t hi = *rc::gen::weightedOneOf<uint64_t>(
      {{2, rc::gen::just(E)}, {1, rc::gen::just(E - 1)}, {2, rc::gen::inRange<uint64_t>(1, E + 1)}});
  const uint64_t lo = *rc::gen::weightedOneOf<uint64_t>({{1, rc::gen::just<uint64_t>(0)}, {3, rc::gen::inRange<uint64_t>(0, hi)}});
  const uint64_t max_len = *rc::gen::element<uint64_t>(1ull << 31, 1ull << 20, 12345, 1);
  if (max_len < 1000 && hi - lo > 100000) return;  // keep the slice count small
  const auto s = M::plan_slices(lo, hi, max_len);
  uint64_t at = lo;
  for (auto& x : s) {
    RC_ASSERT(x.lo == at);
    RC_ASSERT(x.hi > x.lo);
    RC_ASSERT(x.hi - x.lo <= max_len);
    at = x.hi;
  }
  RC_ASSERT(at == hi);
}

TEST(Md5zSearch, SlicesReachTheIndexEnd) {
  const auto s = M::plan_slices(0, M::kIndexEnd, 1ull << 31);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[1].hi, M::kIndexEnd);
  const auto t = M::plan_slices(M::kIndexEnd - 5, M::kIndexEnd, 1ull << 31);
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].hi, M::kIndexEnd);
}

// Threshold 0 makes every index a hit, so a search must list every index of its range exactly once, in
// order: windows at the range start, at host chunk ends (every 2^16 from LO), across the launch slice
// boundary 2^31 and ending at 2^32 - 1, for every variant's host run and for the reference brute force
// (itself against OpenSSL per index).
TEST(Md5zSearch, ThresholdZeroWindowsAtEveryRangeSliceAndChunkEnd) {
  const auto base = R::make_base(21);
  const auto tb = tunnel_of(base);
  const uint64_t E = M::kIndexEnd, S = 1ull << 31, C = 1ull << 16;
  const std::pair<uint64_t, uint64_t> windows[] = {{0, 64}, {0, 2 * C + 3}, {S - C - 5, S + C + 5}, {E - 2 * C - 7, E}, {E - 1, E}};
  R::CandidateHasher h(base);
  for (auto [lo, hi] : windows) {
    std::vector<uint64_t> want;
    for (uint64_t i = lo; i < hi; ++i) want.push_back(M::pack_hit(uint32_t(i), h.zeros(uint32_t(i))));
    ASSERT_EQ(bx::md5z::reference_hits(base, lo, hi, 0), want) << "reference brute force [" << lo << ", " << hi << ")";
    for (auto v : M::all_variants()) {
      const auto got = bx::md5z::make_impl(v, false, -1).search(tb, lo, hi, 0, nullptr);
      if (got == want) continue;
      size_t k = 0;
      while (k < got.size() && k < want.size() && got[k] == want[k]) ++k;
      ADD_FAILURE() << M::variant_name(v) << "@cpu [" << lo << ", " << hi << "): " << got.size() << " entries, want " << want.size()
                    << "; first difference at entry " << k << " (index " << (k < want.size() ? M::hit_index(want[k]) : 0) << ")";
    }
  }
}

// MD5 of every length 0..300 (the padding boundaries 55/56, 63/64, 119/120 and beyond) equals OpenSSL.
TEST(Md5zReference, Md5OfEveryLengthUpTo300EqualsOpenSsl) {
  std::vector<uint8_t> msg(300);
  for (size_t k = 0; k < msg.size(); ++k) msg[k] = uint8_t(k * 131 + 7);
  for (size_t n = 0; n <= msg.size(); ++n) {
    uint8_t d[16];
    M::md5_bytes(msg.data(), n, d);
    EXPECT_EQ(bx::to_hex(d, 16), R::digest_hex(R::md5(msg.data(), n))) << "length " << n;
  }
}

// Strings that miss Q[10] = 0 or Q[11] = 0xffffffff by exactly one bit are rejected by the reference's
// checker and by the tunnel's own check (the one a kernel trusts), each on its own.
TEST(Md5zBases, OneBitOffNonBasesAreRejectedByBothCheckers) {
  for (int k = 0; k < 32; ++k)
    for (int word : {10, 11}) {
      const auto m = word == 10 ? R::make_message(k, 1u << k, 0xffffffffu) : R::make_message(k, 0, ~(1u << k));
      EXPECT_FALSE(R::base_problem(m).empty()) << "reference accepts Q[" << word << "] off by bit " << k;
      uint32_t w[16];
      M::message_words(m.data(), w);
      M::TunnelBase tb;
      EXPECT_FALSE(M::tunnel_prepare(w, tb)) << "tunnel accepts Q[" << word << "] off by bit " << k;
      EXPECT_EQ(R::states(m)[word], word == 10 ? 1u << k : ~(1u << k)) << "construction";
    }
  uint32_t w[16];
  M::message_words(R::make_base(3).data(), w);
  M::TunnelBase tb;
  EXPECT_TRUE(M::tunnel_prepare(w, tb));
}

// A 52-byte string that is not a base is rejected everywhere it can be given.
RC_GTEST_PROP(Md5zBases, NonBasesAreRejected, (uint64_t seed)) {
  auto base = R::make_base(seed);
  const int byte = *rc::gen::inRange(0, 52);
  const uint8_t flip = uint8_t(1u << *rc::gen::inRange(0, 8));
  base[byte] ^= flip;
  // m8..m12 are derived from Q[9..13]; a flip in m8 or m9 changes Q[9] or Q[10], in m10 Q[11]; in
  // m0..m7 everything after. Only a flip in m11 or m12 keeps the base (they enter after step 10).
  const bool still_base = byte >= 44;
  RC_ASSERT(R::base_problem(base).empty() == still_base);
  uint32_t w[16];
  M::message_words(base.data(), w);
  M::TunnelBase tb;
  RC_ASSERT(M::tunnel_prepare(w, tb) == still_base);
  if (!still_base) {
    RC_ASSERT_THROWS_AS(R::candidate(base, 0), R::NotABase);
    RC_ASSERT_THROWS_AS(bx::md5z::prepare(base, "base"), bx::InputError);
    RC_ASSERT_THROWS_AS(bx::md5z::parse_base(bx::to_hex(base.data(), 52), "base"), bx::InputError);
  }
}

TEST(Md5zBases, BadInputMessages) {
  try {
    bx::md5z::parse_base(std::string(104, '0'), "--base");
    FAIL() << "all-zero message accepted as a base";
  } catch (const bx::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("not a Q9-tunnel base"), std::string::npos) << e.what();
  }
  EXPECT_THROW(bx::md5z::parse_base(std::string(102, '0'), "--base"), bx::InputError);
  EXPECT_THROW(bx::md5z::parse_base(std::string(103, '0') + "g", "--base"), bx::InputError);
  EXPECT_THROW(bx::md5z::parse_range("0:4294967297"), bx::InputError);
  EXPECT_THROW(bx::md5z::parse_range("9:9"), bx::InputError);
  EXPECT_THROW(bx::md5z::parse_range("0-9"), bx::InputError);
  EXPECT_EQ(bx::md5z::parse_range("0xfffffff0:2^32").second, M::kIndexEnd);
  EXPECT_THROW(bx::md5z::parse_range("010:2^5"), bx::InputError);  // a leading zero is refused, never read as octal
  for (const char* bad : {" 1:9", "+1:9", "1:9 ", "1:2^ 5", "1:2^33", "0x:9", "1:0xg", "-1:9", "1e3:9", "1:99999999999999999999"})
    EXPECT_THROW(bx::md5z::parse_range(bad), bx::InputError) << bad;
  EXPECT_THROW(bx::md5z::check_threshold(0), bx::InputError);
  EXPECT_THROW(bx::md5z::check_threshold(33), bx::InputError);
  EXPECT_THROW(bx::md5z::parse_variants({"q9-v7"}), bx::InputError);
}

// The bench's SASS common-path count: the shortest route through the main loop, skipping the branch
// that a rejected candidate jumps over, with instructions classified by pipe.
TEST(Md5zBench, SassCommonPathOnASyntheticLoop) {
  const std::string sass = R"(
        /*0000*/                   MOV R1, c[0x0][0x28] ;
        /*0010*/                   ISETP.GE.U32.AND P0, PT, R0, c[0x0][0x1c4], PT ;
        /*0020*/              @P0 EXIT ;
.L_x_1:
        /*0030*/                   IADD3 R2, R0, 0x1, RZ ;
        /*0040*/                   LOP3.LUT P1, RZ, R2, 0xff, RZ, 0xc0, !PT ;
        /*0050*/              @P1 BRA `(.L_x_0) ;
        /*0060*/                   IMAD R3, R2, R2, RZ ;
        /*0070*/                   IMAD R4, R3, R2, RZ ;
.L_x_0:
        /*0080*/                   IADD3 R0, R0, c[0x0][0x0], RZ ;
        /*0090*/                   ISETP.GE.U32.AND P0, PT, R0, c[0x0][0x1c4], PT ;
        /*00a0*/              @!P0 BRA `(.L_x_1) ;
        /*00b0*/                   EXIT ;
)";
  const auto p = bx::md5z::sass_loop_shortest_path(sass);
  EXPECT_EQ(p.total, 6);
  EXPECT_EQ(p.alu, 4);
  EXPECT_EQ(p.fma, 0);
}

// The frozen hits (2..10 zeros; h0 == 0 from 8 on, where steps 61..63 decide) through every variant's
// per-candidate code with the early exit at T = zeros: each is kept with its exact count.
TEST(Md5zVariants, FrozenHitsSurviveTheEarlyExitWithExactCounts) {
  const auto hits = bx::md5z::load_embedded_hits();
  ASSERT_GE(hits.size(), 9u);
  for (auto& h : hits) {
    const auto tb = tunnel_of(h.base);
    const uint32_t mask = M::early_exit_mask(h.zeros);
    M::for_each_variant([&](auto v) {
      using V = decltype(v);
      EXPECT_EQ((M::candidate_zeros<V>(tb, h.index, mask, 1)), h.zeros) << V::name << " tcId " << h.tc_id;
    });
  }
}

