#include <chrono>
#include <cstdio>
#include <iterator>

#include "cli/md5z/md5z.hpp"
#include "suite/md5z/vectors.hpp"
#include "suite/md5z/plugin_ops.hpp"

namespace bx::md5z {
namespace R = ref::md5z;

namespace {
std::string hits_str(const std::vector<uint64_t>& h) {
  std::string s;
  for (size_t k = 0; k < h.size() && k < 4; ++k)
    s += (k ? ", " : "") + std::to_string(md5::hit_index(h[k])) + ":" + std::to_string(md5::hit_zeros(h[k]));
  return "[" + s + (h.size() > 4 ? ", ..." : "") + "] (" + std::to_string(h.size()) + " hits)";
}
std::string word_hex(uint32_t v) {
  char b[12];
  std::snprintf(b, sizeof b, "0x%08x", v);
  return b;
}
}  // namespace

SelftestReport selftest(const SelftestOptions& opt) {
  SelftestReport rep;
  const auto cands = load_embedded_candidates();
  const auto hits = load_embedded_hits();
  // Host-only facts, once: the MD5 code the kernels share (RFC 1321 suite, every length 0..300 across
  // the padding boundaries 55/56, 63/64, 119/120) and the non-bases rejected.
  rep.host_checks = {{"md5 RFC 1321 (gpu/md5z)"}, {"md5 lengths 0..300"}, {"non-bases rejected"}};
  TallyCheck rfc{rep.host_checks[0]}, lengths{rep.host_checks[1]}, nonbases{rep.host_checks[2]};
  for (auto& t : load_embedded_md5()) {
    uint8_t d[16];
    md5::md5_bytes(t.msg.data(), t.msg.size(), d);
    rfc.check(to_hex(d, 16) == t.digest, "md5 RFC 1321 tcId " + std::to_string(t.tc_id) + ": " + to_hex(d, 16) + " != " + t.digest);
  }
  std::vector<uint8_t> msg(300);
  for (size_t k = 0; k < msg.size(); ++k) msg[k] = uint8_t(0x61 + k * 7 + (k >> 3));
  for (size_t n = 0; n <= msg.size(); ++n) {
    uint8_t d[16];
    md5::md5_bytes(msg.data(), n, d);
    const std::string want = R::digest_hex(R::md5(msg.data(), n));
    lengths.check(to_hex(d, 16) == want, "md5 of " + std::to_string(n) + " bytes: " + to_hex(d, 16) + " != OpenSSL " + want);
  }
  // Both checkers on their own: the reference's and the tunnel's (a kernel trusts the latter). Non-bases:
  // the vectors, and strings missing Q[10] = 0 or Q[11] = 0xffffffff by exactly one bit.
  auto judge_base = [&](const Message& m, bool valid, const std::string& what) {
    uint32_t w[16];
    md5::message_words(m.data(), w);
    md5::TunnelBase tb;
    const bool ref_ok = R::base_problem(m).empty(), tunnel_ok = md5::tunnel_prepare(w, tb);
    nonbases.check(ref_ok == valid && tunnel_ok == valid, what + (valid ? ": base rejected" : ": non-base accepted") +
                                                              " (reference " + (ref_ok ? "accepts" : "rejects") + ", tunnel " +
                                                              (tunnel_ok ? "accepts" : "rejects") + ")\n  message = " + to_hex(m.data(), 52));
  };
  for (auto& b : load_embedded_bases()) judge_base(b.base, b.valid, "bases tcId " + std::to_string(b.tc_id));
  for (int k = 0; k < 32; ++k) {
    judge_base(R::make_message(opt.seed + k, 1u << k, 0xffffffffu), false, "Q[10] = 2^" + std::to_string(k));
    judge_base(R::make_message(opt.seed + k, 0, ~(1u << k)), false, "Q[11] = ~2^" + std::to_string(k));
  }
  // A seeded range that ends at 2^32, against the reference brute force.
  const uint64_t width = opt.full ? (1u << 20) : (1u << 14);
  const auto base = R::make_base(opt.seed);
  const auto tb = prepare(base, "selftest base");
  // At thresholds 1 and 2: the cheap early exit on h0's low byte is allowed from 2 on, never at 1.
  const std::vector<uint64_t> want[] = {reference_hits(base, md5::kIndexEnd - width, md5::kIndexEnd, 1),
                                        reference_hits(base, md5::kIndexEnd - width, md5::kIndexEnd, 2)};
  // Threshold 0 (every index is a hit) over windows at the range start, around 2^31 and ending at 2^32,
  // each holding host chunk ends (every 2^16 from its start): index by index against OpenSSL, so a
  // skipped, repeated or mis-ordered index anywhere in a window shows. (Launch slice ends inside a range
  // are tested with small slices in md5z_gpu_test.)
  const std::pair<uint64_t, uint64_t> windows[] = {
      {0, 1u << 12}, {(1ull << 31) - (1u << 16), (1ull << 31) + (1u << 16)}, {md5::kIndexEnd - (1u << 17) - 3, md5::kIndexEnd}};
  std::vector<std::vector<uint64_t>> window_want;
  for (auto [lo, hi] : windows) window_want.push_back(reference_hits(base, lo, hi, 0));
  std::vector<Impl> all;
  for (auto& im : impls(md5::all_variants(), opt.devices))
    if (im.search && opt.wants(im.name)) all.push_back(std::move(im));
  for (auto& im : plugin_impls(opt.devices))
    if (opt.wants(im.name)) all.push_back(std::move(im));
  // A plugin's own MD5 and precomputation, where it provides them, against OpenSSL and the reference.
  std::vector<std::vector<uint8_t>> md5_messages;
  std::vector<std::string> md5_want;
  for (auto& t : load_embedded_md5()) md5_messages.push_back(t.msg), md5_want.push_back(t.digest);
  for (size_t n = 0; n <= msg.size(); ++n)
    md5_messages.emplace_back(msg.begin(), msg.begin() + long(n)), md5_want.push_back(R::digest_hex(R::md5(msg.data(), n)));
  std::vector<Message> job_bases = {base};
  for (auto& b : load_embedded_bases())
    if (b.valid) job_bases.push_back(b.base);
  for (int k = 1; k < (opt.full ? 64 : 8); ++k) job_bases.push_back(R::make_base(opt.seed + 1000 + k));
  for (const Impl& im : all) {
    SelftestRow row{im.name, im.where, {{"candidates"}, {"digests"}, {"frozen hits"}, {"range"}, {"T=0 windows"}}};
    row.checks.reserve(8);  // TallyCheck keeps a reference into checks: no reallocation while a row is filled
    TallyCheck c{row.checks[0]}, dg{row.checks[1]}, h{row.checks[2]}, r{row.checks[3]}, w{row.checks[4]};
    const std::string reproduce = "\n  reproduce: bitexact selftest --family md5z " + im.options() + " --seed " + std::to_string(opt.seed);
    if (!im.digests) row.checks[1].lacks("candidate_digests");
    else for (auto& t : cands) {  // the digest along the variant's own path (steps 61..63 forced), as the oracle reports it
      const auto words = im.digests(prepare(t.base, "vector"), {t.index})[0];
      uint8_t bytes[16];
      md5::store_digest(words.data(), bytes);
      dg.check(to_hex(bytes, 16) == t.digest, im.label() + " digest tcId " + std::to_string(t.tc_id) + " index " +
                                                   std::to_string(t.index) + ": " + to_hex(bytes, 16) + " != " + t.digest + reproduce);
    }
    // A plugin's job-level search beside its own search gets every search check again, in a column of its own.
    if (im.plugin_search_job) row.checks.push_back({"job-level search"});
    if (!im.search)
      for (int k : {0, 2, 3, 4}) row.checks[size_t(k)].lacks("search");
    for (auto& t : cands) {
      if (!im.search) break;
      const auto got = im.search(prepare(t.base, "vector"), t.index, uint64_t(t.index) + 1, 0, nullptr);
      c.check(got == std::vector<uint64_t>{md5::pack_hit(t.index, t.zeros)},
              im.label() + " candidates tcId " + std::to_string(t.tc_id) + " index " + std::to_string(t.index) + ": want zeros " +
                  std::to_string(t.zeros) + ", got " + hits_str(got) + "\n  message = " + to_hex(t.message.data(), 52) +
                  "\n  digest  = " + t.digest + reproduce);
    }
    // Frozen hits, the seeded range ending at 2^32 and the T=0 windows, through one search form.
    auto search_checks = [&](const Search& search, const std::string& form, TallyCheck& hc, TallyCheck& rc, TallyCheck& wc) {
      for (auto& t : hits) {
        const auto tbh = prepare(t.base, "vector");
        const auto at = search(tbh, t.index, uint64_t(t.index) + 1, t.zeros, nullptr);
        const auto above = search(tbh, t.index, uint64_t(t.index) + 1, t.zeros + 1, nullptr);
        hc.check(at == std::vector<uint64_t>{md5::pack_hit(t.index, t.zeros)} && above.empty(),
                 im.label() + form + " hits tcId " + std::to_string(t.tc_id) + " (" + std::to_string(t.zeros) + " zeros): at T: " +
                     hits_str(at) + ", at T+1: " + hits_str(above) + "\n  message = " + to_hex(t.message.data(), 52) +
                     "\n  digest  = " + t.digest + reproduce);
      }
      for (int T : {1, 2}) {
        const auto got = search(tb, md5::kIndexEnd - width, md5::kIndexEnd, T, nullptr);
        rc.check(got == want[T - 1], im.label() + form + " range ending at 2^32 at threshold " + std::to_string(T) + ", seed " +
                                         std::to_string(opt.seed) + ": want " + hits_str(want[T - 1]) + ", got " + hits_str(got) + reproduce);
      }
      for (size_t k = 0; k < std::size(windows); ++k) {
        const auto [lo, hi] = windows[k];
        const auto all_hits = search(tb, lo, hi, 0, nullptr);
        size_t first_bad = 0;
        while (first_bad < all_hits.size() && first_bad < window_want[k].size() && all_hits[first_bad] == window_want[k][first_bad]) ++first_bad;
        std::string where = "";
        if (all_hits != window_want[k])
          where = first_bad < window_want[k].size() ? " first difference at index " + std::to_string(md5::hit_index(window_want[k][first_bad]))
                                                    : " extra entries after the last index";
        wc.check(all_hits == window_want[k], im.label() + form + " T=0 window [" + std::to_string(lo) + ", " + std::to_string(hi) + "): " +
                                                 std::to_string(all_hits.size()) + " entries, want " + std::to_string(window_want[k].size()) +
                                                 where + reproduce);
      }
    };
    if (im.search) search_checks(im.search, "", h, r, w);
    if (im.plugin_search_job) {  // the job-level form beside the plugin's own search: every check in one column
      TallyCheck j{row.checks.back()};
      search_checks(im.plugin_search_job, " (job-level)", j, j, j);
    }
    if (!im.builtin()) {
      row.checks.push_back({"prepare"});
      if (!im.plugin_prepare) row.checks.back().lacks("prepare");
      TallyCheck pc{row.checks.back()};
      for (const Message& b : job_bases) {
        if (!im.plugin_prepare) break;
        const bx_md5z_job got = im.plugin_prepare(b), ref_job = suite::md5z::reference_job(b);
        std::string diff;
        for (int k = 0; k < 16 && diff.empty(); ++k)
          if (got.m[k] != ref_job.m[k]) diff = "m" + std::to_string(k) + " = " + word_hex(got.m[k]) + ", reference " + word_hex(ref_job.m[k]);
        for (int k = 0; k < 28 && diff.empty(); ++k)
          if (got.q[k] != ref_job.q[k]) diff = "Q[" + std::to_string(k - 3) + "] = " + word_hex(got.q[k]) + ", reference " + word_hex(ref_job.q[k]);
        pc.check(diff.empty(), im.label() + " prepare of base " + to_hex(b.data(), 52) + ": " + diff + reproduce);
      }
      row.checks.push_back({"md5"});
      if (!im.plugin_md5) row.checks.back().lacks("md5");
      TallyCheck mc{row.checks.back()};
      if (im.plugin_md5) {
        const auto got = im.plugin_md5(md5_messages);
        for (size_t k = 0; k < got.size(); ++k)
          mc.check(R::digest_hex(got[k]) == md5_want[k], im.label() + " md5 of " + std::to_string(md5_messages[k].size()) + " bytes: " +
                                                            R::digest_hex(got[k]) + ", OpenSSL " + md5_want[k] + reproduce);
      }
    }
    rep.rows.push_back(std::move(row));
  }
  return rep;
}

}  // namespace bx::md5z
