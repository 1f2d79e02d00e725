// The selftest's limb-level check of one layout on one place: what the property suite finds bugs with,
// as fixed limb vectors rather than canonical bytes, so a miner's selftest on its own card reaches the
// same rarely taken branches.
//   1. every op on the corners of its declared input bound (and of tight), binary ops over the cross
//      product; sub also on lazy2 corners where declared;
//   2. values next to 0, p, 2p, 2^255 and 2^256 that the layout can hold (canonicalisation branches;
//      a signed layout holds them shifted by a multiple of p, see represent());
//   3. two-op programs: add of two tight corners feeding every op (sub(0, a + b) is donna's bug), and
//      x + neg(x), which must canonicalise to zero for every corner.
// Each result must lie within the op's declared output bound and encode to the reference's bytes.
#pragma once
#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "cli/family.hpp"
#include "cli/field25519/limb_model.hpp"
#include "cli/field25519/reference_op.hpp"
#include "cli/hex.hpp"
#include "reference/field25519/ref25519.hpp"

namespace bx::field25519 {

// Batch evaluation on a place: out[i] = op(a[i], b[i]) as limbs, bytes[32 i ..] its canonical encoding,
// flags[i] sqrt_ratio's was_square.
template <class F>
using LimbEval = std::function<void(Op, const typename F::fe* a, const typename F::fe* b, size_t n, typename F::fe* out,
                                    uint8_t* bytes, uint8_t* flags)>;

namespace detail {

template <class F>
std::vector<typename F::fe> near_multiples_of_p() {
  namespace R = ref::f25519;
  const Int p = R::p(), t255 = Int(1) << 255, t256 = Int(1) << 256;
  std::vector<typename F::fe> v;
  const std::vector<Int> values = {Int(0),      Int(1),          Int(19),     Int(p - 1),      Int(p),      Int(p + 1),
                                   Int(p + 18), Int(t255 - 1),   Int(t255),   Int(t255 + 18),  Int(2 * p - 1),
                                   Int(2 * p),  Int(2 * p + 37), Int(t256 - 39), Int(t256 - 38), Int(t256 - 1)};
  for (const Int& x : values)
    if (auto r = represent<F>(x)) v.push_back(*r);
  return v;
}

template <class F>
struct Batch {
  Op op;
  Bound out;
  std::vector<typename F::fe> a, b;
  std::vector<std::string> what;
  void add(const typename F::fe& x, const typename F::fe& y, std::string w) {
    a.push_back(x), b.push_back(y), what.push_back(std::move(w));
  }
};

// Runs a batch and judges every item; returns the output limbs (for a following program step).
template <class F>
std::vector<typename F::fe> judge(const LimbEval<F>& eval, const Batch<F>& bt, Tally& t, const std::string& label,
                                  const std::function<void(const std::string&)>& report, bool expect_zero = false) {
  namespace R = ref::f25519;
  const size_t n = bt.a.size();
  std::vector<typename F::fe> out(n);
  std::vector<uint8_t> bytes(32 * n), flags(n);
  if (n) eval(bt.op, bt.a.data(), bt.b.data(), n, out.data(), bytes.data(), flags.data());
  for (size_t i = 0; i < n; ++i) {
    ++t.total;
    const auto [want, want_flag] = reference_op(bt.op, value_of<F>(bt.a[i]), value_of<F>(bt.b[i]));
    const Bytes32 exp = R::encode(expect_zero ? Int(0) : want);
    std::string why;
    if (!within<F>(out[i], bt.out)) why = "output limbs exceed the declared bound";
    else if (!std::equal(exp.begin(), exp.end(), &bytes[32 * i])) why = "canonical bytes differ from the reference";
    else if (bt.op == Op::sqrt_ratio && (flags[i] != 0) != want_flag) why = "was_square differs from the reference";
    if (why.empty()) {
      ++t.pass;
      continue;
    }
    report("FAIL " + label + " limbs " + f25519::op_name(bt.op) + " (" + bt.what[i] + "): " + why + "\n  a limbs   " +
           limbs_hex<F>(bt.a[i]) + "\n  b limbs   " + limbs_hex<F>(bt.b[i]) + "\n  out limbs " + limbs_hex<F>(out[i]) + "\n" +
           hexdump_diff(exp.data(), &bytes[32 * i], 32));
  }
  return out;
}

}  // namespace detail

template <class F>
Tally run_limb_cases(const LimbEval<F>& eval, const std::string& label, const std::function<void(const std::string&)>& report) {
  using detail::Batch;
  Tally t{"limbs"};
  const auto tight = corner_reps<F>(Bound::tight), near_p = detail::near_multiples_of_p<F>();
  auto with_tight = [&](Bound b) {
    auto v = corner_reps<F>(b);
    if (b != Bound::tight) v.insert(v.end(), tight.begin(), tight.end());
    v.insert(v.end(), near_p.begin(), near_p.end());
    return v;
  };
  // 1 + 2: single ops at the corners. Exponentiations take each x with a few partners only.
  for (const OpContract& c : op_contracts()) {
    Batch<F> bt{c.op, c.out, {}, {}, {}};
    const auto xs = with_tight(c.in);
    const bool slow = c.op == Op::invert || c.op == Op::pow22523 || c.op == Op::sqrt_ratio;
    for (size_t i = 0; i < xs.size(); ++i)
      for (size_t j = 0; j < (c.binary ? xs.size() : 1); ++j) {
        if (slow && j > 2 && j != i) continue;
        bt.add(xs[i], xs[j], "corner " + std::to_string(i) + " x " + std::to_string(j));
      }
    detail::judge<F>(eval, bt, t, label, report);
  }
  const bool lazy2_wider = F::bounds.lazy2_sub && !std::equal(F::bounds.lazy2, F::bounds.lazy2 + F::N, F::bounds.loose);
  if (lazy2_wider) {  // (8x32: lazy2 = loose = any 256-bit value, already covered above)
    Batch<F> bt{Op::sub, Bound::tight, {}, {}, {}};
    const auto lz = with_tight(Bound::lazy2);
    for (size_t i = 0; i < lz.size(); ++i)
      for (size_t j = 0; j < lz.size(); ++j) bt.add(lz[i], lz[j], "lazy2 corner " + std::to_string(i) + " x " + std::to_string(j));
    detail::judge<F>(eval, bt, t, label, report);
  }
  // 3: add of two tight values feeding every op; x + neg(x) == 0.
  auto tv = tight;
  tv.insert(tv.end(), near_p.begin(), near_p.end());
  Batch<F> sums{Op::add, Bound::loose, {}, {}, {}};
  for (size_t i = 0; i < tv.size(); ++i)
    for (size_t j = 0; j < tv.size(); ++j) sums.add(tv[i], tv[j], "corner " + std::to_string(i) + " + " + std::to_string(j));
  const auto s = detail::judge<F>(eval, sums, t, label, report);
  const typename F::fe zero{};
  for (const OpContract& c : op_contracts()) {
    if (c.in == Bound::tight || c.op == Op::invert || c.op == Op::pow22523 || c.op == Op::sqrt_ratio) continue;
    Batch<F> bt{c.op, c.out, {}, {}, {}};
    for (size_t k = 0; k < s.size(); ++k) {
      bt.add(s[k], s[s.size() - 1 - k], "(" + sums.what[k] + ") with (" + sums.what[s.size() - 1 - k] + ")");
      if (c.op == Op::sub) bt.add(zero, s[k], "0 - (" + sums.what[k] + ")");
    }
    detail::judge<F>(eval, bt, t, label, report);
  }
  Batch<F> negs{Op::neg, Bound::tight, tv, tv, {}};
  for (size_t i = 0; i < tv.size(); ++i) negs.what.push_back("neg corner " + std::to_string(i));
  const auto n = detail::judge<F>(eval, negs, t, label, report);
  Batch<F> back{Op::add, Bound::loose, {}, {}, {}};
  for (size_t i = 0; i < tv.size(); ++i) back.add(tv[i], n[i], "corner " + std::to_string(i) + " + neg(itself)");
  detail::judge<F>(eval, back, t, label, report, /*expect_zero=*/true);
  return t;
}

}  // namespace bx::field25519
