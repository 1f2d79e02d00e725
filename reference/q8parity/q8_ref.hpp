// The q8parity golden model (docs/specs/q8parity.md): Q8_0 blocks, their exact dequantisation, and the
// canonical evaluation orders of q8_matvec, rmsnorm and the hyper-connection read, in plain C++ built with
// -ffp-contract=off and std::fma exactly where the order says fma (cmake/q8parity.cmake, checked by
// the build-rule probe below). It shares no code with gpu/q8.
//
// Layouts (as ggml stores them): a Q8_0 block is 34 bytes, an fp16 scale d (little-endian) then 32 int8
// codes; a row of K weights (K a multiple of 32) is K/32 consecutive blocks, rows consecutive. Activations
// and outputs are float32, token-major: x[t*K + i], y[t*rows + r].
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace bx::ref::q8 {

constexpr size_t kBlockCodes = 32;
constexpr size_t kBlockBytes = 34;
constexpr int kMaxTokens = 8;

// fp16 (IEEE binary16) to float32, exact for every finite value (subnormals included); NaN stays NaN.
float fp16_to_fp32(uint16_t h);
// float32 to fp16, round to nearest even (for building inputs and vectors; not part of any order).
uint16_t fp32_to_fp16(float f);

// w = float(d) * float(q) for every weight of a block (exact: an 11-bit by 8-bit product).
void dequantize_block(const uint8_t* block, float out[32]);

// q8_matvec in the canonical order: for each (t, r): acc = 0; for each block b: s = 0; for i < 32:
// s = fma(float(q_i), x[t][32b + i], s); then acc = fma(float(d_b), s, acc). weights: rows*K/32 blocks;
// x: ntok*K floats; returns ntok*rows floats. Throws std::invalid_argument on a bad shape.
std::vector<float> matvec(const uint8_t* weights, size_t rows, size_t k, const float* x, int ntok);
// One output element (the same order), for probes and error reports.
float matvec_element(const uint8_t* weights, size_t k, size_t row, const float* x_token);

// rmsnorm of one row of n floats in the canonical order: 32 lanes, lane l: ss_l = fma(x_j, x_j, ss_l) for
// j = l, l + 32, ... increasing; xor butterfly over offsets 16, 8, 4, 2, 1 (ss_l + ss_(l^o)); then
// r = 1 / sqrt(ss / n + eps) with correctly rounded division and square root; y_i = (x_i * r) * w_i, or
// y_i = x_i * r when w is null (the "apply 0" form). Throws std::invalid_argument for n = 0.
std::vector<float> rmsnorm(const float* x, const float* w, size_t n, float eps);

// The hyper-connection read (docs/families/q8parity.md, the gr variants): hc streams of n_embd.
struct GrShape {
  int hc = 4, n_embd = 2560, hc_lr = 320;
  size_t width() const { return size_t(hc) * size_t(n_embd); }  // hc * n_embd
  std::string check() const;  // empty if usable: n_embd and hc * n_embd multiples of 32, hc_lr of 32
};
// Inputs of one gr read for ntok tokens. w_down: hc_lr rows x width Q8_0; w_up: width rows x hc_lr Q8_0.
struct GrInputs {
  GrShape shape;
  int ntok = 1;
  std::vector<float> r;       // ntok * width: the hc residual streams of each token
  std::vector<float> w_norm;  // width: the norm weight of each stream
  float eps = 1e-6f;
  std::vector<uint8_t> w_down, w_up;
};
struct GrOutputs {
  std::vector<float> xn;     // ntok * width: gr_norm (rmsnorm of each stream row)
  std::vector<float> pre;    // ntok * hc_lr: w_down . xn, before the epilogue (canonical matvec order)
  std::vector<float> lo;     // ntok * hc_lr: silu(pre / hc)
  std::vector<float> gate;   // ntok * width: w_up . lo, before the sigmoid (canonical matvec order)
  std::vector<float> mixed;  // ntok * n_embd: (sum over c of xn[c][d] * sigmoid(gate[c][d])) / hc
};
// float32 in the canonical order; the epilogues as v / (1 + expf(-v)) and 1 / (1 + expf(-u)) with the
// host libm's expf, the stream mean as separately rounded products added in c order, then / hc.
GrOutputs gr_read(const GrInputs& in);
// The same mathematics in float64 (for the NMSE level of the transcendental epilogues).
struct GrOutputs64 {
  std::vector<double> xn, lo, mixed;
};
GrOutputs64 gr_read64(const GrInputs& in);

// Normalised mean squared error sum (a - b)^2 / sum b^2 (summed in double), llama.cpp's NMSE.
double nmse(const std::vector<float>& a, const std::vector<double>& b);

// Bitwise float equality with NaNs compared as a class (any NaN equals any NaN).
bool same_bits(float a, float b);
uint32_t float_bits(float f);

// The build-rule probes (evaluated in the reference's own translation unit, with its own flags): true when
// a*b + c is rounded twice (no contraction) and subnormals survive arithmetic (no flush-to-zero).
bool built_without_contraction();
bool built_without_ftz();

}  // namespace bx::ref::q8
