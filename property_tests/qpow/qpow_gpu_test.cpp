// qpow on the GPU (label gpu): the device field ops of every layout on the §8 catalogue against the
// reference (the lossy engine against its host model, bit for bit), the permutation, every variant's
// mining hash at the nonce carries, searches across the 2^32, 2^64, 2^128, 2^224 and 2^256 carries and the
// 2^512 wrap against the reference brute force, the hit buffer's overflow re-run, the deferred borrow's
// recomputation on crafted prestates, the early reject on every tie pattern, and the output path on lazy lanes.
#include <gtest/gtest.h>

#include "cli/qpow/qpow.hpp"
#include "gpu/kernels/qpow_kernels.hpp"

namespace R = bx::ref::qpow;
using namespace bx::qpow;
namespace gl = bx::gl;
using bx::kern::QpowFieldLayout;
using bx::kern::QpowFieldOp;

namespace {
bool have_gpu() { return bx::kern::device_count() > 0; }

std::vector<uint64_t> corners() {
  const uint64_t P = gl::P, E = gl::EPS;
  return {0, 1, 2, P - 2, P - 1, P, P + 1, ~0ull - 1, ~0ull, E, E + 1, 1ull << 32, (1ull << 32) + 1, 1ull << 48,
          1ull << 63, 2 * E, 0xfffffffeffffffffull, 0x8000000080000000ull, 0xfffffffe00000001ull};
}
uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

struct FieldCase {
  QpowFieldOp op;
  const char* name;
  uint64_t (*ref)(uint64_t, uint64_t);
};
const FieldCase kField[] = {
    {QpowFieldOp::add, "add", [](uint64_t a, uint64_t b) { return R::add(a, b); }},
    {QpowFieldOp::sub, "sub", [](uint64_t a, uint64_t b) { return R::sub(a, b); }},
    {QpowFieldOp::mul, "mul", [](uint64_t a, uint64_t b) { return R::mul(a, b); }},
    {QpowFieldOp::sqr, "sqr", [](uint64_t a, uint64_t) { return R::sqr(a); }},
    {QpowFieldOp::neg, "neg", [](uint64_t a, uint64_t) { return R::neg(a); }},
    {QpowFieldOp::canonical, "canonical", [](uint64_t a, uint64_t) { return R::canonical(a); }},
    {QpowFieldOp::sbox, "sbox", [](uint64_t a, uint64_t) { return R::sbox(a); }},
    {QpowFieldOp::reduce128, "reduce128", [](uint64_t a, uint64_t b) { return R::reduce128(b, a); }},
    {QpowFieldOp::fused, "fused",
     [](uint64_t a, uint64_t b) { return R::add(R::mul(a, kQuantusP2.diag[9]), R::reduce128(12, b)); }},
    {QpowFieldOp::acc_reduce, "acc_reduce", [](uint64_t a, uint64_t b) { return R::reduce128(uint32_t(b), a); }},
};

// The device field layouts this build holds (BX_QPOW_KERNELS=one compiles gl2x32-ptx only).
std::vector<std::pair<const char*, QpowFieldLayout>> built_layouts(bool lossy) {
  const std::pair<const char*, QpowFieldLayout> all[] = {{"gl64", QpowFieldLayout::gl64},
                                                         {"gl64-branchfree", QpowFieldLayout::gl64_branchfree},
                                                         {"gl2x32-portable", QpowFieldLayout::gl2x32_portable},
                                                         {"gl2x32-ptx", QpowFieldLayout::gl2x32_ptx},
                                                         {"gl2x32-lossy", QpowFieldLayout::lossy_ptx},
                                                         {"gl2x32-lossy-model", QpowFieldLayout::lossy_model}};
  std::vector<std::pair<const char*, QpowFieldLayout>> out;
  for (auto [n, l] : all) {
    const bool is_lossy = l == QpowFieldLayout::lossy_ptx || l == QpowFieldLayout::lossy_model;
    if (is_lossy != lossy) continue;
    try {
      bx::kern::qpow_field_eval(0, l, QpowFieldOp::add, {1}, {2});
      out.push_back({n, l});
    } catch (const std::invalid_argument&) {
      std::printf("qpow_gpu_test: field layout %s not in this build\n", n);
    }
  }
  return out;
}

struct Operands {
  std::vector<uint64_t> a, b;
};
Operands field_operands() {
  Operands o;
  for (uint64_t x : corners())
    for (uint64_t y : corners()) o.a.push_back(x), o.b.push_back(y);
  uint64_t s = 0x51f1e1d;
  for (int i = 0; i < 8192; ++i) o.a.push_back(splitmix(s)), o.b.push_back(splitmix(s));
  return o;
}

SearchRequest request(const Header& h, const Int& lo, uint64_t count, const Int& target) {
  SearchRequest rq{};
  std::copy(h.begin(), h.end(), rq.header);
  rq.lo = to_u512(lo);
  rq.count = count;
  const Hash8 t = to_words(target);
  std::copy(t.begin(), t.end(), rq.target);
  return rq;
}
Header header_of(uint8_t seed) {
  Header h;
  for (int i = 0; i < 32; ++i) h[size_t(i)] = uint8_t(seed * 31 + i);
  return h;
}
Int pow2(unsigned k) { return boost::multiprecision::pow(Int(2), k); }
}  // namespace

