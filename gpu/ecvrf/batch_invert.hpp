// Montgomery batch inversion of K field elements with one inversion and 3(K-1) multiplications
// (spec 3.3), per item, host and device, over any layout F.
#pragma once
#include <cstdint>
#include "gpu/core/fault.hpp"
#include "gpu/core/hd.hpp"
#include "gpu/ecvrf/point.hpp"
#include "gpu/field25519/fe_ops.hpp"

namespace bx::ecvrf {

// out[j] = in[j]^-1 for j < K, and out[j] = 0 where in[j] = 0 (the value fe_invert gives: 0^(p-2) = 0),
// so that every output equals the single inversion as a value (canonical bytes).
// Zero mask: a'_j = in[j] if in[j] != 0 else 1 (decided on canonical bytes, selected limb-wise); the
// prefix products pi_j = a'_0 ... a'_j are then never 0. Without the mask one zero makes pi_{K-1} = 0 and
// zeroes every output.
//   pi_0 = a'_0, pi_j = pi_{j-1} a'_j; inv = pi_{K-1}^-1;
//   for j = K-1 .. 1: out_j = inv pi_{j-1}, inv = inv a'_j;  out_0 = inv;  out_j = 0 where in[j] = 0.
// Input bounds: in[j] loose (mul operands). Output bounds: out[j] tight. out may alias in.
// K is a compile-time constant (1..8): the arrays stay in registers once the loops are unrolled.
template <class F, int K>
BX_HD void fe_batch_invert(typename F::fe out[K], const typename F::fe in[K]) {
  static_assert(K >= 1 && K <= 8, "batch inversion covers 1..8 values");
  using fe = typename F::fe;
  fe a[K], pi[K], one, zero, inv;
  bool z[K];
  f25519::fe_set_small<F>(one, 1);
  f25519::fe_set_small<F>(zero, 0);
  BX_UNROLL
  for (int j = 0; j < K; ++j) {
    z[j] = fe_is_zero<F>(in[j]) && !BX_FAULT(ecvrf_batch_invert_no_zero_mask);
    fe_select<F>(a[j], in[j], one, z[j]);  // zeros replaced by 1 (the zoo's fault keeps them: one zero zeroes all)
  }
  pi[0] = a[0];
  BX_UNROLL
  for (int j = 1; j < K; ++j) F::mul(pi[j], pi[j - 1], a[j]);
  f25519::fe_invert<F>(inv, pi[K - 1]);
  BX_UNROLL
  for (int j = K - 1; j >= 1; --j) {
    F::mul(out[j], inv, pi[j - 1]);
    F::mul(inv, inv, a[j]);
  }
  out[0] = inv;
  BX_UNROLL
  for (int j = 0; j < K; ++j) fe_select<F>(out[j], out[j], zero, z[j]);
}

}  // namespace bx::ecvrf
