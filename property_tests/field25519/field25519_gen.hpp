// RapidCheck generators for field25519 operands: boundary catalogue, uniform values, limb-level
// representations at their declared bounds (tight, loose, lazy2), biased to the corners.
#pragma once
#include <rapidcheck.h>

#include "property_tests/field25519/field25519_bounds.hpp"
#include "reference/field25519/catalogue.hpp"
#include "reference/field25519/ref25519.hpp"

namespace bx::test {

struct Operand {
  std::string origin;  // how it was made, printed on failure
  Int value;           // exact value of the limbs (not reduced)
};

inline rc::Gen<Int> gen_value_255() {
  using namespace rc;
  static const auto cat = ref::f25519::boundary_catalogue_bytes();
  return gen::weightedOneOf<Int>({
      {4, gen::map(gen::container<std::vector<uint8_t>>(32, gen::arbitrary<uint8_t>()),
                   [](std::vector<uint8_t> b) {
                     b[31] &= 0x7f;
                     return ref::from_le_bytes(b.data(), 32);
                   })},
      {3, gen::map(gen::inRange<size_t>(0, cat.size()), [](size_t i) { return cat[i].value; })},
      {2, gen::map(gen::container<std::vector<uint8_t>>(8, gen::element<uint8_t>(0, 1, 2, 3)),
                   [](std::vector<uint8_t> words) {  // 32-bit words from {0, 1, all-ones, random-ish}
                     Int v = 0;
                     for (int i = 7; i >= 0; --i) {
                       uint32_t w = words[i] == 0 ? 0 : words[i] == 1 ? 1 : words[i] == 2 ? 0xffffffffu : 0x9e3779b9u * (i + 1);
                       v = (v << 32) | w;
                     }
                     return v & ((Int(1) << 255) - 1);
                   })},
  });
}

// A limb vector within `b` for layout F: each limb 0, 1, max-1, max, or uniform in range
// (signed layouts also take the negated corners).
template <class F>
rc::Gen<typename F::fe> gen_rep(Bound b) {
  using namespace rc;
  const auto& m = model<F>();
  const auto& mx = b == Bound::tight ? m.tight_max : b == Bound::loose ? m.loose_max : m.lazy2_max;
  return gen::exec([&m, mx] {
    typename F::fe r;
    for (int i = 0; i < F::N; ++i) {
      const int64_t hi = mx[i];
      const int64_t lo = m.is_signed ? -hi : 0;
      const int pick = *gen::inRange(0, 8);
      int64_t x;
      switch (pick) {
        case 0: x = 0; break;
        case 1: x = hi; break;
        case 2: x = hi - 1; break;
        case 3: x = m.is_signed ? lo : 1; break;
        default: x = *gen::inRange<int64_t>(lo, hi + 1); break;
      }
      r.v[i] = typename F::limb(x);
    }
    return r;
  });
}

// A tight operand: from bytes (uniform, catalogue, word runs) or a tight limb representation, or a
// catalogue value above 2^255 that the layout can hold.
template <class F>
rc::Gen<std::pair<typename F::fe, Operand>> gen_operand(Bound b) {
  using namespace rc;
  using P = std::pair<typename F::fe, Operand>;
  const auto& cat = ref::f25519::boundary_catalogue();
  return gen::weightedOneOf<P>({{3, gen::map(gen_value_255(), [](Int v) {
                    auto bytes = ref::to_le_bytes(v, 32);
                    typename F::fe x;
                    F::from_bytes(x, bytes.data());
                    return P{x, {"from_bytes", v}};
                  })},
                                {3, gen::map(gen_rep<F>(b), [](typename F::fe x) { return P{x, {"limbs " + limbs_hex<F>(x), value_of<F>(x)}}; })},
                                {1, gen::map(gen::inRange<size_t>(0, cat.size()), [&cat](size_t i) {
                    auto r = represent<F>(cat[i].value);
                    std::string how = "catalogue " + cat[i].label;
                    if (!r) {  // not representable in this layout: its residue instead
                      r = represent<F>(ref::f25519::field().reduce(cat[i].value));
                      how += " (reduced)";
                    }
                    if (!r) throw std::logic_error("catalogue value not representable: " + how);
                    return P{*r, {how, value_of<F>(*r)}};
                  })}});
}

}  // namespace bx::test
