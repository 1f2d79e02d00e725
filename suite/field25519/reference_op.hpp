// The golden model's answer to one f25519::Op: the single dispatch from the suite's op numbering to the
// reference (used by vectors, selftest, oracle, bench/verify and the tests). Result reduced mod p;
// the flag is sqrt_ratio's was_square (true for other ops).
#pragma once
#include <array>
#include <cstdint>
#include <utility>
#include "gpu/field25519/draw.hpp"
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

// The bulk program (f25519::bulk_program) on the golden model for draw `idx` of operand stream `seed`:
// a*b, a^2, (a+b)(a-b), a*b - (a^2 + (a+b)(a-b)), canonical bytes.
inline std::array<ref::f25519::Bytes32, 4> reference_bulk_program(uint64_t seed, uint64_t idx) {
  namespace R = ref::f25519;
  R::Bytes32 a, b;
  f25519::draw_operand(a.data(), seed, idx, 0);
  f25519::draw_operand(b.data(), seed, idx, 1);
  const ref::Int x = R::raw_value(a), y = R::raw_value(b);
  const ref::Int r1 = R::mul(x, y), r2 = R::sqr(x), r3 = R::mul(R::add(x, y), R::sub(x, y));
  return {R::encode(r1), R::encode(r2), R::encode(r3), R::encode(R::sub(r1, R::add(r2, r3)))};
}
}  // namespace bx
