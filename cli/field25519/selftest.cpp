// field25519 selftest: every implementation (built-in or plugin) on every selected place against the
// embedded vectors (ops.json, RFC 7748), the limb-level checks of its declared form
// (suite/field25519/limb_check.hpp) and a seeded random batch judged by the reference. A check needing an
// op the implementation does not provide counts it as not provided; inputs outside a declared
// precondition (non-canonical bytes to a canonical-only implementation) are counted apart.
#include "cli/field25519/family_parts.hpp"

#include <chrono>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>

#include "suite/embedded.hpp"
#include "suite/field25519/reference_op.hpp"
#include "suite/field25519/vectors.hpp"
#include "gpu/field25519/draw.hpp"
#include "reference/field25519/ref25519.hpp"

namespace bx::field25519 {
using f25519::Op;
namespace R = ref::f25519;

namespace {

// A check's count, with the first few failures printed in full.
struct Counter {
  Tally& t;
  std::string reproduce;  // the one-line command that reruns the check, printed under each failure
  int shown = 0;
  size_t outside = 0;  // cases outside the implementation's declared preconditions, not judged
  void fail_report(const std::string& what) {
    if (shown++ < 3) std::fprintf(stderr, "%s%s", what.c_str(), reproduce.empty() ? "" : ("  reproduce: " + reproduce + "\n").c_str());
  }
};

// Inputs an implementation accepts: below 2^255 always; below p where it declares canonical inputs only.
bool accepts(const FieldImpl& fi, const Bytes32& a) {
  return !fi.canonical_inputs_only || R::decode_strict(a).has_value();
}

std::string reproduce_line(const FieldImpl& fi, uint64_t seed) {
  return "bitexact selftest --family field25519" + (fi.plugin_path.empty() ? "" : " --plugin " + fi.plugin_path) + " --variant '" +
         fi.name + "' --seed " + std::to_string(seed) + (fi.device >= 0 ? " --device " + std::to_string(fi.device) : " --device cpu");
}

void run_field_vectors(const FieldImpl& fi, const std::vector<vectors::FieldTest>& tests, Counter& c) {
  Tally& t = c.t;
  std::map<int, std::vector<const vectors::FieldTest*>> by_op;
  for (auto& v : tests) by_op[int(v.op)].push_back(&v);
  for (auto& [op, all] : by_op) {
    if (!fi.provides(Op(op))) {
      t.lacks(f25519::op_name(Op(op)));
      continue;
    }
    std::vector<const vectors::FieldTest*> list;
    for (auto* v : all)
      if (accepts(fi, v->a) && accepts(fi, v->b)) list.push_back(v);
      else ++c.outside;
    std::vector<Bytes32> a, b, out(list.size());
    std::vector<uint8_t> flags(list.size());
    for (auto* v : list) a.push_back(v->a), b.push_back(v->b);
    try {
      if (!list.empty()) fi.eval(Op(op), a.data(), b.data(), list.size(), out.data(), flags.data());
    } catch (const std::exception& e) {
      t.total += list.size();
      c.fail_report("FAIL " + fi.label() + " vectors " + f25519::op_name(Op(op)) + " (batch of " + std::to_string(list.size()) + "): " +
                    e.what() + "\n");
      continue;
    }
    for (size_t i = 0; i < list.size(); ++i) {
      ++t.total;
      const bool ok = out[i] == list[i]->out && (Op(op) != Op::sqrt_ratio || (flags[i] != 0) == list[i]->was_square);
      if (ok) {
        ++t.pass;
        continue;
      }
      std::string flags;
      for (auto& f : list[i]->flags) flags += (flags.empty() ? "" : ",") + f;
      c.fail_report("FAIL " + fi.label() + " vectors/field25519/ops.json tcId " + std::to_string(list[i]->tc_id) + " " +
                    f25519::op_name(Op(op)) + " (" + list[i]->comment + ") [" + flags + "]\n  a = " + to_hex(list[i]->a) + "\n  b = " +
                    to_hex(list[i]->b) + "\n" + hexdump_diff(list[i]->out.data(), out[i].data(), 32));
    }
  }
}

void run_x25519_vectors(const FieldImpl& fi, const std::vector<vectors::X25519Test>& tests, bool full, Counter& c) {
  Tally& t = c.t;
  std::vector<Bytes32> k, u, out;
  std::vector<const vectors::X25519Test*> single;
  for (auto& v : tests)
    if (!v.iterations) single.push_back(&v), k.push_back(v.scalar), u.push_back(v.u);
  out.resize(single.size());
  fi.x25519(k.data(), u.data(), single.size(), out.data());
  for (size_t i = 0; i < single.size(); ++i) {
    ++t.total;
    if (out[i] == single[i]->shared) ++t.pass;
    else
      c.fail_report("FAIL " + fi.label() + " x25519 tcId " + std::to_string(single[i]->tc_id) + " (" + single[i]->comment +
                    ")\n  scalar = " + to_hex(single[i]->scalar) + "\n  u = " + to_hex(single[i]->u) + "\n" +
                    hexdump_diff(single[i]->shared.data(), out[i].data(), 32));
  }
  for (auto& v : tests) {
    if (!v.iterations || (!full && v.iterations > 1)) continue;
    ++t.total;
    Bytes32 got = vectors::x25519_iterate(v.iterations, [&](const Bytes32& kk, const Bytes32& uu) {
      Bytes32 r;
      fi.x25519(&kk, &uu, 1, &r);
      return r;
    });
    if (got == v.shared) ++t.pass;
    else c.fail_report("FAIL " + fi.label() + " x25519 iterated x" + std::to_string(v.iterations) + "\n" +
                       hexdump_diff(v.shared.data(), got.data(), 32));
  }
}

struct RandomBatch {
  std::vector<Bytes32> a, b;
  std::map<int, std::vector<Bytes32>> out;
  std::map<int, std::vector<uint8_t>> flag;
};

RandomBatch make_random_batch(uint64_t seed, size_t n) {
  RandomBatch rb;
  rb.a.resize(n);
  rb.b.resize(n);
  for (size_t i = 0; i < n; ++i) {
    f25519::draw_operand(rb.a[i].data(), seed, i, 0);
    f25519::draw_operand(rb.b[i].data(), seed, i, 1);
  }
  for (int op = 0; op < int(Op::count_); ++op) {
    auto& o = rb.out[op];
    auto& f = rb.flag[op];
    o.resize(n);
    f.resize(n);
    for (size_t i = 0; i < n; ++i) {
      auto [r, sq] = reference_op(Op(op), R::raw_value(rb.a[i]), R::raw_value(rb.b[i]));
      o[i] = R::encode(r);
      f[i] = sq;
    }
  }
  return rb;
}

void run_random(const FieldImpl& fi, const RandomBatch& rb, uint64_t seed, Counter& c) {
  Tally& t = c.t;
  const size_t n = rb.a.size();
  std::vector<Bytes32> out(n);
  std::vector<uint8_t> flags(n);
  std::vector<bool> in(n);
  for (size_t i = 0; i < n; ++i) in[i] = accepts(fi, rb.a[i]) && accepts(fi, rb.b[i]), c.outside += !in[i];
  for (int op = 0; op < int(Op::count_); ++op) {
    if (!fi.provides(Op(op))) {
      t.lacks(f25519::op_name(Op(op)));
      continue;
    }
    try {
      fi.eval(Op(op), rb.a.data(), rb.b.data(), n, out.data(), flags.data());
    } catch (const std::exception& e) {
      t.total += n;
      c.fail_report("FAIL " + fi.label() + " random " + f25519::op_name(Op(op)) + " seed=" + std::to_string(seed) + ": " + e.what() + "\n");
      continue;
    }
    for (size_t i = 0; i < n; ++i) {
      if (!in[i]) continue;
      ++t.total;
      const bool ok = out[i] == rb.out.at(op)[i] && (Op(op) != Op::sqrt_ratio || flags[i] == rb.flag.at(op)[i]);
      if (ok) ++t.pass;
      else
        c.fail_report("FAIL " + fi.label() + " random " + f25519::op_name(Op(op)) + " seed=" + std::to_string(seed) +
                      " index=" + std::to_string(i) + " [Random]\n  a = " + to_hex(rb.a[i]) + "\n  b = " + to_hex(rb.b[i]) + "\n" +
                      hexdump_diff(rb.out.at(op)[i].data(), out[i].data(), 32));
    }
  }
}

// The start-up derivation against the golden model: 1 (twice), d, 2d, sqrt(-1).
void run_derivation(const FieldImpl& fi, Counter& c) {
  const ref::Int d = R::mul(R::neg(ref::Int(121665)), R::invert(ref::Int(121666)));
  const Bytes32 want[f25519::kDerivedConstants] = {R::encode(1), R::encode(d), R::encode(R::add(d, d)), R::encode(R::sqrt_m1()),
                                                    R::encode(1)};
  static const char* const what[f25519::kDerivedConstants] = {"1^2", "d", "2d", "sqrt(-1)", "1*1"};
  const auto got = fi.derive();
  for (int i = 0; i < f25519::kDerivedConstants; ++i) {
    ++c.t.total;
    if (got[i] == want[i]) ++c.t.pass;
    else
      c.fail_report("FAIL " + fi.label() + " derive " + what[i] + " (from small integers in registers)\n" +
                    hexdump_diff(want[i].data(), got[i].data(), 32));
  }
}

}  // namespace

SelftestReport selftest(const SelftestOptions& opt) {
  const auto field_tests = vectors::parse_field("(embedded) vectors/field25519/ops.json", embedded_file("vectors/field25519/ops.json"));
  const auto x_tests = vectors::parse_x25519("(embedded) vectors/field25519/x25519_rfc7748.json",
                                             embedded_file("vectors/field25519/x25519_rfc7748.json"));
  const size_t n_random = opt.full ? 16384 : 512;
  SelftestReport rep;
  rep.notes.push_back(std::to_string(field_tests.size()) + " field vectors, " + std::to_string(x_tests.size()) +
                      " X25519 vectors, limb corners of every declared bound, " + std::to_string(n_random) +
                      " random operand pairs x " + std::to_string(int(Op::count_)) + " ops (seed " + std::to_string(opt.seed) + ")");
  std::vector<FieldImpl> impls;
  for (auto& fi : field_impls(opt.devices))
    if (opt.wants(fi.name)) impls.push_back(std::move(fi));
  if (impls.empty()) return rep;
  const RandomBatch rb = make_random_batch(opt.seed, n_random);
  for (auto& fi : impls) {
    const bool builtin = fi.builtin();
    SelftestRow row{fi.name, fi.where, {{"vectors"}, {"limbs"}, {"programs"}, {"encode"}, {"random"}}};
    if (fi.x25519) row.checks.push_back({"x25519"});
    if (fi.derive) row.checks.push_back({"derive"});
    const std::string again = reproduce_line(fi, opt.seed);
    Counter cv{row.checks[0], again}, cr{row.checks[4], again};
    run_field_vectors(fi, field_tests, cv);
    if (fi.limbs) {
      Counter cl{row.checks[1], ""};  // its reports carry their own reproduce line
      suite::field25519::LimbCheckOptions lopt;
      lopt.seed = opt.seed;
      lopt.label = fi.label();
      lopt.reproduce = again;
      lopt.report = [&](const std::string& what) { cl.fail_report(what); };
      auto res = suite::field25519::run_limb_checks(fi.limbs(), lopt);
      row.checks[1] = res.corners, row.checks[2] = res.programs, row.checks[3] = res.encode;
      if (res.outside_probes)
        rep.notes.push_back(fi.label() + ": " + std::to_string(res.outside_probes) + " limb probes just past the declared input bounds, " +
                            std::to_string(res.outside_differ) + " differ (outside precondition, not failures)" +
                            (res.outside_examples.empty() ? "" : "; first: " + res.outside_examples[0]));
    } else {
      for (int k = 1; k <= 3; ++k) row.checks[k].lacks("limb form");
    }
    run_random(fi, rb, opt.seed, cr);
    if (fi.x25519) {
      Counter cx{row.checks[5], again};
      run_x25519_vectors(fi, x_tests, opt.full, cx);
    }
    if (fi.derive) {
      Counter cd{row.checks.back(), again};
      run_derivation(fi, cd);
    }
    if (!builtin) {
      const size_t outside = cv.outside + cr.outside;
      if (outside)
        rep.notes.push_back(fi.label() + ": " + std::to_string(outside) +
                            " vector and random inputs at or above p not sent (the implementation declares canonical inputs only)");
    }
    rep.rows.push_back(std::move(row));
  }
  return rep;
}

}  // namespace bx::field25519
