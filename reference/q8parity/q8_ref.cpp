// The q8parity golden model. Compiled with -ffp-contract=off (cmake/q8parity.cmake): every a * b + c
// below is two roundings unless it is written std::fma.
#include "reference/q8parity/q8_ref.hpp"

#include <cfloat>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace bx::ref::q8 {

uint32_t float_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
bool same_bits(float a, float b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return float_bits(a) == float_bits(b);
}

float fp16_to_fp32(uint16_t h) {
  const bool neg = h >> 15;
  const int e = (h >> 10) & 31;
  const int m = h & 1023;
  float v;
  if (e == 0)
    v = std::ldexp(float(m), -24);  // zero or subnormal: m * 2^-24, exact
  else if (e == 31)
    v = m ? std::numeric_limits<float>::quiet_NaN() : std::numeric_limits<float>::infinity();
  else
    v = std::ldexp(float(1024 + m), e - 25);  // (1 + m/1024) * 2^(e-15), exact
  return neg ? -v : v;
}

uint16_t fp32_to_fp16(float f) {
  const uint32_t u = float_bits(f);
  const uint16_t sign = uint16_t((u >> 16) & 0x8000);
  const float a = std::fabs(f);
  if (std::isnan(f)) return uint16_t(sign | 0x7e00);
  if (a >= 65520.0f) return uint16_t(sign | 0x7c00);  // rounds to infinity (65504 + half an ulp)
  // Scale into the integer significand of the target exponent and round to nearest even (rint).
  int e;
  std::frexp(a, &e);                   // a = f * 2^e, f in [0.5, 1)
  const int exp16 = std::max(e - 1, -14);  // unbiased exponent of the fp16 result (subnormals share -14)
  const float q = std::rint(std::ldexp(a, 10 - exp16));  // significand with 10 fraction bits, rounded
  if (q == 0) return sign;
  uint32_t mant = uint32_t(q);
  int biased = exp16 + 15;
  if (mant >= 2048) {  // rounding carried into the next binade
    mant >>= 1;
    ++biased;
  }
  if (mant < 1024) return uint16_t(sign | mant);  // subnormal (biased exponent 0)
  return uint16_t(sign | (biased << 10) | (mant - 1024));
}

void dequantize_block(const uint8_t* block, float out[32]) {
  const float d = fp16_to_fp32(uint16_t(block[0] | (block[1] << 8)));
  for (size_t i = 0; i < kBlockCodes; ++i) out[i] = d * float(int8_t(block[2 + i]));
}

static void check_matvec_shape(size_t rows, size_t k, int ntok) {
  if (rows == 0 || k == 0 || k % kBlockCodes)
    throw std::invalid_argument("q8 matvec: rows must be >= 1 and K a positive multiple of 32 (rows " +
                                std::to_string(rows) + ", K " + std::to_string(k) + ")");
  if (ntok < 1 || ntok > kMaxTokens) throw std::invalid_argument("q8 matvec: ntok must be 1..8, got " + std::to_string(ntok));
}

float matvec_element(const uint8_t* weights, size_t k, size_t row, const float* x) {
  const size_t nb = k / kBlockCodes;
  const uint8_t* blk = weights + row * nb * kBlockBytes;
  float acc = 0.0f;
  for (size_t b = 0; b < nb; ++b, blk += kBlockBytes) {
    float s = 0.0f;
    for (size_t i = 0; i < kBlockCodes; ++i) s = std::fma(float(int8_t(blk[2 + i])), x[b * kBlockCodes + i], s);
    acc = std::fma(fp16_to_fp32(uint16_t(blk[0] | (blk[1] << 8))), s, acc);
  }
  return acc;
}

std::vector<float> matvec(const uint8_t* weights, size_t rows, size_t k, const float* x, int ntok) {
  check_matvec_shape(rows, k, ntok);
  std::vector<float> y(size_t(ntok) * rows);
  for (int t = 0; t < ntok; ++t)
    for (size_t r = 0; r < rows; ++r) y[size_t(t) * rows + r] = matvec_element(weights, k, r, x + size_t(t) * k);
  return y;
}

std::vector<float> rmsnorm(const float* x, const float* w, size_t n, float eps) {
  if (n == 0 || n >= (size_t(1) << 24)) throw std::invalid_argument("q8 rmsnorm: n must be 1..2^24-1");
  float ss[32] = {};
  for (size_t l = 0; l < 32; ++l)
    for (size_t j = l; j < n; j += 32) ss[l] = std::fma(x[j], x[j], ss[l]);
  for (int o = 16; o >= 1; o >>= 1) {
    float next[32];
    for (int l = 0; l < 32; ++l) next[l] = ss[l] + ss[l ^ o];
    std::memcpy(ss, next, sizeof ss);
  }
  const float mean = ss[0] / float(n);
  const float r = 1.0f / std::sqrt(mean + eps);
  std::vector<float> y(n);
  for (size_t i = 0; i < n; ++i) {
    const float xr = x[i] * r;
    y[i] = w ? xr * w[i] : xr;
  }
  return y;
}

std::string GrShape::check() const {
  if (hc < 1 || hc > 16) return "hc must be 1..16";
  if (n_embd < 32 || n_embd % 32) return "n_embd must be a positive multiple of 32";
  if (hc_lr < 32 || hc_lr % 32) return "hc_lr must be a positive multiple of 32";
  return "";
}

