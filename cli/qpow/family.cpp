// qpow as a Family: the Quantus mining hash (Poseidon2 over Goldilocks), every variant of gpu/qpow/variants.hpp.
#include <CLI/CLI.hpp>

#include "cli/run_result.hpp"
#include "cli/numbers.hpp"
#include "cli/plugin_variants.hpp"
#include "cli/qpow/qpow.hpp"
#include "suite/call_site.hpp"
#include "suite/qpow/plugin_ops.hpp"
#include "suite/qpow/vectors.hpp"
#if defined(BX_HAVE_CUDA)
#include "gpu/kernels/qpow_kernels.hpp"
#endif

namespace bx::qpow {
namespace {

std::vector<std::string> shortcut_names(unsigned s) {
  std::vector<std::string> v;
  if (s & kMidstate) v.push_back("midstate");
  if (s & kPrestate) v.push_back("prestate");
  if (s & kEarlyReject) v.push_back("early-reject");
  if (s & kFolded) v.push_back("folded-rc");
  if (s & kDeferBorrow) v.push_back("deferred-borrow");
  return v;
}

class Qpow final : public Family {
 public:
  std::string name() const override { return "qpow"; }
  std::string description() const override {
    return "Quantus qpow: Poseidon2-Goldilocks-12 mining hash of header ‖ U512 nonce, three layouts, the miner's shortcuts";
  }
  std::vector<VariantInfo> variants() const override {
    std::vector<VariantInfo> out;
    for (int k = 0; k < kVariantCount; ++k) {
      const VariantRow& r = kVariants[k];
      VariantInfo vi;
      vi.name = variant_label(Variant(k));
      vi.layout = r.layout;
      vi.backend = r.backend;
      vi.shortcuts = shortcut_names(r.shortcuts);
      if (k == int(Variant::plain)) vi.shortcuts = {"none (byte sponge)"};
      vi.contract = r.lossy ? "characterised" : "bit-exact";
      vi.cpu = r.host;
      vi.description = r.lossy ? "mining.cu's lossy reduce128/gf64_add, modelled bit for bit" : "";
#if defined(BX_HAVE_CUDA)
      // A ptx variant is a GPU variant even where this build left its kernel out (BX_QPOW_KERNELS).
      vi.gpu = kern::qpow_on_gpu(Variant(k)) || !r.host;
      if (!kern::qpow_on_gpu(Variant(k)))
        vi.description += std::string(vi.description.empty() ? "" : "; ") + "GPU kernel not in this build (BX_QPOW_KERNELS=all)";
#else
      vi.gpu = !r.host;
#endif
      out.push_back(vi);
    }
    for (auto& vi : plugin_variants("qpow", out, [](const suite::PluginImpl& p) {
           if (p.place == BX_PLACE_DEVICE && !suite::device_sites_available()) return std::string("device implementation (needs a CUDA build)");
           const auto q = suite::qpow::adapt(p, p.place == BX_PLACE_DEVICE ? 0 : -1);  // validates the table; binds, touches no device
           std::string ops;
           for (auto [has, name] : {std::pair{bool(q.gl_mul), "gl_mul"}, {bool(q.gl_add), "gl_add"}, {bool(q.permute), "permute"},
                                    {bool(q.hash), "hash"}, {bool(q.search), "search"}})
             if (has) ops += std::string(ops.empty() ? "" : " ") + name;
           return "ops: " + ops + (q.within_2_64 ? "; search never across a 2^64 carry" : "");
         }))
      out.push_back(vi);
    return out;
  }
  SelftestReport selftest(const SelftestOptions& opt) const override { return qpow::selftest(opt); }

