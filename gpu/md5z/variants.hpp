// The md5z search variants. A variant is one struct: its stable name, description, shortcuts and the
// switches its per-candidate code (tunnel.hpp) compiles on (lanes: candidates per thread, their steps
// interleaved); AllVariants lists them. Kernels, host runs,
// selftest, verify, bench, oracle, vectors and `list` all iterate over AllVariants, so adding a variant is
// a struct here plus its entry in the list (and, for a new kind of step, its code in tunnel.hpp).
#pragma once
#include <cstddef>
#include <type_traits>
#include <utility>

namespace bx::md5 {

struct Plain {  // full 64-step MD5 of the built message: no tunnel, no early exit (the GPU oracle)
  static constexpr const char* name = "md5z/plain";
  static constexpr const char* description = "full 64-step MD5 of the built message (the GPU oracle)";
  static constexpr const char* shortcuts = "";
  static constexpr bool tunnel = false, fold = false, fma_adds = false;
  static constexpr int lanes = 1;
};
struct Q9V0 {  // tunnel: steps 24..60, early exit on h0, addend K[t] + m[w(t)] per step
  static constexpr const char* name = "md5z/q9-v0";
  static constexpr const char* description = "tunnel: steps 24..60, early exit on h0";
  static constexpr const char* shortcuts = "tunnel,early-exit";
  static constexpr bool tunnel = true, fold = false, fma_adds = false;
  static constexpr int lanes = 1;
};
struct Q9V1 {  // v0 + the K+m fold: K[t] + m[w(t)] precomputed per base for the 29 fixed-word steps
  static constexpr const char* name = "md5z/q9-v1";
  static constexpr const char* description = "tunnel + K+m fold (29 constants per base)";
  static constexpr const char* shortcuts = "tunnel,early-exit,km-fold";
  static constexpr bool tunnel = true, fold = true, fma_adds = false;
  static constexpr int lanes = 1;
};
struct Q9V2 {  // v1 + a + km and + f issued as mad.lo.u32 x, one, y (FMA pipe), `one` read at run time
  static constexpr const char* name = "md5z/q9-v2";
  static constexpr const char* description = "tunnel + fold + adds on the FMA pipe (mad.lo.u32 with a run-time 1)";
  static constexpr const char* shortcuts = "tunnel,early-exit,km-fold,fma-adds";
  static constexpr bool tunnel = true, fold = true, fma_adds = true;
  static constexpr int lanes = 1;
};
// v2 with two adjacent candidates per thread, their steps interleaved: two independent dependency chains
// per warp for the scheduler (instruction-level parallelism), at about twice the registers.
struct Q9V3 {
  static constexpr const char* name = "md5z/q9-v3";
  static constexpr const char* description = "v2 with two candidates per thread, steps interleaved (two chains per warp)";
  static constexpr const char* shortcuts = "tunnel,early-exit,km-fold,fma-adds,two-lanes";
  static constexpr bool tunnel = true, fold = true, fma_adds = true;
  static constexpr int lanes = 2;
};

template <class... Vs>
struct variant_list {
  static constexpr size_t size = sizeof...(Vs);
};
using AllVariants = variant_list<Plain, Q9V0, Q9V1, Q9V2, Q9V3>;

// A variant at run time: its index in AllVariants.
enum class Variant : int {};

namespace detail {
template <class V, class... Vs>
constexpr int index_in(variant_list<Vs...>) {
  int i = 0, found = -1;
  ((std::is_same_v<V, Vs> ? (found = i, ++i) : ++i), ...);
  return found;
}
template <size_t K, class V0, class... Vs>
struct nth {
  using type = typename nth<K - 1, Vs...>::type;
};
template <class V0, class... Vs>
struct nth<0, V0, Vs...> {
  using type = V0;
};
template <size_t K, class List>
struct at;
template <size_t K, class... Vs>
struct at<K, variant_list<Vs...>> {
  using type = typename nth<K, Vs...>::type;
};
}  // namespace detail

template <class V>
constexpr Variant variant_of() {
  constexpr int i = detail::index_in<V>(AllVariants{});
  static_assert(i >= 0, "not in AllVariants");
  return Variant(i);
}
template <int K>
using VariantAt = typename detail::at<size_t(K), AllVariants>::type;
inline constexpr Variant kPlain = variant_of<Plain>();
inline constexpr int kVariantCount = int(AllVariants::size);

namespace detail {
template <class Fn, size_t... K>
void for_each_variant_in(Fn&& fn, std::index_sequence<K...>) {
  (fn(VariantAt<int(K)>{}), ...);
}
}  // namespace detail

// fn(V{}) for every variant, in list order.
template <class Fn>
void for_each_variant(Fn&& fn) {
  detail::for_each_variant_in(fn, std::make_index_sequence<AllVariants::size>{});
}

}  // namespace bx::md5
