#include "suite/q8parity/judge.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "reference/q8parity/q8_ref.hpp"

namespace bx::suite::q8parity {

namespace R = ref::q8;

Diff diff(const std::vector<float>& got, const std::vector<float>& want) {
  Diff d;
  d.size = want.size();
  d.got_size = got.size();
  if (got.size() != want.size()) {
    d.count = std::max(got.size(), want.size());
    return d;
  }
  for (size_t i = 0; i < got.size(); ++i)
    if (!R::same_bits(got[i], want[i])) {
      if (d.count++ == 0) d.first = i, d.got = got[i], d.want = want[i];
    }
  return d;
}

std::string float_hex(float f) {
  char b[12];
  std::snprintf(b, sizeof b, "%08x", R::float_bits(f));
  return b;
}

std::string describe(const Diff& d, size_t rows) {
  char b[256];
  if (d.count == 0) {
    std::snprintf(b, sizeof b, "0 of %zu differ", d.size);
    return b;
  }
  if (d.got_size != d.size) {
    std::snprintf(b, sizeof b, "%zu outputs where %zu were expected", d.got_size, d.size);
    return b;
  }
  std::string at = "[" + std::to_string(d.first) + "]";
  if (rows) at = "[t " + std::to_string(d.first / rows) + ", row " + std::to_string(d.first % rows) + "]";
  std::snprintf(b, sizeof b, "%zu of %zu differ; first %s: got 0x%s (%.9g), want 0x%s (%.9g)", d.count, d.size, at.c_str(),
                float_hex(d.got).c_str(), double(d.got), float_hex(d.want).c_str(), double(d.want));
  return b;
}

std::string nmse_problem(const std::vector<float>& got, const std::vector<float>& want, double bound) {
  if (got.size() != want.size()) return std::to_string(got.size()) + " outputs, want " + std::to_string(want.size());
  std::vector<float> g;
  std::vector<double> w;
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isfinite(want[i])) {
      if (!std::isfinite(got[i])) return "output " + std::to_string(i) + ": got 0x" + float_hex(got[i]) + ", want finite 0x" + float_hex(want[i]);
      g.push_back(got[i]), w.push_back(double(want[i]));
    } else if (!(std::isnan(want[i]) ? std::isnan(got[i]) : got[i] == want[i])) {
      return "output " + std::to_string(i) + ": got 0x" + float_hex(got[i]) + ", want " + (std::isnan(want[i]) ? "NaN" : "0x" + float_hex(want[i]));
    }
  }
  const double e = g.empty() ? 0.0 : R::nmse(g, w);
  if (e <= bound) return "";
  char b[96];
  std::snprintf(b, sizeof b, "NMSE %.3g over %zu finite outputs (bound %.3g)", e, g.size(), bound);
  return b;
}

}  // namespace bx::suite::q8parity
