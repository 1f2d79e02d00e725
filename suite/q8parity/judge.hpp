// The q8parity judge, one for every way in (selftest, verify, bench, the oracle, the plugin fuzzer): bitwise
// comparison with NaNs as a class (the bit-exact contract), and the NMSE bound of a characterised contract
// over the outputs whose reference is finite (the others must match it in class).
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace bx::suite::q8parity {

// Bitwise comparison, NaNs as a class: how many of `got` differ from `want` and the first one.
struct Diff {
  size_t count = 0, first = 0, size = 0, got_size = 0;
  float got = 0, want = 0;
  bool same() const { return count == 0 && size > 0; }
};
Diff diff(const std::vector<float>& got, const std::vector<float>& want);
// "3 of 536 differ; first [t 1, row 7]: got 0x3f800000 (1), want 0x3f800001 (1.0000001)" (rows > 0: token-major).
std::string describe(const Diff& d, size_t rows);
// A characterised implementation's verdict: "" when `got` is within `bound` of the canonical order's `want`
// by NMSE over the outputs where `want` is finite; the others must match it in class (NaN, +inf, -inf).
std::string nmse_problem(const std::vector<float>& got, const std::vector<float>& want, double bound);
std::string float_hex(float f);  // 8 hex digits of the bit pattern

}  // namespace bx::suite::q8parity
