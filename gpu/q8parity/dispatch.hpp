// From a matvec variant row and a token count to its code as template arguments: fn(NR, Packed, NTOK) with
// integral constants (NTOK 0 = the rolled token loop). The host runs and the kernel launchers both go
// through it, so they instantiate exactly the registry's shapes.
#pragma once
#include <stdexcept>
#include <string>
#include <type_traits>

#include "gpu/q8parity/variants.hpp"

namespace bx::q8 {

template <int N>
using int_c = std::integral_constant<int, N>;

template <class Fn>
decltype(auto) with_matvec_shape(const VariantRow& v, int ntok, Fn&& fn) {
  if (v.op != Op::matvec || v.negative) throw std::invalid_argument(std::string("not a row-parallel matvec variant: ") + v.name);
  if (ntok < 1 || ntok > 8) throw std::invalid_argument("ntok must be 1..8, got " + std::to_string(ntok));
  auto tokens = [&](auto nr, auto packed) -> decltype(auto) {
    if (!v.unrolled) return fn(nr, packed, int_c<0>{});
    switch (ntok) {
      case 1: return fn(nr, packed, int_c<1>{});
      case 2: return fn(nr, packed, int_c<2>{});
      case 3: return fn(nr, packed, int_c<3>{});
      case 4: return fn(nr, packed, int_c<4>{});
      case 5: return fn(nr, packed, int_c<5>{});
      case 6: return fn(nr, packed, int_c<6>{});
      case 7: return fn(nr, packed, int_c<7>{});
      default: return fn(nr, packed, int_c<8>{});
    }
  };
  auto packing = [&](auto nr) -> decltype(auto) {
    return v.packed ? tokens(nr, std::true_type{}) : tokens(nr, std::false_type{});
  };
  return v.nr == 2 ? packing(int_c<2>{}) : packing(int_c<1>{});
}

}  // namespace bx::q8
