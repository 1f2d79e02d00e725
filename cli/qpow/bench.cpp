// bitexact bench qpow: MH/s per variant in interleaved rounds on random headers and nonces, parity of
// every hit list on every round (against qpow/plain on the same place), the device ceiling measured in
// the same run, registers and local memory per kernel; the lossy engine side by side.
#include <algorithm>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <random>

#include "cli/json_out.hpp"
#include "cli/bench_harness.hpp"
#include "cli/bench_record.hpp"
#include "cli/qpow/qpow.hpp"
#include "gpu/kernels/device.hpp"
#if defined(BX_HAVE_CUDA)
#include "gpu/kernels/qpow_kernels.hpp"
#endif

namespace bx::qpow {

int run_bench(const RunContext& ctx, BenchOptions o) {
  std::vector<Variant> vs;
  for (int k = 0; k < kVariantCount; ++k) vs.push_back(Variant(k));
  auto all = impls(vs, ctx.devices);
  // --plugin: timed beside the built-in variants, same rounds, same parity
  for (Impl& im : timeable(plugin_impls(ctx.devices), "search", [](const Impl& im) { return bool(im.search); }))
    all.push_back(std::move(im));
  if (all.empty()) throw InputError("bench qpow: nothing runs on the selected devices");
  std::mt19937_64 rng(o.seed);
  const Int target = ref::qpow::target_of(Int(o.difficulty));
  std::vector<Contender<std::vector<uint64_t>>> cs;
  std::vector<SearchRequest> rounds(size_t(ctx.rounds));
  for (auto& rq : rounds) {
    for (auto& b : rq.header) b = uint8_t(rng());
    U512 lo{};
    for (int i = 0; i < 16; ++i) lo.limb[i] = uint32_t(rng());
    lo.limb[1] = 0;  // the range stays inside one 2^64 block (no batch split in the timing)
    rq.lo = lo;
    const Hash8 t = to_words(target);
    std::copy(t.begin(), t.end(), rq.target);
  }
  for (const Impl& im : all) {
    const uint64_t n = im.device < 0 ? std::min<uint64_t>(o.nonces, 1 << 12) : o.nonces;
    cs.push_back({im.label(), [&, im, n](int r, double& secs) {
                    SearchRequest rq = rounds[size_t(r)];
                    rq.count = n;
                    return im.search(rq, &secs);
                  },
                  im.where});
  }
  // Parity: per place, every exact row's hit list equals the reference row's: plain where this build has
  // it there, else the first exact built-in variant (BX_QPOW_KERNELS=one builds hold gl2x32-ptx alone on a
  // GPU); lossy lists are counted, not judged. A place with one exact row has nothing to compare: said.
  std::map<std::string, size_t> ref_of;  // where -> index of its reference row
  for (size_t k = 0; k < all.size(); ++k) {
    if (all[k].lossy || !all[k].builtin()) continue;
    auto it = ref_of.find(all[k].where);
    if (it == ref_of.end() || (all[k].variant == Variant::plain && all[it->second].variant != Variant::plain)) ref_of[all[k].where] = k;
  }
  for (auto& [where, k] : ref_of) {
    size_t others = 0;
    for (size_t j = 0; j < all.size(); ++j) others += j != k && !all[j].lossy && all[j].where == where;
    std::printf("parity on %s: every exact row against %s%s\n", where.c_str(), all[k].label().c_str(),
                others ? "" : " (no other exact row there: nothing to compare)");
  }
  auto parity = [&](int, const std::vector<std::vector<uint64_t>>& outs) {
    std::vector<std::string> bad;
    for (size_t k = 0; k < all.size(); ++k) {
      if (all[k].lossy || !ref_of.count(all[k].where)) continue;
      const size_t j = ref_of.at(all[k].where);
      if (j != k && outs[j] != outs[k])
        bad.push_back(all[k].label() + ": " + std::to_string(outs[k].size()) + " hits, " + all[j].label() + " " + std::to_string(outs[j].size()));
    }
    return bad;
  };
  const RoundTimes t = run_interleaved<std::vector<uint64_t>>(ctx.rounds, cs, parity);
  // The device ceilings, measured in this run after the rounds: the 64x64->128 multiply rate and the
  // IMAD issue rate. A nonce needs at least kMulsPerNonce field multiplies (π3 + π4 of the ladder), each
  // four 32x32 -> 64 partial products on gl2x32, IMAD.WIDE, two issue slots each on the pipe the IMAD
  // ceiling (one-slot mad.lo.u32) measures: 8 slots per multiply. A row's fractions are its MH/s times
  // those counts over the ceilings (the useful work's share: variants doing more work, plain first, score lower).
  constexpr double kMulsPerNonce = 1472;
  std::map<int, std::pair<double, double>> ceiling;  // device -> (IMAD/s, multiplies/s)
#if defined(BX_HAVE_CUDA)
  for (int dev : ctx.devices.gpus) ceiling[dev] = {kern::imad_ceiling(dev), kern::mul64x64_ceiling(dev)};
#endif
  std::vector<BenchRow> rows;
  int w = 40;  // the name column, as wide as the longest label
  for (const Impl& im : all) w = std::max(w, int(im.label().size()));
  std::printf("%-*s %10s %9s %8s %8s %6s %7s\n", w, "implementation", "MH/s", "vs plain", "%mul", "%IMAD", "regs", "local");
  double plain_rate = 0;
  for (const Impl& im : all) {
    const uint64_t n = im.device < 0 ? std::min<uint64_t>(o.nonces, 1 << 12) : o.nonces;
    const double s = median(t.seconds.at(im.label()));
    const double rate = s > 0 ? double(n) / s / 1e6 : 0;
    if (im.builtin() && im.variant == Variant::plain) plain_rate = rate;
    int regs = -1;
    size_t local = 0;
#if defined(BX_HAVE_CUDA)
    if (im.device >= 0 && im.builtin()) {
      const auto ki = kern::qpow_kernel_info(im.variant);
      regs = ki.registers, local = ki.local_bytes;
    }
#endif
    double of_mul = -1, of_imad = -1;  // -1: a CPU row, no device ceiling
    if (ceiling.count(im.device)) {
      const auto [imad, mul128] = ceiling.at(im.device);
      of_mul = 100 * rate * 1e6 * kMulsPerNonce / mul128;
      of_imad = 100 * rate * 1e6 * kMulsPerNonce * 8 / imad;
    }
    char fr[40] = "       -        -", kr[24] = "     -       -";  // CPU rows: no ceiling, no kernel
    if (of_mul >= 0) std::snprintf(fr, sizeof fr, "%7.1f%% %7.1f%%", of_mul, of_imad);
    if (regs >= 0) std::snprintf(kr, sizeof kr, "%6d %7zu", regs, local);
    char vs[16] = "        -";  // no plain row in this build (BX_QPOW_KERNELS=one on a GPU): no ratio
    if (plain_rate > 0) std::snprintf(vs, sizeof vs, "%8.2fx", rate / plain_rate);
    std::printf("%-*s %10.2f %s %s %s%s\n", w, im.label().c_str(), rate, vs, fr, kr,
                im.lossy ? "  (characterised)" : im.builtin() ? "" : "  (plugin)");
    BenchRow row{im.name, im.where, im.origin(), "", "MH/s",
                 per_round_rates(t.seconds.at(im.label()), double(n), 1e6)};
    row.windows = t.windows.at(im.label());
    row.detail = {{"contract", im.lossy ? "characterised" : "bit-exact"}};
    if (regs >= 0) row.detail["registers"] = regs, row.detail["local_bytes"] = local;
    if (of_mul >= 0) row.detail["pct_mul64x64_ceiling"] = of_mul, row.detail["pct_imad_ceiling"] = of_imad;
    rows.push_back(std::move(row));
  }
  for (const auto& [dev, c] : ceiling) {
    std::printf("gpu%d ceilings measured in this run: IMAD %.2f T/s, 64x64->128 multiplies %.3f T/s\n", dev, c.first / 1e12,
                c.second / 1e12);
    std::printf("  (a nonce costs %.0f field multiplies: the multiply ceiling alone allows %.0f MH/s; %%IMAD counts 4 IMAD.WIDE\n"
                "  partial products per multiply at 2 issue slots each; local = local memory per thread: call frames and spills)\n",
                kMulsPerNonce, c.second / kMulsPerNonce / 1e6);
  }
  std::printf("parity on every round: %s\n", t.parity ? "OK" : "FAILED");
  std::map<std::string, nlohmann::ordered_json> ceilings;
  for (const auto& [dev, c] : ceiling) ceilings["gpu" + std::to_string(dev)] = {{"imad_per_s", c.first}, {"mul64x64_per_s", c.second}};
  put_bench("qpow", ctx.rounds, t.parity, ceilings, rows);
  if (ctx.json) json_out::put({"seeds", "bench qpow"}, o.seed);
  return t.parity ? 0 : 1;
}

}  // namespace bx::qpow
