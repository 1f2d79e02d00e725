// The ecvrf family's parts (cli/ecvrf): variant names and the selftest. This first stage runs the per-item
// pipeline of gpu/ecvrf on the CPU for every layout x scalar strategy; GPU kernels, verify, bench,
// vectors and the oracle come next (issue 9).
#pragma once
#include <string>

#include "cli/family.hpp"
#include "cli/hex.hpp"
#include "gpu/ecvrf/scalar.hpp"
#include "gpu/field25519/layouts.hpp"

namespace bx::ecvrf_family {

// "ecvrf/fe32-portable/w4/fused/k1": layout-backend, scalar strategy (da, w4, wnaf5, jt), pipeline,
// points compressed per inversion.
inline std::string strategy_short(const std::string& s) {
  if (s == "double-add") return "da";
  if (s == "window4") return "w4";
  if (s == "joye-tunstall") return "jt";
  return s;  // wnaf5
}
inline std::string variant_name(const std::string& layout, const std::string& backend, const std::string& strategy) {
  return "ecvrf/" + layout + "-" + backend + "/" + strategy_short(strategy) + "/fused/k1";
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
template <class F, class S>
std::string host_variant_name() {
  return variant_name(F::name, "portable", S::name);
}

// Every host variant's fused attempt for a short alpha with the scalar as given (recoded for its strategy):
// writes beta and returns ctr (-1: no beta). Instantiated once, beside the selftest that runs the same code.
using AttemptFn = int (*)(uint8_t beta[64], const uint8_t pk[32], const uint8_t* alpha, int alpha_len, const Bytes32& scalar);
struct HostAttempt {
  std::string variant;
  AttemptFn run;
};
std::vector<HostAttempt> host_attempts();

SelftestReport selftest(const SelftestOptions& opt);
OracleHandler oracle(const DeviceSelection& sel);

}  // namespace bx::ecvrf_family
