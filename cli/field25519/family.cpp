// field25519 as a Family: arithmetic mod 2^255 - 19 in every layout of f25519::AllLayouts on both carry
// backends, with X25519 written once over the layout API.
#include <CLI/CLI.hpp>

#include "cli/numbers.hpp"
#include "cli/field25519/family_parts.hpp"
#include "suite/field25519/vectors.hpp"

namespace bx::field25519 {
namespace {

class Field25519 final : public Family {
 public:
  std::string name() const override { return "field25519"; }
  std::string description() const override {
    return "arithmetic mod 2^255-19 in every limb layout x two carry backends; X25519 over each";
  }
  std::vector<VariantInfo> variants() const override { return field_variants(); }
  SelftestReport selftest(const SelftestOptions& opt) const override { return field25519::selftest(opt); }

  SubcommandRun add_verify(CLI::App& sub) const override {
    auto o = std::make_shared<VerifyOptions>();
    auto* ops = add_number(sub, "--ops", o->ops, "operations per layout x backend (default 1e10 on GPUs, 2e6 on the CPU)", 1);
    add_number(sub, "--seed", o->seed, "operand stream seed");
    add_number(sub, "--first", o->first, "first draw index (resume point: a run prints where to resume)");
    sub.add_flag("--force", o->force, "run on the CPU even when it takes longer than a few minutes");
    add_number(sub, "--sample-shift", o->sample_shift, "judge one draw in 2^N with the reference", 0, 40);
    return [o, ops](const RunContext& ctx) {
      o->ops_given = ops->count() > 0;
      return run_verify(ctx, *o);
    };
  }
  SubcommandRun add_bench(CLI::App& sub) const override {
    auto o = std::make_shared<BenchOptions>();
    add_number(sub, "--iters", o->iters, "dependent operations per GPU thread", 1, 1 << 20);
    return [o](const RunContext& ctx) { return run_bench(ctx, *o); };
  }

  std::vector<std::string> vector_files() const override {
    return {"vectors/field25519/ops.json", "vectors/field25519/x25519_rfc7748.json"};
  }
  std::map<std::string, std::string> generate_vectors() const override { return vectors::generate_vectors(); }
  std::vector<std::string> check_vectors(const std::string& root) const override { return vectors::check_vectors(root, true); }

  std::vector<std::string> oracle_ops() const override { return {"fe25519.", "x25519"}; }
  OracleHandler oracle(const DeviceSelection& sel) const override { return field25519::oracle(sel); }
  std::vector<suite::cases::CaseSpec> cases(const std::string& tier, uint64_t seed, json* notes) const override {
    return field25519::cases(tier, seed, notes);
  }

  std::vector<std::string> fuzz_targets() const override { return {"field25519_diff"}; }
  std::vector<ZooCheck> zoo_checks() const override {
    return {
        {"conformance", false, "{build}/property_tests/field25519/field25519_conformance_test --gtest_brief=1"},
        {"x25519", false, "{build}/property_tests/field25519/x25519_test --gtest_brief=1"},
        {"split52", false, "{build}/property_tests/field25519/split52_test --gtest_brief=1"},
        {"fuzz-corpus", false, "{build}/field25519_diff_replay {source}/fuzz/corpus/field25519_diff"},
        {"verify-cpu", false, "{build}/bitexact verify field25519 --device cpu --ops 20000 --quiet"},
        {"gpu-tests", true, "{build}/property_tests/field25519/field25519_gpu_test --gtest_brief=1"},
    };
  }
  std::vector<std::string> gpu_stage_runs() const override {
    return {"{build}/bitexact verify field25519 --device gpu --ops 1e10",
            "{build}/bitexact selftest --full --device gpu --family field25519",
            "{build}/bitexact bench field25519 --device gpu --rounds 3 --json"};
  }
  std::vector<std::string> sanitizer_runs() const override {
    return {
        "{build}/bitexact selftest --device gpu --family field25519",            // eval (bytes, limbs), x25519
        "{build}/bitexact verify field25519 --device gpu --ops 2e7 --quiet",     // the bulk kernel
        "{build}/bitexact bench field25519 --device gpu --rounds 3 --iters 8",   // bench chains, IMAD ceiling
    };
  }
};

}  // namespace
}  // namespace bx::field25519

const bx::Family& bx_family_field25519() {
  static const bx::field25519::Field25519 f;
  return f;
}