  SubcommandRun add_verify(CLI::App& sub) const override {
    struct Args {
      std::vector<std::string> header_hex, variants;
      long long headers = 0;
      uint64_t seed = 0;
      std::string nonces = "0:65536", difficulty, target, plant;
      uint64_t probe = 512, char_muls = 0, char_nonces = 0;
    };
    auto a = std::make_shared<Args>();
    sub.add_option("--header", a->header_hex, "a 32-byte header as 64 hex digits (repeatable)")->type_name("HEX64");
    add_number(sub, "--headers", a->headers, "N seeded random headers (0..10000)", 0, 10000);
    add_number(sub, "--seed", a->seed, "seed of --headers (default 0)");
    sub.add_option("--nonces", a->nonces, "LO:COUNT (LO a nonce: decimal, 0x-hex, 2^K[+-N] or 128 hex digits)")->type_name("LO:COUNT");
    sub.add_option("--difficulty", a->difficulty, "difficulty D (target floor((2^512-1)/D)), decimal or 0x-hex")->type_name("D");
    sub.add_option("--target", a->target, "a 512-bit target as 128 hex digits (instead of --difficulty)")->type_name("HEX128");
    sub.add_option("--variant", a->variants, "variant names or globs (gl64, \"gl2x32-*\"), or all (default all)")->type_name("GLOB");
    add_number(sub, "--probe", a->probe, "reference brute-force window at each carry and at the range ends (default 512)");
    add_plant_option(sub, a->plant);
    add_number(sub, "--characterise-muls", a->char_muls, "GPU: lossy multiplies to characterise (instead of a search)");
    add_number(sub, "--characterise-nonces", a->char_nonces, "GPU: lossy nonces to characterise (instead of a search)");
    return [a](const RunContext& ctx) {
      if ((a->char_muls || a->char_nonces) && ctx.devices.gpus.empty())
        throw InputError("verify qpow --characterise-*: measures the lossy GPU kernel; no GPU is selected (--device gpu|N|all)");
      if (a->char_muls || a->char_nonces) return run_characterise(ctx, a->char_muls, a->char_nonces);
      VerifyOptions o;
      std::tie(o.lo, o.count) = parse_nonce_range(a->nonces);
      if (!a->difficulty.empty() == !a->target.empty()) throw InputError("verify qpow: give exactly one of --difficulty and --target");
      o.target = a->target.empty() ? ref::qpow::target_of(parse_difficulty(a->difficulty, "--difficulty"))
                                   : parse_target(a->target, "--target");
      o.variants = parse_variants(a->variants.empty() ? std::vector<std::string>{"all"} : a->variants);
      o.headers_seed = a->seed, o.seeded_headers = uint64_t(a->headers);
      for (long long k = 0; k < a->headers; ++k) {
        Header h;
        uint64_t x = a->seed + uint64_t(k) * 0x9e3779b97f4a7c15ull;
        for (auto& b : h) {
          x = x * 6364136223846793005ull + 1442695040888963407ull;
          b = uint8_t(x >> 56);
        }
        o.headers.push_back(h);
      }
      for (size_t k = 0; k < a->header_hex.size(); ++k) o.headers.push_back(parse_header(a->header_hex[k], "--header #" + std::to_string(k + 1)));
      if (o.headers.empty()) throw InputError("verify qpow: give --headers N or --header HEX");
      if (!ctx.devices.cpu && ctx.devices.gpus.empty()) throw InputError("verify qpow: no device selected");
      if (ctx.devices.gpus.empty() && ctx.shard.part(o.count).size > (1u << 20))
        throw InputError("verify qpow: a CPU-only run takes at most 2^20 nonces");
      o.plant = parse_plant(a->plant);
      o.probe = a->probe;
      return run_verify(ctx, o);
    };
  }
  SubcommandRun add_bench(CLI::App& sub) const override {
    auto o = std::make_shared<BenchOptions>();
    auto* nonces = add_number(sub, "--nonces", o->nonces, "nonces per variant per round on a GPU (CPU: at most 4096)",
                              uint64_t(1) << 10, uint64_t(1) << 36);
    add_number(sub, "--difficulty", o->difficulty, "difficulty of the parity hit lists", 1, ~uint64_t(0));
    return [o, nonces](const RunContext& ctx) {
      if (nonces->count() && ctx.devices.gpus.empty() && o->nonces > 4096)
        throw InputError("bench qpow --nonces " + std::to_string(o->nonces) + ": a CPU bench runs at most 4096 nonces per round");
      return run_bench(ctx, *o);
    };
  }

  std::vector<std::string> vector_files() const override { return qpow::vector_files(); }
  std::map<std::string, std::string> generate_vectors() const override { return qpow::generate_vectors(); }
  std::vector<std::string> check_vectors(const std::string& root) const override { return qpow::check_vectors(root); }

  std::vector<std::string> oracle_ops() const override { return {"qpow."}; }
  OracleHandler oracle(const DeviceSelection& sel) const override { return qpow::oracle(sel); }
  std::vector<suite::cases::CaseSpec> cases(const std::string& tier, uint64_t seed, json* notes) const override {
    return qpow::cases(tier, seed, notes);
  }

  std::vector<std::string> fuzz_targets() const override { return {"qpow_field_diff", "qpow_mining"}; }
  // Besides selftest, each qpow fault's second catcher in the CPU zoo is a fuzz replay, or for the felt
  // sponge (which no mining input reaches) qpow_layouts_test's sponge cases; on a GPU, qpow_gpu_test.
  std::vector<ZooCheck> zoo_checks() const override {
    return {
        {"qpow-fuzz-field", false, "{build}/qpow_field_diff_replay {source}/fuzz/corpus/qpow_field_diff"},
        {"qpow-fuzz-mining", false, "{build}/qpow_mining_replay {source}/fuzz/corpus/qpow_mining"},
        {"qpow-gpu", true, "{build}/property_tests/qpow/qpow_gpu_test --gtest_brief=1"},
        {"qpow-sponge", false, "{build}/property_tests/qpow/qpow_layouts_test --gtest_brief=1 --gtest_filter=*Sponge*"},
    };
  }
  std::vector<std::string> gpu_stage_runs() const override {
    return {"{build}/bitexact selftest --full --device gpu --family qpow",
            "{build}/bitexact verify qpow --device gpu --headers 1 --nonces 2^64-2^31:2^32 --difficulty 65536 --variant all",
            "{build}/bitexact verify qpow --device gpu --headers 1 --nonces 2^256-2^31:2^32 --difficulty 65536 --variant all",
            "{build}/bitexact verify qpow --device gpu --characterise-muls 1000000000000 --characterise-nonces 1000000000",
            "{build}/bitexact bench qpow --device gpu --rounds 3 --json"};
  }
  std::vector<std::string> sanitizer_runs() const override {
    return {"{build}/bitexact selftest --device gpu --family qpow",
            "{build}/bitexact verify qpow --device gpu --quiet --headers 1 --nonces 2^64-4096:8192 --difficulty 64 --probe 64",
            "{build}/bitexact verify qpow --device gpu --quiet --characterise-muls 100000000 --characterise-nonces 100000"};
  }
};

}  // namespace
}  // namespace bx::qpow

const bx::Family& bx_family_qpow() {
  static const bx::qpow::Qpow f;
  return f;
}
