// A built-in layout's limbs seen through the engine's run-time limb form (suite/limb_form.hpp), built from
// the bounds the layout declares (F::bounds): its form, conversions between F::fe and exact limbs, and the
// typed helpers the property suite uses (value, bound membership, a tight representation, the corners of
// each bound). One implementation of each, shared with plugins' forms, so the selftest, the property suite
// and an outside layout reach the same corners.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "gpu/field25519/layouts.hpp"
#include "reference/field25519/ref25519.hpp"
#include "suite/limb_form.hpp"

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

inline suite::Bound to_suite(Bound b) { return suite::Bound(int(b)); }  // the same order: tight, loose, lazy2

// The layout's declared bounds as a run-time form (lazy2 all zero where the layout declares none).
template <class F>
const suite::LimbForm& form_of() {
  static const suite::LimbForm f = [] {
    suite::LimbForm r;
    r.limbs = F::N;
    r.bits = int(8 * sizeof(typename F::limb));
    r.is_signed = F::bounds.is_signed;
    for (int j = 0; j < F::N; ++j) {
      r.weight.push_back(F::bounds.weight[j]);
      r.tight.push_back(uint64_t(F::bounds.tight[j]));
      r.loose.push_back(uint64_t(F::bounds.loose[j]));
      r.lazy2.push_back(F::bounds.lazy2_sub ? uint64_t(F::bounds.lazy2[j]) : 0);
    }
    return r;
  }();
  return f;
}

template <class F>
typename F::fe to_fe(const suite::Limbs& x) {
  typename F::fe r;
  for (int j = 0; j < F::N; ++j)
    r.v[j] = F::bounds.is_signed ? typename F::limb(x[j].template convert_to<int64_t>()) : typename F::limb(x[j].template convert_to<uint64_t>());
  return r;
}
template <class F>
suite::Limbs from_fe(const typename F::fe& r) {
  suite::Limbs x(F::N);
  for (int j = 0; j < F::N; ++j) x[j] = F::bounds.is_signed ? Int(int64_t(r.v[j])) : Int(uint64_t(r.v[j]));
  return x;
}

template <class F>
bool declares(Bound b) {
  return b != Bound::lazy2 || F::bounds.lazy2_sub;
}
template <class F>
Int value_of(const typename F::fe& a) {
  return suite::held(form_of<F>(), from_fe<F>(a));
}
template <class F>
bool within(const typename F::fe& a, Bound b) {
  return suite::within(form_of<F>(), from_fe<F>(a), to_suite(b));
}
// A tight representation of v (suite::represent: v itself, else shifted by a multiple of p; use value_of()
// on the result). nullopt if none fits the layout's tight bounds.
template <class F>
std::optional<typename F::fe> represent(const Int& v) {
  const auto r = suite::represent(form_of<F>(), v, ref::f25519::p());
  if (!r) return std::nullopt;
  return to_fe<F>(*r);
}
// Limb vectors at the corners of a declared bound (suite::corners); empty when the layout does not declare it.
template <class F>
std::vector<typename F::fe> corner_reps(Bound b) {
  std::vector<typename F::fe> out;
  if (!declares<F>(b)) return out;
  for (const auto& c : suite::corners(form_of<F>(), to_suite(b))) out.push_back(to_fe<F>(c));
  return out;
}
template <class F>
std::string limbs_hex(const typename F::fe& a) {
  return suite::limbs_hex(from_fe<F>(a));
}

}  // namespace bx::field25519
