// ecvrf as a Family: the ECVRF-EDWARDS25519-SHA512-TAI miner pipeline (spec field25519_ecvrf.md) on every
// field25519 layout and scalar strategy, checked against the golden model of reference/ecvrf.
#include "cli/ecvrf/ecvrf.hpp"

namespace bx::ecvrf_family {
namespace {

class Ecvrf final : public Family {
 public:
  std::string name() const override { return "ecvrf"; }
  std::string description() const override {
    return "ECVRF-EDWARDS25519-SHA512-TAI proof-to-hash search: every layout x scalar strategy against the golden model";
  }
  std::vector<VariantInfo> variants() const override {
    std::vector<VariantInfo> v;
    for_each_host_variant([&]<class F, class S>() {
      v.push_back(VariantInfo{host_variant_name<F, S>(), F::name, "portable", {strategy_short(S::name), "fused", "k1"},
                              "bit-exact", true, false,
                              std::string("per-attempt pipeline, ") + S::name + " scalar multiplication (CPU; kernels next)"});
    });
    return v;
  }
  SelftestReport selftest(const SelftestOptions& opt) const override { return ecvrf_family::selftest(opt); }
  SubcommandRun add_verify(CLI::App&) const override { return nullptr; }
  SubcommandRun add_bench(CLI::App&) const override { return nullptr; }
  std::vector<std::string> vector_files() const override { return {}; }
  std::map<std::string, std::string> generate_vectors() const override { return {}; }
  std::vector<std::string> check_vectors(const std::string&) const override { return {}; }
  std::vector<std::string> oracle_ops() const override { return {"ecvrf.score"}; }
  OracleHandler oracle(const DeviceSelection& sel) const override { return ecvrf_family::oracle(sel); }
  std::vector<std::string> fuzz_targets() const override { return {}; }
  std::vector<ZooCheck> zoo_checks() const override {
    return {{"ecvrf-points", false, "{build}/property_tests/ecvrf/ecvrf_points_test --gtest_brief=1"}};
  }
  std::vector<std::string> sanitizer_runs() const override { return {}; }
  std::vector<std::string> gpu_stage_runs() const override { return {}; }
};

}  // namespace
}  // namespace bx::ecvrf_family

const bx::Family& bx_family_ecvrf() {
  static const bx::ecvrf_family::Ecvrf f;
  return f;
}
