// bitexact verify q8parity: every selected matvec variant on every selected place, at every token count
// asked for, against the CPU reference (computed on all cores): per variant and ntok the count of outputs
// that differ (NaNs as a class) and the first one in hex. PASS: 0 everywhere except the negative control,
// which must differ on most outputs (the comparison can fail).
#include <algorithm>
#include <bit>
#include <cstdio>
#include <thread>

#include "cli/input_file.hpp"
#include "cli/q8parity/q8parity.hpp"
#include "cli/run_result.hpp"
#include "reference/q8parity/gguf.hpp"

namespace bx::q8parity {

std::vector<float> reference_matvec_parallel(const MatvecInput& in) {
  std::vector<float> y(size_t(in.ntok) * in.rows);
  const unsigned n = std::max(1u, std::min(std::thread::hardware_concurrency(), 64u));
  std::vector<std::thread> pool;
  for (unsigned w = 0; w < n; ++w)
    pool.emplace_back([&, w] {
      for (size_t r = w; r < in.rows; r += n)
        for (int t = 0; t < in.ntok; ++t)
          y[size_t(t) * in.rows + r] = R::matvec_element(in.w.data(), in.k, r, &in.x[size_t(t) * in.k]);
    });
  for (auto& t : pool) t.join();
  return y;
}

MatvecInput verify_input(const VerifyOptions& o, int max_tok) {
  if (o.gguf.empty()) return random_matvec(o.seed, o.rows, o.k, max_tok, o.special);
  require_readable_file(o.gguf, "--gguf");
  try {
    const ref::gguf::File f = ref::gguf::read(o.gguf);
    ref::gguf::Q8Matrix m = ref::gguf::q8_matrix(f, o.tensor);
    MatvecInput in = random_matvec(o.seed, 1, m.k, max_tok, o.special);  // seeded activations of the right K
    in.rows = m.rows;
    in.w = std::move(m.blocks);
    if (!o.x_tensor.empty()) {
      const ref::gguf::Activations a = ref::gguf::activations(f, o.x_tensor);
      if (a.k != in.k)
        throw InputError(o.gguf + ": tensor '" + o.x_tensor + "': row length " + std::to_string(a.k) + ", the weights' K is " +
                         std::to_string(in.k));
      if (a.tokens < size_t(max_tok))
        throw InputError(o.gguf + ": tensor '" + o.x_tensor + "' holds " + std::to_string(a.tokens) + " tokens, --ntok asks for " +
                         std::to_string(max_tok));
      in.x.assign(a.x.begin(), a.x.begin() + std::ptrdiff_t(size_t(max_tok) * in.k));
    }
    return in;
  } catch (const ref::gguf::GgufError& e) {
    throw InputError(std::string("--gguf ") + e.what());
  }
}

int run_verify(const RunContext& ctx, const VerifyOptions& o) {
  const int max_tok = *std::max_element(o.ntoks.begin(), o.ntoks.end());
  if (place_devices(ctx.devices).empty()) throw InputError("verify q8parity: no device selected");
  const bool cpu_only = ctx.devices.gpus.empty();
  const MatvecInput whole = verify_input(o, max_tok);
  // This run's part of the declared rows (all of them unless sharded): the same seeded or GGUF matrix,
  // rows [offset, offset + size) of it.
  const RangePart part = ctx.shard.part(whole.rows);
  MatvecInput all = whole;
  const size_t row_bytes = whole.w.size() / whole.rows;
  all.rows = part.size;
  all.w.assign(whole.w.begin() + std::ptrdiff_t(part.offset * row_bytes),
               whole.w.begin() + std::ptrdiff_t((part.offset + part.size) * row_bytes));
  if (cpu_only && all.rows * all.k > (size_t(1) << 22))
    throw InputError("verify q8parity: a CPU-only run takes at most rows * K = 2^22 (use a GPU, or --rows/--k)");
  if (!ctx.quiet) std::fprintf(stderr, "verify q8parity: reference for %zu rows x K %zu x %d tokens...\n", all.rows, all.k, max_tok);
  const std::vector<float> ref_all = reference_matvec_parallel(all);
  if (o.gguf.empty())
    std::printf("verify q8parity: rows %zu, K %zu, seed %llu, %s inputs\n", all.rows, all.k, (unsigned long long)o.seed,
                o.special ? "special" : "random");
  else
    std::printf("verify q8parity: %s tensor '%s' (%zu rows, K %zu), activations %s\n", o.gguf.c_str(), o.tensor.c_str(), all.rows,
                all.k, o.x_tensor.empty() ? "seeded" : ("from '" + o.x_tensor + "'").c_str());
  std::printf("%-42s %-5s %4s %10s  %s\n", "variant", "place", "ntok", "differ", "first difference");
  bool ok = true;
  RunResult res;
  res.family = "q8parity";
  res.mode = "rows";
  res.params = {{"k", all.k}, {"ntok", o.ntoks}, {"special", o.special}, {"gguf", o.gguf}, {"tensor", o.tensor},
                {"x_tensor", o.x_tensor}};
  res.seeds = {{"inputs", o.seed}};
  res.unit = "row";
  res.range_lo = "0";
  res.range_size = whole.rows;
  res.covered = part;
  size_t checked = 0;
  // One implementation at one token count, by its contract: bitwise, the negative control's must-differ, or
  // a characterised plugin's NMSE against the canonical order.
  auto judge = [&](const Impl& im, int t, const std::vector<float>& got) {
    const bool control = im.negative();
    const double nmse_bound = im.nmse_bound;
    const std::vector<float> want(ref_all.begin(), ref_all.begin() + std::ptrdiff_t(size_t(t) * all.rows));
    const Diff d = diff(got, want);
    std::string problem;
    if (nmse_bound > 0) problem = nmse_problem(got, want, nmse_bound);
    const bool pass = control ? judge_control(got, want).ok() : nmse_bound > 0 ? problem.empty() : d.same();
    ok = ok && pass;
    ++checked;
    char bound[48];
    std::snprintf(bound, sizeof bound, "within NMSE %.3g of it", nmse_bound);
    const std::string first = nmse_bound > 0 ? (problem.empty() ? std::string(bound) : problem)
                                             : d.count ? describe(d, all.rows) : "-";
    std::printf("%-42s %-5s %4d %10zu  %s%s\n", im.name.c_str(), im.where.c_str(), t, d.count, first.c_str(),
                control ? (pass ? "  (negative control: differs, as it must)" : "  (negative control: FAILED to differ)")
                        : (pass ? "" : "  FAIL"));
    const std::string who = result_label(im.label());
    if (std::find(res.implementations.begin(), res.implementations.end(), who) == res.implementations.end())
      res.implementations.push_back(who);
    const std::string key = who + " ntok " + std::to_string(t);
    uint64_t fold = 0;  // RunResult::add_fold over every output (token, row in the declared range, float bits)
    for (size_t j = 0; j < got.size(); ++j)  // token-major: j = token * rows + row of this part
      fold += fold_item({j / all.rows, part.offset + j % all.rows, std::bit_cast<uint32_t>(got[j])});
    res.counts[key] = {{"outputs", d.size}, {"differ", d.count}, {"output_fold", fold}};
    if (!pass)
      res.disagreements.push_back({{"implementation", who}, {"ntok", t}, {"negative_control", control}, {"differ", d.count},
                                   {"first_row_offset", part.offset}, {"first", d.count || !problem.empty() ? first : "none differ"}});
  };
  // Every selected matvec variant on every place, then every plugin's matvec: a plugin that does not
  // provide it has nothing to verify.
  for (const Impl& im : impls(o.variants, ctx.devices)) {
    if (!im.answers(Op::matvec)) continue;
    if (!im.matvec) throw InputError("verify q8parity: " + im.label() + " does not provide matvec (not provided: nothing to verify)");
    for (int t : o.ntoks) judge(im, t, im.matvec(first_tokens(all, t), nullptr));
  }
  if (checked == 0) throw InputError("verify q8parity: no matvec variant selected");
  std::printf("verify q8parity %s\n", ok ? "PASSED" : "FAILED");
  res.pass = ok;
  emit_result(ctx, res);
  return ok ? 0 : 1;
}

}  // namespace bx::q8parity
