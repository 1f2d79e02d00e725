// libFuzzer target over the user's code: every host qpow implementation of the plugin named by
// BX_FUZZ_PLUGIN, differentially against the reference, through the engine's adapter (suite/qpow), which
// keeps the plugin's declared search preconditions (a "never across a 2^64 carry" miner gets its ranges
// split there). Searches get nonce windows where miners lose shares: at nonce 0 (never valid), across the
// 2^64, 2^128 and 2^256 carries of the nonce's words, at the end of the nonce space, or anywhere; up to 16
// nonces at difficulty 2..5 (so most windows hold valid nonces on both sides of a carry), with a small first
// hit buffer. Also the
// mining hash of nonces next to those carries, the Goldilocks mul and add on values next to 0 and p, the
// permutation, and prepare against bitexact's job. A difference prints the implementation, the operation,
// its inputs and both answers, then aborts (libFuzzer saves the input; the target replays it).
//
//   BX_FUZZ_PLUGIN=build-fuzz/examples/plugins/qpow_miner.so build-fuzz/fuzz/plugin_qpow_fuzz -max_total_time=60
#include <cstring>
#include <string>
#include <vector>

#include "fuzz/plugin_fuzz.hpp"
#include "reference/qpow/qpow_ref.hpp"
#include "suite/hex.hpp"
#include "suite/qpow/plugin_ops.hpp"

