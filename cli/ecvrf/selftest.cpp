// ecvrf selftest: every layout x scalar strategy (the per-item pipeline of gpu/ecvrf, run on the CPU)
// against the golden model (reference/ecvrf): RFC 9381 Examples 16-18 end to end with x and x mod L
// (ctr, H, Gamma, 8 Gamma, beta), the spec 9 worked nonces and random nonces of the search job, the
// spec 2.3 decoder table and random strings through the strict decoder, encoding of coordinates held
// non-canonically (the parity class), batch inversion with zeros, and the strategy on the spec 3
// extremal scalars. Once on the host: SHA-512 of every length 0..300 with both schedules against OpenSSL.
// The GPU rows (every compiled kernel pipeline) are in selftest_gpu.cpp.
// Every comparison is of canonical bytes (encodings, beta); a mismatch prints both in hex.
#include <array>
#include <string>
#include <vector>

#include "cli/ecvrf/ecvrf.hpp"
#include "suite/hex.hpp"
#include "gpu/ecvrf/batch_invert.hpp"
#include "gpu/ecvrf/tai.hpp"
#include "gpu/field25519/layouts.hpp"
#include "reference/ecvrf/vrf.hpp"
#include "cli/ecvrf/golden.hpp"

namespace bx::ecvrf_family {
namespace {

template <class F, class S>
void run_rows_of(const Golden& g, const std::string& label, SelftestRow& row) {
  using fe = typename F::fe;
  TallyCheck rfc{row.checks[0]}, job{row.checks[1]}, dec{row.checks[2]}, enc{row.checks[3]}, inv{row.checks[4]},
      mul{row.checks[5]};
  // Any exception (a recoding that does not reconstruct its scalar throws) is a failed check, never a crash.
  const auto guarded = [&](TallyCheck& c, const std::string& what, auto&& body) {
    try {
      body();
    } catch (const std::exception& e) {
      c.check(false, label + " " + what + ": " + e.what());
    }
  };
  for (size_t i = 0; i < g.runs.size(); ++i) {
    const Golden::Run& r = g.runs[i];
    TallyCheck& c = i < g.rfc_runs ? rfc : job;
    guarded(c, r.what, [&] {
      const typename S::digits x = S::recode(r.scalar);
      uint8_t beta[64];
      ecvrf::EcvrfTrace t{};
      const bool has = ecvrf::ecvrf_beta_alpha<F, S>(beta, r.pk.data(), r.alpha.data(), int(r.alpha.size()), x, &t);
      // The miner kernels' cofactor-folded form of the same attempt: same ctr, same beta.
      uint8_t beta_folded[64];
      ecvrf::H2cBlock m;
      ecvrf::h2c_block_alpha(m, r.pk.data(), r.alpha.data(), int(r.alpha.size()));
      const int ctr_folded = ecvrf::ecvrf_beta_block_folded<F, S>(beta_folded, m, S::recode(ecvrf::cofactor_folded_scalar(r.scalar)));
      c.check(ctr_folded == r.ctr, label + " " + r.what + " (cofactor folded): ctr " + std::to_string(ctr_folded) +
                                       ", want " + std::to_string(r.ctr));
      if (r.ctr >= 0) expect_bytes(c, r.beta.data(), beta_folded, 64, label + " " + r.what + " (cofactor folded): beta");
      c.check(has == (r.ctr >= 0) && t.ctr == r.ctr,
              label + " " + r.what + ": ctr " + std::to_string(t.ctr) + ", want " + std::to_string(r.ctr));
      if (!has || r.ctr < 0) return;
      const std::string at = label + " " + r.what + ": ";
      expect_bytes(c, r.h.data(), t.h, 32, at + "H");
      expect_bytes(c, r.gamma.data(), t.gamma, 32, at + "Gamma");
      expect_bytes(c, r.gamma8.data(), t.gamma8, 32, at + "8 Gamma");
      expect_bytes(c, r.beta.data(), beta, 64, at + "beta");
    });
  }
  for (const auto& d : g.decodes) {
    ecvrf::ge_ext<F> P;
    const ecvrf::DecodeStatus st = ecvrf::ge_decode<F>(P, d.s.data());
    std::string got = ecvrf::decode_status_name(st);
    if (st == ecvrf::DecodeStatus::valid) {
      uint8_t e[32];
      ecvrf::ge_encode<F>(e, P);
      got = to_hex(e, 32);
    }
    dec.check(got == d.want, label + " decode " + to_hex(d.s) + ": got " + got + ", want " + d.want);
    // TAI's verdict on the string as a candidate, spec form (8P, identity test) and folded form (y test).
    ecvrf::ge_ext<F> H;
    const bool by_h = ecvrf::candidate_to_h<F>(H, d.s.data()), by_p = ecvrf::candidate_to_p<F>(P, d.s.data());
    const auto yn = [](bool b) { return std::string(b ? "taken" : "skipped"); };
    dec.check(by_h == d.tai_point, label + " TAI candidate " + to_hex(d.s) + " (8P): " + yn(by_h) + ", want " + yn(d.tai_point));
    dec.check(by_p == d.tai_point,
              label + " TAI candidate " + to_hex(d.s) + " (cofactor folded, small-order y): " + yn(by_p) + ", want " +
                  yn(d.tai_point));
  }
  for (const auto& e : g.encodes) {
    ecvrf::ge_ext<F> P;
    F::from_bytes(P.X, e.x_bytes.data());
    F::from_bytes(P.Y, e.y_bytes.data());
    f25519::fe_set_small<F>(P.Z, 1);
    F::mul(P.T, P.X, P.Y);
    uint8_t out[32];
    ecvrf::ge_encode<F>(out, P);
    expect_bytes(enc, e.want.data(), out, 32, label + " encode with X = " + to_hex(e.x_bytes) + " (x + p)");
  }
  for (const auto& set : g.inversions) {
    fe in[8], out[8];
    for (size_t j = 0; j < set.size(); ++j) F::from_bytes(in[j], set[j].data());
    switch (set.size()) {
      case 1: ecvrf::fe_batch_invert<F, 1>(out, in); break;
      case 2: ecvrf::fe_batch_invert<F, 2>(out, in); break;
      case 4: ecvrf::fe_batch_invert<F, 4>(out, in); break;
      default: ecvrf::fe_batch_invert<F, 8>(out, in); break;
    }
    for (size_t j = 0; j < set.size(); ++j) {
      uint8_t got[32];
      F::to_bytes(got, out[j]);
      const Bytes32 want = bytes_of(ref::f25519::invert(ref::f25519::raw_value(set[j])));
      expect_bytes(inv, want.data(), got, 32,
                   label + " batch inversion of " + std::to_string(set.size()) + ", item " + std::to_string(j));
    }
  }
  ecvrf::ge_ext<F> H;
  ecvrf::ge_decode<F>(H, g.h_point.data());
  for (const auto& [k, want] : g.scalar_mults)
    guarded(mul, "scalar " + to_hex(k), [&] {
      ecvrf::ge_ext<F> R;
      S::template mul<F>(R, H, S::recode(k));
      uint8_t got[32];
      ecvrf::ge_encode<F>(got, R);
      expect_bytes(mul, want.data(), got, 32, label + " " + S::name + " scalar " + to_hex(k) + " times H");
    });
}

}  // namespace

SelftestReport selftest(const SelftestOptions& opt) {
  SelftestReport rep;
  const Golden g = make_golden(opt.full, opt.seed);
  rep.notes.push_back("RFC 9381 Examples 16-18 (x and x mod L), " + std::to_string(g.runs.size() - g.rfc_runs) +
                      " job nonces, " + std::to_string(g.decodes.size()) + " decodes, " + std::to_string(g.encodes.size()) +
                      " non-canonical encodings, " + std::to_string(g.inversions.size()) + " batch inversions, " +
                      std::to_string(g.scalar_mults.size()) + " extremal scalars (seed " + std::to_string(opt.seed) + ")");
  // SHA-512 device code (both schedules) against OpenSSL, lengths 0..300 (111, 112, 239, 240 among them).
  Tally sha{"sha512 lengths 0..300 (rolling and 80-word schedules)"};
  TallyCheck sc{sha};
  std::vector<uint8_t> msg(300);
  for (size_t i = 0; i < msg.size(); ++i) msg[i] = uint8_t(i * 131 + 7);
  for (uint32_t len = 0; len <= 300; ++len) {
    const Bytes64 want = G::sha512(std::span<const uint8_t>(msg.data(), len));
    uint8_t a[64], b[64];
    ecvrf::sha512<true>(a, msg.data(), len);
    ecvrf::sha512<false>(b, msg.data(), len);
    expect_bytes(sc, want.data(), a, 64, "sha512 (rolling schedule) length " + std::to_string(len));
    expect_bytes(sc, want.data(), b, 64, "sha512 (80-word schedule) length " + std::to_string(len));
  }
  rep.host_checks.push_back(sha);
  // The miner kernels' cofactor-folded scalar t = 8k mod L against the golden model's.
  Tally fold{"cofactor-folded scalars 8k mod L"};
  TallyCheck fc{fold};
  for (const auto& [k, want] : g.folded_scalars) {
    try {
      const ecvrf::Scalar t = ecvrf::cofactor_folded_scalar(k);
      expect_bytes(fc, want.data(), t.data(), 32, "cofactor-folded scalar of " + to_hex(k));
    } catch (const std::exception& e) {
      fc.check(false, "cofactor-folded scalar of " + to_hex(k) + ": " + e.what());
    }
  }
  rep.host_checks.push_back(fold);
  for_each_host_variant([&]<class F, class S>() {
    const std::string v = host_variant_name<F, S>();
    if (!opt.devices.cpu || !opt.wants(v)) return;
    SelftestRow row{v, "cpu", {{"rfc9381"}, {"job"}, {"decode"}, {"encode"}, {"batch-inv"}, {"scalars"}}};
    run_rows_of<F, S>(g, v + "@cpu", row);
    rep.rows.push_back(std::move(row));
  });
  gpu_rows(opt, g, rep);
  plugin_rows(opt, g, rep);
  return rep;
}

}  // namespace bx::ecvrf_family
