// The hyper-connection read's epilogues per item (hc streams of n_embd, hc_lr low-rank channels):
//   gr_norm:  xn[c] = rmsnorm(R[c], w_norm[c]) for each stream c (q8_rmsnorm.hpp)
//   gr_down:  lo[k] = silu(pre_k / hc), pre = w_down . xn (canonical matvec order), silu(v) = v / (1 + e^-v)
//   gr_up:    mixed[d] = (p_0 + p_1 + ... + p_(hc-1)) / hc, left to right, p_c = xn[c][d] * sigmoid(g[c][d]),
//             g = w_up . lo (canonical matvec order), sigmoid(u) = 1 / (1 + e^-u); each p_c rounded
//             before it is added (separate rounding: a contracted p_c + m is the zoo's fault)
// e^-v is exp_place (CUDA's expf on the device): the contract is bitwise between the variants of one
// place and NMSE <= 1e-7 against the float64 reference.
#pragma once
#include <cstddef>

#include "gpu/q8parity/float_ops.hpp"

namespace bx::q8 {

BX_HD float silu_of(float v) { return div_rn(v, add_rn(1.0f, exp_place(-v))); }
BX_HD float sigmoid_of(float u) { return div_rn(1.0f, add_rn(1.0f, exp_place(-u))); }
BX_HD float gr_down_epilogue(float pre, int hc) { return silu_of(div_rn(pre, float(hc))); }

// mixed[d] from the hc values xn[c * xs] and gates g[c * gs] (the caller points both at column d).
// Fused: the fused read's code (where the zoo plants the contraction).
template <bool Fused = false>
BX_HD float gr_stream_mean(const float* xn, size_t xs, const float* g, size_t gs, int hc) {
  float m = mul_rn(xn[0], sigmoid_of(g[0]));
  for (int c = 1; c < hc; ++c) {
    const float xc = xn[size_t(c) * xs], sc = sigmoid_of(g[size_t(c) * gs]);
    m = Fused && BX_FAULT(q8_contract_gate_mean) ? fma_rn(xc, sc, m) : add_rn(m, mul_rn(xc, sc));
  }
  return div_rn(m, float(hc));
}

}  // namespace bx::q8
