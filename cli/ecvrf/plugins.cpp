// ecvrf implementations from plugins (--plugin): their rows in the selftest (the golden model's RFC 9381
// runs and job nonces through vrf_beta, proof_to_hash on the same Gammas, the decoder table with the
// encodings next to each rejection rule in every byte position, point additions, the extremal scalars, and
// search windows across a 2^32 boundary with a target tied to a hit's score), and their searches in verify.
#include <algorithm>
#include <cstdio>

#include "cli/ecvrf/ecvrf.hpp"
#include "cli/ecvrf/golden.hpp"
#include "suite/ecvrf/plugin_ops.hpp"

namespace bx::ecvrf_family {

std::vector<PluginEntry> plugin_impls(const DeviceSelection& sel) {
  std::vector<PluginEntry> out;
  for (const auto& [p, dev] : suite::plugin_places("ecvrf", sel.cpu, sel.gpus, [](const suite::PluginImpl& p) { suite::ecvrf::adapt(p); }))
    out.push_back({{"ecvrf/" + p.name, suite::Implementation::place_of(dev), dev, p.path}, suite::ecvrf::adapt(p, dev)});
  return out;
}

std::vector<Hit> plugin_search(const PluginEntry& im, const Job& job, uint64_t lo, uint64_t count, uint64_t target, double* seconds) {
  const auto a = im.ops.search(job.pk, job.x, job.header, lo, count, target, 4096);
  if (seconds) *seconds += a.seconds;
  for (const auto& b : a.contract_breaches) std::fprintf(stderr, "FAIL %s: %s\n", im.label().c_str(), b.c_str());
  std::vector<Hit> hits;
  for (const auto& h : a.hits) hits.push_back({h.nonce, h.score});
  return hits;
}

void plugin_rows(const SelftestOptions& opt, const Golden& g, SelftestReport& rep) {
  for (const PluginEntry& im : plugin_impls(opt.devices)) {
    if (!opt.wants(im.name)) continue;
    const auto& e = im.ops;
    SelftestRow row{im.name, im.where,
                    {{"rfc9381"}, {"job"}, {"proof-to-hash"}, {"decode"}, {"add"}, {"scalars"}, {"search"}}};
    TallyCheck rfc{row.checks[0]}, jobc{row.checks[1]}, p2h{row.checks[2]}, dec{row.checks[3]}, add{row.checks[4]},
        mul{row.checks[5]}, srch{row.checks[6]};
    const std::string label = im.label();
    const std::string reproduce = "\n  reproduce: bitexact selftest --family ecvrf " + im.options() + " --seed " + std::to_string(opt.seed);
    // RFC 9381 examples and job nonces: ctr and beta through vrf_beta, one call per run (alphas differ in length).
    if (!e.vrf_beta) row.checks[0].lacks("vrf_beta"), row.checks[1].lacks("vrf_beta");
    for (size_t i = 0; e.vrf_beta && i < g.runs.size(); ++i) {
      const Golden::Run& r = g.runs[i];
      TallyCheck& c = i < g.rfc_runs ? rfc : jobc;
      const auto got = e.vrf_beta(r.pk, r.scalar, {r.alpha})[0];
      c.check(got.ctr == r.ctr, label + " " + r.what + ": ctr " + std::to_string(got.ctr) + ", want " + std::to_string(r.ctr) + reproduce);
      if (r.ctr >= 0) expect_bytes(c, r.beta.data(), got.beta.data(), 64, label + " " + r.what + ": beta" + reproduce);
    }
    if (!e.proof_to_hash) row.checks[2].lacks("proof_to_hash");
    else {
      std::vector<Bytes32> gammas;
      std::vector<const Golden::Run*> with;
      for (const auto& r : g.runs)
        if (r.ctr >= 0) gammas.push_back(r.gamma), with.push_back(&r);
      const auto betas = e.proof_to_hash(gammas);
      for (size_t i = 0; i < with.size(); ++i)
        expect_bytes(p2h, with[i]->beta.data(), betas[i].data(), 64,
                     label + " proof_to_hash of " + with[i]->what + "'s Gamma " + to_hex(gammas[i]) + reproduce);
    }
    if (!e.decode) row.checks[3].lacks("decode");
    else {
      std::vector<Bytes32> in;
      for (const auto& d : g.decodes) in.push_back(d.s);
      const auto got = e.decode(in);
      for (size_t i = 0; i < in.size(); ++i) {
        const std::string answer = got[i].status == BX_ECVRF_DECODE_VALID ? to_hex(got[i].canonical)
                                                                           : suite::ecvrf::decode_status_name(got[i].status);
        dec.check(answer == g.decodes[i].want,
                  label + " decode " + to_hex(in[i]) + ": got " + answer + ", want " + g.decodes[i].want + reproduce);
      }
    }
    if (!e.add) row.checks[4].lacks("add");
    else {
      std::vector<Bytes32> p, q;
      for (const auto& a : g.adds) p.push_back(a.p), q.push_back(a.q);
      const auto sums = e.add(p, q), dbls = e.add(p, p);
      for (size_t i = 0; i < g.adds.size(); ++i) {
        expect_bytes(add, g.adds[i].sum.data(), sums[i].data(), 32, label + " add " + to_hex(p[i]) + " + " + to_hex(q[i]) + reproduce);
        expect_bytes(add, g.adds[i].dbl.data(), dbls[i].data(), 32, label + " add " + to_hex(p[i]) + " + itself" + reproduce);
      }
    }
    if (!e.scalar_mult) row.checks[5].lacks("scalar_mult");
    else {
      std::vector<Bytes32> ks, hs;
      for (const auto& [k, want] : g.scalar_mults) ks.push_back(k), hs.push_back(g.h_point);
      const auto got = e.scalar_mult(ks, hs);
      for (size_t i = 0; i < ks.size(); ++i)
        expect_bytes(mul, g.scalar_mults[i].second.data(), got[i].data(), 32, label + " scalar " + to_hex(ks[i]) + " times H" + reproduce);
    }
    // Search: a window across the 2^32 boundary of nonces (a kernel that splits the nonce into 32-bit words
    // carries there), with x mod L, against the golden model; then the target tied to a hit's score (a hit
    // iff score < target: the tied nonce must not be reported, every nonce below it must).
    if (!e.search) row.checks[6].lacks("search");
    else {
      const Job job = make_jobs({}, 2, "")[1];  // the second fixed key: searches with x mod L
      const uint64_t lo = (uint64_t(1) << 32) - 48, count = 96, target = uint64_t(1) << 62;
      std::vector<uint64_t> nonces(count);
      for (uint64_t i = 0; i < count; ++i) nonces[i] = lo + i;
      const auto betas = golden_job_betas(G::vrf_key(job.sk), job.header, nonces);
      auto truth = [&](uint64_t t) {
        std::vector<Hit> want;
        for (uint64_t i = 0; i < count; ++i)
          if (betas[i] && G::score(*betas[i]) < t) want.push_back({lo + i, G::score(*betas[i])});
        return want;
      };
      // The difference of two hit lists: what only `got` has, then what only `want` has (nonce:score).
      auto diff = [](const std::vector<Hit>& got, const std::vector<Hit>& want) {
        auto only = [](const std::vector<Hit>& a, const std::vector<Hit>& b) {
          std::string s;
          for (const Hit& h : a)
            if (std::none_of(b.begin(), b.end(), [&](const Hit& x) { return x.nonce == h.nonce && x.score == h.score; }))
              s += (s.empty() ? "" : " ") + std::to_string(h.nonce) + ":" + std::to_string(h.score);
          return "{" + s + "}";
        };
        return std::to_string(got.size()) + " hits, want " + std::to_string(want.size()) + "; reported, not hits: " + only(got, want) +
               "; hits not reported: " + only(want, got);
      };
      auto same = [](const std::vector<Hit>& a, const std::vector<Hit>& b) {
        return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](const Hit& x, const Hit& y) {
                 return x.nonce == y.nonce && x.score == y.score;
               });
      };
      std::vector<uint64_t> targets = {target};
      const auto base = truth(target);
      if (!base.empty()) targets.push_back(base[base.size() / 2].score);  // tied to a hit's score
      for (uint64_t t : targets) {
        const auto want = truth(t), got = plugin_search(im, job, lo, count, t);
        srch.check(same(got, want), label + " search [" + std::to_string(lo) + ", +" + std::to_string(count) + ") target " +
                                        std::to_string(t) + (t == target ? "" : " (tied to a hit's score)") + ": " + diff(got, want) + reproduce);
      }
    }
    rep.rows.push_back(std::move(row));
  }
}

}  // namespace bx::ecvrf_family
