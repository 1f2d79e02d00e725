// The ecvrf GPU variant matrix (issue: every layout x backend with the 4-bit window fused; fe32-ptx with
// every scalar strategy, fused and compacted, k = 1, 2, 4; the plain double-and-add on fe51-portable
// fused as the GPU oracle). Host code lists it by name; gpu/kernels/ecvrf_*.cu instantiate it, one list
// per translation unit.
#pragma once
#include <string>

#include "gpu/ecvrf/scalar.hpp"
#include "gpu/field25519/layouts.hpp"

namespace bx::ecvrf {

enum class Pipeline { fused, compact };

// Folded_: the kernels fold the cofactor (tai.hpp candidate_to_p, scalar.hpp cofactor_folded_scalar):
// 8 (t P) with t = 8x mod L instead of 8 (x (8P)), 3 doublings fewer. Every variant but the oracle, which
// keeps the spec's steps so that verify proves the folding against it.
template <class F_, class S_, Pipeline P_, int K_, bool Folded_ = true>
struct Variant {
  using F = F_;
  using S = S_;
  static constexpr Pipeline P = P_;
  static constexpr int K = K_;
  static constexpr bool folded = Folded_;
  static_assert(K == 1 || K == 2 || K == 4, "points per inversion: 1, 2 or 4");
  static std::string pipeline() { return P == Pipeline::fused ? "fused" : "compact"; }
  static std::string name() {
    return "ecvrf/" + std::string(F::name) + "-" + F::backend::name + "/" + S::tag + "/" + pipeline() + "/k" +
           std::to_string(K);
  }
};
template <class... Vs>
struct variant_list {};

using OracleVariant = Variant<f25519::Fe51<carry::portable>, DoubleAdd, Pipeline::fused, 1, false>;
template <class F>
using W4Fused = Variant<F, Window4, Pipeline::fused, 1>;
template <class S, int K>
using Fe32Fused = Variant<f25519::Fe32<carry::ptx>, S, Pipeline::fused, K>;
template <class S, int K>
using Fe32Compact = Variant<f25519::Fe32<carry::ptx>, S, Pipeline::compact, K>;
template <class S, int K>
using Fe51sCompact = Variant<f25519::Fe51s<carry::ptx>, S, Pipeline::compact, K>;

// gpu/kernels/ecvrf_layouts_wide.cu and ecvrf_layouts_narrow.cu (two units: nvcc takes ~35 s per layout)
using WideLayoutVariants =
    variant_list<OracleVariant, W4Fused<f25519::Fe51<carry::portable>>, W4Fused<f25519::Fe51<carry::ptx>>,
                 W4Fused<f25519::Fe32<carry::portable>>, W4Fused<f25519::Fe32<carry::ptx>>>;
using NarrowLayoutVariants =
    variant_list<W4Fused<f25519::Fe29<carry::portable>>, W4Fused<f25519::Fe29<carry::ptx>>,
                 W4Fused<f25519::Fe26<carry::portable>>, W4Fused<f25519::Fe26<carry::ptx>>>;
// gpu/kernels/ecvrf_fe32_fused.cu (W4 at k = 1 is a layout variant)
using Fe32FusedVariants =
    variant_list<Fe32Fused<DoubleAdd, 1>, Fe32Fused<DoubleAdd, 2>, Fe32Fused<DoubleAdd, 4>, Fe32Fused<Window4, 2>,
                 Fe32Fused<Window4, 4>, Fe32Fused<Wnaf5, 1>, Fe32Fused<Wnaf5, 2>, Fe32Fused<Wnaf5, 4>,
                 Fe32Fused<JoyeTunstall, 1>, Fe32Fused<JoyeTunstall, 2>, Fe32Fused<JoyeTunstall, 4>>;
// gpu/kernels/ecvrf_fe32_compact.cu
using Fe32CompactVariants =
    variant_list<Fe32Compact<DoubleAdd, 1>, Fe32Compact<DoubleAdd, 2>, Fe32Compact<DoubleAdd, 4>,
                 Fe32Compact<Window4, 1>, Fe32Compact<Window4, 2>, Fe32Compact<Window4, 4>, Fe32Compact<Wnaf5, 1>,
                 Fe32Compact<Wnaf5, 2>, Fe32Compact<Wnaf5, 4>, Fe32Compact<JoyeTunstall, 1>,
                 Fe32Compact<JoyeTunstall, 2>, Fe32Compact<JoyeTunstall, 4>>;
// gpu/kernels/ecvrf_fe51s.cu: the FP64-split layout, the 4-bit window fused on each backend (a layout
// variant), and compacted on the ptx backend with the strategies that lead on fe32.
using Fe51sVariants =
    variant_list<W4Fused<f25519::Fe51s<carry::portable>>, W4Fused<f25519::Fe51s<carry::ptx>>,
                 Fe51sCompact<Window4, 2>, Fe51sCompact<JoyeTunstall, 2>, Fe51sCompact<JoyeTunstall, 4>>;
// BX_ECVRF_KERNELS=one: each kernel template once (fused on the oracle, h2c + mult with batch inversion).
using OneModeCompact = Fe32Compact<Window4, 2>;

// fn.template operator()<V>() for every variant of the matrix, in a fixed order.
template <class... Vs, class Fn>
void for_each_variant_in(variant_list<Vs...>, Fn& fn) {
  (fn.template operator()<Vs>(), ...);
}
template <class Fn>
void for_each_gpu_variant(Fn&& fn) {
  for_each_variant_in(WideLayoutVariants{}, fn);
  for_each_variant_in(NarrowLayoutVariants{}, fn);
  for_each_variant_in(Fe32FusedVariants{}, fn);
  for_each_variant_in(Fe32CompactVariants{}, fn);
  for_each_variant_in(Fe51sVariants{}, fn);
}

}  // namespace bx::ecvrf
