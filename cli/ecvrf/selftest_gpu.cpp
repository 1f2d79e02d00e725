// ecvrf selftest on each GPU: every compiled pipeline (fused and compacted, every k) against the golden
// model, on canonical bytes (beta) and on the hit lists (nonce and score):
//   rfc9381  Examples 16-18 through general-alpha blocks, with x and with x mod L;
//   job      beta of every nonce in windows at 0, around 2^32, at the top of 2^64 and at a seeded place;
//   search   hits in two windows at a target of 2^62 (a quarter hit), with a one-entry hit buffer (the
//            first slice with two hits overflows it and is re-run) and 7-nonce slices (slice ends inside);
//   frozen   the frozen hits of vectors/ecvrf/search.json (the embedded copy), every window searched;
//   capped   compacted only: 1 and 2 hash-to-curve passes, so that most items finish in the last pass;
//   consts   the layout's curve constants (1, d, 2d, sqrt(-1)) derived on the card from small integers in
//            registers by the pipeline's own point-check kernels (so in any field25519 kernel set):
//            products of values the compiler knows, where PTX operands that may alias show;
//   points   the pipeline's point code on the card: the spec 2.3 decoder table and
//            random strings (status and re-encoding), encodings of X held as x + p, batch inversions with
//            zeros first, middle and last, additions over torsion points and multiples of H in every form
//            (general, cached, negated cached both ways, doubling), and the strategy on the spec 3 extremal scalars times H (a
//            one-mode build's compacted pipeline runs every strategy here).
#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/ecvrf/ecvrf.hpp"
#include "cli/ecvrf/golden.hpp"
#include "suite/ecvrf/vectors.hpp"
#include "suite/embedded.hpp"
#include "gpu/ecvrf/codec.hpp"
#include "gpu/ecvrf/variants.hpp"
#include "reference/field25519/ref25519.hpp"
#if defined(BX_HAVE_CUDA)
#include "gpu/kernels/ecvrf_kernels.hpp"
#endif