// Every exact device layout, every op, canonical value = reference (lazy operands included).
TEST(GpuQpow, FieldOpsOfEveryLayoutEqualTheReference) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  const Operands o = field_operands();
  const auto layouts = built_layouts(false);
  ASSERT_FALSE(layouts.empty());
  for (auto [lname, l] : layouts)
    for (const FieldCase& f : kField) {
      const auto got = bx::kern::qpow_field_eval(0, l, f.op, o.a, o.b);
      ASSERT_EQ(got.size(), o.a.size());
      int shown = 0;
      for (size_t i = 0; i < got.size(); ++i) {
        const uint64_t want = f.ref(o.a[i], o.b[i]);
        if (gl::canonical(got[i]) != want && shown++ < 3)
          ADD_FAILURE() << lname << " " << f.name << "(" << std::hex << o.a[i] << ", " << o.b[i] << ") = " << got[i]
                        << ", reference " << want;
      }
    }
}

// The lossy engine on the device equals its portable model compiled for the device, bit for bit (raw
// lanes), on every op (selftest compares the model's host build).
TEST(GpuQpow, LossyEngineEqualsItsHostModel) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  const Operands o = field_operands();
  const auto layouts = built_layouts(true);
  if (layouts.size() < 2) GTEST_SKIP() << "lossy field layouts not in this build";
  for (const FieldCase& f : kField) {
    const auto dev = bx::kern::qpow_field_eval(0, QpowFieldLayout::lossy_ptx, f.op, o.a, o.b);
    const auto model = bx::kern::qpow_field_eval(0, QpowFieldLayout::lossy_model, f.op, o.a, o.b);
    EXPECT_EQ(dev, model) << f.name;
  }
}

// The permutation, unfolded and folded, on the spec states and random ones.
TEST(GpuQpow, PermutationEqualsTheReference) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  std::vector<R::State> states(3);
  for (int i = 0; i < 12; ++i) states[0][size_t(i)] = 0, states[1][size_t(i)] = uint64_t(i), states[2][size_t(i)] = ~0ull - uint64_t(i);
  uint64_t s = 77;
  for (int k = 0; k < 125; ++k) {
    R::State st;
    for (auto& v : st) v = splitmix(s);
    states.push_back(st);
  }
  std::vector<uint64_t> flat;
  for (auto& st : states) flat.insert(flat.end(), st.begin(), st.end());
  int ran = 0;
  for (auto [lname, l] : built_layouts(false)) {
    if (l == QpowFieldLayout::gl64_branchfree) continue;
    for (bool folded : {false, true}) {
      std::vector<uint64_t> got;
      try {
        got = bx::kern::qpow_permute(0, l, folded, flat);
      } catch (const std::invalid_argument&) {
        continue;  // this build's permutation kernels cover fewer layouts
      }
      ++ran;
      for (size_t k = 0; k < states.size(); ++k) {
        const R::State want = R::permute(states[k]);
        for (int i = 0; i < 12; ++i)
          ASSERT_EQ(gl::canonical(got[12 * k + size_t(i)]), want[size_t(i)])
              << lname << (folded ? " folded" : "") << " state " << k << " lane " << i;
      }
    }
  }
  EXPECT_GE(ran, 2) << "the permutation ran on no layout (both foldings of gl2x32-ptx are in every build)";
}

