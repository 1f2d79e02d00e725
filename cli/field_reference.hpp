// The golden model's answer to one f25519::Op: the single dispatch from the suite's op numbering to the
// reference (used by vectors, selftest, oracle, bench/verify and the tests). Result reduced mod p;
// the flag is sqrt_ratio's was_square (true for other ops).
#pragma once
#include <utility>
#include "gpu/field25519/layouts.hpp"
#include "reference/field25519/ref25519.hpp"

namespace bx {
inline std::pair<ref::Int, bool> reference_op(f25519::Op op, const ref::Int& a, const ref::Int& b) {
  namespace R = ref::f25519;
  using f25519::Op;
  switch (op) {
    case Op::add: return {R::add(a, b), true};
    case Op::sub: return {R::sub(a, b), true};
    case Op::neg: return {R::neg(a), true};
    case Op::mul: return {R::mul(a, b), true};
    case Op::sqr: return {R::sqr(a), true};
    case Op::mul_small: return {R::mul_small(a, f25519::kMulSmallK), true};
    case Op::invert: return {R::invert(a), true};
    case Op::pow22523: return {R::pow22523(a), true};
    case Op::sqrt_ratio: {
      auto r = R::sqrt_ratio(a, b);
      return {R::field().reduce(r.root), r.was_square};
    }
    default: return {R::field().reduce(a), true};
  }
}
}  // namespace bx
