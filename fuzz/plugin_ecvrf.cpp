// libFuzzer target over the user's code: every host ecvrf implementation of the plugin named by
// BX_FUZZ_PLUGIN, differentially against the golden model (reference/ecvrf), through the engine's adapter
// (suite/ecvrf). Inputs are where miner pipelines break: encodings next to p (y = p - 1 - k, and the
// non-canonical p + k), x = 0 with the sign set, any bytes, for the strict decoder; points k·B and the
// torsion points for add, scalar_mult and proof_to_hash; scalars at 0, 1, L - 1, L, 2^252 and 2^255 - 1;
// keys searched with x and with x mod L; nonce windows across the 2^32 carry of the nonce's low word, at 0
// and at the end of the nonce space, with targets that make about half the nonces hits or equal one
// nonce's score exactly (a tie is not a hit). A difference prints the implementation, the operation, its
// inputs and both answers, then aborts (libFuzzer saves the input; the target replays it).
//
//   BX_FUZZ_PLUGIN=build-fuzz/examples/plugins/ecvrf_miner.so build-fuzz/fuzz/plugin_ecvrf_fuzz -max_total_time=60
#include <string>
#include <variant>
#include <vector>

#include "fuzz/plugin_fuzz.hpp"
#include "reference/common/prime_field.hpp"
#include "reference/ecvrf/edwards.hpp"
#include "reference/ecvrf/vrf.hpp"
#include "suite/ecvrf/plugin_ops.hpp"
#include "suite/hex.hpp"

