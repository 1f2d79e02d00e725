// bitexact bench q8parity: GB/s of Q8_0 weights read per matvec variant and token count, in interleaved
// rounds (cli/bench_harness.hpp) on a matrix several times the L2, with every output of every round
// compared bitwise with the CPU reference (the negative control must differ); the median of the paired
// per-round ratios against the canonical variant (nr1/unpacked/unrolled), the figure kernel authors compare; and
// the device's own memory bandwidth (a device-to-device copy) measured in the same run.
#include <algorithm>
#include <cstdio>
#include <memory>

#include "cli/json_out.hpp"
#include "cli/bench_harness.hpp"
#include "cli/bench_record.hpp"
#include "cli/q8parity/q8parity.hpp"
#if defined(BX_HAVE_CUDA)
#include "gpu/kernels/q8parity_kernels.hpp"
#endif

namespace bx::q8parity {

int run_bench(const RunContext& ctx, const BenchOptions& o) {
  const std::vector<int> devices = place_devices(ctx.devices);
  if (devices.empty()) throw InputError("bench q8parity: no device selected");
  const int max_tok = *std::max_element(o.ntoks.begin(), o.ntoks.end());
  if (ctx.devices.gpus.empty() && o.rows * o.k > (size_t(1) << 22))
    throw InputError("bench q8parity: on the CPU at most rows * K = 2^22 (--rows 1024 --k 4096)");
  const MatvecInput in = random_matvec(0xbe7c, o.rows, o.k, max_tok, false);
  if (!ctx.quiet) std::fprintf(stderr, "bench q8parity: CPU reference for the parity checks...\n");
  const std::vector<float> ref_all = reference_matvec_parallel(in);
  const double weight_bytes = double(in.w.size());
  std::printf("bench q8parity: %zu rows x K %zu (%.1f MB of Q8_0 weights), %d rounds\n", o.rows, o.k, weight_bytes / 1e6,
              ctx.rounds);
  // Every matvec implementation, built-in variants and plugins: the same input, rounds and parity (by its
  // contract: bitwise, must differ, or within a characterised plugin's NMSE bound). A device plugin's time
  // is its call alone, not the copies; a built-in kernel's, its launches on the weights resident on the card.
  const std::vector<Impl> all = timeable(impls(parse_variants({"matvec"}), ctx.devices), "matvec", [](const Impl& im) { return bool(im.matvec); });
  std::vector<BenchRow> bench_rows;
  std::map<std::string, nlohmann::ordered_json> ceilings;
  bool parity = true;
  for (const int device : devices) {
    const std::string where = suite::Implementation::place_of(device);
    double copy_bw = 0;
#if defined(BX_HAVE_CUDA)
    std::unique_ptr<kern::Q8MatvecOnDevice> dev;
    if (device >= 0) {
      copy_bw = kern::q8_copy_bandwidth(device, size_t(1) << 30);
      dev = std::make_unique<kern::Q8MatvecOnDevice>(device, in.w.data(), in.rows, in.k, in.x.data(), max_tok);
      ceilings[where] = {{"copy_bytes_per_s", copy_bw}};
      std::printf("%s %s: device-to-device copy %.0f GB/s (bytes read + written)\n", where.c_str(),
                  kern::device_name(device).c_str(), copy_bw / 1e9);
    }
#endif
    std::printf("%-42s %-5s %4s %9s %8s %10s %6s %6s\n", "variant", "place", "ntok", "GB/s", "of copy", "vs nr1/unp", "regs",
                "local");
    for (int t : o.ntoks) {
      const MatvecInput tin = first_tokens(in, t);
      const std::vector<float> want(ref_all.begin(), ref_all.begin() + std::ptrdiff_t(size_t(t) * o.rows));
      // The rows: every matvec implementation on this place (built-in variants first), each where it runs.
      std::vector<const Impl*> rows;
      std::vector<Contender<std::vector<float>>> cs;
      for (const Impl& im : all) {
        if (im.where != where) continue;
        if (const std::string why = im.not_in_build(t); !why.empty()) {
          std::printf("%-42s %-5s %4d  not timed: %s\n", im.name.c_str(), where.c_str(), t, why.c_str());
          continue;
        }
        rows.push_back(&im);
        cs.push_back({im.name, [&](int, double& secs) {
#if defined(BX_HAVE_CUDA)
                        if (dev && im.builtin()) {
                          double s = 0;
                          auto y = dev->run(im.variant, t, kPoison, o.reps, &s);
                          secs += s / o.reps;
                          return y;
                        }
#endif
                        return im.matvec(tin, &secs);
                      },
                      where});
      }
      const RoundTimes rt = run_interleaved<std::vector<float>>(ctx.rounds, cs, [&](int, const std::vector<std::vector<float>>& outs) {
        std::vector<std::string> problems;
        for (size_t i = 0; i < outs.size(); ++i) {
          const Diff d = diff(outs[i], want);
          const Impl& r = *rows[i];
          const std::string nmse = r.characterised() ? nmse_problem(outs[i], want, r.nmse_bound) : "";
          if (r.negative() ? !judge_control(outs[i], want).ok() : r.characterised() ? !nmse.empty() : !d.same())
            problems.push_back(r.name + " ntok " + std::to_string(t) + ": " + (nmse.empty() ? describe(d, o.rows) : nmse));
        }
        return problems;
      });
      parity = parity && rt.parity;
      // The canonical order's kernel is the ratio's base (absent from a one-kernel build at some ntok: no ratio)
      const auto bit = rt.seconds.find(kVariants[q8::kMatvecCanonical].name);
      for (const Impl* row : rows) {
        const auto& s = rt.seconds.at(row->name);
        std::vector<double> ratios;
        if (bit != rt.seconds.end())
          for (size_t r = 0; r < s.size(); ++r) ratios.push_back(s[r] / bit->second[r]);
        const double med = median(s), gbs = med > 0 ? weight_bytes / med : 0, ratio = median(ratios);
        int regs = -1;
        size_t local = 0;
#if defined(BX_HAVE_CUDA)
        if (device >= 0 && row->builtin()) {
          const auto info = kern::q8_kernel_info(row->variant, kVariants[row->variant].unrolled ? t : 0);
          regs = info[0].registers, local = info[0].local_bytes;
        }
#endif
        char frac[16] = "-", rg[16] = "-", lb[16] = "-";
        if (copy_bw > 0) std::snprintf(frac, sizeof frac, "%.1f%%", 100.0 * gbs / copy_bw);
        if (regs >= 0) std::snprintf(rg, sizeof rg, "%d", regs), std::snprintf(lb, sizeof lb, "%zu", local);
        std::printf("%-42s %-5s %4d %9.1f %8s %10.3f %6s %6s\n", row->name.c_str(), where.c_str(), t, gbs / 1e9, frac, ratio,
                    rg, lb);
        BenchRow br{row->name, where, row->origin(), "ntok " + std::to_string(t),
                    "GB/s", per_round_rates(s, weight_bytes, 1e9)};
        br.windows = rt.windows.at(row->name);
        if (device >= 0 && row->builtin())  // a window holds o.reps launches; the seconds were per launch
          for (RunWindow& w : br.windows) w.busy *= o.reps;
        br.detail = {{"fraction_of_copy", copy_bw > 0 ? gbs / copy_bw : 0.0}, {"median_ratio_vs_canonical", ratio},
                     {"registers", regs}, {"local_bytes", local}};
        bench_rows.push_back(std::move(br));
      }
    }
  }
  std::printf("parity on every round: %s\n", parity ? "OK" : "FAILED");
  put_bench("q8parity", ctx.rounds, parity, ceilings, bench_rows);
  if (ctx.json) json_out::put({"seeds", "bench q8parity"}, uint64_t(0xbe7c));
  return parity ? 0 : 1;
}

}  // namespace bx::q8parity
