// q8parity's problem inputs (seeded random and the spec's special values), their CPU reference outputs and
// the float32 byte forms the vector files and the oracle use.
#include "suite/q8parity/inputs.hpp"

#include <cfloat>
#include <cmath>

#include "suite/hex.hpp"

namespace bx::q8parity {

namespace {
struct Rng {
  uint64_t s;
  uint64_t next() {
    s += 0x9e3779b97f4a7c15ull;
    uint64_t z = s;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  double unit() { return double(next() >> 11) * 0x1p-53; }  // [0, 1)
  bool one_in(unsigned n) { return next() % n == 0; }
};

// Scales as a quantizer makes them (amax / 127 for weights of magnitude ~0.01..1), or a special one:
// +-0, subnormal, the largest finite, and (where nonfinite) +-inf and NaN. Non-finite scales make their
// whole row inf or NaN, so they go only into chosen rows: most outputs of special inputs stay finite and
// their comparisons keep their power (NaNs compare equal as a class whatever the order).
uint16_t draw_scale(Rng& g, bool special, bool nonfinite) {
  static const uint16_t kSpecial[] = {0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0200, 0x7bff, 0xfbff,
                                      0x0400, 0x3c00, 0x7c00, 0xfc00, 0x7e00};
  const size_t n = sizeof kSpecial / sizeof kSpecial[0] - (nonfinite ? 0 : 3);
  if (special && g.one_in(6)) return kSpecial[g.next() % n];
  const float mag = float(std::ldexp(1.0 + g.unit(), -int(g.next() % 10) - 7));
  return R::fp32_to_fp16(g.one_in(2) ? -mag : mag);
}
int8_t draw_code(Rng& g, bool special) {
  if (special && g.one_in(5)) return g.one_in(2) ? int8_t(-128) : int8_t(127);
  return int8_t(uint8_t(g.next()));
}
float draw_activation(Rng& g, bool special) {
  if (special && g.one_in(6)) {
    switch (g.next() % 5) {
      case 0: return 0.0f;
      case 1: return -0.0f;
      case 2: return q8::float_of(uint32_t(1 + g.next() % 0x7fffff));               // a subnormal
      case 3: return q8::float_of(0x80000000u | uint32_t(1 + g.next() % 0x7fffff));  // a negative subnormal
      default: return FLT_MIN;
    }
  }
  return float(4.0 * g.unit() - 2.0);
}
}  // namespace

MatvecInput random_matvec(uint64_t seed, size_t rows, size_t k, int ntok, bool special) {
  if (rows == 0 || k == 0 || k % 32 || ntok < 1 || ntok > 8)
    throw InputError("q8parity: rows >= 1, K a positive multiple of 32 and ntok 1..8 (rows " + std::to_string(rows) +
                     ", K " + std::to_string(k) + ", ntok " + std::to_string(ntok) + ")");
  Rng g{seed * 0x2545f4914f6cdd1dull + rows * 131 + k};
  MatvecInput in;
  in.rows = rows, in.k = k, in.ntok = ntok;
  in.w.resize(rows * (k / 32) * 34);
  for (size_t b = 0; b < rows * (k / 32); ++b) {
    const uint16_t d = draw_scale(g, special, (b / (k / 32)) % 8 == 5);  // rows 5, 13, ...: inf and NaN scales too
    in.w[b * 34] = uint8_t(d), in.w[b * 34 + 1] = uint8_t(d >> 8);
    for (int i = 0; i < 32; ++i) in.w[b * 34 + 2 + i] = uint8_t(draw_code(g, special));
  }
  in.x.resize(size_t(ntok) * k);
  for (auto& f : in.x) f = draw_activation(g, special);
  // Special inputs: some blocks of 32 activations entirely subnormal or zero, so that a block's sum lives at
  // the subnormal scale, where flushing them (-ftz=true) changes the result instead of vanishing in a sum.
  if (special)
    for (size_t b = 0; b < in.x.size() / 32; ++b)
      if (g.one_in(5))
        for (size_t i = 0; i < 32; ++i) {
          const uint32_t m = uint32_t(1 + g.next() % 0x7fffff);
          in.x[32 * b + i] = g.one_in(9) ? (g.one_in(2) ? 0.0f : -0.0f) : q8::float_of((g.one_in(2) ? 0x80000000u : 0u) | m);
        }
  return in;
}

MatvecInput first_tokens(const MatvecInput& in, int ntok) {
  MatvecInput o = in;
  o.ntok = ntok;
  o.x.resize(size_t(ntok) * in.k);
  return o;
}

NormInput random_norm(uint64_t seed, size_t n, size_t nrows, bool has_w, bool special) {
  Rng g{seed * 0x9e3779b97f4a7c15ull + n * 7 + nrows};
  NormInput in;
  in.n = n, in.nrows = nrows, in.w_period = 1, in.has_w = has_w;
  in.x.resize(n * nrows);
  for (auto& f : in.x) f = draw_activation(g, special) * float(special && g.one_in(7) ? 1e-20 : 1.0);
  if (has_w) {
    in.w.resize(n);
    for (auto& f : in.w) f = float(0.5 + g.unit());
  }
  return in;
}

R::GrInputs random_gr(uint64_t seed, const R::GrShape& shape, int ntok) {
  const std::string bad = shape.check();
  if (!bad.empty()) throw InputError("q8parity gr: " + bad);
  Rng g{seed ^ 0x6772u};
  R::GrInputs in;
  in.shape = shape, in.ntok = ntok;
  const size_t W = shape.width(), L = size_t(shape.hc_lr);
  in.r.resize(size_t(ntok) * W);
  for (auto& f : in.r) f = draw_activation(g, false);
  in.w_norm.resize(W);
  for (auto& f : in.w_norm) f = float(0.5 + g.unit());
  auto weights = [&](size_t rows, size_t k) {
    std::vector<uint8_t> w(rows * (k / 32) * 34);
    for (size_t b = 0; b < rows * (k / 32); ++b) {
      const uint16_t d = R::fp32_to_fp16(float(std::ldexp(1.0 + g.unit(), -9)) * (g.one_in(2) ? -1.0f : 1.0f));
      w[b * 34] = uint8_t(d), w[b * 34 + 1] = uint8_t(d >> 8);
      for (int i = 0; i < 32; ++i) w[b * 34 + 2 + i] = uint8_t(draw_code(g, false));
    }
    return w;
  };
  in.w_down = weights(L, W);
  in.w_up = weights(W, L);
  return in;
}

q8::GrProblem problem_of(const R::GrInputs& in) {
  q8::GrProblem p;
  p.hc = in.shape.hc, p.n_embd = in.shape.n_embd, p.hc_lr = in.shape.hc_lr, p.ntok = in.ntok, p.eps = in.eps;
  p.r = in.r.data(), p.w_norm = in.w_norm.data(), p.w_down = in.w_down.data(), p.w_up = in.w_up.data();
  return p;
}

std::vector<float> reference_matvec(const MatvecInput& in) { return R::matvec(in.w.data(), in.rows, in.k, in.x.data(), in.ntok); }
std::vector<float> reference_rmsnorm(const NormInput& in) {
  std::vector<float> y;
  for (size_t i = 0; i < in.nrows; ++i) {
    const std::vector<float> r =
        R::rmsnorm(&in.x[i * in.n], in.has_w ? &in.w[(i % in.w_period) * in.n] : nullptr, in.n, in.eps);
    y.insert(y.end(), r.begin(), r.end());
  }
  return y;
}

std::vector<uint8_t> to_bytes(const std::vector<float>& v) {
  std::vector<uint8_t> b(v.size() * 4);
  for (size_t i = 0; i < v.size(); ++i) {
    const uint32_t u = R::float_bits(v[i]);
    for (int k = 0; k < 4; ++k) b[4 * i + k] = uint8_t(u >> (8 * k));
  }
  return b;
}
std::string floats_hex(const std::vector<float>& v) {
  const auto b = to_bytes(v);
  return to_hex(b.data(), b.size());
}
float float_of_hex8(const std::string& hex, const std::string& what) {
  const auto b = from_hex(hex, 4, what);
  return q8::float_of(uint32_t(b[0]) << 24 | uint32_t(b[1]) << 16 | uint32_t(b[2]) << 8 | b[3]);
}
std::vector<float> floats_of(const std::vector<uint8_t>& bytes, const std::string& what) {
  if (bytes.size() % 4) throw InputError(what + ": " + std::to_string(bytes.size()) + " bytes is not a whole number of float32");
  std::vector<float> v(bytes.size() / 4);
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = q8::float_of(uint32_t(bytes[4 * i]) | uint32_t(bytes[4 * i + 1]) << 8 | uint32_t(bytes[4 * i + 2]) << 16 |
                        uint32_t(bytes[4 * i + 3]) << 24);
  return v;
}

}  // namespace bx::q8parity