static void check_gr(const GrInputs& in) {
  const std::string s = in.shape.check();
  if (!s.empty()) throw std::invalid_argument("q8 gr_read: " + s);
  const GrShape& g = in.shape;
  if (in.ntok < 1 || in.ntok > kMaxTokens) throw std::invalid_argument("q8 gr_read: ntok must be 1..8");
  if (in.r.size() != size_t(in.ntok) * g.width() || in.w_norm.size() != g.width() ||
      in.w_down.size() != size_t(g.hc_lr) * (g.width() / 32) * kBlockBytes ||
      in.w_up.size() != g.width() * size_t(g.hc_lr / 32) * kBlockBytes)
    throw std::invalid_argument("q8 gr_read: input sizes do not match the shape");
}

static float silu(float v) { return v / (1.0f + std::exp(-v)); }
static float sigmoid(float u) { return 1.0f / (1.0f + std::exp(-u)); }

GrOutputs gr_read(const GrInputs& in) {
  check_gr(in);
  const GrShape& g = in.shape;
  const size_t W = g.width(), E = size_t(g.n_embd), L = size_t(g.hc_lr), C = size_t(g.hc);
  GrOutputs o;
  o.xn.resize(in.ntok * W);
  o.pre.resize(in.ntok * L);
  o.lo.resize(in.ntok * L);
  o.gate.resize(in.ntok * W);
  o.mixed.resize(in.ntok * E);
  for (int t = 0; t < in.ntok; ++t) {
    float* xn = &o.xn[t * W];
    for (size_t c = 0; c < C; ++c) {
      const std::vector<float> y = rmsnorm(&in.r[t * W + c * E], &in.w_norm[c * E], E, in.eps);
      std::memcpy(xn + c * E, y.data(), E * sizeof(float));
    }
    for (size_t k = 0; k < L; ++k) {
      const float pre = matvec_element(in.w_down.data(), W, k, xn);
      o.pre[t * L + k] = pre;
      o.lo[t * L + k] = silu(pre / float(C));
    }
    for (size_t j = 0; j < W; ++j) o.gate[t * W + j] = matvec_element(in.w_up.data(), L, j, &o.lo[t * L]);
    for (size_t d = 0; d < E; ++d) {
      float m = xn[d] * sigmoid(o.gate[t * W + d]);
      for (size_t c = 1; c < C; ++c) {
        const float p = xn[c * E + d] * sigmoid(o.gate[t * W + c * E + d]);
        m = m + p;
      }
      o.mixed[t * E + d] = m / float(C);
    }
  }
  return o;
}

GrOutputs64 gr_read64(const GrInputs& in) {
  check_gr(in);
  const GrShape& g = in.shape;
  const size_t W = g.width(), E = size_t(g.n_embd), L = size_t(g.hc_lr), C = size_t(g.hc);
  GrOutputs64 o;
  o.xn.resize(in.ntok * W);
  o.lo.resize(in.ntok * L);
  o.mixed.resize(in.ntok * E);
  auto weight = [](const std::vector<uint8_t>& w, size_t k, size_t row, size_t i) {
    const uint8_t* blk = &w[(row * (k / 32) + i / 32) * kBlockBytes];
    return double(fp16_to_fp32(uint16_t(blk[0] | (blk[1] << 8)))) * double(int8_t(blk[2 + i % 32]));
  };
  std::vector<double> gate(W);
  for (int t = 0; t < in.ntok; ++t) {
    double* xn = &o.xn[t * W];
    for (size_t c = 0; c < C; ++c) {
      const float* x = &in.r[t * W + c * E];
      double ss = 0;
      for (size_t i = 0; i < E; ++i) ss += double(x[i]) * double(x[i]);
      const double r = 1.0 / std::sqrt(ss / double(E) + double(in.eps));
      for (size_t i = 0; i < E; ++i) xn[c * E + i] = double(x[i]) * r * double(in.w_norm[c * E + i]);
    }
    double* lo = &o.lo[t * L];
    for (size_t k = 0; k < L; ++k) {
      double s = 0;
      for (size_t i = 0; i < W; ++i) s += weight(in.w_down, W, k, i) * xn[i];
      const double v = s / double(C);
      lo[k] = v / (1.0 + std::exp(-v));
    }
    for (size_t j = 0; j < W; ++j) {
      double s = 0;
      for (size_t i = 0; i < L; ++i) s += weight(in.w_up, L, j, i) * lo[i];
      gate[j] = s;
    }
    for (size_t d = 0; d < E; ++d) {
      double m = 0;
      for (size_t c = 0; c < C; ++c) m += xn[c * E + d] / (1.0 + std::exp(-gate[c * E + d]));
      o.mixed[t * E + d] = m / double(C);
    }
  }
  return o;
}

double nmse(const std::vector<float>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) throw std::invalid_argument("nmse: sizes differ");
  double num = 0, den = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    const double d = double(a[i]) - b[i];
    num += d * d;
    den += b[i] * b[i];
  }
  return den > 0 ? num / den : (num > 0 ? INFINITY : 0.0);
}

bool built_without_contraction() {
  // a*b = 1 + 2^-11 + 2^-24 exactly; rounded twice a*b + c is 0, fused it is 2^-24.
  volatile float va = 1.0f + 0x1p-12f, vb = 1.0f + 0x1p-12f, vc = -(1.0f + 0x1p-11f);
  const float a = va, b = vb, c = vc;
  const float r = a * b + c;
  return r == 0.0f;
}

bool built_without_ftz() {
  volatile float tiny = FLT_MIN;
  const float half = tiny * 0.5f;  // a subnormal: 0 under flush-to-zero
  return half != 0.0f && std::fpclassify(half) == FP_SUBNORMAL;
}

}  // namespace bx::ref::q8
