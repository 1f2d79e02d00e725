#include "reference/field25519/catalogue.hpp"

#include <set>
#include "reference/field25519/ref25519.hpp"

namespace bx::ref::f25519 {

static Int from_hex_le(const char* hex) {
  uint8_t b[32];
  for (int i = 0; i < 32; ++i) {
    auto nib = [](char c) { return c <= '9' ? c - '0' : c - 'a' + 10; };
    b[i] = uint8_t(nib(hex[2 * i]) << 4 | nib(hex[2 * i + 1]));
  }
  return from_le_bytes(b, 32);
}

const std::vector<CatalogueEntry>& boundary_catalogue() {
  static const std::vector<CatalogueEntry> cat = [] {
    std::vector<CatalogueEntry> c;
    std::set<Int> seen;
    auto add = [&](const Int& v, const std::string& label) {
      if (v < 0 || seen.count(v)) return;
      seen.insert(v);
      c.push_back({v, label});
    };
    const Int P = p();
    const Int two255 = Int(1) << 255, two256 = Int(1) << 256;
    for (int k : {0, 1, 2, 19, 38, 121665}) add(k, "small " + std::to_string(k));
    add((P + 1) / 2, "(p+1)/2");
    add(P - 1, "p-1");
    for (int j = 0; j <= 18; ++j) add(P + j, "p+" + std::to_string(j) + " (non-canonical, < 2^255)");
    add(two255, "2^255");
    add(P + 37, "p+37");
    add(2 * P - 1, "2p-1");
    add(2 * P, "2p");
    add(two256 - 39, "2^256-39");
    add(two256 - 38, "2^256-38 (= 2p + 0)");
    add(two256 - 1, "2^256-1 (all ones)");
    std::set<int> ks = {255, 256, 261};
    for (int i = 1; i < 10; ++i) ks.insert((51 * i + 1) / 2);  // 10x26/25 weights ceil(25.5 i)
    for (int i = 1; i < 9; ++i) ks.insert(29 * i);
    for (int i = 1; i < 8; ++i) ks.insert(32 * i);
    for (int i = 1; i < 5; ++i) ks.insert(51 * i);
    for (int k : ks) {
      const Int t = Int(1) << k;
      add(t - 1, "2^" + std::to_string(k) + "-1");
      add(t, "2^" + std::to_string(k));
      add(t + 1, "2^" + std::to_string(k) + "+1");
      add(19 * t, "19*2^" + std::to_string(k));
    }
    add(sqrt_m1(), "sqrt(-1)");
    add(from_hex_le("a3785913ca4deb75abd841414d0a700098e879777940c78c73fe6f2bee6c0352"), "d");
    add(from_hex_le("59f1b226949bd6eb56b183829a14e00030d1f3eef2808e19e7fcdf56dcd90624"), "2d");
    add(P - sqrt_m1(), "-sqrt(-1)");
    add(P - 2, "-2 (non-square)");
    add(4, "4 (square of 2)");
    return c;
  }();
  return cat;
}

std::vector<CatalogueEntry> boundary_catalogue_bytes() {
  std::vector<CatalogueEntry> out;
  for (auto& e : boundary_catalogue())
    if (e.value < (Int(1) << 255)) out.push_back(e);
  return out;
}

}  // namespace bx::ref::f25519
