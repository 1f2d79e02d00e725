#include "suite/field25519/limb_check.hpp"

#include <algorithm>

#include "gpu/field25519/draw.hpp"
#include "reference/field25519/ref25519.hpp"
#include "suite/field25519/reference_op.hpp"

namespace bx::suite::field25519 {
namespace R = ref::f25519;

const Int& modulus() { return R::p(); }

namespace {

struct Case {
  Limbs a, b;
  std::string what, flags;
};

bool narrower_or_equal(Bound x, Bound y) { return int(x) <= int(y); }
bool slow(Op o) { return o == Op::invert || o == Op::pow22523 || o == Op::sqrt_ratio; }
bool binary(Op o) { return o == Op::add || o == Op::sub || o == Op::mul || o == Op::sqrt_ratio; }

class Checker {
 public:
  Checker(const LimbOps& ops, const LimbCheckOptions& opt) : ops_(ops), opt_(opt), p_(modulus()) {}

  // Evaluates op on every case and judges each output: within the declared output bound, the reference's
  // field element, sqrt_ratio's flag; then (when encode is provided) the output's canonical bytes.
  std::vector<Limbs> run(Op op, const std::vector<Case>& cs, Tally& t, bool expect_zero = false) {
    const size_t n = cs.size();
    std::vector<Limbs> a(n), b(n), out(n, Limbs(ops_.form.limbs, Int(0)));
    std::vector<uint8_t> flags(n, 0);
    for (size_t i = 0; i < n; ++i) a[i] = cs[i].a, b[i] = cs[i].b;
    if (!n) return out;
    std::string error;
    try {
      ops_.op(op, a, b, out, flags);
    } catch (const std::exception& e) {
      error = e.what();
      t.total += n;
      batch_failed(f25519::op_name(op), n, cs[0], error);
      return out;
    }
    std::vector<Bytes32> want(n);
    (void)error;
    std::vector<bool> in_bound(n, false);
    for (size_t i = 0; i < n; ++i) {
      ++t.total;
      const auto [w, wflag] = reference_op(op, element(ops_.form, a[i], p_), element(ops_.form, b[i], p_));
      want[i] = R::encode(expect_zero ? Int(0) : w);
      std::string why;
      {
        const std::string past = past_bound(ops_.form, out[i], ops_.out[int(op)]);
        in_bound[i] = past.empty();
        if (!past.empty()) why = "output past its declared bound: " + past;
        else if (R::encode(element(ops_.form, out[i], p_)) != want[i]) why = "value differs from the reference";
        else if (op == Op::sqrt_ratio && (flags[i] != 0) != wflag) why = "was_square differs from the reference";
      }
      if (why.empty()) {
        ++t.pass;
        continue;
      }
      fail(std::string(f25519::op_name(op)), cs[i], binary(op), why, want[i], &out[i], nullptr);
    }
    if (ops_.encode) encode_outputs(op, cs, out, in_bound);
    return out;
  }

  void corners() {
    const auto near_p = near_values();
    for (int o = 0; o < kLimbOps; ++o) {
      const Op op = Op(o);
      if (!ops_.has(op)) continue;
      std::vector<Case> xs;  // every declared bound up to the op's input bound, then the NearP values
      for (Bound bd : {Bound::tight, Bound::loose, Bound::lazy2}) {
        if (!narrower_or_equal(bd, ops_.in[o])) continue;
        const auto cs = suite::corners(ops_.form, bd);
        const std::string flag = bd == Bound::tight ? "TightCorner" : bd == Bound::loose ? "LooseCorner" : "Lazy2Corner";
        for (size_t k = 0; k < cs.size(); ++k) xs.push_back({cs[k], {}, std::string(bound_name(bd)) + " corner " + std::to_string(k), flag});
      }
      xs.insert(xs.end(), near_p.begin(), near_p.end());
      std::vector<Case> batch;
      for (size_t i = 0; i < xs.size(); ++i)
        for (size_t j = 0; j < (binary(op) ? xs.size() : 1); ++j) {
          if (slow(op) && j > 2 && j != i) continue;
          batch.push_back({xs[i].a, xs[j].a, binary(op) ? xs[i].what + " x " + xs[j].what : xs[i].what,
                           binary(op) && xs[j].flags != xs[i].flags ? xs[i].flags + "," + xs[j].flags : xs[i].flags});
        }
      run(op, batch, res_.corners);
    }
  }

