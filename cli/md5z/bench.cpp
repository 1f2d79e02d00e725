// `bitexact bench md5z`: every variant in interleaved rounds (the order rotates each round) on a fresh
// random base per round, the same candidates for all; parity of the hit lists on every round and every
// hit re-hashed with OpenSSL. Rates are set against the integer-ALU issue ceiling measured here.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>

#include "cli/bench_harness.hpp"
#include "cli/bench_record.hpp"
#include "cli/json_out.hpp"
#include "cli/md5z/md5z.hpp"
#include "cli/md5z/sass_path.hpp"
#if defined(BX_HAVE_CUDA)
#include "gpu/kernels/md5z_kernels.hpp"
#endif

namespace bx::md5z {

int run_bench(const RunContext& ctx, BenchOptions o) {
  const DeviceSelection& devices = ctx.devices;
  if (devices.gpus.empty() && o.candidates > (uint64_t(1) << 24)) o.candidates = uint64_t(1) << 24;  // CPU: 2e7 cand/s per core
  std::vector<Impl> list = impls(md5::all_variants(), devices);
  // beside the built-in variants, the same rounds and parity
  for (Impl& im : timeable(plugin_impls(devices), "search", [](const Impl& im) { return bool(im.search); })) list.push_back(std::move(im));
  if (list.empty()) throw InputError("bench md5z: nothing selected");
  double ceiling = 0;
#if defined(BX_HAVE_CUDA)
  if (!devices.gpus.empty()) ceiling = kern::ialu_ceiling(devices.gpus[0]);
#endif
  std::printf("bench md5z: %d rounds, %.4g candidates per variant per round, threshold %d, base seed %llu + round\n",
              ctx.rounds, double(o.candidates), o.threshold, (unsigned long long)o.seed);
  const double expected = double(o.candidates) * std::pow(16.0, -o.threshold);
  if (expected < 8)
    std::printf("note: about %.2g hits per round expected: parity compares nearly empty lists (lower --threshold)\n", expected);
  if (ceiling > 0) std::printf("int32 ALU issue ceiling (LOP3 microbenchmark, gpu%d): %.2f T ops/s\n", devices.gpus[0], ceiling / 1e12);
  // A fresh random base per round, the same for every contender of the round.
  auto base_of = [&](int round) { return ref::md5z::make_base(o.seed + uint64_t(round)); };
  std::vector<Contender<std::vector<uint64_t>>> cs;
  for (auto& im : list)
    cs.push_back({im.label(), [&im, &o, base_of](int round, double& secs) {
                    return im.search(prepare(base_of(round), "bench base"), 0, o.candidates, o.threshold, &secs);
                  },
                  im.where});
  auto parity = [&](int round, const std::vector<std::vector<uint64_t>>& got) {
    std::vector<std::string> bad;
    ref::md5z::CandidateHasher h(base_of(round));
    size_t wrong = 0;
    for (uint64_t hit : got[0]) wrong += h.zeros(md5::hit_index(hit)) != md5::hit_zeros(hit);
    if (wrong) bad.push_back(std::to_string(wrong) + " hits of " + list[0].label() + " disagree with OpenSSL");
    const double expected = double(o.candidates) * std::pow(16.0, -o.threshold);
    if (expected >= 8 && got[0].empty())  // parity of empty lists proves nothing
      bad.push_back("no hit where about " + std::to_string(int(expected)) + " are expected");
    for (size_t j = 1; j < list.size(); ++j)
      if (got[j] != got[0])
        bad.push_back(list[j].label() + " reports " + std::to_string(got[j].size()) + " hits, " + list[0].label() + " " +
                      std::to_string(got[0].size()) + " (different lists)");
    std::printf("round %d: %zu hits, parity %s\n", round, got[0].size(), bad.empty() ? "OK" : "FAILED");
    return bad;
  };
  const RoundTimes rt = run_interleaved<std::vector<uint64_t>>(ctx.rounds, cs, parity);
  const bool parity_ok = rt.parity;
  std::map<std::string, std::vector<double>> rate;
  for (auto& [label, secs] : rt.seconds)
    for (double sec : secs) rate[label].push_back(double(o.candidates) / sec);
  const auto sass = sass_common_paths();
  std::printf("\n%-32s %10s %10s %10s %12s %16s %10s %6s %6s\n", "variant", "G cand/s", "min", "vs plain", "slots/cand",
              "SASS/cand a+f", "% ALU ceil", "regs", "local");
  std::vector<BenchRow> rows;
  std::string best;
  double best_rate = 0;
  for (auto& im : list) {
    const double med = median(rate[im.label()]);
    const double mn = *std::min_element(rate[im.label()].begin(), rate[im.label()].end());
    const std::string plain_label = std::string("md5z/plain@") + im.where;
    const double ratio = rate.count(plain_label) ? med / median(rate[plain_label]) : 0;
    int regs = -1;
    size_t local = 0;
#if defined(BX_HAVE_CUDA)
    if (im.device >= 0 && im.builtin()) {
      auto ki = kern::md5z_kernel_info(im.variant);
      regs = ki.registers;
      local = ki.local_bytes;
    }
#endif
    const bool gpu = im.device >= 0;
    const double slots = gpu && ceiling > 0 ? ceiling / med : 0;
    const auto it = im.builtin() ? sass.find(int(im.variant)) : sass.end();
    const SassPath loop = gpu && it != sass.end() ? it->second : SassPath{};
    const double n = loop.candidates;  // per candidate: the loop's counts over the candidates one pass takes
    const struct {
      double total, alu, fma;
    } sp{loop.total / n, loop.alu / n, loop.fma / n};
    const double frac = sp.alu > 0 && ceiling > 0 ? med * sp.alu / ceiling : 0;
    char s1[32] = "-", s2[64] = "-", s3[32] = "-";
    if (slots) std::snprintf(s1, sizeof s1, "%.1f", slots);
    if (sp.total > 0) std::snprintf(s2, sizeof s2, "%.4g (%.4g+%.4g)", sp.total, sp.alu, sp.fma);
    if (frac) std::snprintf(s3, sizeof s3, "%.1f%%", 100 * frac);
    std::printf("%-32s %10.2f %10.2f %9.2fx %12s %16s %10s %6d %6zu\n", im.label().c_str(), med / 1e9, mn / 1e9, ratio, s1, s2,
                s3, regs, local);
    if (!(im.builtin() && im.variant == md5::kPlain) && med > best_rate) best_rate = med, best = im.label();
    BenchRow row{im.name, im.where, im.origin(), "",
                 "G cand/s", per_round_rates(rt.seconds.at(im.label()), double(o.candidates), 1e9)};
    row.windows = rt.windows.at(im.label());
    row.detail = {{"vs_plain", ratio}, {"issue_slots_per_candidate", slots},
                  {"sass_common_path", {{"total", sp.total}, {"alu", sp.alu}, {"fma", sp.fma}}}, {"fraction_of_ceiling", frac},
                  {"registers", regs}, {"local_bytes", local}};
    rows.push_back(std::move(row));
  }
  if (sass.empty()) std::printf("(SASS/cand: cuobjdump not found on PATH)\n");
  std::printf("slots/cand = ALU issue ceiling / rate; SASS/cand = instructions on the common path (cuobjdump) over the\n"
              "candidates one pass takes, a+f = ALU-pipe + FMA-pipe ones; %% ALU ceil = rate x ALU-pipe instructions / ceiling\n");
  std::printf("best tunnel variant: %s at %.2f G candidates/s; parity on every round: %s\n", best.c_str(), best_rate / 1e9,
              parity_ok ? "OK" : "FAILED");
  std::map<std::string, nlohmann::ordered_json> ceilings;
  if (ceiling > 0) ceilings["gpu" + std::to_string(devices.gpus[0])] = {{"ialu_ops_per_s", ceiling}};
  put_bench("md5z", ctx.rounds, parity_ok, ceilings, rows);
  if (ctx.json) json_out::put({"seeds", "bench md5z"}, o.seed);
  return parity_ok ? 0 : 1;
}

}  // namespace bx::md5z
