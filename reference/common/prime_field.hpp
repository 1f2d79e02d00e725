// Exact arithmetic modulo a prime on Boost.Multiprecision cpp_int (unbounded: nothing wraps).
// Generic in the modulus; field25519 and Goldilocks references are built on it.
// Pitfalls handled here: % truncates toward zero (negative values are lifted by +p), import/export use
// little-endian byte order (msv_first = false) and export is zero-padded to the requested width.
#pragma once
#include <boost/multiprecision/cpp_int.hpp>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace bx::ref {

using Int = boost::multiprecision::cpp_int;

class PrimeField {
 public:
  explicit PrimeField(Int p) : p_(std::move(p)) {}
  const Int& modulus() const { return p_; }

  Int reduce(const Int& a) const {
    Int r = a % p_;
    if (r < 0) r += p_;
    return r;
  }
  Int add(const Int& a, const Int& b) const { return reduce(a + b); }
  Int sub(const Int& a, const Int& b) const { return reduce(a - b); }
  Int neg(const Int& a) const { return reduce(-a); }
  Int mul(const Int& a, const Int& b) const { return reduce(a * b); }
  Int sqr(const Int& a) const { return reduce(a * a); }
  Int pow(const Int& a, const Int& e) const {
    return boost::multiprecision::powm(reduce(a), e, p_);
  }
  // a^(p-2); inv(0) = 0.
  Int inv(const Int& a) const { return pow(a, p_ - 2); }

 private:
  Int p_;
};

inline Int from_le_bytes(const uint8_t* s, size_t n) {
  Int r;
  boost::multiprecision::import_bits(r, s, s + n, 8, /*msv_first=*/false);
  return r;
}
// Exactly n bytes; throws if the value does not fit (never truncates silently).
inline std::vector<uint8_t> to_le_bytes(const Int& v, size_t n) {
  if (v < 0 || (v != 0 && boost::multiprecision::msb(v) >= 8 * n))
    throw std::range_error("to_le_bytes: value does not fit");
  std::vector<uint8_t> out;
  if (v != 0) boost::multiprecision::export_bits(v, std::back_inserter(out), 8, /*msv_first=*/false);
  out.resize(n, 0);
  return out;
}

}  // namespace bx::ref
