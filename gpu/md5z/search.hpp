// Search bookkeeping shared by the kernels' launchers and the host runs: hit packing, the split of an
// index range into launches, and the host search loop (the exact per-candidate code the kernels run).
#pragma once
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>
#include "gpu/md5z/tunnel.hpp"

namespace bx::md5 {

inline constexpr uint64_t kIndexEnd = uint64_t(1) << 32;  // indices are 0 .. 2^32-1

// A hit as one sortable word: index in bits 8..39, zero count in bits 0..7.
BX_HD uint64_t pack_hit(uint32_t index, int zeros) { return uint64_t(index) << 8 | uint32_t(zeros); }
BX_HD uint32_t hit_index(uint64_t h) { return uint32_t(h >> 8); }
BX_HD int hit_zeros(uint64_t h) { return int(h & 0xff); }

// [lo, hi) split into consecutive launches of at most max_len indices (max_len <= 2^31, so a launch's
// per-thread offsets stay below 2^32). Invariant: the slices partition [lo, hi) exactly, in order,
// also when hi = 2^32. Ends are 64-bit: a 32-bit end would wrap to 0 at 2^32 (fault md5z_range_wrap).
struct Slice {
  uint64_t lo, hi;
};
inline std::vector<Slice> plan_slices(uint64_t lo, uint64_t hi, uint64_t max_len) {
  std::vector<Slice> out;
  for (uint64_t s = lo; s < hi;) {
    uint64_t e = std::min(hi, s + max_len);
    if (BX_FAULT(md5z_range_wrap)) e = uint32_t(e);  // 2^32 wraps to 0: the last slice is dropped
    if (e <= s) break;
    out.push_back({s, e});
    s = e;
  }
  return out;
}

// A thread of a variant with V::lanes > 1 takes the adjacent offsets off, off + 1, ... of its launch of n
// indices; lane k is searched iff off + k < n (a launch may end inside a thread's group).
BX_HD bool lane_in_range(uint64_t off, int k, uint64_t n) {
  // Fault: a later lane's guard is off by one, so a launch whose last index falls in such a lane loses it.
  return off + uint64_t(k) + (k > 0 && BX_FAULT(md5z_lane_drops_last) ? 1 : 0) < n;
}

// The group of V::lanes candidates lo + off, lo + off + 1, ... of a launch of n indices (off < n): emit(index,
// zeros) for each one in the launch with at least `threshold` zeros. One code path for kernels and host runs.
template <class V, class Emit>
BX_HD void search_group(const TunnelBase& tb, uint32_t lo, uint64_t off, uint64_t n, uint32_t mask, int threshold,
                        uint32_t one, Emit&& emit) {
  constexpr int N = V::lanes;
  uint32_t idx[N];
  int z[N];
  for (int k = 0; k < N; ++k) idx[k] = uint32_t(lo + off + uint64_t(k));  // past the launch: computed, never emitted
  tunnel_zeros_lanes<V, N>(tb, idx, mask, one, z);
  for (int k = 0; k < N; ++k)
    if (lane_in_range(off, k, n) && z[k] >= threshold) emit(idx[k], z[k]);
}

// Host run of variant V over [lo, hi) at threshold T: packed hits in index order.
template <class V>
std::vector<uint64_t> host_search(const TunnelBase& tb, uint64_t lo, uint64_t hi, int threshold) {
  std::vector<uint64_t> hits;
  const uint32_t mask = early_exit_mask(threshold);
  volatile uint32_t one_source = 1;  // v2's run-time `one`
  const uint32_t one = one_source;
  for (const Slice& s : plan_slices(lo, std::min(hi, kIndexEnd), uint64_t(1) << 31)) {
    if constexpr (V::lanes == 1) {
      for (uint64_t i = s.lo; i < s.hi; ++i) {
        const int z = candidate_zeros<V>(tb, uint32_t(i), mask, one);
        if (z >= threshold) hits.push_back(pack_hit(uint32_t(i), z));
      }
    } else {  // the slice as one launch, in the kernel's groups
      const uint64_t n = s.hi - s.lo;
      for (uint64_t off = 0; off < n; off += V::lanes)
        search_group<V>(tb, uint32_t(s.lo), off, n, mask, threshold, one,
                        [&](uint32_t i, int z) { hits.push_back(pack_hit(i, z)); });
    }
  }
  return hits;
}

namespace detail {
template <int K, class Fn>
decltype(auto) with_variant_from(Variant v, Fn&& fn) {
  if constexpr (K + 1 < kVariantCount) {
    if (int(v) != K) return with_variant_from<K + 1>(v, std::forward<Fn>(fn));
  }
  return fn(VariantAt<K>{});
}
}  // namespace detail

// fn(V{}) for the run-time variant v (an index into AllVariants): the one place that maps a variant value
// to its compiled code (host searches, vector checks, kernel selection, oracle digests).
template <class Fn>
decltype(auto) with_variant(Variant v, Fn&& fn) {
  if (int(v) < 0 || int(v) >= kVariantCount) throw std::invalid_argument("md5z: no variant with index " + std::to_string(int(v)));
  return detail::with_variant_from<0>(v, std::forward<Fn>(fn));
}

inline const char* variant_name(Variant v) {
  return with_variant(v, [](auto c) { return decltype(c)::name; });
}
inline const char* variant_description(Variant v) {
  return with_variant(v, [](auto c) { return decltype(c)::description; });
}
inline const char* variant_shortcuts(Variant v) {
  return with_variant(v, [](auto c) { return decltype(c)::shortcuts; });
}
// Every variant, in AllVariants order.
inline const std::vector<Variant>& all_variants() {
  static const std::vector<Variant> v = [] {
    std::vector<Variant> r;
    for_each_variant([&](auto c) { r.push_back(variant_of<decltype(c)>()); });
    return r;
  }();
  return v;
}

}  // namespace bx::md5
