// Every q8parity variant on the CPU: the per-item code of gpu/q8parity run over the whole problem in the
// kernels' row grouping (the kernels add only the staging of weights through shared memory). Used by the
// selftest's CPU rows, verify --device cpu, the oracle's CPU implementations, the tests and the fuzzers.
// Shapes are checked by the caller (the reference's checks throw on the same inputs).
#pragma once
#include <cstring>
#include <vector>

#include "gpu/q8parity/dispatch.hpp"
#include "gpu/q8parity/q8_gr.hpp"
#include "gpu/q8parity/q8_matvec.hpp"
#include "gpu/q8parity/q8_rmsnorm.hpp"

namespace bx::q8 {

// Weights copied into 32-bit words with 16 bytes to spare (the 9-word block loads read 2 bytes past a
// block, the three-quad loads up to 14).
inline std::vector<uint32_t> weight_words(const uint8_t* w, size_t bytes) {
  std::vector<uint32_t> words(bytes / 4 + 5, 0u);
  std::memcpy(words.data(), w, bytes);
  return words;
}

template <int NR, bool Packed, int NTOK>
void matvec_rows_host(const uint32_t* words, size_t rows, size_t k, const float* x, int ntok, float* y) {
  const size_t nb = k / kCodes, row_bytes = nb * kBlockBytes;
  for (size_t row0 = 0; row0 < rows; row0 += NR) {
    bool live[NR];
    if (!group_rows<NR>(row0, rows, live)) continue;
    MatvecAcc<NR, Packed, NTOK> a;
    for (size_t b = 0; b < nb; ++b) {
      Q8Packed blk[NR] = {};
      for (int j = 0; j < NR; ++j)
        if (live[j]) blk[j] = load_block_quads(words, (row0 + size_t(j)) * row_bytes + b * kBlockBytes);
      a.step(blk, live, x + b * kCodes, k, ntok);
    }
    for (int j = 0; j < NR; ++j)
      if (live[j])
        for (int t = 0; t < ntok; ++t) y[size_t(t) * rows + row0 + size_t(j)] = a.acc[j][t];
  }
}

inline void negative_control_host(const uint32_t* words, size_t rows, size_t k, const float* x, int ntok, float* y) {
  const size_t nb = k / kCodes;
  for (int t = 0; t < ntok; ++t)
    for (size_t r = 0; r < rows; ++r) {
      float lanes[32];
      for (int l = 0; l < 32; ++l) lanes[l] = negative_control_lane(words, r * nb * kBlockBytes, nb, x + size_t(t) * k, l);
      butterfly_sum32(lanes);
      y[size_t(t) * rows + r] = lanes[0];
    }
}

// y (ntok * rows, token-major) of matvec variant v; entries a variant does not write keep `poison`.
inline std::vector<float> matvec_host(const VariantRow& v, const uint8_t* w, size_t rows, size_t k, const float* x, int ntok,
                                      float poison) {
  const std::vector<uint32_t> words = weight_words(w, rows * (k / kCodes) * kBlockBytes);
  std::vector<float> y(size_t(ntok) * rows, poison);
  if (v.negative) {
    negative_control_host(words.data(), rows, k, x, ntok, y.data());
    return y;
  }
  with_matvec_shape(v, ntok, [&](auto nr, auto packed, auto ntok_c) {
    matvec_rows_host<decltype(nr)::value, decltype(packed)::value, decltype(ntok_c)::value>(words.data(), rows, k, x, ntok,
                                                                                            y.data());
  });
  return y;
}

// rmsnorm of `nrows` rows of n (row i at x + i * n; weights w + (i % w_period) * n, or none), eps.
template <bool Hoisted>
void rmsnorm_row_host(const float* x, const float* w, size_t n, float eps, float* y) {
  float ss[32];
  for (int l = 0; l < 32; ++l) ss[l] = Hoisted ? rms_lane_sum_preoffset(x + l, n, l) : rms_lane_sum(x, n, l);
  butterfly_sum32(ss);
  const float r = rms_scale<Hoisted>(ss[0], n, eps);
  if (Hoisted) {
    for (int l = 0; l < 32; ++l) rms_apply_lane_preoffset(x + l, w ? w + l : nullptr, y + l, lane_count(n, l), r);
  } else {
    for (size_t i = 0; i < n; ++i) y[i] = rms_apply(x[i], r, w, i);
  }
}
inline std::vector<float> rmsnorm_host(const VariantRow& v, const float* x, const float* w, size_t n, size_t nrows,
                                       size_t w_period, float eps) {
  std::vector<float> y(n * nrows);
  for (size_t i = 0; i < nrows; ++i) {
    const float* wi = w ? w + (i % w_period) * n : nullptr;
    if (v.hoisted)
      rmsnorm_row_host<true>(x + i * n, wi, n, eps, &y[i * n]);
    else
      rmsnorm_row_host<false>(x + i * n, wi, n, eps, &y[i * n]);
  }
  return y;
}

// The gr read's inputs and outputs as the kernels see them (shapes as in reference/q8parity GrShape).
struct GrProblem {
  int hc = 4, n_embd = 2560, hc_lr = 320, ntok = 1;
  float eps = 1e-6f;
  const float* r = nullptr;       // ntok * hc * n_embd
  const float* w_norm = nullptr;  // hc * n_embd
  const uint8_t* w_down = nullptr;  // hc_lr rows x hc * n_embd
  const uint8_t* w_up = nullptr;    // hc * n_embd rows x hc_lr
  size_t width() const { return size_t(hc) * size_t(n_embd); }
};
struct GrResult {
  std::vector<float> xn, pre, lo, gate, mixed;  // as reference/q8parity GrOutputs
};

inline GrResult gr_host(const VariantRow& v, const GrProblem& p) {
  const size_t W = p.width(), E = size_t(p.n_embd), L = size_t(p.hc_lr);
  GrResult o;
  o.xn = rmsnorm_host(kVariants[kRmsPlain], p.r, p.w_norm, E, size_t(p.ntok) * size_t(p.hc), size_t(p.hc), p.eps);
  const VariantRow& mv = kVariants[kMatvecCanonical];  // one token at a time
  o.pre.resize(size_t(p.ntok) * L);
  o.lo.resize(o.pre.size());
  o.gate.resize(size_t(p.ntok) * W);
  o.mixed.resize(size_t(p.ntok) * E);
  for (int t = 0; t < p.ntok; ++t) {
    const std::vector<float> pre = matvec_host(mv, p.w_down, L, W, &o.xn[t * W], 1, 0.0f);
    for (size_t k = 0; k < L; ++k) {
      o.pre[t * L + k] = pre[k];
      o.lo[t * L + k] = gr_down_epilogue(pre[k], p.hc);
    }
    const std::vector<float> gate = matvec_host(mv, p.w_up, W, L, &o.lo[t * L], 1, 0.0f);
    std::memcpy(&o.gate[t * W], gate.data(), W * sizeof(float));
    for (size_t d = 0; d < E; ++d)
      o.mixed[t * E + d] = v.fused ? gr_stream_mean<true>(&o.xn[t * W + d], E, &o.gate[t * W + d], E, p.hc)
                                   : gr_stream_mean<false>(&o.xn[t * W + d], E, &o.gate[t * W + d], E, p.hc);
  }
  return o;
}

}  // namespace bx::q8
