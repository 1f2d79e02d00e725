// Test-side view of each layout's declared representation (limb weights and bounds, F::bounds):
// value_of() turns limbs into an exact integer so inputs and outputs can be judged by the reference, and
// within() checks a declared bound after every op.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>
#include "suite/hex.hpp"
#include "cli/field25519/limb_model.hpp"
#include "gpu/field25519/layouts.hpp"
#include "reference/common/prime_field.hpp"

namespace bx::test {

using ref::Int;

using f25519::Bound;
using field25519::represent;
using field25519::value_of;
using field25519::within;

// A layout's declared representation (F::bounds, beside the layout's code) as vectors.
struct LayoutModel {
  std::string name;
  std::vector<int> weight;
  bool is_signed;
  std::vector<int64_t> tight_max, loose_max, lazy2_max;  // |limb| bounds (unsigned: limb >= 0); lazy2 empty if undeclared
  bool lazy2_sub;  // sub accepts lazy2 operands
};

template <class F>
const LayoutModel& model() {
  static const LayoutModel m = [] {
    constexpr auto& b = F::bounds;
    LayoutModel r{F::name, {b.weight, b.weight + F::N}, b.is_signed, {b.tight, b.tight + F::N},
                  {b.loose, b.loose + F::N}, {}, b.lazy2_sub};
    if (b.lazy2_sub) r.lazy2_max.assign(b.lazy2, b.lazy2 + F::N);
    return r;
  }();
  return m;
}

inline std::string hexdump_bytes(const uint8_t* expected, const uint8_t* actual) {
  return bx::hexdump_diff(expected, actual, 32);
}

using field25519::limbs_hex;

}  // namespace bx::test