  // add of two tight values feeding every op that accepts the sum; x + neg(x) must be zero.
  void carries() {
    if (!ops_.has(Op::add)) return;
    std::vector<Case> tv;
    const auto tc = suite::corners(ops_.form, Bound::tight);
    for (size_t k = 0; k < tc.size(); ++k) tv.push_back({tc[k], {}, "tight corner " + std::to_string(k), "TightCorner"});
    for (auto& c : near_values()) tv.push_back(c);
    std::vector<Case> sums;
    for (auto& x : tv)
      for (auto& y : tv) sums.push_back({x.a, y.a, x.what + " + " + y.what, "CarryChain"});
    const auto s = run(Op::add, sums, res_.corners);
    const Limbs zero = represent_element(ops_.form, 0, p_);
    for (int o = 0; o < kLimbOps; ++o) {
      const Op op = Op(o);
      if (!ops_.has(op) || op == Op::add || slow(op)) continue;
      std::vector<Case> batch;
      for (size_t k = 0; k < s.size(); ++k) {
        const size_t m = s.size() - 1 - k;
        if (within(ops_.form, s[k], ops_.in[o]) && within(ops_.form, s[m], ops_.in[o]))
          batch.push_back({s[k], s[m], "(" + sums[k].what + ") with (" + sums[m].what + ")", "CarryChain"});
        if (op == Op::sub && within(ops_.form, s[k], ops_.in[o]) && within(ops_.form, zero, ops_.in[o]))
          batch.push_back({zero, s[k], "0 - (" + sums[k].what + ")", "CarryChain,SubFromZero"});
      }
      run(op, batch, res_.corners);
    }
    if (!ops_.has(Op::neg)) return;
    std::vector<Case> negs;
    for (auto& x : tv)
      if (within(ops_.form, x.a, ops_.in[int(Op::neg)])) negs.push_back({x.a, x.a, "neg " + x.what, x.flags});
    const auto ng = run(Op::neg, negs, res_.corners);
    std::vector<Case> back;
    for (size_t i = 0; i < negs.size(); ++i)
      if (within(ops_.form, negs[i].a, ops_.in[int(Op::add)]) && within(ops_.form, ng[i], ops_.in[int(Op::add)]))
        back.push_back({negs[i].a, ng[i], negs[i].what.substr(4) + " + neg(itself)", "NegSelf"});
    run(Op::add, back, res_.corners, /*expect_zero=*/true);
  }

  // Random programs within the lazy budget: each register remembers the bound of the op that wrote it, and
  // an op reads only registers within its declared input bound.
  void programs() {
    std::vector<Op> menu;
    for (int o = 0; o < kLimbOps; ++o)
      if (ops_.has(Op(o))) menu.push_back(Op(o));
    if (menu.empty()) return;
    const int P = opt_.programs, K = 4;
    uint64_t state = opt_.seed ^ 0x70726f6772616d73ULL;
    auto rnd = [&](uint64_t m) { return (state = f25519::mix64(state)) % m; };
    std::vector<std::vector<Limbs>> reg(P, std::vector<Limbs>(K));
    std::vector<std::vector<Bound>> cls(P, std::vector<Bound>(K, Bound::tight));
    const auto tc = suite::corners(ops_.form, Bound::tight);
    for (int p = 0; p < P; ++p)
      for (int k = 0; k < K; ++k) {
        if (rnd(3) == 0) {
          reg[p][k] = tc[rnd(tc.size())];
          continue;
        }
        Bytes32 e;
        f25519::draw_operand(e.data(), opt_.seed, uint64_t(p * K + k), 7);
        reg[p][k] = represent_element(ops_.form, R::decode_lax(e), p_);
      }
    for (int step = 0; step < opt_.steps; ++step) {
      Op op = menu[rnd(menu.size())];
      if (slow(op) && rnd(4)) op = menu[rnd(menu.size())];  // exponentiations less often
      const Bound in = ops_.in[int(op)];
      std::vector<Case> batch;
      std::vector<std::pair<int, int>> dest;
      for (int p = 0; p < P; ++p) {
        std::vector<int> ok;
        for (int k = 0; k < K; ++k)
          if (narrower_or_equal(cls[p][k], in)) ok.push_back(k);
        if (ok.empty()) continue;
        const int x = ok[rnd(ok.size())], y = ok[rnd(ok.size())], d = int(rnd(K));
        batch.push_back({reg[p][x], reg[p][y],
                         "program " + std::to_string(p) + " step " + std::to_string(step) + ": r" + std::to_string(d) + " = " +
                             f25519::op_name(op) + "(r" + std::to_string(x) + (binary(op) ? ", r" + std::to_string(y) : "") + ")",
                         "LazyProgram"});
        dest.push_back({p, d});
      }
      const auto out = run(op, batch, res_.programs);
      for (size_t i = 0; i < out.size(); ++i) {
        // An output past its declared bound has failed already; the register keeps its value, so one bug
        // does not feed every later step inputs outside their precondition.
        if (!within(ops_.form, out[i], ops_.out[int(op)])) continue;
        reg[dest[i].first][dest[i].second] = out[i];
        cls[dest[i].first][dest[i].second] = ops_.out[int(op)];
      }
    }
  }

