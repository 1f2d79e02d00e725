#include "cli/selftest.hpp"

#include <chrono>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>

#include "cli/embedded.hpp"
#include "cli/field_reference.hpp"
#include "cli/md5z.hpp"
#include "cli/vectors.hpp"
#include "gpu/field25519/draw.hpp"
#include "reference/field25519/ref25519.hpp"

namespace bx {
using f25519::Op;
namespace R = ref::f25519;

namespace {

struct Tally {
  size_t pass = 0, total = 0;
  int shown = 0;
  void fail_report(const std::string& what) {
    if (shown++ < 3) std::fprintf(stderr, "%s", what.c_str());
  }
};

const std::string* embedded(const char* rel) {
  for (auto& f : embedded_vectors())
    if (f.path == rel) return &f.content;
  return nullptr;
}

void run_field_vectors(const FieldImpl& fi, const std::vector<vectors::FieldTest>& tests, Tally& t) {
  std::map<int, std::vector<const vectors::FieldTest*>> by_op;
  for (auto& v : tests) by_op[int(v.op)].push_back(&v);
  for (auto& [op, list] : by_op) {
    std::vector<Bytes32> a, b, out(list.size());
    std::vector<uint8_t> flags(list.size());
    for (auto* v : list) a.push_back(v->a), b.push_back(v->b);
    fi.eval(Op(op), a.data(), b.data(), list.size(), out.data(), flags.data());
    for (size_t i = 0; i < list.size(); ++i) {
      ++t.total;
      const bool ok = out[i] == list[i]->out && (Op(op) != Op::sqrt_ratio || (flags[i] != 0) == list[i]->was_square);
      if (ok) {
        ++t.pass;
        continue;
      }
      t.fail_report("FAIL " + fi.label() + " vectors/field25519/ops.json tcId " + std::to_string(list[i]->tc_id) + " " +
                    f25519::op_name(Op(op)) + " (" + list[i]->comment + ")\n  a = " + to_hex(list[i]->a) + "\n  b = " +
                    to_hex(list[i]->b) + "\n" + hexdump_diff(list[i]->out.data(), out[i].data(), 32));
    }
  }
}

void run_x25519_vectors(const FieldImpl& fi, const std::vector<vectors::X25519Test>& tests, bool full, Tally& t) {
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
      t.fail_report("FAIL " + fi.label() + " x25519 tcId " + std::to_string(single[i]->tc_id) + " (" + single[i]->comment +
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
    else t.fail_report("FAIL " + fi.label() + " x25519 iterated x" + std::to_string(v.iterations) + "\n" +
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

void run_random(const FieldImpl& fi, const RandomBatch& rb, uint64_t seed, Tally& t) {
  const size_t n = rb.a.size();
  std::vector<Bytes32> out(n);
  std::vector<uint8_t> flags(n);
  for (int op = 0; op < int(Op::count_); ++op) {
    fi.eval(Op(op), rb.a.data(), rb.b.data(), n, out.data(), flags.data());
    for (size_t i = 0; i < n; ++i) {
      ++t.total;
      const bool ok = out[i] == rb.out.at(op)[i] && (Op(op) != Op::sqrt_ratio || flags[i] == rb.flag.at(op)[i]);
      if (ok) ++t.pass;
      else
        t.fail_report("FAIL " + fi.label() + " random " + f25519::op_name(Op(op)) + " seed=" + std::to_string(seed) +
                      " index=" + std::to_string(i) + "\n  a = " + to_hex(rb.a[i]) + "\n  b = " + to_hex(rb.b[i]) + "\n" +
                      hexdump_diff(rb.out.at(op)[i].data(), out[i].data(), 32));
    }
  }
}

}  // namespace

int run_selftest(const SelftestOptions& opt) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::string* fv = embedded("vectors/field25519/ops.json");
  const std::string* xv = embedded("vectors/field25519/x25519_rfc7748.json");
  if (!fv || !xv) throw InputError("selftest: the embedded vector files are missing from this build");
  const auto field_tests = vectors::parse_field("(embedded) vectors/field25519/ops.json", *fv);
  const auto x_tests = vectors::parse_x25519("(embedded) vectors/field25519/x25519_rfc7748.json", *xv);
  const size_t n_random = opt.full ? 16384 : 512;
  std::printf("bitexact selftest (%s): %zu field vectors, %zu X25519 vectors, %zu random operand pairs x %d ops, seed %llu\n",
              opt.full ? "full" : "quick", field_tests.size(), x_tests.size(), n_random, int(Op::count_),
              (unsigned long long)opt.seed);
  if (opt.devices.gpus.empty()) {
    const int n = gpu_count();
    std::printf("%s\n", n ? "GPUs present but not selected: CPU variants only"
                          : "no GPU found: running the CPU (portable) variants only; GPU variants NOT run");
  }
  for (int g : opt.devices.gpus) std::printf("gpu%d: %s\n", g, gpu_name(g).c_str());
  const RandomBatch rb = make_random_batch(opt.seed, n_random);
  const auto impls = field_impls(opt.devices);
  nlohmann::ordered_json js = nlohmann::ordered_json::array();
  bool all = true;
  std::printf("\n%-34s %-6s %-15s %-15s %-15s %s\n", "variant", "where", "field vectors", "x25519 vectors", "random", "verdict");
  for (auto& fi : impls) {
    Tally tv, tx, tr;
    run_field_vectors(fi, field_tests, tv);
    run_x25519_vectors(fi, x_tests, opt.full, tx);
    run_random(fi, rb, opt.seed, tr);
    const bool ok = tv.pass == tv.total && tx.pass == tx.total && tr.pass == tr.total && tv.total && tx.total && tr.total;
    all = all && ok;
    auto frac = [](const Tally& t) { return std::to_string(t.pass) + "/" + std::to_string(t.total); };
    std::printf("%-34s %-6s %-15s %-15s %-15s %s\n", fi.variant().c_str(), fi.where.c_str(), frac(tv).c_str(),
                frac(tx).c_str(), frac(tr).c_str(), ok ? "PASS" : "FAIL");
    js.push_back({{"variant", fi.variant()}, {"where", fi.where}, {"vectors", {tv.pass, tv.total}},
                  {"x25519", {tx.pass, tx.total}}, {"random", {tr.pass, tr.total}}, {"pass", ok}});
  }
  all = md5z::selftest(opt.devices, opt.full, opt.seed, js) && all;
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("\nselftest %s: %zu field25519 and %zu md5z implementation(s), %.1f s\n", all ? "PASSED" : "FAILED", impls.size(),
              js.size() - impls.size(), s);
  if (opt.json) std::printf("%s\n", js.dump().c_str());
  return all ? 0 : 1;
}

}  // namespace bx
