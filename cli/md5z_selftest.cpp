#include <chrono>
#include <cstdio>

#include "cli/md5z.hpp"
#include "cli/md5z_vectors.hpp"

namespace bx::md5z {
namespace R = ref::md5z;

namespace {
struct Count {
  size_t pass = 0, total = 0;
  int shown = 0;
  void check(bool ok, const std::string& what) {
    ++total;
    if (ok) ++pass;
    else if (shown++ < 3) std::fprintf(stderr, "FAIL %s\n", what.c_str());
  }
  std::string frac() const { return std::to_string(pass) + "/" + std::to_string(total); }
};
std::string hits_str(const std::vector<uint64_t>& h) {
  std::string s;
  for (size_t k = 0; k < h.size() && k < 4; ++k)
    s += (k ? ", " : "") + std::to_string(md5::hit_index(h[k])) + ":" + std::to_string(md5::hit_zeros(h[k]));
  return "[" + s + (h.size() > 4 ? ", ..." : "") + "] (" + std::to_string(h.size()) + " hits)";
}
}  // namespace

bool selftest(const DeviceSelection& devices, bool full, uint64_t seed, nlohmann::ordered_json& rows) {
  const auto cands = load_embedded_candidates();
  const auto hits = load_embedded_hits();
  bool all = true;
  // Host-only facts, once: the RFC 1321 suite through gpu/md5 and the non-bases rejected.
  Count host;
  for (auto& t : load_embedded_md5()) {
    uint8_t d[16];
    md5::md5_bytes(t.msg.data(), t.msg.size(), d);
    host.check(to_hex(d, 16) == t.digest, "md5 RFC 1321 tcId " + std::to_string(t.tc_id) + ": " + to_hex(d, 16) + " != " + t.digest);
  }
  for (auto& b : load_embedded_bases()) {
    bool rejected = false;
    try {
      prepare(b.base, "base");
    } catch (const InputError&) {
      rejected = true;
    }
    host.check(rejected == !b.valid, "bases tcId " + std::to_string(b.tc_id) + (b.valid ? ": base rejected" : ": non-base accepted"));
  }
  // A seeded range that ends at 2^32, against the reference brute force.
  const uint64_t width = full ? (1u << 20) : (1u << 14);
  const auto base = R::make_base(seed);
  const auto tb = prepare(base, "selftest base");
  const auto want = reference_hits(base, md5::kIndexEnd - width, md5::kIndexEnd, 2);
  std::printf("\nmd5z: %zu candidate vectors, %zu frozen hits, range [2^32 - %llu, 2^32) at T = 2 on make_base(%llu): %zu hits\n",
              cands.size(), hits.size(), (unsigned long long)width, (unsigned long long)seed, want.size());
  std::printf("md5z host checks (RFC 1321 via gpu/md5, non-bases rejected): %s %s\n", host.frac().c_str(),
              host.pass == host.total ? "PASS" : "FAIL");
  all = all && host.pass == host.total;
  std::printf("%-34s %-6s %-15s %-15s %-15s %s\n", "variant", "where", "candidates", "frozen hits", "range", "verdict");
  for (auto& im : impls({std::begin(md5::kAllVariants), std::end(md5::kAllVariants)}, devices)) {
    if (!im.search) continue;
    Count c, h, r;
    for (auto& t : cands) {
      const auto got = im.search(prepare(t.base, "vector"), t.index, uint64_t(t.index) + 1, 0, nullptr);
      c.check(got == std::vector<uint64_t>{md5::pack_hit(t.index, t.zeros)},
              im.label() + " candidates tcId " + std::to_string(t.tc_id) + " index " + std::to_string(t.index) + ": want zeros " +
                  std::to_string(t.zeros) + ", got " + hits_str(got) + "\n  message = " + to_hex(t.message.data(), 52) +
                  "\n  digest  = " + t.digest);
    }
    for (auto& t : hits) {
      const auto tbh = prepare(t.base, "vector");
      const auto at = im.search(tbh, t.index, uint64_t(t.index) + 1, t.zeros, nullptr);
      const auto above = im.search(tbh, t.index, uint64_t(t.index) + 1, t.zeros + 1, nullptr);
      h.check(at == std::vector<uint64_t>{md5::pack_hit(t.index, t.zeros)} && above.empty(),
              im.label() + " hits tcId " + std::to_string(t.tc_id) + " (" + std::to_string(t.zeros) + " zeros): at T: " + hits_str(at) +
                  ", at T+1: " + hits_str(above) + "\n  message = " + to_hex(t.message.data(), 52) + "\n  digest  = " + t.digest);
    }
    const auto got = im.search(tb, md5::kIndexEnd - width, md5::kIndexEnd, 2, nullptr);
    r.check(got == want, im.label() + " range ending at 2^32, seed " + std::to_string(seed) + ": want " + hits_str(want) + ", got " + hits_str(got));
    const bool ok = c.pass == c.total && h.pass == h.total && r.pass == r.total && c.total && h.total;
    all = all && ok;
    std::printf("%-34s %-6s %-15s %-15s %-15s %s\n", md5::variant_name(im.variant), im.where.c_str(), c.frac().c_str(),
                h.frac().c_str(), r.frac().c_str(), ok ? "PASS" : "FAIL");
    rows.push_back({{"variant", md5::variant_name(im.variant)}, {"where", im.where}, {"candidates", {c.pass, c.total}},
                    {"hits", {h.pass, h.total}}, {"range", {r.pass, r.total}}, {"pass", ok}});
  }
  return all;
}

}  // namespace bx::md5z
