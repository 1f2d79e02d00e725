// The ecvrf engine's shared parts: variant names, the host variants (every layout of f25519::AllLayouts with
// portable carries x every scalar strategy, each as a fused attempt), a search job and its hits, and the
// host search over a nonce range. The vector files, the selftest, verify and bench all use them.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "gpu/ecvrf/scalar.hpp"
#include "gpu/field25519/layouts.hpp"
#include "reference/ecvrf/vrf.hpp"
#include "suite/hex.hpp"

namespace bx::ecvrf_family {

namespace G = ref::ecvrf;
using Bytes64 = G::Bytes64;

// 32 little-endian bytes of 0 <= v < 2^256.
Bytes32 bytes_of(const ref::Int& v);

// "ecvrf/fe32-portable/w4/fused/k1": layout-backend, scalar strategy (da, w4, wnaf5, jt), pipeline,
// points compressed per inversion.
inline std::string variant_name(const std::string& layout, const std::string& backend, const std::string& tag) {
  return "ecvrf/" + layout + "-" + backend + "/" + tag + "/fused/k1";
}

// fn.template operator()<F, S>() for every host variant: strategy-major, layouts in AllLayouts order.
template <class S, template <class> class... Ls, class Fn>
void for_each_layout_of(Fn& fn, f25519::layout_list<Ls...>) {
  (fn.template operator()<Ls<carry::portable>, S>(), ...);
}
template <class Fn>
void for_each_host_variant(Fn&& fn) {
  for_each_layout_of<ecvrf::DoubleAdd>(fn, f25519::AllLayouts{});
  for_each_layout_of<ecvrf::Window4>(fn, f25519::AllLayouts{});
  for_each_layout_of<ecvrf::Wnaf5>(fn, f25519::AllLayouts{});
  for_each_layout_of<ecvrf::JoyeTunstall>(fn, f25519::AllLayouts{});
}
using f25519::for_each_host_layout;  // every host layout (AllLayouts order, portable carries)
template <class F, class S>
std::string host_variant_name() {
  return variant_name(F::name, "portable", S::tag);
}

// Every host variant's fused attempt for a short alpha with the scalar as given (recoded for its strategy):
// writes beta and returns ctr (-1: no beta). Instantiated once (host.cpp; the unity build compiles it beside
// the selftest that runs the same code).
using AttemptFn = int (*)(uint8_t beta[64], const uint8_t pk[32], const uint8_t* alpha, int alpha_len, const Bytes32& scalar);
struct HostAttempt {
  std::string variant;
  AttemptFn run;
};
std::vector<HostAttempt> host_attempts();

// A search job (spec 9): the key's secret scalar as the search uses it (x, or x mod L), pk, header.
struct Job {
  Bytes32 sk, x, pk, header;
  std::string scalar_kind;  // "x" or "x mod L"
};
struct Hit {
  uint64_t nonce, score;
};
// A host variant over [lo, lo + n) on every core (the per-attempt code of gpu/ecvrf on the CPU): the hits
// (score < target) in nonce order.
std::vector<Hit> host_search(const HostAttempt& a, const Job& job, uint64_t lo, uint64_t n, uint64_t target);

}  // namespace bx::ecvrf_family
