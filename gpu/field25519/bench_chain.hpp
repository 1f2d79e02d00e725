// One step of `bench field25519`'s dependent chains, run by the GPU kernel and the host runners alike.
// The multiply steps (x, y) <- (x*y, x), so both operands are new every step (a fixed multiplier would let
// the compiler hoist operand-only work, such as Karatsuba's |b1 - b0|, out of the loop); after n steps
// x = x0^F(n+1) * y0^F(n), F the Fibonacci numbers. The square steps x <- x^2.
#pragma once
#include "gpu/core/hd.hpp"

namespace bx::f25519 {

template <class F>
BX_HD void bench_chain_step(bool square, typename F::fe& x, typename F::fe& y) {
  if (square) {
    F::sqr(x, x);
  } else {
    const typename F::fe x0 = x;
    F::mul(x, x, y);
    y = x0;
  }
}

}  // namespace bx::f25519
