// All field25519 layouts and the type lists that tests, kernels and the registry iterate over.
// Adding a layout: write gpu/field25519/feNN.hpp with the layout API, then add it to AllLayouts.
#pragma once
#include "gpu/field25519/fe26.hpp"
#include "gpu/field25519/fe29.hpp"
#include "gpu/field25519/fe32.hpp"
#include "gpu/field25519/fe51.hpp"
#include "gpu/field25519/fe51s.hpp"
#include "gpu/field25519/fe_ops.hpp"

namespace bx::f25519 {

template <class... Ts>
struct type_list {};

template <template <class> class... Ls>
struct layout_list {};
using AllLayouts = layout_list<Fe51, Fe32, Fe29, Fe26, Fe51s>;

// fn.template operator()<L<carry::portable>>() for every layout L of AllLayouts, in order: host code that
// compares the layouts inside one check (the cross-layout tests, the fuzz targets, ecvrf's host variants).
template <template <class> class... Ls, class Fn>
void for_each_host_layout_in(layout_list<Ls...>, Fn&& fn) {
  (fn.template operator()<Ls<carry::portable>>(), ...);
}
template <class Fn>
void for_each_host_layout(Fn&& fn) {
  for_each_host_layout_in(AllLayouts{}, fn);
}

// Operations a batch evaluates (the oracle, vectors, selftest and kernels share this numbering).
enum class Op : int { add, sub, neg, mul, sqr, mul_small, invert, pow22523, sqrt_ratio, canonical, count_ };
inline const char* op_name(Op op) {
  switch (op) {
    case Op::add: return "add";
    case Op::sub: return "sub";
    case Op::neg: return "neg";
    case Op::mul: return "mul";
    case Op::sqr: return "sqr";
    case Op::mul_small: return "mul_small";
    case Op::invert: return "invert";
    case Op::pow22523: return "pow22523";
    case Op::sqrt_ratio: return "sqrt_ratio";
    case Op::canonical: return "canonical";
    default: return "?";
  }
}
constexpr uint32_t kMulSmallK = 121665;

// One operation on limbs within the op's contract; returns sqrt_ratio's flag (else true).
// Op::canonical leaves the limbs unchanged (the caller encodes them).
template <class F>
BX_HD bool eval_limbs(Op op, typename F::fe& r, const typename F::fe& x, const typename F::fe& y) {
  bool flag = true;
  switch (op) {
    case Op::add: F::add(r, x, y); break;
    case Op::sub: F::sub(r, x, y); break;
    case Op::neg: F::neg(r, x); break;
    case Op::mul: F::mul(r, x, y); break;
    case Op::sqr: F::sqr(r, x); break;
    case Op::mul_small: F::mul_small(r, x, kMulSmallK); break;
    case Op::invert: fe_invert<F>(r, x); break;
    case Op::pow22523: fe_pow22523<F>(r, x); break;
    case Op::sqrt_ratio: flag = fe_sqrt_ratio<F>(r, x, y); break;
    default: r = x; break;
  }
  return flag;
}

// The same on 32-byte operands (bits 0..254 read, from_bytes gives tight), canonical result.
template <class F>
BX_HD bool eval_bytes(Op op, uint8_t out[32], const uint8_t a[32], const uint8_t b[32]) {
  typename F::fe x, y, r;
  F::from_bytes(x, a);
  F::from_bytes(y, b);
  const bool flag = eval_limbs<F>(op, r, x, y);
  F::to_bytes(out, r);
  return flag;
}

}  // namespace bx::f25519