namespace bx::ecvrf_family {

#if defined(BX_HAVE_CUDA)
namespace {

struct Window {
  uint64_t lo;
  uint32_t n;
};

struct GpuGolden {
  kern::EcvrfJob job;
  std::vector<Window> windows;
  std::vector<uint64_t> nonces;                 // every window's nonces, in order
  std::vector<std::optional<Bytes64>> betas;    // golden beta of each
  uint64_t target = uint64_t(1) << 62;
  std::vector<kern::EcvrfHit> hits_of(const Window& w) const {
    std::vector<kern::EcvrfHit> h;
    for (size_t i = 0; i < nonces.size(); ++i)
      if (nonces[i] >= w.lo && nonces[i] - w.lo < w.n && betas[i] && G::score(*betas[i]) < target)
        h.push_back({nonces[i], G::score(*betas[i])});
    return h;
  }
};

GpuGolden make_gpu_golden(bool full, uint64_t seed) {
  GpuGolden g;
  const G::VrfKey key = G::vrf_key(rfc9381_examples()[1].sk);
  g.job.x = bytes_of(key.x);
  g.job.pk = key.pk;
  for (size_t i = 0; i < 32; ++i) g.job.header[i] = uint8_t(0xa5 ^ (i * 29) ^ seed);
  const uint32_t w = full ? 256 : 32;
  g.windows = {{0, w}, {(uint64_t(1) << 32) - w / 2, w}, {~uint64_t(0) - w + 1, w},
               {(seed * 0x9e3779b97f4a7c15ull) & ~uint64_t(0xfff), w}};
  for (const Window& win : g.windows)
    for (uint32_t j = 0; j < win.n; ++j) g.nonces.push_back(win.lo + j);
  g.betas = golden_job_betas(key, g.job.header, g.nonces);
  return g;
}

std::string hit_list(const std::vector<kern::EcvrfHit>& h) {
  std::string s;
  for (size_t i = 0; i < h.size() && i < 8; ++i) {
    s += ' ';
    s += std::to_string(h[i].nonce);
    s += ':';
    s += std::to_string(h[i].score);
  }
  if (h.size() > 8) s += " ...";
  return s;
}

void check_betas(TallyCheck& c, const std::string& label, const GpuGolden& g, size_t at, uint64_t lo, uint32_t n,
                 const std::vector<uint8_t>& betas, const std::vector<uint8_t>& valid) {
  for (uint32_t j = 0; j < n; ++j) {
    const auto& want = g.betas[at + j];
    const std::string what = label + " nonce " + std::to_string(lo + j);
    if (!want) {
      c.check(valid[j] == 0, what + ": a beta where the golden model has none");
      continue;
    }
    if (!valid[j]) {
      c.check(false, what + ": no beta");
      continue;
    }
    expect_bytes(c, want->data(), betas.data() + 64 * size_t(j), 64, what + " beta");
  }
}

// search.json's windows, loaded once from the build's embedded copy.
const std::vector<ecvrf_vectors::SearchWindow>& frozen_windows() {
  static const auto w = ecvrf_vectors::load_search_windows(ecvrf_vectors::kSearchPath, embedded_file(ecvrf_vectors::kSearchPath));
  return w;
}

kern::EcvrfPointInputs point_inputs(const Golden& gold) {
  kern::EcvrfPointInputs in;
  for (const auto& d : gold.decodes) in.decodes.push_back(d.s);
  for (const auto& e : gold.encodes) in.encodes.push_back({e.x_bytes, e.y_bytes});
  in.inversions = gold.inversions;
  for (const auto& a : gold.adds) in.adds.push_back({a.p, a.q});
  in.h_point = gold.h_point;
  for (const auto& m : gold.scalar_mults) in.scalars.push_back(m.first);
  return in;
}

// The device answers of the pipeline's point code against the golden model's, item by item.
void point_checks(TallyCheck& c, const std::string& label, int dev, const kern::EcvrfDeviceVariant& v, const Golden& gold) {
  const kern::EcvrfPointOutputs out = kern::ecvrf_point_checks(dev, v.name, point_inputs(gold));
  // Every answer present before any is compared: a short output must fail, never index past its end.
  std::vector<std::string> want_tags = v.point_strategies, tags;
  bool sizes = std::find(want_tags.begin(), want_tags.end(), v.strategy) != want_tags.end() &&
               out.decode_status.size() == gold.decodes.size() && out.decoded.size() == gold.decodes.size() &&
               out.tai_verdicts.size() == gold.decodes.size() &&
               out.encoded.size() == gold.encodes.size() && out.inverses.size() == gold.inversions.size() &&
               out.sums.size() == gold.adds.size();
  for (size_t i = 0; sizes && i < gold.inversions.size(); ++i) sizes = out.inverses[i].size() == gold.inversions[i].size();
  for (size_t i = 0; sizes && i < gold.adds.size(); ++i) sizes = out.sums[i].size() == size_t(kern::kEcvrfPointAddForms);
  for (const auto& [tag, products] : out.scalar_products) {
    tags.push_back(tag);
    sizes = sizes && products.size() == gold.scalar_mults.size();
  }
  std::sort(tags.begin(), tags.end());
  std::sort(want_tags.begin(), want_tags.end());
  c.check(sizes && tags == want_tags, label + " point checks: the card's answers are incomplete");
  if (!sizes || tags != want_tags) return;
  for (size_t i = 0; i < gold.decodes.size(); ++i) {
    const auto st = ecvrf::DecodeStatus(out.decode_status[i]);
    const std::string got = st == ecvrf::DecodeStatus::valid ? to_hex(out.decoded[i]) : ecvrf::decode_status_name(st);
    c.check(got == gold.decodes[i].want,
            label + " decode " + to_hex(gold.decodes[i].s) + ": got " + got + ", want " + gold.decodes[i].want);
    const unsigned want_tai = gold.decodes[i].tai_point ? 3u : 0u, got_tai = out.tai_verdicts[i];
    c.check(got_tai == want_tai, label + " TAI candidate " + to_hex(gold.decodes[i].s) + ": 8P test " +
                                     ((got_tai & 1) ? "takes" : "skips") + " it, small-order y test " +
                                     ((got_tai & 2) ? "takes" : "skips") + " it; want both to " +
                                     (want_tai ? "take" : "skip") + " it");
  }
  for (size_t i = 0; i < gold.encodes.size(); ++i)
    expect_bytes(c, gold.encodes[i].want.data(), out.encoded[i].data(), 32,
                 label + " encode with X = " + to_hex(gold.encodes[i].x_bytes) + " (x + p)");
  for (size_t i = 0; i < gold.inversions.size(); ++i)
    for (size_t j = 0; j < gold.inversions[i].size(); ++j) {
      const Bytes32 want = bytes_of(ref::f25519::invert(ref::f25519::raw_value(gold.inversions[i][j])));
      expect_bytes(c, want.data(), out.inverses[i][j].data(), 32,
                   label + " batch inversion of " + std::to_string(gold.inversions[i].size()) + ", item " +
                       std::to_string(j));
    }
  static const char* const form[kern::kEcvrfPointAddForms] = {"P + Q", "P + cached Q", "P - cached Q (negate flag)",
                                                               "P + negated cached Q", "2P"};
  for (size_t i = 0; i < gold.adds.size(); ++i) {
    const Golden::Add& a = gold.adds[i];
    const Bytes32* want[kern::kEcvrfPointAddForms] = {&a.sum, &a.sum, &a.diff, &a.diff, &a.dbl};
    for (int f = 0; f < kern::kEcvrfPointAddForms; ++f)
      expect_bytes(c, want[f]->data(), out.sums[i][f].data(), 32,
                   label + " " + form[f] + " with P = " + to_hex(a.p) + ", Q = " + to_hex(a.q));
  }
  for (const auto& [tag, products] : out.scalar_products)
    for (size_t i = 0; i < gold.scalar_mults.size(); ++i)
      expect_bytes(c, gold.scalar_mults[i].second.data(), products[i].data(), 32,
                   label + " " + tag + " scalar " + to_hex(gold.scalar_mults[i].first) + " times H");
}

// One row: a compiled pipeline, described at run time (no per-variant instantiation here).
void gpu_row(int dev, const kern::EcvrfDeviceVariant& v, const Golden& gold, const GpuGolden& g, const std::string& place,
             SelftestRow& row) {
  const std::string label = v.name + "@" + place;
  const bool compact = v.pipeline == "compact";
  row.checks = {{"rfc9381"}, {"job"}, {"search"}, {"consts"}, {"points"}, {"frozen"}};
  if (compact) row.checks.push_back({"capped"});
  TallyCheck rfc{row.checks[0]}, job{row.checks[1]}, search{row.checks[2]}, consts{row.checks[3]},
      points{row.checks[4]}, frozen{row.checks[5]};
  const auto guarded = [&](TallyCheck& c, const std::string& what, auto&& body) {
    try {
      body();
    } catch (const std::exception& e) {
      c.check(false, label + " " + what + ": " + e.what());
    }
  };
  guarded(consts, "constants", [&] {
    namespace R = ref::f25519;
    const ref::Int d = R::mul(R::neg(ref::Int(121665)), R::invert(ref::Int(121666)));
    const Bytes32 want[f25519::kDerivedConstants] = {R::encode(1), R::encode(d), R::encode(R::add(d, d)),
                                                      R::encode(R::sqrt_m1()), R::encode(1)};
    static const char* const what[f25519::kDerivedConstants] = {"1^2", "d", "2d", "sqrt(-1)", "1*1"};
    const std::vector<kern::EcvrfBytes32> got = kern::ecvrf_point_checks(dev, v.name, {}).constants;
    if (got.size() != size_t(f25519::kDerivedConstants))
      throw std::runtime_error(std::to_string(got.size()) + " derived constants from the card, want " +
                               std::to_string(f25519::kDerivedConstants));
    for (int i = 0; i < f25519::kDerivedConstants; ++i)
      expect_bytes(consts, want[i].data(), got[i].data(), 32,
                   label + " derived " + what[i] + " (small integers in registers)");
  });
  guarded(frozen, "frozen hits", [&] {
    const ecvrf_vectors::Searcher gpu{label, [&](const Job& j, uint64_t lo, uint64_t count, uint64_t target) {
                                        kern::EcvrfSearchOptions o;
                                        o.target = target;
                                        std::vector<Hit> hits;
                                        for (const auto& h : kern::ecvrf_search(dev, v.name, {j.x, j.pk, j.header}, lo, count, o))
                                          hits.push_back({h.nonce, h.score});
                                        return hits;
                                      }};
    const auto lines = ecvrf_vectors::check_frozen_hits(ecvrf_vectors::kSearchPath, frozen_windows(), gpu);
    for (const std::string& line : lines) frozen.check(false, line);
    if (lines.empty())
      for (const auto& w : frozen_windows()) frozen.check(true, "frozen hits of tcId " + std::to_string(w.tc_id));
  });
  guarded(points, "point checks", [&] { point_checks(points, label, dev, v, gold); });
  // RFC 9381: the six runs (x, x mod L per example) through general-alpha blocks.
  for (size_t i = 0; i < gold.rfc_runs; i += 1)
    guarded(rfc, gold.runs[i].what, [&] {
      const Golden::Run& r = gold.runs[i];
      uint8_t beta[64], valid = 0;
      kern::ecvrf_betas_alpha(dev, v.name, r.scalar, r.pk, {r.alpha}, beta, &valid);
      rfc.check(valid == (r.ctr >= 0 ? 1 : 0), label + " " + r.what + ": beta presence");
      if (valid && r.ctr >= 0) expect_bytes(rfc, r.beta.data(), beta, 64, label + " " + r.what + " beta");
    });
  size_t at = 0;
  for (const Window& w : g.windows) {
    guarded(job, "window at " + std::to_string(w.lo), [&] {
      std::vector<uint8_t> betas(64 * size_t(w.n)), valid(w.n);
      kern::ecvrf_betas(dev, v.name, g.job, w.lo, w.n, 12, betas.data(), valid.data());
      check_betas(job, label, g, at, w.lo, w.n, betas, valid);
    });
    if (compact)
      for (int passes : {1, 2}) {
        TallyCheck cap{row.checks[6]};
        guarded(cap, std::to_string(passes) + " passes", [&] {
          std::vector<uint8_t> betas(64 * size_t(w.n)), valid(w.n);
          kern::ecvrf_betas(dev, v.name, g.job, w.lo, w.n, passes, betas.data(), valid.data());
          check_betas(cap, label + " (" + std::to_string(passes) + " h2c passes)", g, at, w.lo, w.n, betas, valid);
        });
      }
    at += w.n;
  }
  for (size_t wi : {size_t(0), size_t(2)}) {
    const Window& w = g.windows[wi];
    guarded(search, "search at " + std::to_string(w.lo), [&] {
      kern::EcvrfSearchOptions o;
      o.target = g.target;
      o.initial_capacity = 1;
      o.max_slice = 7;
      kern::EcvrfSearchStats st;
      const auto got = kern::ecvrf_search(dev, v.name, g.job, w.lo, w.n, o, &st);
      const auto want = g.hits_of(w);
      const bool same = got.size() == want.size() &&
                        std::equal(got.begin(), got.end(), want.begin(), [](const kern::EcvrfHit& a, const kern::EcvrfHit& b) {
                          return a.nonce == b.nonce && a.score == b.score;
                        });
      search.check(same, label + " hits of [" + std::to_string(w.lo) + ", +" + std::to_string(w.n) +
                             ") at target 2^62:\n  got " + std::to_string(got.size()) + hit_list(got) + "\n  want " +
                             std::to_string(want.size()) + hit_list(want));
      // A slice re-runs iff it has 2 or more hits for a one-entry buffer (afterwards the buffer has room).
      bool overflow = false;
      for (uint64_t s = 0; s < w.n && !overflow; s += 7) {
        int k = 0;
        for (const auto& h : want) k += h.nonce - w.lo >= s && h.nonce - w.lo < s + 7;
        overflow = k >= 2;
      }
      search.check((st.reruns > 0) == overflow, label + ": hit-buffer re-runs " + std::to_string(st.reruns) +
                                                    (overflow ? ", want at least one" : ", want none"));
    });
  }
}

}  // namespace

void gpu_rows(const SelftestOptions& opt, const Golden& gold, SelftestReport& rep) {
  std::vector<std::string> compiled;
  for (const auto& v : kern::ecvrf_device_variants()) compiled.push_back(v.name);
  std::string missing;
  ecvrf::for_each_gpu_variant([&]<class V>() {
    if (opt.wants(V::name()) && std::find(compiled.begin(), compiled.end(), V::name()) == compiled.end())
      missing += " " + V::name();
  });
  if (!missing.empty() && !opt.devices.gpus.empty())
    rep.notes.push_back("GPU kernels NOT in this build (configure with -DBX_ECVRF_KERNELS=all):" + missing);
  if (opt.devices.gpus.empty()) return;
  const GpuGolden g = make_gpu_golden(opt.full, opt.seed);
  for (int dev : opt.devices.gpus) {
    const std::string place = "gpu" + std::to_string(dev);
    for (const kern::EcvrfDeviceVariant& v : kern::ecvrf_device_variants()) {
      if (!opt.wants(v.name)) continue;
      SelftestRow row{v.name, place, {}};
      row.checks.reserve(7);  // TallyCheck keeps a reference into checks
      gpu_row(dev, v, gold, g, place, row);
      rep.rows.push_back(std::move(row));
    }
  }
}
#else
void gpu_rows(const SelftestOptions& opt, const Golden&, SelftestReport& rep) {
  if (!opt.devices.gpus.empty()) rep.notes.push_back("this build has no CUDA kernels: ecvrf GPU variants NOT run");
}
#endif

}  // namespace bx::ecvrf_family