  void encode_decode() {
    if (!ops_.encode) res_.encode.lacks("encode");
    if (!ops_.decode) res_.encode.lacks("decode");
    if (ops_.encode) {
      std::vector<Case> xs;
      for (Bound bd : {Bound::tight, Bound::loose}) {
        const auto cs = suite::corners(ops_.form, bd);
        for (size_t k = 0; k < cs.size(); ++k)
          xs.push_back({cs[k], {}, std::string(bound_name(bd)) + " corner " + std::to_string(k),
                        bd == Bound::tight ? "TightCorner,Canonicalisation" : "LooseCorner,Canonicalisation"});
      }
      for (auto& c : near_values()) xs.push_back(c);
      std::vector<Limbs> a;
      for (auto& c : xs) a.push_back(c.a);
      std::vector<Bytes32> got(a.size());
      if (call_encode(a, got, xs.front()))
        for (size_t i = 0; i < xs.size(); ++i) {
          const Bytes32 want = R::encode(element(ops_.form, xs[i].a, p_));
          ++res_.encode.total;
          if (got[i] == want) ++res_.encode.pass;
          else fail("encode", xs[i], false, "canonical bytes differ from the reference", want, nullptr, &got[i]);
        }
      else
        res_.encode.total += xs.size();
    }
    if (ops_.decode) {
      std::vector<Bytes32> in;
      std::vector<std::string> what;
      const Int t255 = Int(1) << 255;
      for (const Int& v : {Int(0), Int(1), Int(18), Int(19), Int(p_ - 1), Int(p_), Int(p_ + 1), Int(p_ + 18), Int(t255 - 1)}) {
        Bytes32 b{};
        const auto le = ref::to_le_bytes(v, 32);
        std::copy(le.begin(), le.end(), b.begin());
        in.push_back(b), what.push_back("bytes of " + v.str(0, std::ios_base::hex));
        b[31] |= 0x80;
        in.push_back(b), what.push_back("bytes of " + v.str(0, std::ios_base::hex) + " with bit 255 set");
      }
      for (uint64_t i = 0; i < 16; ++i) {
        Bytes32 b;
        f25519::draw_operand(b.data(), opt_.seed, i, 9);
        in.push_back(b), what.push_back("drawn operand " + std::to_string(i));
      }
      std::vector<Limbs> out(in.size(), Limbs(ops_.form.limbs, Int(0)));
      try {
        ops_.decode(in, out);
      } catch (const std::exception& e) {
        res_.encode.total += in.size();
        batch_failed("decode", in.size(), Case{{}, {}, what[0], "Decode"}, e.what());
        return;
      }
      for (size_t i = 0; i < in.size(); ++i) {
        ++res_.encode.total;
        const Bytes32 want = R::encode(R::decode_lax(in[i]));
        std::string why;
        {
          const std::string past = past_bound(ops_.form, out[i], Bound::tight);
          if (!past.empty()) why = "decoded limbs past the tight bound: " + past;
          else if (R::encode(element(ops_.form, out[i], p_)) != want) why = "decoded value differs from the reference";
        }
        if (why.empty()) {
          ++res_.encode.pass;
          continue;
        }
        if (opt_.report)
          opt_.report("FAIL " + opt_.label + " decode (" + what[i] + ") [Decode,NonCanonicalInput]: " + why + "\n  in        " +
                      to_hex(in[i]) + "\n  want      " + to_hex(want) +
                      "\n  got limbs " + limbs_hex(out[i]) + " = " + to_hex(R::encode(element(ops_.form, out[i], p_))) +
                      "\n  reproduce: " + opt_.reproduce + "\n");
      }
    }
  }

  void outside() {
    for (int o = 0; o < kLimbOps; ++o) {
      const Op op = Op(o);
      if (!ops_.has(op) || slow(op)) continue;
      const auto xs = just_outside(ops_.form, ops_.in[o]);
      if (xs.empty()) continue;
      std::vector<Limbs> a = xs, b = xs, out(xs.size(), Limbs(ops_.form.limbs, Int(0)));
      std::vector<uint8_t> flags(xs.size());
      try {
        ops_.op(op, a, b, out, flags);
      } catch (const std::exception&) {
        res_.outside_probes += xs.size(), res_.outside_differ += xs.size();
        continue;
      }
      for (size_t i = 0; i < xs.size(); ++i) {
        ++res_.outside_probes;
        const auto [w, wf] = reference_op(op, element(ops_.form, a[i], p_), element(ops_.form, b[i], p_));
        (void)wf;
        const bool good = within(ops_.form, out[i], ops_.out[o]) && R::encode(element(ops_.form, out[i], p_)) == R::encode(w);
        if (good) continue;
        ++res_.outside_differ;
        if (res_.outside_examples.size() < 3)
          res_.outside_examples.push_back(std::string(f25519::op_name(op)) + " on " + limbs_hex(a[i]) + " (past the " +
                                          bound_name(ops_.in[o]) + " bound) -> " + limbs_hex(out[i]));
      }
    }
  }

