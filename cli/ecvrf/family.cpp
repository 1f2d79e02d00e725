// ecvrf as a Family: the ECVRF-EDWARDS25519-SHA512-TAI miner pipeline (spec field25519_ecvrf.md) on every
// field25519 layout and scalar strategy, checked against the golden model of reference/ecvrf.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <memory>

#include "cli/run_result.hpp"
#include "cli/ecvrf/ecvrf.hpp"
#include "cli/plugin_variants.hpp"
#include "suite/call_site.hpp"
#include "suite/ecvrf/vectors.hpp"
#include "cli/numbers.hpp"
#include "gpu/ecvrf/variants.hpp"
#if defined(BX_HAVE_CUDA)
#include "gpu/kernels/ecvrf_kernels.hpp"
#endif

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
    std::vector<std::string> compiled;
#if defined(BX_HAVE_CUDA)
    for (const auto& d : kern::ecvrf_device_variants()) compiled.push_back(d.name);
#endif
    const auto on_gpu = [&](const std::string& n) { return std::find(compiled.begin(), compiled.end(), n) != compiled.end(); };
    for_each_host_variant([&]<class F, class S>() {
      const std::string n = host_variant_name<F, S>();
      v.push_back(VariantInfo{n, F::name, "portable", {S::tag, "fused", "k1"}, "bit-exact", true, on_gpu(n),
                              std::string("per-attempt pipeline, ") + S::name + " scalar multiplication"});
    });
    ecvrf::for_each_gpu_variant([&]<class V>() {
      const std::string n = V::name();
      if (std::any_of(v.begin(), v.end(), [&](const VariantInfo& x) { return x.name == n; })) return;
      std::string d = V::pipeline() + " pipeline, " + V::S::name + ", " + std::to_string(V::K) + " point(s) per inversion";
      if (n == ecvrf::OracleVariant::name()) d += "; the GPU oracle of verify and bench";
      if (!on_gpu(n)) d += "; GPU kernel not in this build (BX_ECVRF_KERNELS=all)";
      v.push_back(VariantInfo{n, V::F::name, V::F::backend::name, {V::S::tag, V::pipeline(), "k" + std::to_string(V::K)},
                              "bit-exact", false, true, d});
    });
    for (auto& vi : plugin_variants("ecvrf", v, [](const suite::PluginImpl& p) {
           if (p.place == BX_PLACE_DEVICE && !suite::device_sites_available()) return std::string("device implementation (needs a CUDA build)");
           const auto e = suite::ecvrf::adapt(p, p.place == BX_PLACE_DEVICE ? 0 : -1);  // validates the table; binds, touches no device
           std::string ops;
           for (auto [has, name] : {std::pair{bool(e.decode), "decode"}, {bool(e.add), "add"}, {bool(e.scalar_mult), "scalar_mult"},
                                    {bool(e.proof_to_hash), "proof_to_hash"}, {bool(e.vrf_beta), "vrf_beta"}, {bool(e.search), "search"}})
             if (has) ops += std::string(ops.empty() ? "" : " ") + name;
           return "ops: " + ops;
         }))
      v.push_back(vi);
    return v;
  }
  SelftestReport selftest(const SelftestOptions& opt) const override { return ecvrf_family::selftest(opt); }
  SubcommandRun add_verify(CLI::App& sub) const override {
    struct Args {
      std::vector<std::string> sk, variants;
      int keys = 0;
      std::string header, nonces = "0:4096", target = "2^50", all_betas = "0", all_betas_base, plant, vectors;
      int passes = 12;
      uint64_t probe = 512;
    };
    auto a = std::make_shared<Args>();
    sub.add_option("--sk", a->sk, "a secret key (RFC 8032 seed) as 64 hex digits (repeatable)")->type_name("HEX64");
    add_number(sub, "--keys", a->keys, "N fixed derived keys (even ones search with x, odd ones with x mod L)", 0, 1000);
    sub.add_option("--header", a->header, "the 32-byte header as 64 hex digits (default all zero)")->type_name("HEX64");
    sub.add_option("--nonces", a->nonces, "LO:COUNT (decimal, 0x-hex or 2^K[+-N]; LO + COUNT <= 2^64)")->type_name("LO:COUNT");
    sub.add_option("--target", a->target, "hit iff score < target (default 2^50)")->type_name("N");
    sub.add_option("--variant", a->variants, "variant names or globs, or all (default all)")->type_name("GLOB");
    add_number(sub, "--passes", a->passes, "compacted pipelines: hash-to-curve passes (default 12)", 1, 256);
    add_number(sub, "--probe", a->probe, "golden-model window at the range ends and 2^32 boundaries (default 512)");
    sub.add_option("--all-betas", a->all_betas, "GPU: compare every beta of N nonces per key with the oracle's on the device")->type_name("N");
    sub.add_option("--all-betas-base", a->all_betas_base, "the variant --all-betas compares with (default the oracle)")->type_name("NAME");
    sub.add_option("--vectors", a->vectors, "GPU: the point vector files under this repository root through every pipeline's point code")->type_name("DIR");
    add_plant_option(sub, a->plant);
    return [a](const RunContext& ctx) {
      if (!a->vectors.empty() && (ctx.shard.active() || !ctx.result_path.empty()))  // a fixed file set, not a range
        throw InputError("verify ecvrf --vectors: a check of fixed files; it takes no --shard or --result (one GPU: --device N)");
      if (!a->vectors.empty() && ctx.devices.gpus.empty())
        throw InputError("verify ecvrf --vectors: runs the GPU pipelines' point code; no GPU is selected (--device gpu|N|all)");
      if (!a->vectors.empty()) return run_verify_vectors(ctx, a->vectors, a->variants.empty() ? std::vector<std::string>{"all"} : a->variants);
      VerifyOptions o;
      const auto c = a->nonces.find(':');
      if (c == std::string::npos) throw InputError("--nonces: expected LO:COUNT, got '" + a->nonces + "'");
      o.lo = parse_u64(a->nonces.substr(0, c), "--nonces LO");
      const ref::Int count = parse_number(a->nonces.substr(c + 1), "--nonces COUNT");
      if (count < 1 || count > ref::Int(~uint64_t(0)) || ref::Int(o.lo) + count > (ref::Int(1) << 64))
        throw InputError("--nonces: COUNT must be 1..2^64-1 and LO + COUNT <= 2^64, got '" + a->nonces + "'");
      o.count = count.convert_to<uint64_t>();
      o.target = parse_u64(a->target, "--target");
      o.all_betas = parse_u64(a->all_betas, "--all-betas");
      o.all_betas_base = a->all_betas_base;
      if (o.all_betas && o.all_betas - 1 > ~o.lo) throw InputError("--all-betas: LO + N must not exceed 2^64");
      if (o.all_betas && ctx.devices.gpus.empty())
        throw InputError("verify ecvrf --all-betas: compares every beta on a GPU; none is selected (--device gpu|N|all)");
      if (!o.all_betas_base.empty() && !o.all_betas)
        throw InputError("verify ecvrf --all-betas-base: applies only with --all-betas");
      o.sk_hex = a->sk;
      o.keys = a->keys;
      o.header_hex = a->header;
      if (!a->variants.empty()) o.variants = a->variants;
      o.passes = a->passes;
      o.probe = std::max<uint64_t>(1, a->probe);
      o.plant = parse_plant(a->plant);
      if (!ctx.devices.cpu && ctx.devices.gpus.empty()) throw InputError("verify ecvrf: no device selected");
      return run_verify(ctx, o);
    };
  }
  SubcommandRun add_bench(CLI::App& sub) const override {
    auto o = std::make_shared<BenchOptions>();
    auto nonces = std::make_shared<std::string>("2^22");
    sub.add_option("--nonces", *nonces, "nonces per variant per round on a GPU, 2^10..2^32 (default 2^22; the CPU takes 4096)")->type_name("N");
    sub.add_option("--variant", o->variants, "variant names or globs, or all (default all)")->type_name("GLOB");
    sub.add_flag("--pick", o->pick, "name the fastest variant that passed its selftest on each card");
    return [o, nonces](const RunContext& ctx) {
      o->nonces = parse_u64(*nonces, "--nonces");
      if (o->nonces < (1u << 10) || o->nonces > (uint64_t(1) << 32)) throw InputError("--nonces: must be 2^10..2^32, got " + *nonces);
      return run_bench(ctx, *o);
    };
  }
  std::vector<std::string> vector_files() const override { return ecvrf_vectors::vector_files(); }
  std::map<std::string, std::string> generate_vectors() const override { return ecvrf_vectors::generate_vectors(); }
  std::vector<std::string> check_vectors(const std::string& root) const override { return ecvrf_vectors::check_vectors(root); }
  std::vector<std::string> oracle_ops() const override { return {"ecvrf.score", "ecvrf.hash", "ed25519.decode", "ed25519.add", "ed25519.scalarmult"}; }
  OracleHandler oracle(const DeviceSelection& sel) const override { return ecvrf_family::oracle(sel); }
  std::vector<suite::cases::CaseSpec> cases(const std::string& tier, uint64_t seed, json* notes) const override {
    return ecvrf_family::cases(tier, seed, notes);
  }
  std::vector<std::string> fuzz_targets() const override { return {"ecvrf_diff"}; }
  std::vector<ZooCheck> zoo_checks() const override {
    return {{"ecvrf-points", false, "{build}/property_tests/ecvrf/ecvrf_points_test --gtest_brief=1"},
            {"ecvrf-fuzz", false, "{build}/ecvrf_diff_replay {source}/fuzz/corpus/ecvrf_diff"},
            {"ecvrf-vectors", false, "{build}/bitexact vectors check --family ecvrf --root {source}"},
            {"ecvrf-oracle", false, "{build}/property_tests/ecvrf/ecvrf_oracle_test --gtest_brief=1"},
            {"ecvrf-vectors-gpu", true, "{build}/bitexact verify ecvrf --device gpu --quiet --vectors {source}"},
            {"ecvrf-verify-gpu", true,
             "{build}/bitexact verify ecvrf --device gpu --quiet --keys 1 --nonces 2^32-2048:4096 --target 2^61 --passes 1 --variant all"}};
  }
  std::vector<std::string> sanitizer_runs() const override {
    return {"{build}/bitexact selftest --device gpu --family ecvrf --variant ecvrf/fe32-ptx/w4/*",
            "{build}/bitexact verify ecvrf --device gpu --quiet --keys 1 --nonces 2^32-2048:4096 --target 2^56 --variant ecvrf/fe32-ptx/w4/*"};
  }
  std::vector<std::string> gpu_stage_runs() const override {
    return {"{build}/bitexact selftest --full --device gpu --family ecvrf",
            "{build}/bitexact verify ecvrf --device gpu --keys 2 --nonces 2^32-2^25:2^26 --target 2^52 --variant all",
            "{build}/bitexact verify ecvrf --device gpu --keys 1 --nonces 2^40:4096 --target 2^50 --all-betas 2^30 --variant ecvrf/fe32-ptx/jt/compact/k2",
            "{build}/bitexact bench ecvrf --device gpu --rounds 3 --pick --json"};
  }
};

}  // namespace
}  // namespace bx::ecvrf_family

const bx::Family& bx_family_ecvrf() {
  static const bx::ecvrf_family::Ecvrf f;
  return f;
}
