// Test-side model of each layout's representation: limb weights and the declared limb bounds
// (tight, loose, and the extra sub-operand budget), written from the spec, independent of gpu/.
// value_of() turns limbs into an exact integer so inputs and outputs can be judged by the reference.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>
#include "cli/hex.hpp"
#include "gpu/field25519/layouts.hpp"
#include "reference/common/prime_field.hpp"

namespace bx::test {

using ref::Int;

// Declared state of a value in a program: tight, loose (sum of two tights), or lazy2 (sum of two
// looses; only a sub operand, and only where the layout declares it).
enum class Bound { tight, loose, lazy2 };

struct LayoutModel {
  std::string name;
  std::vector<int> weight;
  bool is_signed;
  std::vector<int64_t> tight_max, loose_max, lazy2_max;  // |limb| bounds (unsigned: limb >= 0)
  bool lazy2_sub;  // sub accepts lazy2 operands
};

inline const LayoutModel& model_of(const std::string& name) {
  static const std::vector<LayoutModel> models = [] {
    std::vector<LayoutModel> m;
    const int64_t t51 = int64_t(1) << 51;
    m.push_back({"fe51", {0, 51, 102, 153, 204}, false, std::vector<int64_t>(5, t51),
                 std::vector<int64_t>(5, 3 * t51), {}, false});
    m.push_back({"fe32", {0, 32, 64, 96, 128, 160, 192, 224}, false, std::vector<int64_t>(8, 0xffffffffLL),
                 std::vector<int64_t>(8, 0xffffffffLL), std::vector<int64_t>(8, 0xffffffffLL), true});
    std::vector<int64_t> t29(9, (int64_t(1) << 29) - 1);
    t29[1] = int64_t(1) << 29;
    m.push_back({"fe29", {0, 29, 58, 87, 116, 145, 174, 203, 232}, false, t29,
                 std::vector<int64_t>(9, int64_t(1) << 30), std::vector<int64_t>(9, int64_t(1) << 31), true});
    std::vector<int64_t> t26, l26;
    for (int i = 0; i < 10; ++i) {
      int64_t base = (i & 1) ? (int64_t(11) << 24) / 10 : (int64_t(11) << 25) / 10;
      t26.push_back(base);
      l26.push_back(2 * base);
    }
    m.push_back({"fe26", {0, 26, 51, 77, 102, 128, 153, 179, 204, 230}, true, t26, l26, {}, false});
    return m;
  }();
  for (auto& x : models)
    if (x.name == name) return x;
  throw std::logic_error("no model for layout " + name);
}

template <class F>
const LayoutModel& model() {
  return model_of(F::name);
}

template <class F>
Int value_of(const typename F::fe& a) {
  const auto& m = model<F>();
  Int v = 0;
  for (int i = 0; i < F::N; ++i) v += Int(int64_t(a.v[i])) << m.weight[i];
  return v;
}

template <class F>
bool within(const typename F::fe& a, Bound b) {
  const auto& m = model<F>();
  const auto& mx = b == Bound::tight ? m.tight_max : b == Bound::loose ? m.loose_max : m.lazy2_max;
  if (mx.empty()) return false;
  for (int i = 0; i < F::N; ++i) {
    int64_t x = int64_t(a.v[i]);
    if (!m.is_signed && x < 0) return false;
    if ((x < 0 ? -x : x) > mx[i]) return false;
  }
  return true;
}

inline std::string hexdump_bytes(const uint8_t* expected, const uint8_t* actual) {
  return bx::hexdump_diff(expected, actual, 32);
}

template <class F>
std::string limbs_hex(const typename F::fe& a) {
  std::string s = "[";
  char buf[32];
  for (int i = 0; i < F::N; ++i) {
    std::snprintf(buf, sizeof buf, "%s%s0x%llx", i ? ", " : "", int64_t(a.v[i]) < 0 ? "-" : "",
                  (unsigned long long)(int64_t(a.v[i]) < 0 ? -int64_t(a.v[i]) : int64_t(a.v[i])));
    s += buf;
  }
  return s + "]";
}

// Tight representation of v (0 <= v), digit by digit with the remainder in the top limb; balanced
// digits for signed layouts, whose top limb then wraps by 2^255 = 19 (the value changes by a multiple of
// p: use value_of() on the result). nullopt if it does not fit the layout's tight bounds.
template <class F>
std::optional<typename F::fe> represent(const Int& v) {
  const auto& m = model<F>();
  typename F::fe r;
  Int rest = v;
  for (int i = 0; i + 1 < F::N; ++i) {
    const int s = m.weight[i + 1] - m.weight[i];
    Int d = rest & ((Int(1) << s) - 1);
    if (m.is_signed && d >= (Int(1) << (s - 1))) d -= Int(1) << s;
    rest = (rest - d) >> s;
    r.v[i] = typename F::limb(static_cast<int64_t>(d));
  }
  const int top_bits = 255 - m.weight[F::N - 1];
  if (m.is_signed && rest > Int(m.tight_max[F::N - 1])) {
    rest -= Int(1) << top_bits;
    r.v[0] = typename F::limb(int64_t(r.v[0]) + 19);
  }
  if (rest > Int(m.tight_max[F::N - 1]) || rest < -Int(m.tight_max[F::N - 1])) return std::nullopt;
  r.v[F::N - 1] = typename F::limb(static_cast<int64_t>(rest));
  if (!within<F>(r, Bound::tight)) return std::nullopt;
  return r;
}

}  // namespace bx::test
