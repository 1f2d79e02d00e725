// `bitexact bench field25519`: mul and sqr chains per implementation in interleaved rounds.
#include "cli/bench_harness.hpp"
#include "cli/bench_record.hpp"
#include "cli/json_out.hpp"
#include "cli/field25519/family_parts.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>

#include "gpu/field25519/bench_chain.hpp"
#include "gpu/field25519/draw.hpp"
#include "reference/field25519/ref25519.hpp"
#if defined(BX_HAVE_CUDA)
#include "gpu/kernels/field25519_kernels.hpp"
#endif

namespace bx::field25519 {
using f25519::Op;
namespace R = ref::f25519;

namespace {

// The expected canonical x after `iters` steps of f25519::bench_chain_step from thread t's start values.
Bytes32 expected_chain(Op op, uint64_t seed, uint64_t t, int iters) {
  Bytes32 a, b;
  f25519::draw_operand(a.data(), seed, t, 0);
  f25519::draw_operand(b.data(), seed, t, 1);
  const ref::Int x = R::raw_value(a), y = R::raw_value(b);
  const auto& F = R::field();
  if (op == Op::mul) {
    const ref::Int order = R::p() - 1;  // exponents mod p - 1
    ref::Int f0 = 0, f1 = 1;            // F(n), F(n+1)
    for (int k = 0; k < iters; ++k) {
      ref::Int f2 = (f0 + f1) % order;
      f0 = f1;
      f1 = f2;
    }
    // F(n), F(n+1) >= 1 for n >= 1, so a zero operand gives 0 even where its exponent is 0 mod p - 1.
    return R::encode(F.mul(F.pow(x, f1 == 0 ? order : f1), F.pow(y, f0 == 0 ? order : f0)));
  }
  return R::encode(F.pow(x, ref::Int(1) << iters));
}

template <class F>
void host_chain(Op op, uint64_t seed, size_t threads, int iters, std::vector<uint8_t>& out) {
  out.resize(32 * threads);
  for (size_t t = 0; t < threads; ++t) {
    uint8_t a[32], b[32];
    f25519::draw_operand(a, seed, t, 0);
    f25519::draw_operand(b, seed, t, 1);
    typename F::fe x, y;
    F::from_bytes(x, a);
    F::from_bytes(y, b);
    for (int k = 0; k < iters; ++k) {
      f25519::bench_chain_step<F>(op == Op::sqr, x, y);
    }
    F::to_bytes(&out[32 * t], x);
  }
}

// Operand `slot` of thread t as canonical bytes (the draw's bits 0..254 reduced by the reference): what a
// plugin's bench_chain is promised; the same field element the built-in runners start from.
Bytes32 canonical_operand(uint64_t seed, uint64_t t, uint32_t slot) {
  Bytes32 s;
  f25519::draw_operand(s.data(), seed, t, slot);
  s[31] &= 0x7f;
  return R::encode(R::raw_value(s));
}

// A plugin's bench_chain as a runner: the inputs built outside the timed call, the call's own seconds.
std::function<double(Op, uint64_t, std::vector<uint8_t>&)> plugin_chain(const FieldImpl& fi, size_t threads, int iters) {
  return [chain = fi.chain, threads, iters](Op op, uint64_t seed, std::vector<uint8_t>& out) {
    std::vector<Bytes32> a(threads), b(threads), r;
    for (size_t t = 0; t < threads; ++t) a[t] = canonical_operand(seed, t, 0), b[t] = canonical_operand(seed, t, 1);
    const double seconds = chain(op, a, b, uint32_t(iters), r);
    out.resize(32 * threads);
    for (size_t t = 0; t < threads; ++t) std::copy(r[t].begin(), r[t].end(), out.begin() + std::ptrdiff_t(32 * t));
    return seconds;
  };
}

struct Runner {
  std::string name, where;
  std::string origin = "built-in";
  std::function<double(Op, uint64_t, std::vector<uint8_t>&)> run;  // returns seconds
  int regs = -1;
  size_t local = 0;
};

template <template <class> class... Ls>
void add_host_runners(std::vector<Runner>& v, size_t threads, int iters, f25519::layout_list<Ls...>) {
  (v.push_back({std::string(Ls<carry::portable>::name) + "/portable", "cpu", "built-in",
                [threads, iters](Op op, uint64_t seed, std::vector<uint8_t>& out) {
                  auto t0 = std::chrono::steady_clock::now();
                  host_chain<Ls<carry::portable>>(op, seed, threads, iters, out);
                  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
                }}),
   ...);
}

}  // namespace

int run_bench(const RunContext& ctx, const BenchOptions& opt) {
  (void)opt;  // --iters sets the GPU chains only
  const DeviceSelection& devices = ctx.devices;
  struct Place {
    std::string where;
    size_t threads;
    int iters;
    double ceiling = 0;  // IMAD/s, GPU only
    double fp64_ceiling = 0;  // DFMA/s, GPU only (fe51s forms its products on the FP64 pipe)
    std::vector<Runner> runners;
  };
  std::vector<Place> places;
  if (devices.cpu) {
    Place p{"cpu", 256, 256, 0, 0, {}};
    add_host_runners(p.runners, p.threads, p.iters, f25519::AllLayouts{});
    places.push_back(std::move(p));
  }
#if defined(BX_HAVE_CUDA)
  for (int dev : devices.gpus) {
    Place p{"gpu" + std::to_string(dev), size_t(kern::device_sm_count(dev)) * 2048, opt.iters, 0, 0, {}};
    p.ceiling = kern::imad_ceiling(dev);
    p.fp64_ceiling = kern::dfma_ceiling(dev);
    // Every kernel at one chain per thread, then at two interleaved chains per thread ("LAYOUT/BACKEND/x2",
    // an experiment in latency hiding): the same chains, so parity holds across both shapes.
    for (int lanes : {1, 2})
      for (auto& name : kern::fe_device_impls()) {
        Runner r{lanes == 1 ? name : name + "/x2", p.where, "built-in", {}};
        const size_t threads = p.threads;
        const int iters = p.iters;
        r.run = [dev, name, threads, iters, lanes](Op op, uint64_t seed, std::vector<uint8_t>& out) {
          return kern::fe_bench(dev, name, op, seed, threads, iters, out, lanes).seconds;
        };
        std::vector<uint8_t> tmp;
        auto info = kern::fe_bench(dev, name, Op::mul, 1, 128, 1, tmp, lanes);
        r.regs = info.registers;
        r.local = info.local_bytes;
        p.runners.push_back(std::move(r));
      }
    std::printf("%s: %s, %d SMs, measured IMAD ceiling %.2f T/s, DFMA ceiling %.2f T/s\n", p.where.c_str(),
                kern::device_name(dev).c_str(), kern::device_sm_count(dev), p.ceiling / 1e12, p.fp64_ceiling / 1e12);
    places.push_back(std::move(p));
  }
#endif
  // Every plugin implementation on its place beside the built-in layouts, the same chains and parity.
  for (const FieldImpl& fi : field_impls(devices)) {
    if (fi.builtin()) continue;
    auto place = std::find_if(places.begin(), places.end(), [&](const Place& p) { return p.where == fi.where; });
    if (place == places.end()) continue;
    if (!fi.chain) {
      std::printf("%s: bench_chain not provided (nothing to time)\n", fi.label().c_str());
      continue;
    }
    place->runners.push_back({fi.code_name, fi.where, fi.origin(), plugin_chain(fi, place->threads, place->iters)});
  }
  if (devices.gpus.empty())
    std::printf("no GPU selected: CPU timings only (ratios between layouts; absolute figures come from a GPU)\n");

  bool parity_ok = true;
  std::vector<BenchRow> rows;
  std::map<std::string, nlohmann::ordered_json> ceilings;
  for (auto& p : places) {
    std::map<std::pair<std::string, int>, std::vector<double>> secs;
    std::map<std::pair<std::string, int>, std::vector<RunWindow>> wins;
    for (Op op : {Op::mul, Op::sqr}) {
      std::vector<Contender<std::vector<uint8_t>>> cs;
      for (auto& r : p.runners)
        cs.push_back({r.name, [&r, op](int round, double& seconds) {
                        std::vector<uint8_t> out;
                        seconds += r.run(op, 0xbe4c0000ULL + uint64_t(round), out);
                        return out;
                      },
                      p.where});
      auto parity = [&](int round, const std::vector<std::vector<uint8_t>>& outs) {
        std::vector<std::string> bad;
        const uint64_t seed = 0xbe4c0000ULL + uint64_t(round);
        for (uint64_t t : {uint64_t(0), uint64_t(1), uint64_t(p.threads / 2), uint64_t(p.threads - 1)}) {
          const Bytes32 e = expected_chain(op, seed, t, p.iters);
          if (!std::equal(e.begin(), e.end(), outs[0].begin() + 32 * t))
            bad.push_back(p.runners[0].name + "@" + p.where + " " + f25519::op_name(op) + " thread " + std::to_string(t) +
                          " vs reference\n" + hexdump_diff(e.data(), outs[0].data() + 32 * t, 32));
        }
        for (size_t k = 1; k < outs.size(); ++k)
          if (outs[k] != outs[0])
            bad.push_back(p.runners[k].name + "@" + p.where + " " + f25519::op_name(op) + ": outputs differ from " + p.runners[0].name);
        return bad;
      };
      const RoundTimes rt = run_interleaved<std::vector<uint8_t>>(ctx.rounds, cs, parity);
      parity_ok = parity_ok && rt.parity;
      for (auto& [label, v] : rt.seconds) secs[{label, int(op)}] = v;
      for (auto& [label, v] : rt.windows) wins[{label, int(op)}] = v;
    }
    std::printf("\n%-16s %-5s %-4s %12s %12s %14s %14s %6s %8s\n", "impl", "where", "op", "G op/s", "vs fe51",
                "IMAD slots/op", "DFMA slots/op", "regs", "local B");
    std::map<int, double> base;
    for (auto& r : p.runners)
      for (Op op : {Op::mul, Op::sqr}) {
        const double med = median(secs[{r.name, int(op)}]);
        const double rate = double(p.threads) * p.iters / med;
        if (!base.count(int(op))) base[int(op)] = rate;
        const double slots = p.ceiling > 0 ? p.ceiling / rate : 0;
        const double fp64_slots = p.fp64_ceiling > 0 ? p.fp64_ceiling / rate : 0;
        char sl[32] = "-", fs[32] = "-", rg[16] = "-", lc[16] = "-";
        if (p.ceiling > 0) std::snprintf(sl, sizeof sl, "%.1f", slots);
        if (p.fp64_ceiling > 0) std::snprintf(fs, sizeof fs, "%.1f", fp64_slots);
        if (r.regs >= 0) std::snprintf(rg, sizeof rg, "%d", r.regs), std::snprintf(lc, sizeof lc, "%zu", r.local);
        std::printf("%-16s %-5s %-4s %12.3f %11.2fx %14s %14s %6s %8s\n", r.name.c_str(), p.where.c_str(),
                    f25519::op_name(op), rate / 1e9, rate / base[int(op)], sl, fs, rg, lc);
        BenchRow row{r.origin == "built-in" ? builtin_variant_name(r.name) : "field25519/" + r.name, p.where, r.origin, f25519::op_name(op), "G op/s",
                     per_round_rates(secs[{r.name, int(op)}], double(p.threads) * p.iters, 1e9)};
        row.windows = wins[{r.name, int(op)}];
        row.detail = {{"imad_slots_per_op", slots}, {"dfma_slots_per_op", fp64_slots}, {"registers", r.regs}, {"local_bytes", r.local},
                      {"threads", p.threads}, {"iters", p.iters}};
        rows.push_back(std::move(row));
      }
  }
  std::printf("\nparity on every round (all implementations equal, reference spot checks): %s\n", parity_ok ? "OK" : "FAILED");
  for (auto& p : places)
    if (p.ceiling > 0) ceilings[p.where] = {{"imad_per_s", p.ceiling}, {"dfma_per_s", p.fp64_ceiling}};
  put_bench("field25519", ctx.rounds, parity_ok, ceilings, rows);
  if (ctx.json) json_out::put({"seeds", "bench field25519"}, "0xbe4c0000 + round");
  return parity_ok ? 0 : 1;
}

}  // namespace bx::field25519
