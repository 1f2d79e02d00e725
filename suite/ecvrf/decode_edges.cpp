#include "suite/ecvrf/decode_edges.hpp"

#include <stdexcept>
#include <variant>

#include "suite/ecvrf/host.hpp"
#include "reference/ecvrf/edwards.hpp"
#include "reference/field25519/ref25519.hpp"

namespace bx::ecvrf_family {
namespace {
namespace RF = ref::f25519;
using Int = ref::Int;

// y with y^2 = (1 + x^2) / (1 - d x^2) (the curve -x^2 + y^2 = 1 + d x^2 y^2 solved for y), if one exists:
// r = u v^3 (u v^7)^((p-5)/8); v r^2 = u gives r, v r^2 = -u gives r sqrt(-1).
bool y_of_x(const Int& x, Int& y) {
  const Int x2 = RF::sqr(x), u = RF::add(1, x2), v = RF::sub(1, RF::mul(G::d(), x2));
  const Int v3 = RF::mul(RF::sqr(v), v), v7 = RF::mul(RF::sqr(v3), v);
  const Int r = RF::mul(RF::mul(u, v3), RF::pow22523(RF::mul(u, v7)));
  const Int vr2 = RF::mul(v, RF::sqr(r));
  if (vr2 == RF::field().reduce(u)) y = r;
  else if (vr2 == RF::neg(u)) y = RF::mul(r, RF::sqrt_m1());
  else return false;
  return true;
}
}  // namespace

std::vector<EdgeEncoding> decode_edge_encodings() {
  std::vector<EdgeEncoding> v;
  const Int p = RF::p();
  for (int i = 0; i < 32; ++i)
    for (int sign = 0; sign < 2; ++sign) {
      Bytes32 s = bytes_of(p - (Int(1) << (8 * i)));
      s[31] = uint8_t((s[31] & 0x7f) | (sign << 7));
      v.push_back({s, "y = p - 2^" + std::to_string(8 * i) + " (byte " + std::to_string(i) + " one below p's), sign " +
                          std::to_string(sign)});
    }
  int found = 0;
  for (int x = 1; found < 4; x += 2) {
    Int y;
    if (!y_of_x(Int(x), y)) continue;
    Bytes32 s = bytes_of(y);
    s[31] |= 0x80;  // x odd: the sign bit is set
    const auto d = G::decode(s);
    if (!std::holds_alternative<G::Point>(d) || std::get<G::Point>(d).x != Int(x))
      throw std::logic_error("decode_edge_encodings: x = " + std::to_string(x) + " does not decode back");
    v.push_back({s, "x = " + std::to_string(x) + " (small, odd, non-zero), sign 1"});
    ++found;
  }
  return v;
}

}  // namespace bx::ecvrf_family
