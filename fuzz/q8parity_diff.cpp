// libFuzzer differential target over Q8_0 blocks and activations taken from the input: every host matvec
// variant (the kernels' per-item code), the rmsnorm variants and the gr read variants against the
// reference (reference/q8parity), bitwise with NaNs as a class. On a difference: the op, the shape, the
// inputs in hex and every implementation's answer at the first differing output, then abort().
//
// Input: byte 0 rows - 1 (mod 9), byte 1 blocks per row - 1 (mod 8), byte 2 ntok - 1 (mod 8), byte 3 flags
// (bit 0 rmsnorm of token 0's activations, bit 1 a gr read with hc = 1 + (flags >> 2) % 4, n_embd 32,
// hc_lr 32). Then the weights (rows * blocks * 34 bytes: fp16 scales of any pattern, int8 codes), then two
// bytes per activation: v >> 12 == 0xf selects a special value (+0, -0, subnormals, FLT_MIN, a large
// value), otherwise int16(v) / 4096. Bytes past the end of the input repeat it from byte 4.
#include <cfloat>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "gpu/q8parity/host_run.hpp"
#include "reference/q8parity/q8_ref.hpp"

namespace {
namespace R = bx::ref::q8;
namespace Q = bx::q8;
// Outputs start as this finite value: an output a variant never writes differs from the reference even
// where the reference is NaN (NaNs compare equal as a class).
const float kPoison = Q::float_of(0x7f7fdeadu);

struct Source {
  const uint8_t* d;
  size_t n, at = 4;
  uint8_t byte() {
    if (n <= 4) return 0;
    if (at >= n) at = 4;
    return d[at++];
  }
  float activation() {
    const uint16_t v = uint16_t(byte() | byte() << 8);
    if ((v >> 12) == 0xf) {
      switch (v & 7) {
        case 0: return 0.0f;
        case 1: return -0.0f;
        case 2: return Q::float_of(1u + (v >> 3));               // subnormal
        case 3: return Q::float_of(0x80000000u | (1u + (v >> 3)));  // negative subnormal
        case 4: return FLT_MIN;
        case 5: return Q::float_of(0x007fffffu);                 // the largest subnormal
        case 6: return 1e30f;
        default: return -3.5f;
      }
    }
    return float(int16_t(v)) / 4096.0f;
  }
};

std::string hex(const uint8_t* p, size_t n) {
  std::string s;
  char b[3];
  for (size_t i = 0; i < n; ++i) std::snprintf(b, sizeof b, "%02x", p[i]), s += b;
  return s;
}
std::string floats_hex(const std::vector<float>& v) {
  std::string s;
  char b[12];
  for (float f : v) std::snprintf(b, sizeof b, "%08x ", R::float_bits(f)), s += b;
  return s;
}

size_t first_difference(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size()) return 0;
  for (size_t i = 0; i < a.size(); ++i)
    if (!R::same_bits(a[i], b[i])) return i;
  return a.size();
}

[[noreturn]] void report(const char* op, const std::string& shape, const std::string& inputs, size_t at, float want,
                         const std::vector<std::pair<std::string, float>>& answers) {
  std::fprintf(stderr, "q8parity_diff: DIFFERENCE in %s (%s) at output %zu\n  inputs: %s\n  reference %08x\n", op, shape.c_str(),
               at, inputs.c_str(), R::float_bits(want));
  for (const auto& [name, v] : answers) std::fprintf(stderr, "  %-42s %08x\n", name.c_str(), R::float_bits(v));
  std::abort();
}