namespace {

using namespace bx;
using namespace bx::suite::qpow;
namespace R = bx::ref::qpow;
using bx::plugin_fuzz::Stream;

plugin_fuzz::Fuzzer<PluginQpow> g;

const Int kTwo512 = Int(1) << 512;
constexpr uint64_t kP = 0xffffffff00000001ull;  // the Goldilocks prime

// A header from a seed word (splitmix64): every input, the shortest included, has a header whose bytes
// differ from each other, so a header read in the wrong byte order shows.
R::Header header(Stream& s) {
  uint64_t x = s.word();
  R::Header h;
  for (size_t i = 0; i < h.size(); i += 8) {
    uint64_t z = (x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    for (int k = 0; k < 8; ++k) h[i + k] = uint8_t(z >> (8 * k));
  }
  return h;
}

// The first nonce of a window of `count`: just below a carry of the nonce's words (2^64, 2^128, 2^256) so
// the window crosses it, 0, the end of the nonce space, or any. Zero bytes (libFuzzer's first, short
// inputs) give a window of 16 across 2^64.
Int window_start(Stream& s, uint64_t count) {
  const uint8_t m = s.byte();
  const uint64_t k = s.byte() % count;
  switch (m % 6) {
    case 0: return (Int(1) << 64) - k - 1;
    case 1: return 0;
    case 2: return (Int(1) << 128) - k - 1;
    case 3: return (Int(1) << 256) - k - 1;
    case 4: return kTwo512 - count;
    default: {
      Int v = 0;
      for (int w = 0; w < 8; ++w) v = (v << 64) | Int(s.word());
      return v % (kTwo512 - count);
    }
  }
}

Int nonce_near_carry(Stream& s) { return window_start(s, 256) + s.byte(); }

std::string hex_int(const Int& v) { return to_hex(be64(v).data(), 64); }

std::string offsets_text(const std::vector<uint64_t>& o) {
  std::string s = std::to_string(o.size()) + " valid";
  for (size_t i = 0; i < o.size() && i < 8; ++i) s += (i ? ", " : ": +") + std::to_string(o[i]);
  return s + (o.size() > 8 ? ", ..." : "");
}

void check_search(const std::string& name, const PluginQpow& im, bool job, Stream& s) {
  // The window's shape first, the header last: the short inputs libFuzzer starts with already cross carries.
  const uint64_t count = 16 - (s.byte() & 15);
  const Int lo = window_start(s, count);
  const Int difficulty = 2 + (s.byte() & 3);  // 2..5: at difficulty 1 every nonce is valid and no hash is tested
  const Int target = R::target_of(difficulty);
  const uint64_t capacity = 1 + (s.byte() & 3);
  const R::Header h = header(s);
  const std::string op = job ? "search_job" : "search";
  const std::string inputs = "  header " + to_hex(h.data(), h.size()) + "\n  lo " + hex_int(lo) + "\n  count " + std::to_string(count) +
                             ", difficulty " + difficulty.str() + " (first hit buffer " + std::to_string(capacity) + ")\n";
  SearchAnswer got;
  plugin_fuzz::call_or_report(name, op, inputs, [&] {
    got = job ? im.search_job(h, lo, count, target, capacity) : im.search(h, lo, count, target, capacity, false);
  });
  std::vector<uint64_t> want;
  for (uint64_t i = 0; i < count; ++i) {
    const Int n = lo + i;
    if (n != 0 && R::hash_meets_target(R::mining_hash(h, n), target)) want.push_back(i);
  }
  if (!got.contract_breaches.empty()) plugin_fuzz::difference(name, op, inputs, got.contract_breaches.front(), "the search contract kept");
  if (got.offsets != want) plugin_fuzz::difference(name, op, inputs, offsets_text(got.offsets), offsets_text(want));
}

void check_hash(const std::string& name, const PluginQpow& im, Stream& s) {
  std::vector<Int> nonces(1 + (s.byte() & 3));
  for (auto& n : nonces) n = nonce_near_carry(s);
  const R::Header h = header(s);
  std::string inputs = "  header " + to_hex(h.data(), h.size()) + "\n";
  for (const Int& n : nonces) inputs += "  nonce " + hex_int(n) + "\n";
  std::vector<Bytes64> got;
  plugin_fuzz::call_or_report(name, "hash", inputs, [&] { got = im.hash(h, nonces); });
  for (size_t k = 0; k < nonces.size(); ++k) {
    const auto want = R::mining_hash_bytes(h, nonces[k]);
    if (got[k] != want) plugin_fuzz::difference(name, "hash (nonce " + std::to_string(k) + ")", inputs, to_hex(got[k].data(), 64), to_hex(want.data(), 64));
  }
}

// A canonical field element next to 0, 2^32 or p, or any below p.
uint64_t felt(Stream& s) {
  const uint8_t m = s.byte();
  const uint64_t w = s.word(), k = m >> 2;
  switch (m & 3) {
    case 0: return k;
    case 1: return (uint64_t(1) << 32) - 32 + k;
    case 2: return kP - 1 - k;
    default: return w % kP;
  }
}

void check_field(const std::string& name, const PluginQpow& im, bool mul, Stream& s) {
  std::vector<uint64_t> a(1 + (s.byte() & 7)), b(a.size());
  for (size_t k = 0; k < a.size(); ++k) a[k] = felt(s), b[k] = felt(s);
  std::string inputs;
  for (size_t k = 0; k < a.size(); ++k) inputs += "  a " + std::to_string(a[k]) + ", b " + std::to_string(b[k]) + "\n";
  const std::string op = mul ? "gl_mul" : "gl_add";
  std::vector<uint64_t> got;
  plugin_fuzz::call_or_report(name, op, inputs, [&] { got = (mul ? im.gl_mul : im.gl_add)(a, b); });
  for (size_t k = 0; k < a.size(); ++k) {
    const uint64_t want = mul ? R::mul(a[k], b[k]) : R::add(a[k], b[k]);
    if (got[k] != want) plugin_fuzz::difference(name, op + " (pair " + std::to_string(k) + ")", inputs, std::to_string(got[k]), std::to_string(want));
  }
}

void check_permute(const std::string& name, const PluginQpow& im, Stream& s) {
  std::vector<uint64_t> st(12);
  for (auto& x : st) x = felt(s);
  std::string inputs = "  state";
  for (uint64_t x : st) inputs += " " + std::to_string(x);
  inputs += "\n";
  std::vector<uint64_t> got;
  plugin_fuzz::call_or_report(name, "permute", inputs, [&] { got = im.permute(st); });
  R::State in;
  std::copy(st.begin(), st.end(), in.begin());
  const R::State want = R::permute(in);
  for (int k = 0; k < 12; ++k)
    if (got[k] != want[k])
      plugin_fuzz::difference(name, "permute (lane " + std::to_string(k) + ")", inputs, std::to_string(got[k]), std::to_string(want[k]));
}

void check_prepare(const std::string& name, const PluginQpow& im, Stream& s) {
  const Int lo = nonce_near_carry(s);
  const R::Header h = header(s);
  const std::string inputs = "  header " + to_hex(h.data(), h.size()) + "\n  lo " + hex_int(lo) + "\n";
  bx_qpow_job got{};
  plugin_fuzz::call_or_report(name, "prepare", inputs, [&] { got = im.prepare(h, lo); });
  const bx_qpow_job want = reference_job(h, lo, R::target_of(1));
  for (int k = 0; k < 12; ++k) {
    if (got.midstate[k] != want.midstate[k])
      plugin_fuzz::difference(name, "prepare", inputs, "midstate[" + std::to_string(k) + "] = " + std::to_string(got.midstate[k]), std::to_string(want.midstate[k]));
    if (k != 6 && k != 7 && got.prestate[k] != want.prestate[k])
      plugin_fuzz::difference(name, "prepare", inputs, "prestate[" + std::to_string(k) + "] = " + std::to_string(got.prestate[k]), std::to_string(want.prestate[k]));
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  g.impls = plugin_fuzz::load_host_impls<PluginQpow>("plugin_qpow", BX_FAMILY_QPOW, [](const suite::PluginImpl& p) { return adapt(p, -1); });
  using C = plugin_fuzz::Check<PluginQpow>;
  g.checks = {C{[](const PluginQpow& im) { return bool(im.search); }, [](auto& n, auto& im, Stream& s) { check_search(n, im, false, s); }},
              C{[](const PluginQpow& im) { return bool(im.search_job); }, [](auto& n, auto& im, Stream& s) { check_search(n, im, true, s); }},
              C{[](const PluginQpow& im) { return bool(im.hash); }, check_hash},
              C{[](const PluginQpow& im) { return bool(im.gl_mul); }, [](auto& n, auto& im, Stream& s) { check_field(n, im, true, s); }},
              C{[](const PluginQpow& im) { return bool(im.gl_add); }, [](auto& n, auto& im, Stream& s) { check_field(n, im, false, s); }},
              C{[](const PluginQpow& im) { return bool(im.permute); }, check_permute},
              C{[](const PluginQpow& im) { return bool(im.prepare); }, check_prepare}};
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) { return g.one(data, size); }