// Every variant's own hash path at the nonce carries (x6, prestate, 2^128, 2^224, midstate, the wrap).
TEST(GpuQpow, EveryVariantsHashesAtTheCarries) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  const Header h = header_of(3);
  std::vector<Int> ns = {0, 1};
  for (unsigned k : {32u, 64u, 128u, 224u, 256u, 512u})
    for (int d = -2; d <= 1; ++d) ns.push_back((pow2(k) + d + pow2(512)) % pow2(512));
  std::vector<U512> nonces;
  for (auto& n : ns) nonces.push_back(to_u512(n));
  const auto want = reference_hashes(h, ns);
  const auto model = impls({Variant::lossy_model}, bx::DeviceSelection{true, {}});
  ASSERT_EQ(model.size(), 1u);
  const auto model_hashes = model[0].hashes(h, nonces);
  std::vector<Variant> all;
  for (int v = 0; v < kVariantCount; ++v) all.push_back(Variant(v));
  const auto gpu = impls(all, bx::DeviceSelection{false, {0}});
  ASSERT_FALSE(gpu.empty());
  for (const Impl& im : gpu) {
    const auto got = im.hashes(h, nonces);
    ASSERT_EQ(got.size(), nonces.size());
    for (size_t i = 0; i < nonces.size(); ++i) {
      if (row(im.variant).lossy)
        EXPECT_EQ(words_hex(got[i]), words_hex(model_hashes[i])) << im.label() << " nonce " << u512_hex(ns[i]);
      else
        EXPECT_EQ(words_hex(got[i]), u512_hex(want[i])) << im.label() << " nonce " << u512_hex(ns[i]);
    }
  }
}

// Searches across each carry: exact variants = the reference brute force; the lossy engine = its model.
TEST(GpuQpow, SearchesAcrossTheCarriesEqualTheReference) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  const Header h = header_of(9);
  const Int target = R::target_of(16);
  std::vector<Variant> all;
  for (int v = 0; v < kVariantCount; ++v) all.push_back(Variant(v));
  const auto gpu = impls(all, bx::DeviceSelection{false, {0}});
  const auto model = impls({Variant::lossy_model}, bx::DeviceSelection{true, {}});
  ASSERT_FALSE(gpu.empty());
  for (unsigned k : {32u, 64u, 128u, 224u, 256u, 512u}) {
    const Int lo = (pow2(k) - 700 + pow2(512)) % pow2(512);
    const uint64_t count = 1400;
    const SearchRequest rq = request(h, lo, count, target);
    const auto want = reference_hits(h, lo, count, target);
    ASSERT_GT(want.size(), 30u);
    const auto want_lossy = model[0].search(rq, nullptr);
    for (const Impl& im : gpu)
      EXPECT_EQ(im.search(rq, nullptr), row(im.variant).lossy ? want_lossy : want)
          << im.label() << " across 2^" << k;
  }
}