namespace {

using namespace bx;
using namespace bx::suite::ecvrf;
namespace G = bx::ref::ecvrf;
using bx::plugin_fuzz::Stream;
using bx::ref::Int;

plugin_fuzz::Fuzzer<PluginEcvrf> g;

const Int kP = (Int(1) << 255) - 19;

B32 le32(const Int& v) {
  const auto b = ref::to_le_bytes(v, 32);
  B32 out;
  std::copy(b.begin(), b.end(), out.begin());
  return out;
}

std::string hex(const uint8_t* p, size_t n) { return to_hex(p, n); }

// A candidate encoding: p with one interior byte lowered (below p, yet equal to p in its outer bytes: what
// a y >= p test that reads a few bytes gets wrong), y next to p (below it, or the non-canonical p + k), y = 1
// or p - 1 (x = 0) with the sign set, small y, or any bytes; the sign bit from the mode byte.
B32 encoding(Stream& s) {
  const uint8_t m = s.byte(), k = s.byte();
  Int y;
  switch (m % 7) {
    case 0: {
      B32 b = le32(kP);
      b[2 + k % 28] = uint8_t(s.byte() % 0xff);  // below 0xff: the value drops under p
      y = ref::f25519::raw_value(b);
      break;
    }
    case 6: y = kP + (k % 19); break;  // non-canonical: y in [p, 2^255)
    case 1: y = kP - 1 - k; break;
    case 2: y = (k & 1) ? kP - 1 : Int(1); break;  // x = 0
    case 3: y = k; break;
    default: {
      B32 b;
      for (auto& c : b) c = s.byte();
      b[31] &= 0x7f;
      y = ref::f25519::raw_value(b);
    }
  }
  B32 e = le32(y);
  if (m & 0x80) e[31] |= 0x80;
  return e;
}

// A point: k·B for a small or any k, a torsion point, or a torsion point plus k·B.
G::Point point(Stream& s) {
  const uint8_t m = s.byte(), k = s.byte();
  const auto& tor = G::torsion_points();
  switch (m % 4) {
    case 0: return G::mul(Int(k) + 1, G::base_point());
    case 1: return tor[k % 8];
    case 2: return G::add(tor[k % 8], G::mul(Int(s.word()) + 1, G::base_point()));
    default: return G::mul(Int(s.word()) * Int(s.word()) + k, G::base_point());
  }
}

// A scalar below 2^255: 0, 1, L - 1, L, L + 1, 2^252, 2^255 - 1, or any.
Int scalar(Stream& s) {
  const uint8_t m = s.byte();
  switch (m % 8) {
    case 0: return Int(m >> 3);
    case 1: return G::L() - 1;
    case 2: return G::L();
    case 3: return G::L() + 1;
    case 4: return Int(1) << 252;
    case 5: return (Int(1) << 255) - 1;
    default: {
      Int v = 0;
      for (int w = 0; w < 4; ++w) v = (v << 64) | Int(s.word());
      return v % (Int(1) << 255);
    }
  }
}

std::string decoded_text(const Decoded& d) {
  return d.status == 0 ? "valid " + to_hex(d.canonical.data(), 32) : decode_status_name(d.status);
}
Decoded reference_decode(const B32& e) {
  const G::Decoded d = G::decode(e);
  Decoded r;
  if (const auto* p = std::get_if<G::Point>(&d)) r.canonical = G::encode(*p);
  else r.status = int32_t(std::get<G::DecodeError>(d)) + 1;  // the enums share their order (plugin.h)
  return r;
}

void check_decode(const std::string& name, const PluginEcvrf& im, Stream& s) {
  std::vector<B32> in(1 + (s.byte() & 3));
  for (auto& e : in) e = encoding(s);
  std::string inputs;
  for (const auto& e : in) inputs += "  encoding " + hex(e.data(), 32) + "\n";
  std::vector<Decoded> got;
  plugin_fuzz::call_or_report(name, "decode", inputs, [&] { got = im.decode(in); });
  for (size_t i = 0; i < in.size(); ++i) {
    const Decoded want = reference_decode(in[i]);
    if (got[i].status != want.status || (want.status == 0 && got[i].canonical != want.canonical))
      plugin_fuzz::difference(name, "decode (encoding " + std::to_string(i) + ")", inputs, decoded_text(got[i]), decoded_text(want));
  }
}

void check_points(const std::string& name, const PluginEcvrf& im, int which, Stream& s) {
  const G::Point p = point(s), q = point(s);
  const Int k = scalar(s);
  const B32 pe = G::encode(p), qe = G::encode(q), ke = le32(k);
  std::vector<B32> got;
  std::string op, inputs, want;
  if (which == 0) {
    op = "add", inputs = "  P " + hex(pe.data(), 32) + "\n  Q " + hex(qe.data(), 32) + "\n";
    plugin_fuzz::call_or_report(name, op, inputs, [&] { got = im.add({pe}, {qe}); });
    const B32 w = G::encode(G::add(p, q));
    want = hex(w.data(), 32);
  } else if (which == 1) {
    op = "scalar_mult", inputs = "  k " + hex(ke.data(), 32) + "\n  P " + hex(pe.data(), 32) + "\n";
    plugin_fuzz::call_or_report(name, op, inputs, [&] { got = im.scalar_mult({ke}, {pe}); });
    const B32 w = G::encode(G::mul(k, p));
    want = hex(w.data(), 32);
  } else {
    op = "proof_to_hash", inputs = "  Gamma " + hex(pe.data(), 32) + "\n";
    std::vector<B64> h;
    plugin_fuzz::call_or_report(name, op, inputs, [&] { h = im.proof_to_hash({pe}); });
    const B64 w = G::proof_to_hash(p);
    if (h[0] != w) plugin_fuzz::difference(name, op, inputs, hex(h[0].data(), 64), hex(w.data(), 64));
    return;
  }
  if (hex(got[0].data(), 32) != want) plugin_fuzz::difference(name, op, inputs, hex(got[0].data(), 32), want);
}

// A key: x = clamp(SHA-512(sk)) from a seeded sk, searched with x itself or with x mod L.
G::VrfKey key(Stream& s) {
  B32 sk{};
  const uint64_t seed = s.word();
  for (int i = 0; i < 32; ++i) sk[size_t(i)] = uint8_t(seed >> (8 * (i % 8))) ^ uint8_t(i * 37);
  G::VrfKey k = G::vrf_key(sk);
  if (s.byte() & 1) k.x = k.x_mod_l;
  return k;
}

void check_vrf_beta(const std::string& name, const PluginEcvrf& im, Stream& s) {
  const G::VrfKey k = key(s);
  std::vector<std::vector<uint8_t>> alphas(1 + (s.byte() & 1));
  for (auto& a : alphas) {
    a.resize(s.byte() % 48);
    for (auto& c : a) c = s.byte();
  }
  const B32 x = le32(k.x);
  std::string inputs = "  pk " + hex(k.pk.data(), 32) + "\n  x " + hex(x.data(), 32) + "\n";
  for (const auto& a : alphas) inputs += "  alpha " + (a.empty() ? std::string("(empty)") : hex(a.data(), a.size())) + "\n";
  std::vector<Beta> got;
  plugin_fuzz::call_or_report(name, "vrf_beta", inputs, [&] { got = im.vrf_beta(k.pk, x, alphas); });
  for (size_t i = 0; i < alphas.size(); ++i) {
    const G::VrfTrace t = G::vrf_trace(k, alphas[i]);
    const int ctr = t.tai.ctr ? int(*t.tai.ctr) : -1;
    const std::string want = "ctr " + std::to_string(ctr) + (t.beta ? " beta " + hex(t.beta->data(), 64) : "");
    const std::string have = "ctr " + std::to_string(got[i].ctr) + (got[i].ctr >= 0 ? " beta " + hex(got[i].beta.data(), 64) : "");
    if (have != want) plugin_fuzz::difference(name, "vrf_beta (alpha " + std::to_string(i) + ")", inputs, have, want);
  }
}

void check_search(const std::string& name, const PluginEcvrf& im, Stream& s) {
  // The window first: zero bytes (libFuzzer's first inputs) give 6 nonces across the 2^32 carry.
  const uint64_t count = 6 - (s.byte() % 6);
  const uint8_t where = s.byte();
  const uint64_t k = s.byte() % count;
  uint64_t lo;
  switch (where % 4) {
    case 0: lo = (uint64_t(1) << 32) - 1 - k; break;
    case 1: lo = 0; break;
    case 2: lo = ~uint64_t(0) - count + 1; break;  // ending at 2^64
    default: lo = s.word() % (~uint64_t(0) - count);
  }
  const uint8_t tmode = s.byte();
  const G::VrfKey kk = key(s);
  B32 header;
  const uint64_t hseed = s.word();
  for (int i = 0; i < 32; ++i) header[size_t(i)] = uint8_t((hseed >> (8 * (i % 8))) + i);
  // Reference scores of the window.
  std::vector<uint64_t> scores(count);
  std::vector<bool> has(count);
  for (uint64_t i = 0; i < count; ++i) {
    const G::VrfTrace t = G::vrf_trace(kk, G::job_alpha(header, lo + i));
    has[i] = t.beta.has_value();
    scores[i] = t.beta ? G::score(*t.beta) : 0;
  }
  // The target: one nonce's score exactly (a tie is not a hit), or about half the nonces hit.
  const uint64_t target = !(tmode & 1) && has[(tmode >> 1) % count] ? scores[(tmode >> 1) % count] : uint64_t(1) << 63;
  const B32 x = le32(kk.x);
  const std::string inputs = "  pk " + hex(kk.pk.data(), 32) + "\n  x " + hex(x.data(), 32) + "\n  header " + hex(header.data(), 32) +
                             "\n  nonces [" + std::to_string(lo) + ", +" + std::to_string(count) + "), target " + std::to_string(target) + "\n";
  SearchAnswer got;
  plugin_fuzz::call_or_report(name, "search", inputs, [&] { got = im.search(kk.pk, x, header, lo, count, target, 1 + (tmode >> 6)); });
  std::string want_text, got_text;
  for (uint64_t i = 0; i < count; ++i)
    if (has[i] && scores[i] < target) want_text += " " + std::to_string(lo + i) + "/" + std::to_string(scores[i]);
  for (const Hit& h : got.hits) got_text += " " + std::to_string(h.nonce) + "/" + std::to_string(h.score);
  if (!got.contract_breaches.empty()) plugin_fuzz::difference(name, "search", inputs, got.contract_breaches.front(), "the search contract kept");
  if (got_text != want_text) plugin_fuzz::difference(name, "search", inputs, "hits" + got_text, "hits" + want_text);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  g.impls = plugin_fuzz::load_host_impls<PluginEcvrf>("plugin_ecvrf", BX_FAMILY_ECVRF, [](const suite::PluginImpl& p) { return adapt(p, -1); });
  using C = plugin_fuzz::Check<PluginEcvrf>;
  g.checks = {C{[](const PluginEcvrf& im) { return bool(im.search); }, check_search},
              C{[](const PluginEcvrf& im) { return bool(im.decode); }, check_decode},
              C{[](const PluginEcvrf& im) { return bool(im.add); }, [](auto& n, auto& im, Stream& s) { check_points(n, im, 0, s); }},
              C{[](const PluginEcvrf& im) { return bool(im.scalar_mult); }, [](auto& n, auto& im, Stream& s) { check_points(n, im, 1, s); }},
              C{[](const PluginEcvrf& im) { return bool(im.proof_to_hash); }, [](auto& n, auto& im, Stream& s) { check_points(n, im, 2, s); }},
              C{[](const PluginEcvrf& im) { return bool(im.vrf_beta); }, check_vrf_beta}};
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) { return g.one(data, size); }
