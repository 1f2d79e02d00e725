// q8parity selftest: every variant on every place against the CPU reference, bitwise (NaNs as a class), on
// seeded random inputs and on the spec's special values, at every token count 1..8 and at row counts that
// leave NR = 2 and the 64-row thread blocks a tail; the negative control must differ; the gr read's parts
// without expf bitwise, its epilogues bitwise between variants of one place and within NMSE 1e-7 of
// float64. The first failures print the case, both values in hex and where they differ.
#include <cmath>
#include <cstdio>
#include <functional>
#include <type_traits>

#include "cli/q8parity/q8parity.hpp"
#include "suite/q8parity/vectors.hpp"
#if defined(BX_HAVE_CUDA)
#include "gpu/kernels/q8parity_kernels.hpp"
#endif

namespace bx::q8parity {
namespace {

struct MatvecCase {
  std::string label;
  MatvecInput in;
  std::vector<float> want;
  bool judge_control;  // uniform inputs with K >= 256: the negative control must differ on most rows
};
struct NormCase {
  std::string label;
  NormInput in;
  std::vector<float> want;
};
struct GrCase {
  std::string label;
  R::GrInputs in;
  R::GrOutputs want;
  R::GrOutputs64 want64;
};

std::vector<MatvecCase> matvec_cases(uint64_t seed, bool full) {
  struct Shape {
    size_t rows, k;
  };
  std::vector<Shape> shapes = {{67, 32}, {130, 288}, {3, 544}, {193, 256}, {67, 1312}};  // 1312: 6 stages, buffers reused
  if (full) shapes.insert(shapes.end(), {{1, 32}, {1025, 4096}, {129, 2080}, {4097, 512}});
  std::vector<MatvecCase> out;
  {  // every fp16 encoding as a scale, one row each, through the variant's own block decode
    MatvecCase c;
    c.label = "special every fp16 scale (65536 rows, K 32)";
    c.in = random_matvec(seed, 65536, 32, 1, false);
    for (size_t r = 0; r < 65536; ++r) c.in.w[r * 34] = uint8_t(r), c.in.w[r * 34 + 1] = uint8_t(r >> 8);
    c.want = reference_matvec(c.in);
    c.judge_control = false;
    out.push_back(std::move(c));
  }
  for (bool special : {false, true})
    for (const Shape& s : shapes) {
      const MatvecInput all = random_matvec(seed + s.rows * 7 + s.k, s.rows, s.k, 8, special);
      for (int t = 1; t <= 8; ++t) {
        MatvecCase c;
        c.label = std::string(special ? "special" : "random") + " rows " + std::to_string(s.rows) + " K " +
                  std::to_string(s.k) + " ntok " + std::to_string(t);
        c.in = first_tokens(all, t);
        c.want = reference_matvec(c.in);
        c.judge_control = !special && s.k >= 256 && s.rows >= 64;
        out.push_back(std::move(c));
      }
    }
  return out;
}

std::vector<NormCase> norm_cases(uint64_t seed, bool full) {
  std::vector<size_t> ns = {1, 31, 32, 33, 100, 2560};
  if (full) ns.insert(ns.end(), {127, 4097, 16384});
  std::vector<NormCase> out;
  for (bool special : {false, true})
    for (bool has_w : {true, false})
      for (size_t n : ns) {
        NormCase c;
        c.label = std::string(special ? "special" : "random") + " n " + std::to_string(n) + (has_w ? "" : " no weight");
        c.in = random_norm(seed + n, n, 3, has_w, special);
        c.want = reference_rmsnorm(c.in);
        out.push_back(std::move(c));
      }
  return out;
}

std::vector<GrCase> gr_cases(uint64_t seed, bool full) {
  std::vector<std::pair<R::GrShape, int>> shapes = {{{4, 64, 32}, 1}, {{4, 64, 32}, 3}, {{4, 2560, 320}, 1}};
  if (full) shapes.insert(shapes.end(), {{{4, 2560, 320}, 8}, {{2, 96, 64}, 5}});
  std::vector<GrCase> out;
  for (const auto& [shape, ntok] : shapes) {
    GrCase c;
    c.label = "hc " + std::to_string(shape.hc) + " n_embd " + std::to_string(shape.n_embd) + " hc_lr " +
              std::to_string(shape.hc_lr) + " ntok " + std::to_string(ntok);
    c.in = random_gr(seed + size_t(shape.n_embd) * 3 + size_t(ntok), shape, ntok);
    c.want = R::gr_read(c.in);
    c.want64 = R::gr_read64(c.in);
    out.push_back(std::move(c));
  }
  return out;
}

// One implementation's matvec or rmsnorm outputs, judged bitwise against the canonical order (built-in
// variants and bit-exact plugins) or, for a characterised plugin, within its NMSE bound of it. The same
// cases and vectors for both.
struct Judge {
  std::string who;  // "q8parity/matvec/plain on cpu"
  double nmse_bound = 0;  // 0: bitwise
};
using MatvecRun = std::function<std::vector<float>(const MatvecInput&)>;
using NormRun = std::function<std::vector<float>(const NormInput&)>;

// The vectors, random and special columns of one op (matvec or rmsnorm: the input and vector types of each);
// `rows` makes a matvec difference name its token and row.
// `missing` names a case the implementation cannot run (a kernel not in this build): listed as not provided.
template <class Input, class Run, class Cases, class Vectors>
void check_op(const Judge& j, const Run& run, const Cases& cases, const Vectors& vecs, SelftestRow& row,
              const std::function<std::string(const Input&)>& missing = {}) {
  Tally vectors{"vectors"}, random{"random"}, special{"special"};
  TallyCheck tv{vectors}, tr{random}, ts{special};
  auto judge = [&](TallyCheck& t, const Input& in, const std::vector<float>& want, const std::string& what) {
    if (missing)
      if (const std::string why = missing(in); !why.empty()) return t.t.lacks(why);
    const std::vector<float> got = run(in);
    if (j.nmse_bound > 0) {
      const std::string problem = nmse_problem(got, want, j.nmse_bound);
      t.check(problem.empty(), j.who + ", " + what + ": " + problem);
    } else {
      const Diff d = diff(got, want);
      size_t rows = 0;
      if constexpr (std::is_same_v<Input, MatvecInput>) rows = in.rows;
      t.check(d.same(), j.who + ", " + what + ": " + describe(d, rows));
    }
  };
  for (const auto& t : vecs) judge(tv, t.in, t.y, "vectors tcId " + std::to_string(t.id) + " (" + t.comment + ")");
  for (const auto& c : cases) judge(c.label.rfind("special", 0) == 0 ? ts : tr, c.in, c.want, c.label);
  row.checks.push_back(vectors);
  row.checks.push_back(random);
  row.checks.push_back(special);
}
void check_matvec(const Judge& j, const MatvecRun& run, const std::vector<MatvecCase>& cases, const std::vector<MatvecVector>& vecs,
                  SelftestRow& row, const std::function<std::string(const MatvecInput&)>& missing = {}) {
  check_op<MatvecInput>(j, run, cases, vecs, row, missing);
}
void check_norm(const Judge& j, const NormRun& run, const std::vector<NormCase>& cases, const std::vector<RmsnormVector>& vecs,
                SelftestRow& row) {
  check_op<NormInput>(j, run, cases, vecs, row);
}
void check_control(const Impl& im, const std::vector<MatvecCase>& cases, SelftestRow& row) {
  Tally t{"must-differ"};
  TallyCheck tc{t};
  for (const auto& c : cases) {
    if (!c.judge_control) continue;
    const ControlVerdict cv = judge_control(im.matvec(c.in, nullptr), c.want);
    tc.check(cv.ok(), "negative control on " + im.where + ", " + c.label + ": only " + std::to_string(cv.differ) + " of " +
                          std::to_string(cv.finite) + " finite outputs differ (a reordered sum must differ on most: is the comparison blind?)");
  }
  row.checks.push_back(t);
}
// The gr read's contract (between variants): the parts without expf bitwise, the epilogues within NMSE
// 1e-7 of float64 and, for a variant other than gr/plain, bitwise equal to gr/plain on the same place.
void check_gr(const Impl& im, const std::vector<GrCase>& cases, SelftestRow& row) {
  Tally exact{im.device < 0 ? "exact-host" : "exact-parts"}, nmse{"nmse"}, between{"vs-plain"};
  TallyCheck te{exact}, tn{nmse}, tb{between};
  const std::string who = im.who() + ", ";
  const bool vs_plain = im.variant != q8::kGrPlain;
  const Impl plain = make_impl(q8::kGrPlain, im.device);
  for (const auto& c : cases) {
    if (const std::string why = im.not_in_build(c.in.ntok); !why.empty()) {
      for (Tally* t : {&exact, &nmse, &between}) t->lacks(why);
      continue;
    }
    const q8::GrResult got = im.gr(c.in, nullptr);
    auto exact_check = [&](const char* what, const std::vector<float>& g, const std::vector<float>& w) {
      const Diff d = diff(g, w);
      te.check(d.same(), who + c.label + ": " + what + " " + describe(d, 0));
    };
    exact_check("xn", got.xn, c.want.xn);
    exact_check("pre", got.pre, c.want.pre);
    if (im.device < 0) {  // the host's expf is the reference's: every output is bitwise
      exact_check("lo", got.lo, c.want.lo);
      exact_check("gate", got.gate, c.want.gate);
      exact_check("mixed", got.mixed, c.want.mixed);
    } else {  // the gate is a canonical matvec of the device's own lo
      std::vector<float> gate;
      const size_t W = c.in.shape.width(), L = size_t(c.in.shape.hc_lr);
      for (int t = 0; t < c.in.ntok; ++t) {
        const auto g = R::matvec(c.in.w_up.data(), W, L, &got.lo[size_t(t) * L], 1);
        gate.insert(gate.end(), g.begin(), g.end());
      }
      exact_check("gate (from the device's lo)", got.gate, gate);
    }
    for (auto [what, g, w] : {std::tuple{"lo", &got.lo, &c.want64.lo}, std::tuple{"mixed", &got.mixed, &c.want64.mixed}}) {
      const double e = R::nmse(*g, *w);
      char b[96];
      std::snprintf(b, sizeof b, "%s NMSE %.3g (limit 1e-7)", what, e);
      tn.check(e <= 1e-7, who + c.label + ": " + b);
    }
    if (vs_plain) {
      const q8::GrResult base = plain.gr(c.in, nullptr);
      for (auto [what, g, w] : {std::tuple{"xn", &got.xn, &base.xn}, std::tuple{"pre", &got.pre, &base.pre},
                                std::tuple{"lo", &got.lo, &base.lo}, std::tuple{"gate", &got.gate, &base.gate},
                                std::tuple{"mixed", &got.mixed, &base.mixed}}) {
        const Diff d = diff(*g, *w);
        tb.check(d.same(), who + c.label + ": " + what + " against gr/plain " + describe(d, 0));
      }
    }
  }
  row.checks.push_back(exact);
  row.checks.push_back(nmse);
  if (vs_plain) row.checks.push_back(between);
}

}  // namespace

SelftestReport selftest(const SelftestOptions& opt) {
  SelftestReport rep;
  {
    Tally t{"build-rules"};
    std::string problem;
    TallyCheck{t}.check(host_build_rules_hold(&problem), "host build rules: " + problem);
    rep.host_checks.push_back(t);
    Tally f{"fp16-decode"};  // all 65536 scale encodings through the kernels' decoder
    TallyCheck tf{f};
    for (uint32_t h = 0; h < 65536; ++h)
      tf.check(R::same_bits(q8::scale_of(h), R::fp16_to_fp32(uint16_t(h))),
               "fp16 " + std::to_string(h) + ": got 0x" + float_hex(q8::scale_of(h)) + ", want 0x" +
                   float_hex(R::fp16_to_fp32(uint16_t(h))));
    rep.host_checks.push_back(f);
  }
  // Every wanted implementation, built-in variants and plugins alike: a row per operation it answers for,
  // on the same cases and vectors, judged by its contract; an operation it does not provide is a row of
  // "not provided".
  std::vector<Impl> all;
  bool any_matvec = false, any_norm = false, any_gr = false;
  for (Impl& im : impls(parse_variants({"all"}), opt.devices))
    if (opt.wants(im.name)) {
      any_matvec |= bool(im.matvec);
      any_norm |= bool(im.rmsnorm);
      any_gr |= bool(im.gr);
      all.push_back(std::move(im));
    }
  const auto mc = any_matvec ? matvec_cases(opt.seed, opt.full) : std::vector<MatvecCase>{};
  const auto mv = any_matvec ? load_embedded_matvec() : std::vector<MatvecVector>{};
  const auto nc = any_norm ? norm_cases(opt.seed, opt.full) : std::vector<NormCase>{};
  const auto nv = any_norm ? load_embedded_rmsnorm() : std::vector<RmsnormVector>{};
  const auto gc = any_gr ? gr_cases(opt.seed, opt.full) : std::vector<GrCase>{};
#if defined(BX_HAVE_CUDA)
  for (int d : opt.devices.gpus) {
    const std::string where = suite::Implementation::place_of(d);
    Tally t{where + " build-rules"};
    const std::string problem = kern::q8_device_build_problems(d);
    TallyCheck{t}.check(problem.empty(), where + " kernels' build rules: " + problem);
    rep.host_checks.push_back(t);
  }
#endif
  for (const Impl& im : all)
    for (Op op : im.ops) {
      const char* op_name = op == Op::matvec ? "matvec" : op == Op::rmsnorm ? "rmsnorm" : "gr";
      SelftestRow row{im.builtin() ? im.name : im.name + " [" + op_name + "]", im.where, {}};
      const Judge j{im.who(), im.nmse_bound};
      const bool provided = op == Op::matvec ? bool(im.matvec) : op == Op::rmsnorm ? bool(im.rmsnorm) : bool(im.gr);
      if (!provided) {
        row.checks.push_back({op_name});
        row.checks.back().lacks(op_name);
      } else if (op == Op::matvec && im.negative()) {
        check_control(im, mc, row);
      } else if (op == Op::matvec) {
        check_matvec(j, [&](const MatvecInput& in) { return im.matvec(in, nullptr); }, mc, mv, row,
                     [&](const MatvecInput& in) { return im.not_in_build(in.ntok); });
      } else if (op == Op::rmsnorm) {
        check_norm(j, im.rmsnorm, nc, nv, row);
      } else {
        check_gr(im, gc, row);
      }
      rep.rows.push_back(std::move(row));
    }
  if (opt.devices.gpus.empty())
    rep.notes.push_back("q8parity: CPU rows run the kernels' per-item code on the host (no GPU selected)");
  return rep;
}

}  // namespace bx::q8parity
