// libFuzzer target over the user's code: every host md5z implementation of the plugin named by
// BX_FUZZ_PLUGIN, differentially against the reference, through the engine's adapter (suite/md5z).
// Searches get index ranges where tunnel searches lose hits: from 0, across 2^31, ending at 2^32 exactly,
// or anywhere, up to 512 indices long, at thresholds 1..4 (1 and 2 find hits in most ranges), with a small
// first hit buffer (the capacity contract is part of the search). Also: candidate digests at indices next to
// those carries, MD5 of messages of every length up to 200 bytes around the block boundaries, and prepare
// against bitexact's job. A difference prints the implementation, the operation, its inputs and both
// answers, then aborts (libFuzzer saves the input; the target replays it).
//
//   BX_FUZZ_PLUGIN=build-fuzz/examples/plugins/md5z_tunnel.so build-fuzz/fuzz/plugin_md5z_fuzz -max_total_time=60
#include <cstring>
#include <string>
#include <vector>

#include "fuzz/plugin_fuzz.hpp"
#include "reference/md5z/md5z_ref.hpp"
#include "suite/hex.hpp"
#include "suite/md5z/plugin_ops.hpp"

namespace {

using namespace bx;
using namespace bx::suite::md5z;
namespace R = bx::ref::md5z;
using bx::plugin_fuzz::Stream;

plugin_fuzz::Fuzzer<PluginMd5z> g;

constexpr uint64_t kEnd = uint64_t(1) << 32;

// An index next to a carry: 0 + k, 2^31 - 8 + k, 2^32 - 1 - k, or any.
uint32_t index_near_carry(Stream& s) {
  const uint8_t m = s.byte();
  const uint32_t k = s.byte();
  switch (m & 3) {
    case 0: return k;
    case 1: return (1u << 31) - 8 + k;
    case 2: return uint32_t(kEnd - 1 - k);
    default: return uint32_t(s.word());
  }
}

std::string hits_text(const std::vector<Hit>& h) {
  std::string s = std::to_string(h.size()) + " hits";
  for (size_t i = 0; i < h.size() && i < 6; ++i) s += (i ? ", " : ": ") + std::to_string(h[i].index) + "/" + std::to_string(h[i].zeros);
  return s + (h.size() > 6 ? ", ..." : "");
}

void check_search(const std::string& name, const PluginMd5z& im, bool job, Stream& s) {
  // The range's shape first, the base last: the short inputs libFuzzer starts with already reach 2^32.
  const uint8_t where = s.byte();
  const uint64_t len = 1 + (s.byte() | uint64_t(s.byte() & 1) << 8);  // 1..512
  const uint32_t threshold = 1 + (s.byte() & 3);
  const uint64_t capacity = 1 + (s.byte() & 7);
  uint64_t lo;
  switch (where & 3) {
    case 0: lo = s.byte(); break;                                 // from 0
    case 1: lo = (uint64_t(1) << 31) - len / 2; break;            // across 2^31
    case 2: lo = kEnd - len; break;                               // ending at 2^32 exactly
    default: lo = s.word() % (kEnd - len); break;
  }
  const uint64_t hi = lo + len;
  const Base base = [&] {
    const R::Message m = R::make_base(s.word() & 0xffff);  // a small set of bases: the corpus can revisit them
    Base b;
    std::memcpy(b.data(), m.data(), b.size());
    return b;
  }();
  const std::string op = job ? "search_job" : "search";
  const std::string inputs = "  base " + to_hex(base.data(), base.size()) + "\n  range [" + std::to_string(lo) + ", " + std::to_string(hi) +
                             ") threshold " + std::to_string(threshold) + " (first hit buffer " + std::to_string(capacity) + ")\n";
  SearchAnswer got;
  plugin_fuzz::call_or_report(name, op, inputs, [&] { got = (job ? im.search_job : im.search)(base, lo, hi, threshold, capacity); });
  R::Message m;
  std::memcpy(m.data(), base.data(), m.size());
  std::vector<Hit> want;
  for (const R::Hit& h : R::search(m, lo, hi, int(threshold))) want.push_back({h.index, uint32_t(h.zeros)});
  if (!got.contract_breaches.empty()) plugin_fuzz::difference(name, op, inputs, got.contract_breaches.front(), "the search contract kept");
  if (got.hits != want) plugin_fuzz::difference(name, op, inputs, hits_text(got.hits), hits_text(want));
}

void check_candidates(const std::string& name, const PluginMd5z& im, Stream& s) {
  const R::Message m = R::make_base(s.word() & 0xffff);
  Base base;
  std::memcpy(base.data(), m.data(), base.size());
  std::vector<uint32_t> idx(1 + (s.byte() & 7));
  for (auto& i : idx) i = index_near_carry(s);
  std::string inputs = "  base " + to_hex(base.data(), base.size()) + "\n  indices";
  for (uint32_t i : idx) inputs += " " + std::to_string(i);
  inputs += "\n";
  std::vector<Digest> got;
  plugin_fuzz::call_or_report(name, "candidate_digests", inputs, [&] { got = im.candidate_digests(base, idx); });
  for (size_t k = 0; k < idx.size(); ++k) {
    const Digest want = R::md5(R::candidate(m, idx[k]));
    if (got[k] != want)
      plugin_fuzz::difference(name, "candidate_digests (index " + std::to_string(idx[k]) + ")", inputs, R::digest_hex(got[k]), R::digest_hex(want));
  }
}

void check_md5(const std::string& name, const PluginMd5z& im, Stream& s) {
  std::vector<std::vector<uint8_t>> msgs(1 + (s.byte() & 3));
  for (auto& msg : msgs) {
    const uint8_t l = s.byte();
    msg.resize(l % 4 == 0 ? 55 + (l >> 2) % 10 : l % 201);  // often next to 55/56/64 bytes, where padding moves
    for (auto& c : msg) c = s.byte();
  }
  std::string inputs;
  for (auto& msg : msgs) inputs += "  message (" + std::to_string(msg.size()) + " bytes) " + to_hex(msg.data(), msg.size()) + "\n";
  std::vector<Digest> got;
  plugin_fuzz::call_or_report(name, "md5", inputs, [&] { got = im.md5(msgs); });
  for (size_t k = 0; k < msgs.size(); ++k) {
    const Digest want = R::md5(msgs[k].data(), msgs[k].size());
    if (got[k] != want) plugin_fuzz::difference(name, "md5 (message " + std::to_string(k) + ")", inputs, R::digest_hex(got[k]), R::digest_hex(want));
  }
}

void check_prepare(const std::string& name, const PluginMd5z& im, Stream& s) {
  const R::Message m = R::make_base(s.word() & 0xffff);
  Base base;
  std::memcpy(base.data(), m.data(), base.size());
  const std::string inputs = "  base " + to_hex(base.data(), base.size()) + "\n";
  bx_md5z_job got{};
  plugin_fuzz::call_or_report(name, "prepare", inputs, [&] { got = im.prepare(base); });
  const bx_md5z_job want = reference_job(base);
  for (int k = 0; k < 16; ++k)
    if (got.m[k] != want.m[k])
      plugin_fuzz::difference(name, "prepare", inputs, "m[" + std::to_string(k) + "] = " + std::to_string(got.m[k]), std::to_string(want.m[k]));
  for (int k = 0; k < 28; ++k)
    if (got.q[k] != want.q[k])
      plugin_fuzz::difference(name, "prepare", inputs, "Q[" + std::to_string(k - 3) + "] = " + std::to_string(got.q[k]), std::to_string(want.q[k]));
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  g.impls = plugin_fuzz::load_host_impls<PluginMd5z>("plugin_md5z", BX_FAMILY_MD5Z, [](const suite::PluginImpl& p) { return adapt(p, -1); });
  using C = plugin_fuzz::Check<PluginMd5z>;
  g.checks = {C{[](const PluginMd5z& im) { return bool(im.search); }, [](auto& n, auto& im, Stream& s) { check_search(n, im, false, s); }},
              C{[](const PluginMd5z& im) { return bool(im.search_job); }, [](auto& n, auto& im, Stream& s) { check_search(n, im, true, s); }},
              C{[](const PluginMd5z& im) { return bool(im.candidate_digests); }, check_candidates},
              C{[](const PluginMd5z& im) { return bool(im.md5); }, check_md5},
              C{[](const PluginMd5z& im) { return bool(im.prepare); }, check_prepare}};
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) { return g.one(data, size); }