  LimbCheckResult result() { return std::move(res_); }
  void lacks(const std::string& op) { res_.corners.lacks(op), res_.programs.lacks(op); }

 private:
  // Values next to 0, p, 2p, 2^255 and 2^256 that the form holds in its tight bound (canonicalisation).
  std::vector<Case> near_values() const {
    const Int t255 = Int(1) << 255, t256 = Int(1) << 256;
    std::vector<Case> v;
    for (const Int& x : {Int(0), Int(1), Int(19), Int(p_ - 1), Int(p_), Int(p_ + 1), Int(p_ + 18), Int(t255 - 1), Int(t255),
                         Int(t255 + 18), Int(2 * p_ - 1), Int(2 * p_), Int(2 * p_ + 37), Int(t256 - 39), Int(t256 - 38), Int(t256 - 1)})
      if (auto r = represent(ops_.form, x, p_)) v.push_back({*r, {}, "held 0x" + x.str(0, std::ios_base::hex), "NearP"});
    return v;
  }

  bool call_encode(const std::vector<Limbs>& a, std::vector<Bytes32>& got, const Case& first) {
    try {
      ops_.encode(a, got);
      return true;
    } catch (const std::exception& e) {
      batch_failed("encode", a.size(), first, e.what());
      return false;
    }
  }

  // A call that failed as a whole (an error code, a crash, a hang, a write past a buffer): every case of
  // the batch fails, reported once with the first case.
  void batch_failed(const std::string& what_op, size_t n, const Case& first, const std::string& error) {
    if (opt_.report)
      opt_.report("FAIL " + opt_.label + " " + what_op + " (batch of " + std::to_string(n) + " from " + first.what + ") [" + first.flags +
                  "]: " + error + "\n  reproduce: " + opt_.reproduce + "\n");
  }

  void encode_outputs(Op op, const std::vector<Case>& cs, const std::vector<Limbs>& out, const std::vector<bool>& in_bound) {
    std::vector<Limbs> a;
    std::vector<size_t> idx;
    for (size_t i = 0; i < out.size(); ++i)
      if (in_bound[i] && narrower_or_equal(ops_.out[int(op)], Bound::loose)) a.push_back(out[i]), idx.push_back(i);
    if (a.empty()) return;
    std::vector<Bytes32> got(a.size());
    if (!call_encode(a, got, cs[idx[0]])) {
      res_.encode.total += a.size();
      return;
    }
    for (size_t k = 0; k < a.size(); ++k) {
      ++res_.encode.total;
      const Bytes32 w = R::encode(element(ops_.form, a[k], p_));
      if (got[k] == w) ++res_.encode.pass;
      else {
        Case c = cs[idx[k]];
        c.a = a[k], c.b.clear();
        c.what = "output of " + std::string(f25519::op_name(op)) + " (" + c.what + ")";
        c.flags += ",Canonicalisation";
        fail("encode", c, false, "canonical bytes differ from the reference", w, nullptr, &got[k]);
      }
    }
  }

  void fail(const std::string& what_op, const Case& c, bool show_b, const std::string& why, const Bytes32& want,
            const Limbs* got_limbs, const Bytes32* got_bytes) {
    if (!opt_.report) return;
    std::string s = "FAIL " + opt_.label + " " + what_op + " (" + c.what + ") [" + c.flags + "]: " + why + "\n  a limbs   " +
                    limbs_hex(c.a) + "\n";
    if (show_b) s += "  b limbs   " + limbs_hex(c.b) + "\n";
    s += "  want      " + to_hex(want) + "\n";
    if (got_limbs) s += "  got limbs " + limbs_hex(*got_limbs) + " = " + to_hex(R::encode(element(ops_.form, *got_limbs, p_))) + "\n";
    if (got_bytes) s += "  got       " + to_hex(*got_bytes) + "\n";
    s += "  reproduce: " + opt_.reproduce + "\n";
    opt_.report(s);
  }

  const LimbOps& ops_;
  const LimbCheckOptions& opt_;
  const Int& p_;
  LimbCheckResult res_;
};

}  // namespace

LimbCheckResult run_limb_checks(const LimbOps& ops, const LimbCheckOptions& opt) {
  Checker c(ops, opt);
  for (int o = 0; o < kLimbOps; ++o)
    if (!ops.has(Op(o))) c.lacks(f25519::op_name(Op(o)));
  c.corners();
  c.carries();
  c.programs();
  c.encode_decode();
  c.outside();
  return c.result();
}

}  // namespace bx::suite::field25519