void check_all(const char* op, const std::string& shape, const std::string& inputs, const std::vector<float>& want,
               const std::vector<std::pair<std::string, std::vector<float>>>& got) {
  for (const auto& [name, y] : got) {
    const size_t at = first_difference(y, want);
    if (at == want.size() && y.size() == want.size()) continue;
    std::vector<std::pair<std::string, float>> answers;
    for (const auto& [n2, y2] : got) answers.push_back({n2, at < y2.size() ? y2[at] : NAN});
    report(op, shape, inputs, at, at < want.size() ? want[at] : NAN, answers);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 4) return 0;
  Source src{data, size};
  const size_t rows = data[0] % 9 + 1, nb = data[1] % 8 + 1, k = 32 * nb;
  const int ntok = data[2] % 8 + 1;
  const uint8_t flags = data[3];
  std::vector<uint8_t> w(rows * nb * 34);
  for (auto& b : w) b = src.byte();
  std::vector<float> x(size_t(ntok) * k);
  for (auto& f : x) f = src.activation();

  const std::string shape = "rows " + std::to_string(rows) + " K " + std::to_string(k) + " ntok " + std::to_string(ntok);
  const std::vector<float> want = R::matvec(w.data(), rows, k, x.data(), ntok);
  std::vector<std::pair<std::string, std::vector<float>>> got;
  for (size_t v = 0; v < Q::kVariantCount; ++v)
    if (Q::kVariants[v].op == Q::Op::matvec && !Q::kVariants[v].negative)
      got.push_back({Q::kVariants[v].name, Q::matvec_host(Q::kVariants[v], w.data(), rows, k, x.data(), ntok, kPoison)});
  check_all("q8.matvec", shape, "weights " + hex(w.data(), w.size()) + " x " + floats_hex(x), want, got);

  if (flags & 1) {  // rmsnorm of token 0's activations, weighted by token 1's (or none)
    const float* wn = ntok > 1 ? x.data() + k : nullptr;
    const std::vector<float> rn = R::rmsnorm(x.data(), wn, k, 1e-6f);
    std::vector<std::pair<std::string, std::vector<float>>> g;
    for (size_t v = 0; v < Q::kVariantCount; ++v)
      if (Q::kVariants[v].op == Q::Op::rmsnorm) g.push_back({Q::kVariants[v].name, Q::rmsnorm_host(Q::kVariants[v], x.data(), wn, k, 1, 1, 1e-6f)});
    check_all("q8.rmsnorm", "n " + std::to_string(k), "x " + floats_hex(std::vector<float>(x.begin(), x.begin() + long(k))), rn, g);
  }

  if (flags & 2) {  // a small gr read: hc streams of 32, 32 low-rank channels, up to two tokens
    R::GrInputs in;
    in.shape = {1 + (flags >> 2) % 4, 32, 32};
    in.ntok = 1 + (ntok > 1);
    const size_t W = in.shape.width();
    in.r.resize(size_t(in.ntok) * W);
    for (auto& f : in.r) f = src.activation();
    in.w_norm.resize(W);
    for (auto& f : in.w_norm) f = src.activation();
    in.w_down.resize(32 * (W / 32) * 34);
    for (auto& b : in.w_down) b = src.byte();
    in.w_up.resize(W * 34);
    for (auto& b : in.w_up) b = src.byte();
    const R::GrOutputs ref = R::gr_read(in);
    const Q::GrProblem p{in.shape.hc, 32, 32, in.ntok, in.eps, in.r.data(), in.w_norm.data(), in.w_down.data(), in.w_up.data()};
    const std::string gshape = "hc " + std::to_string(in.shape.hc) + " n_embd 32 hc_lr 32 ntok " + std::to_string(in.ntok);
    std::vector<std::pair<std::string, std::vector<float>>> xn, mixed, lo;
    for (size_t v = 0; v < Q::kVariantCount; ++v)
      if (Q::kVariants[v].op == Q::Op::gr) {
        const Q::GrResult r = Q::gr_host(Q::kVariants[v], p);
        xn.push_back({Q::kVariants[v].name, r.xn});
        lo.push_back({Q::kVariants[v].name, r.lo});
        mixed.push_back({Q::kVariants[v].name, r.mixed});
      }
    const std::string inputs = "r " + floats_hex(in.r);
    check_all("q8.gr_read xn", gshape, inputs, ref.xn, xn);
    check_all("q8.gr_read lo", gshape, inputs, ref.lo, lo);
    check_all("q8.gr_read mixed", gshape, inputs, ref.mixed, mixed);
  }
  return 0;
}
