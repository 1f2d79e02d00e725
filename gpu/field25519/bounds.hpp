// The declared representation of a layout (fiat-crypto's tight/loose convention): limb weights and the
// inclusive maximum of |limb| for each bound. Each layout declares its own `bounds` beside its code;
// property tests check every op's output against them and the selftest draws its limb corners from them.
#pragma once
#include <cstdint>

namespace bx::f25519 {

// tight: what from_bytes, sub, mul, ... return; loose: the sum of two tights (add's output, every op's
// input); lazy2: the sum of two looses, accepted by sub only where lazy2_sub (a second lazy add).
enum class Bound { tight, loose, lazy2 };

template <int N>
struct LayoutBounds {
  int weight[N];     // limb i has weight 2^weight[i]
  bool is_signed;    // limbs in [-max, max] (else [0, max])
  int64_t tight[N];
  int64_t loose[N];
  int64_t lazy2[N];  // all zero when the layout declares no lazy2 sub
  bool lazy2_sub;

  constexpr const int64_t* max(Bound b) const { return b == Bound::tight ? tight : b == Bound::loose ? loose : lazy2; }
};

}  // namespace bx::f25519
