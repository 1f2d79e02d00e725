// `bitexact verify field25519`: the bulk differential run (see family_parts.hpp).
#include "cli/field25519/family_parts.hpp"
#include "cli/progress.hpp"
#include "cli/run_result.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <atomic>
#include <thread>

#include "suite/field25519/reference_op.hpp"
#include "suite/plugin.hpp"
#include "gpu/field25519/draw.hpp"
#include "reference/field25519/ref25519.hpp"
#if defined(BX_HAVE_CUDA)
#include "gpu/kernels/field25519_kernels.hpp"
#endif

namespace bx::field25519 {
using f25519::Op;
namespace R = ref::f25519;

namespace {

using Outputs = std::array<Bytes32, 4>;

template <template <class> class... Ls>
void host_programs(std::vector<std::pair<std::string, Outputs>>& v, uint64_t seed, uint64_t idx,
                   f25519::layout_list<Ls...>) {
  uint8_t a[32], b[32];
  f25519::draw_operand(a, seed, idx, 0);
  f25519::draw_operand(b, seed, idx, 1);
  (
      [&] {
        uint8_t o[4][32];
        f25519::bulk_program<Ls<carry::portable>>(o, a, b);
        Outputs out;
        for (int i = 0; i < 4; ++i) std::copy(o[i], o[i] + 32, out[i].begin());
        v.push_back({std::string(Ls<carry::portable>::name) + "/portable", out});
      }(),
      ...);
}

// The first 8 bytes of an output (little-endian), for the judged samples' fingerprint.
uint64_t first_word(const uint8_t* p) {
  uint64_t w;
  std::memcpy(&w, p, 8);
  return w;
}

const char* kOutNames[4] = {"a*b", "a^2", "(a+b)(a-b)", "a*b - (a^2 + (a+b)(a-b))"};

// Prints the operation, the inputs and every available answer (cryptofuzz style).
void report_draw(uint64_t seed, uint64_t idx, const std::string& why, const Outputs* other = nullptr, const std::string& other_name = "") {
  Bytes32 a, b;
  f25519::draw_operand(a.data(), seed, idx, 0);
  f25519::draw_operand(b.data(), seed, idx, 1);
  std::fprintf(stderr, "DISAGREEMENT (%s) seed=%llu index=%llu\n  a = %s\n  b = %s\n", why.c_str(),
               (unsigned long long)seed, (unsigned long long)idx, to_hex(a).c_str(), to_hex(b).c_str());
  const Outputs ref = reference_bulk_program(seed, idx);
  std::vector<std::pair<std::string, Outputs>> host;
  host_programs(host, seed, idx, f25519::AllLayouts{});
  for (int i = 0; i < 4; ++i) {
    std::fprintf(stderr, "  %s\n    %-16s %s\n", kOutNames[i], "reference", to_hex(ref[i]).c_str());
    for (auto& [name, out] : host)
      std::fprintf(stderr, "    %-16s %s%s\n", (name + "@cpu").c_str(), to_hex(out[i]).c_str(), out[i] == ref[i] ? "" : "  <- differs");
    if (other)
      std::fprintf(stderr, "    %-16s %s%s\n", other_name.c_str(), to_hex((*other)[i]).c_str(), (*other)[i] == ref[i] ? "" : "  <- differs");
  }
}

// The ops of the bulk program an implementation does not provide ("" when it can run it).
std::string bulk_ops_lacking(const FieldImpl& fi) {
  std::string lacking;
  for (Op op : {Op::add, Op::sub, Op::mul, Op::sqr})
    if (!fi.provides(op)) lacking += std::string(lacking.empty() ? "" : ", ") + f25519::op_name(op);
  return lacking;
}

// The bulk program through an implementation's canonical-bytes ops, draws [first, first + n): seven
// batched calls. excluded[i]: draw i's operands lie outside the implementation's declared precondition
// (its outputs there are not judged).
std::vector<Outputs> bulk_through(const FieldImpl& fi, uint64_t seed, uint64_t first, uint64_t n, std::vector<bool>& excluded) {
  std::vector<Bytes32> a(n), b(n), r1(n), r2(n), r3(n), s(n), d(n), s2(n), d2(n);
  std::vector<uint8_t> flags(n);
  for (uint64_t i = 0; i < n; ++i) {
    f25519::draw_operand(a[i].data(), seed, first + i, 0);
    f25519::draw_operand(b[i].data(), seed, first + i, 1);
  }
  auto run = [&](Op op, const std::vector<Bytes32>& x, const std::vector<Bytes32>& y, std::vector<Bytes32>& o) {
    fi.eval(op, x.data(), y.data(), n, o.data(), flags.data());
  };
  run(Op::mul, a, b, r1), run(Op::sqr, a, a, r2), run(Op::add, a, b, s), run(Op::sub, a, b, d);
  run(Op::mul, s, d, r3), run(Op::add, r2, r3, s2), run(Op::sub, r1, s2, d2);
  std::vector<Outputs> out(n);
  excluded.assign(n, false);
  for (uint64_t i = 0; i < n; ++i) {
    out[i] = {r1[i], r2[i], r3[i], d2[i]};
    excluded[i] = fi.canonical_inputs_only && (!R::decode_strict(a[i]) || !R::decode_strict(b[i]));
  }
  return out;
}

}  // namespace

constexpr double kCpuOpsPerSecond = 1e6;  // per layout, every host layout in turn (one core)

int run_verify(const RunContext& ctx, const VerifyOptions& given) {  // `given` declares the whole range
  VerifyOptions opt = given;
  if (ctx.devices.gpus.empty() && !opt.ops_given) opt.ops = 2e6;  // the CPU runs about 1e6 ops/s per layout
  DeviceSelection devices = ctx.devices;
  if (!devices.gpus.empty()) devices.cpu = false;  // the GPUs run every implementation, the CPU judges
  if (!(opt.ops >= 1)) throw InputError("verify: --ops must be at least 1");
  const uint64_t declared_draws = uint64_t(std::ceil(opt.ops / f25519::kBulkOpsPerDraw));
  if (declared_draws > ~uint64_t(0) - opt.first)  // draw indices are 64-bit: the range must not wrap
    throw InputError("verify: --first " + std::to_string(opt.first) + " + " + std::to_string(declared_draws) +
                     " draws is beyond the last draw index 2^64-1");
  // This run's part of the declared draws [first, first + draws) (all of them unless sharded).
  const RangePart part = ctx.shard.part(declared_draws);
  if (devices.gpus.empty())  // the host programs of every layout per draw, about kCpuOpsPerSecond per layout
    refuse_long_cpu_run("verify field25519", double(part.size) * f25519::kBulkOpsPerDraw / kCpuOpsPerSecond, opt.force,
                        "a smaller --ops");
  const uint64_t declared_first = opt.first;
  opt.first += part.offset;
  const uint64_t draws = part.size;
  bool ok = true;
  RunResult res;
  res.family = "field25519";
  res.mode = "draws";
  res.params = {{"ops_per_draw", f25519::kBulkOpsPerDraw}, {"sample_shift", opt.sample_shift}};
  res.seeds = {{"operands", opt.seed}};
  res.unit = "draw";
  res.range_lo = std::to_string(declared_first);
  res.range_size = declared_draws;
  res.covered = part;
  auto disagree = [&](const std::string& who, uint64_t idx, const std::string& why) {
    Bytes32 a, b;
    f25519::draw_operand(a.data(), opt.seed, idx, 0);
    f25519::draw_operand(b.data(), opt.seed, idx, 1);
    res.disagreements.push_back({{"implementation", who}, {"draw", idx}, {"why", why}, {"a", to_hex(a)}, {"b", to_hex(b)}});
  };
  uint64_t judged = 0;
  // A plugin this run cannot reach (a host one when the GPUs run the program, a device one without a GPU)
  // is said and fails the run: never a pass by absence.
  for (const auto& p : suite::plugin_impls()) {
    if (suite::family_name(p.family) != "field25519") continue;
    const bool device = p.place == BX_PLACE_DEVICE;
    if (device == !devices.gpus.empty()) continue;
    std::printf("field25519/%s: %s implementation, this run is on the %s: not verified (run with --device %s)\n", p.name.c_str(),
                device ? "a device" : "a host", devices.gpus.empty() ? "CPU" : "GPU", device ? "gpu" : "cpu");
    ok = false;
  }
  const auto t0 = std::chrono::steady_clock::now();
  std::printf("verify field25519: %llu draws x %d ops = %.3g ops per implementation, seed %llu, first %llu\n",
              (unsigned long long)draws, f25519::kBulkOpsPerDraw, double(draws) * f25519::kBulkOpsPerDraw,
              (unsigned long long)opt.seed, (unsigned long long)opt.first);
  if (!devices.gpus.empty()) {
#if defined(BX_HAVE_CUDA)
    const auto impls = kern::fe_bulk_impls();
    std::printf("implementations per draw on each GPU: %zu (every layout x backend); judged: disagreements and 1 draw in 2^%d\n",
                impls.size(), opt.sample_shift);
    const size_t ng = devices.gpus.size();
    std::vector<kern::BulkResult> results(ng);
    std::vector<std::string> errors(ng);
    std::vector<std::thread> th;
    Progress prog("verify field25519", draws, !ctx.quiet);
    std::atomic<uint64_t> done{0};
    for (size_t g = 0; g < ng; ++g)
      th.emplace_back([&, g] {
        try {
          const uint64_t lo = opt.first + draws * g / ng, hi = opt.first + draws * (g + 1) / ng;
          const uint64_t chunk = uint64_t(1) << 28;
          kern::BulkResult acc;
          for (uint64_t s = lo; s < hi; s += chunk) {
            auto r = kern::fe_bulk(devices.gpus[g], opt.seed, s, std::min(chunk, hi - s), opt.sample_shift);
            acc.draws += r.draws;
            acc.disagreements += r.disagreements;
            acc.seconds += r.seconds;
            acc.first_disagreements.insert(acc.first_disagreements.end(), r.first_disagreements.begin(), r.first_disagreements.end());
            acc.samples.insert(acc.samples.end(), r.samples.begin(), r.samples.end());
            done += r.draws;
            if (g == 0) prog.update(done, "(" + std::to_string(acc.disagreements) + " disagreements on gpu" + std::to_string(devices.gpus[0]) + ")");
          }
          results[g] = std::move(acc);
        } catch (const std::exception& e) {
          errors[g] = e.what();
        }
      });
    for (auto& t : th) t.join();
    prog.update(draws);
    for (auto& e : errors)
      if (!e.empty()) throw std::runtime_error(e);
    for (size_t g = 0; g < ng; ++g) {
      auto& r = results[g];
      for (auto& d : r.first_disagreements) {
        std::string which;
        for (size_t i = 0; i < impls.size(); ++i)
          if (d.mismatch_mask >> i & 1) which += (which.empty() ? "" : ", ") + impls[i];
        report_draw(opt.seed, d.index, "gpu" + std::to_string(devices.gpus[g]) + ": differs from " + impls[0] + ": " + which);
        disagree("gpu", d.index, "differs from " + impls[0] + ": " + which);
      }
      for (auto& s : r.samples) {
        const Outputs ref = reference_bulk_program(opt.seed, s.index);
        for (int i = 0; i < 4; ++i)
          if (!std::equal(ref[i].begin(), ref[i].end(), s.out[i])) {
            ok = false;
            report_draw(opt.seed, s.index, "sample judged by the reference: " + impls[0] + " is wrong");
            disagree(impls[0] + "@gpu", s.index, "sample judged by the reference: wrong");
            break;
          }
        ++judged;
        res.add_fold("every implementation@gpu", "judged_fold",
                     {s.index, first_word(s.out[0]), first_word(s.out[1]), first_word(s.out[2]), first_word(s.out[3])});
      }
      ok = ok && r.disagreements == 0;
      for (const auto& name : impls)
        if (std::find(res.implementations.begin(), res.implementations.end(), name + "@gpu") == res.implementations.end())
          res.implementations.push_back(name + "@gpu");
      res.add_counts("every implementation@gpu", {{"draws", r.draws}, {"disagreeing_draws", r.disagreements}});
      res.add_seconds("every implementation@gpu", r.seconds);
      const double ops = double(r.draws) * f25519::kBulkOpsPerDraw;
      std::printf("gpu%d  %s\n  draws %llu, ops/layout %.3g, kernel %.2f s, %.3g ops/s per layout x backend (%.3g impl-ops/s), "
                  "disagreements %llu, samples judged %zu\n",
                  devices.gpus[g], kern::device_name(devices.gpus[g]).c_str(), (unsigned long long)r.draws, ops,
                  r.seconds, ops / r.seconds, ops * impls.size() / r.seconds, (unsigned long long)r.disagreements,
                  r.samples.size());
    }
    // Device plugins: the same draws through each one's canonical-bytes ops on the card, compared there
    // with the layouts' program (kern::fe_bulk_outside).
    for (auto& fi : field_impls(DeviceSelection{false, devices.gpus})) {
      if (fi.builtin()) continue;
      const size_t g = size_t(std::find(devices.gpus.begin(), devices.gpus.end(), fi.device) - devices.gpus.begin());
      const std::string lacking = bulk_ops_lacking(fi);
      if (fi.canonical_inputs_only) {  // the draws include values from p up: outside its precondition
        std::printf("%s: declares canonical inputs only; the bulk draws include values at and above p: not verified\n", fi.label().c_str());
        ok = false;
        continue;
      }
      if (!fi.device_bytes || !lacking.empty()) {
        std::printf("%s: not provided: %s (the bulk program needs add, sub, mul, sqr as bytes ops): not verified\n", fi.label().c_str(),
                    lacking.empty() ? "bytes ops" : lacking.c_str());
        ok = false;
        continue;
      }
      const uint64_t lo = opt.first + draws * g / ng, hi = opt.first + draws * (g + 1) / ng;
      kern::BulkResult r;
      try {
        r = kern::fe_bulk_outside(fi.device, fi.device_bytes, kern::device_stream(fi.device), opt.seed, lo, hi - lo);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "FAIL %s: %s\n", fi.label().c_str(), e.what());
        disagree(fi.label(), lo, e.what());
        ok = false;
        continue;
      }
      for (auto& d : r.first_disagreements) {
        std::string which;
        for (int i = 0; i < 4; ++i)
          if (d.mismatch_mask >> i & 1) which += std::string(which.empty() ? "" : ", ") + kOutNames[i];
        report_draw(opt.seed, d.index, fi.label() + " differs from fe51/portable in " + which);
        disagree(fi.label(), d.index, "differs from fe51/portable in " + which);
      }
      if (r.disagreements) ok = false;
      const double ops = double(r.draws) * f25519::kBulkOpsPerDraw;
      std::printf("%s (%s)\n  draws %llu, ops %.3g, its kernels %.3f s, %.3g ops/s, disagreements %llu\n", fi.label().c_str(),
                  fi.origin().c_str(), (unsigned long long)r.draws, ops, r.seconds, r.seconds > 0 ? ops / r.seconds : 0.0,
                  (unsigned long long)r.disagreements);
      res.implementations.push_back(result_label(fi.label()));
      res.add_counts(result_label(fi.label()), {{"draws", r.draws}, {"disagreeing_draws", r.disagreements}});
      res.add_seconds(result_label(fi.label()), r.seconds);
    }
#endif
  } else {
    std::printf("no GPU selected: running the bulk program on the CPU (portable backend, every layout)\n");
    uint64_t dis = 0;
    const uint64_t sample_mask = (uint64_t(1) << std::min(opt.sample_shift, 8)) - 1;
    Progress prog("verify field25519 (cpu)", draws, !ctx.quiet);
    // Implementations from plugins run the same program through their canonical-bytes ops, a block of
    // draws per call, and are compared with the layouts' outputs on every draw.
    std::vector<FieldImpl> outside;
    for (auto& fi : field_impls(DeviceSelection{true, {}}))
      if (!fi.builtin()) {
        const std::string lacking = bulk_ops_lacking(fi);
        if (!lacking.empty()) {
          std::printf("%s: not provided: %s (the bulk program needs add, sub, mul, sqr): not verified\n", fi.label().c_str(), lacking.c_str());
          ok = false;
          continue;
        }
        outside.push_back(std::move(fi));
      }
    std::vector<uint64_t> outside_dis(outside.size()), outside_skipped(outside.size());
    std::vector<std::vector<Outputs>> block_out(outside.size());
    std::vector<bool> broken(outside.size());
    std::vector<std::vector<bool>> block_excluded(outside.size());
    constexpr uint64_t kBlock = 4096;
    for (uint64_t t = 0; t < draws; ++t) {
      if ((t & 1023) == 0) prog.update(t, "(" + std::to_string(dis) + " disagreements)");
      const uint64_t idx = opt.first + t;
      if (t % kBlock == 0)
        for (size_t k = 0; k < outside.size(); ++k) {
          if (broken[k]) continue;
          try {
            block_out[k] = bulk_through(outside[k], opt.seed, idx, std::min(kBlock, draws - t), block_excluded[k]);
          } catch (const std::runtime_error& e) {  // a plugin call that failed: that implementation stops here
            std::fprintf(stderr, "FAIL %s: draws from %llu: %s\n", outside[k].label().c_str(), (unsigned long long)idx, e.what());
            disagree(outside[k].label(), idx, e.what());
            broken[k] = true;
            ok = false;
          }
        }
      std::vector<std::pair<std::string, Outputs>> host;
      host_programs(host, opt.seed, idx, f25519::AllLayouts{});
      for (size_t k = 0; k < outside.size(); ++k) {
        if (broken[k]) continue;
        const Outputs& o = block_out[k][t % kBlock];
        if (block_excluded[k][t % kBlock]) {  // an input outside the implementation's declared precondition
          ++outside_skipped[k];
          continue;
        }
        if (o != host[0].second) {
          disagree(outside[k].label(), idx, "differs from the layouts");
          if (outside_dis[k]++ < 8) report_draw(opt.seed, idx, outside[k].label() + " differs from the layouts", &o, outside[k].label());
          ok = false;
        }
      }
      bool differ = false;
      for (auto& [name, out] : host) differ = differ || out != host[0].second;
      if (differ) {
        disagree("cpu", idx, "layouts disagree on the CPU");
        if (dis++ < 8) report_draw(opt.seed, idx, "layouts disagree on the CPU");
        ok = false;
        continue;
      }
      if ((f25519::mix64(idx) & sample_mask) == 0) {
        ++judged;
        const Outputs& out = host[0].second;  // every layout's, equal here
        res.add_fold("every implementation@cpu", "judged_fold",
                     {idx, first_word(out[0].data()), first_word(out[1].data()), first_word(out[2].data()), first_word(out[3].data())});
        if (reference_bulk_program(opt.seed, idx) != host[0].second) {
          ok = false;
          disagree(host[0].first + "@cpu", idx, "sample judged by the reference: wrong");
          report_draw(opt.seed, idx, "sample judged by the reference");
        }
      }
    }
    prog.update(draws);
    std::printf("cpu: draws %llu, disagreements %llu, samples judged %llu\n", (unsigned long long)draws,
                (unsigned long long)dis, (unsigned long long)judged);
    std::vector<std::pair<std::string, Outputs>> names;
    host_programs(names, opt.seed, opt.first, f25519::AllLayouts{});
    for (auto& [name, out] : names) res.implementations.push_back(name + "@cpu");
    res.add_counts("every implementation@cpu", {{"draws", draws}, {"disagreeing_draws", dis}, {"samples_judged", judged}});
    for (size_t k = 0; k < outside.size(); ++k) {
      std::printf("%s (%s): draws %llu, disagreements %llu, outside its precondition %llu\n", outside[k].label().c_str(),
                  outside[k].origin().c_str(), (unsigned long long)draws, (unsigned long long)outside_dis[k],
                  (unsigned long long)outside_skipped[k]);
      res.implementations.push_back(result_label(outside[k].label()));
      res.add_counts(result_label(outside[k].label()),
                     {{"draws", draws}, {"disagreeing_draws", outside_dis[k]}, {"outside_precondition", outside_skipped[k]}});
    }
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("verify field25519 %s in %.1f s (wall); resume with --first %llu\n", ok ? "PASSED" : "FAILED", s,
              (unsigned long long)(opt.first + draws));
  res.pass = ok;
  res.details = {{"samples_judged", judged}, {"resume_first", opt.first + draws}, {"wall_seconds", s}};
  emit_result(ctx, res);
  return ok ? 0 : 1;
}

}  // namespace bx::field25519