// A hit buffer too small for a batch: the batch is counted, re-run with room for all, and the hits are
// the reference's, each once (fault qpow_hit_overflow_truncated keeps the first ones instead). Batches of
// 256 nonces (~64 hits each, 518 in all) across the 2^64 carry, 16 entries to start: the first batch
// overflows, and the buffer it grows to serves the later batches.
TEST(GpuQpow, HitBufferOverflowIsRerun) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  const Header h = header_of(13);
  const Int target = R::target_of(4);
  const Int lo = pow2(64) - 1000;
  const uint64_t count = 2000;
  const SearchRequest rq = request(h, lo, count, target);
  const auto want = reference_hits(h, lo, count, target);
  ASSERT_GT(want.size(), 400u);
  std::vector<Variant> all;
  for (int v = 0; v < kVariantCount; ++v)
    if (!row(Variant(v)).lossy) all.push_back(Variant(v));
  const auto gpu = impls(all, bx::DeviceSelection{false, {0}});
  ASSERT_FALSE(gpu.empty());
  for (const Impl& im : gpu) {
    bx::kern::QpowSearchStats st;
    EXPECT_EQ(bx::kern::qpow_search(0, im.variant, rq, &st, 16, 256), want) << im.label();
    EXPECT_GE(st.reruns, 1u) << im.label() << ": a batch of ~64 hits in a 16-entry buffer must be re-run";
    EXPECT_GE(st.batches, 8u) << im.label();
  }
}

// kDeferBorrow on the device: crafted prestates whose π3 takes the deferred borrow (borrow_cases.hpp)
// hash as the exact path does, and the search kernel accepts target hash + 1 and rejects target hash.
TEST(GpuQpow, DeferredBorrowIsRecomputedExactly) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  std::vector<Variant> all;
  for (int v = 0; v < kVariantCount; ++v)
    if (row(Variant(v)).shortcuts & kDeferBorrow) all.push_back(Variant(v));
  const auto gpu = impls(all, bx::DeviceSelection{false, {0}});
  ASSERT_FALSE(gpu.empty()) << "gl2x32-ptx (kDeferBorrow) is in every build";
  const Header h = header_of(11);
  for (const Impl& im : gpu) {
    const DeferredBorrowResult r = deferred_borrow_check(im, h);
    EXPECT_GT(r.checks, 0u) << im.label();
    for (const std::string& m : r.mismatches) ADD_FAILURE() << m;
  }
}

// The early reject: H64 = T64 must fall through to the full comparison, never decide on 64 bits.
TEST(GpuQpow, EarlyRejectTiesAreResolvedOnTheFullHash) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  const Header h = header_of(5);
  const Int n = 1000003;
  const Int hash = R::mining_hash(h, n);
  const Int top = hash >> 448;
  struct Case {
    Int target;
    bool valid;
    const char* what;
  };
  const Case cases[] = {{top << 448, false, "tie, rest below"},
                        {(top << 448) + pow2(448) - 1, true, "tie, rest above"},
                        {hash, false, "target = hash"},
                        {hash + 1, true, "target = hash + 1"},
                        {((hash >> 256) << 256), false, "tie on 256 bits, rest below"},
                        {((hash >> 256) << 256) + pow2(256) - 1, true, "tie on 256 bits, rest above"}};
  std::vector<Variant> all;
  for (int v = 0; v < kVariantCount; ++v) all.push_back(Variant(v));
  const auto gpu = impls(all, bx::DeviceSelection{false, {0}});
  ASSERT_FALSE(gpu.empty());
  for (const Impl& im : gpu)
    for (const Case& c : cases) {
      const auto hits = im.search(request(h, n, 1, c.target), nullptr);
      EXPECT_EQ(hits.size(), c.valid ? 1u : 0u) << im.label() << ": " << c.what;
    }
}

// Lazy lanes c + p (c < EPS) through the output path: canonicalised before the byte swap.
TEST(GpuQpow, OutputPathCanonicalisesBeforeTheByteSwap) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  std::vector<uint64_t> lanes, want;
  for (uint64_t c : {0ull, 1ull, 5ull, 0xfffffffeull}) {
    lanes.push_back(c + gl::P);
    want.push_back(__builtin_bswap64(c));
  }
  for (auto [lname, l] : built_layouts(false))
    EXPECT_EQ(bx::kern::qpow_field_eval(0, l, QpowFieldOp::hash_word, lanes, lanes), want) << lname;
}
