// The checkers' view of a layout's limbs, built from the bounds the layout declares (F::bounds):
// exact value of a limb vector, bound membership, a tight representation of a value, the limb corners
// of each declared bound, and each op's input/output contract. The selftest and the property suite use
// the same corners, so the selftest alone catches what the property suite catches at the bounds.
#pragma once
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "gpu/field25519/layouts.hpp"
#include "reference/common/prime_field.hpp"

namespace bx::field25519 {

using f25519::Bound;
using f25519::Op;
using ref::Int;

// Input contract and output bound of each op (the layout API's contract, the same in every layout).
struct OpContract {
  Op op;
  bool binary;
  Bound in;
  Bound out;
};
inline const std::vector<OpContract>& op_contracts() {
  static const std::vector<OpContract> ops = {
      {Op::add, true, Bound::tight, Bound::loose},        {Op::sub, true, Bound::loose, Bound::tight},
      {Op::neg, false, Bound::loose, Bound::tight},       {Op::mul, true, Bound::loose, Bound::tight},
      {Op::sqr, false, Bound::loose, Bound::tight},       {Op::mul_small, false, Bound::loose, Bound::tight},
      {Op::invert, false, Bound::loose, Bound::tight},    {Op::pow22523, false, Bound::loose, Bound::tight},
      {Op::sqrt_ratio, true, Bound::loose, Bound::tight}, {Op::canonical, false, Bound::loose, Bound::loose},
  };
  return ops;
}

template <class F>
bool declares(Bound b) {
  return b != Bound::lazy2 || F::bounds.lazy2_sub;
}

template <class F>
Int value_of(const typename F::fe& a) {
  Int v = 0;
  for (int i = 0; i < F::N; ++i) v += Int(int64_t(a.v[i])) << F::bounds.weight[i];
  return v;
}

template <class F>
bool within(const typename F::fe& a, Bound b) {
  if (!declares<F>(b)) return false;
  const int64_t* mx = F::bounds.max(b);
  for (int i = 0; i < F::N; ++i) {
    const int64_t x = int64_t(a.v[i]);
    if (!F::bounds.is_signed && x < 0) return false;
    if ((x < 0 ? -x : x) > mx[i]) return false;
  }
  return true;
}

// Tight representation of v (0 <= v), digit by digit with the remainder in the top limb; balanced
// digits for signed layouts, whose top limb then wraps by 2^255 = 19 (the value changes by a multiple
// of p: use value_of() on the result). nullopt if it does not fit the layout's tight bounds.
template <class F>
std::optional<typename F::fe> represent(const Int& v) {
  const auto& m = F::bounds;
  typename F::fe r;
  Int rest = v;
  for (int i = 0; i + 1 < F::N; ++i) {
    const int s = m.weight[i + 1] - m.weight[i];
    Int d = rest & ((Int(1) << s) - 1);
    if (m.is_signed && d >= (Int(1) << (s - 1))) d -= Int(1) << s;
    rest = (rest - d) >> s;
    r.v[i] = typename F::limb(static_cast<int64_t>(d));
  }
  const int top_bits = 255 - m.weight[F::N - 1];
  if (m.is_signed && rest > Int(m.tight[F::N - 1])) {
    rest -= Int(1) << top_bits;
    r.v[0] = typename F::limb(int64_t(r.v[0]) + 19);
  }
  if (rest > Int(m.tight[F::N - 1]) || rest < -Int(m.tight[F::N - 1])) return std::nullopt;
  r.v[F::N - 1] = typename F::limb(static_cast<int64_t>(rest));
  if (!within<F>(r, Bound::tight)) return std::nullopt;
  return r;
}

// Limb vectors at the corners of a declared bound: all limbs at the maximum, at zero, alternating both
// ways, all at maximum - 1, the negative maximum and a mixed-sign pattern (signed layouts), and each limb
// alone at its maximum. Empty when the layout does not declare the bound.
template <class F>
std::vector<typename F::fe> corner_reps(Bound b) {
  std::vector<typename F::fe> out;
  if (!declares<F>(b)) return out;
  const int64_t* mx = F::bounds.max(b);
  auto make = [&](auto fn) {
    typename F::fe r;
    for (int i = 0; i < F::N; ++i) r.v[i] = typename F::limb(fn(i));
    out.push_back(r);
  };
  make([&](int i) { return mx[i]; });
  make([&](int) { return int64_t(0); });
  make([&](int i) { return i & 1 ? mx[i] : 0; });
  make([&](int i) { return i & 1 ? 0 : mx[i]; });
  make([&](int i) { return mx[i] - 1; });
  if (F::bounds.is_signed) {
    make([&](int i) { return -mx[i]; });
    make([&](int i) { return i & 1 ? -mx[i] : mx[i]; });
  }
  for (int k = 0; k < F::N; ++k) make([&](int i) { return i == k ? mx[i] : 0; });
  return out;
}

// "[0x1, -0x2, ...]": the limbs as printed in every failure report.
template <class F>
std::string limbs_hex(const typename F::fe& a) {
  std::string s = "[";
  char buf[32];
  for (int i = 0; i < F::N; ++i) {
    std::snprintf(buf, sizeof buf, "%s%s0x%llx", i ? ", " : "", int64_t(a.v[i]) < 0 ? "-" : "",
                  (unsigned long long)(int64_t(a.v[i]) < 0 ? -int64_t(a.v[i]) : int64_t(a.v[i])));
    s += buf;
  }
  return s + "]";
}

}  // namespace bx::field25519
