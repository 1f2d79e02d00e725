// libFuzzer target over the user's code: every host q8parity implementation of the plugin named by
// BX_FUZZ_PLUGIN, against the spec's canonical order (reference/q8parity), through the engine's adapter
// (suite/q8parity) and judge (suite/q8parity/judge.hpp): bit for bit (NaNs as a class) under the bit-exact
// contract, within the declared NMSE bound under the characterised one. Inputs are where float kernels
// differ: every fp16 scale class (subnormal, +-0, +-inf, NaN, the largest finite), codes at -128 and 127,
// activations that round (1 + 0.1 j), subnormal, signed zero, huge or any bits; 1..4 rows of 1..4 blocks,
// 1..8 tokens; rmsnorm over 1..96 floats, 1..3 rows, with or without a periodic weight, eps near 0. A
// difference prints the implementation, the operation, the shapes and the first differing output, then
// aborts (libFuzzer saves the input; the target replays it).
//
//   BX_FUZZ_PLUGIN=build-fuzz/examples/plugins/q8_matvec.so build-fuzz/fuzz/plugin_q8parity_fuzz -max_total_time=60
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "fuzz/plugin_fuzz.hpp"
#include "reference/q8parity/q8_ref.hpp"
#include "suite/q8parity/judge.hpp"
#include "suite/q8parity/plugin_ops.hpp"

namespace {

using namespace bx;
using namespace bx::suite::q8parity;
namespace R = bx::ref::q8;
using bx::plugin_fuzz::Stream;

plugin_fuzz::Fuzzer<PluginQ8> g;

float float_of_bits(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// An fp16 scale of every class; a zero byte gives a subnormal (the class a flushing decoder loses).
uint16_t scale(Stream& s) {
  const uint8_t m = s.byte(), v = s.byte();
  const uint16_t sign = (m & 0x80) ? 0x8000 : 0;
  switch (m & 7) {
    case 0: return sign | uint16_t(1 + v);                      // subnormal
    case 1: return sign | uint16_t(0x2c00 + (v << 2));          // ordinary, near 2^-4
    case 2: return sign;                                        // +-0
    case 3: return sign | 0x7c00;                               // +-inf
    case 4: return sign | 0x7e00 | v;                           // NaN
    case 5: return sign | 0x7bff;                               // the largest finite
    default: return uint16_t(v | (s.byte() << 8));              // any bits
  }
}

// An activation; a zero byte gives 1 + 0.1 j, whose products with codes round (fma shows).
float activation(Stream& s, size_t j) {
  const uint8_t m = s.byte();
  switch (m & 7) {
    case 0: case 1: return 1.0f + 0.1f * float(j % 13) * ((m & 0x80) ? -1.0f : 1.0f);
    case 2: return float_of_bits(uint32_t(1 + s.byte()) | ((m & 0x80) ? 0x80000000u : 0));  // subnormal
    case 3: return (m & 0x80) ? -0.0f : 0.0f;
    case 4: return float_of_bits(0x70000000u | (uint32_t(s.byte()) << 8));                  // about 1.6e29
    case 5: return float(int8_t(s.byte())) * 0.37f;
    default: return float_of_bits(uint32_t(s.word()));                                      // any bits
  }
}

void report(const std::string& name, const std::string& what, const std::string& shape, const std::vector<float>& got,
            const std::vector<float>& want, size_t rows, const PluginQ8& im) {
  if (im.characterised) {
    const std::string p = nmse_problem(got, want, im.nmse_bound);
    if (!p.empty()) plugin_fuzz::difference(name, what, shape, p, "within its NMSE bound of the canonical order");
    return;
  }
  const Diff d = diff(got, want);
  if (!d.same()) plugin_fuzz::difference(name, what, shape, describe(d, rows), "every output bit for bit (NaNs as a class)");
}

void check_matvec(const std::string& name, const PluginQ8& im, Stream& s) {
  const uint64_t rows = 1 + (s.byte() & 3), blocks = 1 + (s.byte() & 3), k = 32 * blocks;
  const uint32_t ntok = 1 + (s.byte() & 7);
  std::vector<uint8_t> w(rows * blocks * 34);
  for (size_t b = 0; b < rows * blocks; ++b) {
    const uint16_t d = scale(s);
    w[34 * b] = uint8_t(d), w[34 * b + 1] = uint8_t(d >> 8);
    for (int i = 0; i < 32; ++i) w[34 * b + 2 + i] = uint8_t(s.byte() ^ 0x7f);  // a zero byte is code 127
  }
  std::vector<float> x(ntok * k);
  for (size_t j = 0; j < x.size(); ++j) x[j] = activation(s, j);
  const std::string shape = "  rows " + std::to_string(rows) + ", k " + std::to_string(k) + ", ntok " + std::to_string(ntok) +
                            "; first scale 0x" + to_hex(w.data(), 2) + "\n";
  std::vector<float> got;
  plugin_fuzz::call_or_report(name, "matvec", shape, [&] { got = im.matvec(w, x, rows, k, ntok, nullptr); });
  report(name, "matvec", shape, got, R::matvec(w.data(), rows, k, x.data(), int(ntok)), rows, im);
}

void check_rmsnorm(const std::string& name, const PluginQ8& im, Stream& s) {
  const uint64_t n = 1 + s.byte() % 96, nrows = 1 + (s.byte() % 3);
  const uint8_t wm = s.byte();
  const uint64_t period = (wm & 3) == 3 ? 0 : 1 + (wm & 3) % nrows;  // 0: no weight
  const float eps = (wm & 4) ? 1e-6f : (wm & 8) ? 0.0f : 1e-5f;
  std::vector<float> x(n * nrows), wt(period * n);
  for (size_t j = 0; j < x.size(); ++j) x[j] = activation(s, j);
  for (size_t j = 0; j < wt.size(); ++j) wt[j] = activation(s, j + 7);
  const std::string shape = "  n " + std::to_string(n) + ", rows " + std::to_string(nrows) + ", weight period " + std::to_string(period) +
                            ", eps 0x" + float_hex(eps) + "\n";
  std::vector<float> got;
  // Without a weight the contract's w is NULL and w_period still at least 1.
  plugin_fuzz::call_or_report(name, "rmsnorm", shape, [&] { got = im.rmsnorm(x, wt, n, nrows, period ? period : 1, eps); });
  std::vector<float> want;
  for (size_t r = 0; r < nrows; ++r) {
    const std::vector<float> y = R::rmsnorm(&x[r * n], period ? &wt[(r % period) * n] : nullptr, n, eps);
    want.insert(want.end(), y.begin(), y.end());
  }
  report(name, "rmsnorm", shape, got, want, 0, im);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  g.impls = plugin_fuzz::load_host_impls<PluginQ8>("plugin_q8parity", BX_FAMILY_Q8PARITY, [](const suite::PluginImpl& p) { return adapt(p, -1); });
  using C = plugin_fuzz::Check<PluginQ8>;
  g.checks = {C{[](const PluginQ8& im) { return bool(im.matvec); }, check_matvec},
              C{[](const PluginQ8& im) { return bool(im.rmsnorm); }, check_rmsnorm}};
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) { return g.one(data, size); }
