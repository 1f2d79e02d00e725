// md5z as a Family: MD5 leading-zero search over a Q9 tunnel, every variant of md5::AllVariants.
#include <CLI/CLI.hpp>
#include <fstream>

#include "cli/run_result.hpp"
#include "cli/input_file.hpp"
#include "cli/numbers.hpp"
#include "cli/md5z/md5z.hpp"
#include "cli/plugin_variants.hpp"
#include "suite/call_site.hpp"
#include "suite/md5z/plugin_ops.hpp"
#include "suite/md5z/vectors.hpp"
#include "gpu/md5z/search.hpp"

namespace bx::md5z {
namespace {

std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> out;
  size_t b = 0;
  while (b <= s.size()) {
    const size_t e = s.find(',', b);
    const std::string part = s.substr(b, e == std::string::npos ? std::string::npos : e - b);
    if (!part.empty()) out.push_back(part);
    if (e == std::string::npos) break;
    b = e + 1;
  }
  return out;
}

class Md5z final : public Family {
 public:
  std::string name() const override { return "md5z"; }
  std::string description() const override {
    return "MD5 leading-zero search over a Q9 tunnel (52-byte messages, 2^32 candidates per base)";
  }
  std::vector<VariantInfo> variants() const override {
    std::vector<VariantInfo> v;
    for (auto var : md5::all_variants()) {
      VariantInfo vi;
      vi.name = md5::variant_name(var);
      vi.shortcuts = split_commas(md5::variant_shortcuts(var));
#if !defined(BX_HAVE_CUDA)
      vi.gpu = false;
#endif
      vi.description = md5::variant_description(var);
      v.push_back(vi);
    }
    for (auto& vi : plugin_variants("md5z", v, [](const suite::PluginImpl& p) {
           if (p.place == BX_PLACE_DEVICE && !suite::device_sites_available()) return std::string("device implementation (needs a CUDA build)");
           const auto q = suite::md5z::adapt(p, p.place == BX_PLACE_DEVICE ? 0 : -1);  // validates the table; binds, touches no device
           std::string ops;
           for (auto [has, name] : {std::pair{bool(q.md5), "md5"}, {bool(q.candidate_digests), "candidate_digests"},
                                    {bool(q.search), "search"}, {bool(q.search_job), "search_job"}, {bool(q.prepare), "prepare"}})
             if (has) ops += std::string(ops.empty() ? "" : " ") + name;
           return "ops: " + ops;
         }))
      v.push_back(vi);
    return v;
  }
  SelftestReport selftest(const SelftestOptions& opt) const override { return md5z::selftest(opt); }

  SubcommandRun add_verify(CLI::App& sub) const override {
    struct Args {
      long long bases = 0, threshold = 2;
      uint64_t seed = 0;
      std::vector<std::string> base_hex, variants;
      std::string range = "0:2^32", plant;
      bool force = false;
    };
    auto a = std::make_shared<Args>();
    add_number(sub, "--bases", a->bases, "bases from seeds SEED..SEED+N-1 (bitexact's deterministic generator)");
    add_number(sub, "--seed", a->seed, "first seed of --bases (default 0)");
    sub.add_option("--base", a->base_hex, "a base as 104 hex digits (repeatable)")->type_name("HEX104");
    sub.add_option("--range", a->range, "index range LO:HI, HI <= 2^32 (default 0:2^32)")->type_name("LO:HI");
    add_number(sub, "--threshold", a->threshold, "report candidates with >= T leading zero hex digits (default 2)", 1, 32);
    sub.add_option("--variant", a->variants, "variant names or globs (q9-v0, \"q9-*\"), or all (default all)")->type_name("GLOB");
    add_plant_option(sub, a->plant);
    sub.add_flag("--force", a->force, "run on the CPU even when it takes longer than a few minutes");
    return [a](const RunContext& ctx) {
      VerifyOptions o;
      o.threshold = check_threshold(a->threshold);
      std::tie(o.lo, o.hi) = parse_range(a->range);
      o.variants = parse_variants(a->variants.empty() ? std::vector<std::string>{"all"} : a->variants);
      if (a->bases < 0 || a->bases > 1000000) throw InputError("--bases: must be 0..1000000");
      for (long long k = 0; k < a->bases; ++k) o.bases.push_back(ref::md5z::make_base(a->seed + uint64_t(k)));
      o.bases_seed = a->seed, o.seeded_bases = uint64_t(a->bases);
      for (size_t k = 0; k < a->base_hex.size(); ++k)
        o.bases.push_back(parse_base(a->base_hex[k], "--base #" + std::to_string(k + 1)));
      if (o.bases.empty()) throw InputError("verify md5z: give --bases N or --base HEX");
      if (ctx.devices.gpus.empty()) refuse_long_cpu_run("verify md5z", cpu_seconds(o), a->force, "a smaller --range or --bases");
      o.plant = parse_plant(a->plant);
      return run_verify(ctx, o);
    };
  }
  SubcommandRun add_bench(CLI::App& sub) const override {
    auto o = std::make_shared<BenchOptions>();
    add_number(sub, "--threshold", o->threshold, "hit threshold (zero digits) for the parity check", 1, 32);
    auto* candidates = add_number(sub, "--candidates", o->candidates,
                                  "candidates per variant per round (2^20..2^32; CPU: at most 2^24)", uint64_t(1) << 20,
                                  uint64_t(1) << 32);
    return [o, candidates](const RunContext& ctx) {
      if (candidates->count() && ctx.devices.gpus.empty() && o->candidates > (uint64_t(1) << 24))
        throw InputError("bench md5z --candidates " + std::to_string(o->candidates) + ": a CPU bench runs at most 2^24 per round");
      return run_bench(ctx, *o);
    };
  }
  void add_vector_commands(CLI::App& vectors, const std::string& root_default) const override {
    struct Args {
      std::string root;
      int max_zeros = 10, device = 0;
    };
    auto a = std::make_shared<Args>();
    a->root = root_default;
    auto* f = vectors.add_subcommand("find-hits", "GPU: search hits with 2..N zeros and write vectors/md5z/hits.json (frozen)");
    f->add_option("--root", a->root, "repository root to write into")->type_name("DIR");
    add_number(*f, "--max-zeros", a->max_zeros, "largest zero count to find (2..11)", 2, 11);
    add_number(*f, "--device", a->device, "GPU index", 0, 1023);
    f->final_callback([a] {
      const std::string path = a->root + "/vectors/md5z/hits.json";
      require_writable_file(path, "vectors find-hits --root " + a->root + ":");  // before the search, not after
      if (a->device < 0 || a->device >= gpu_count()) throw InputError("vectors find-hits: no GPU " + std::to_string(a->device));
      const std::string text = find_hits(a->device, a->max_zeros);
      std::ofstream out(path, std::ios::binary);
      if (!out || !(out << text)) throw InputError("cannot write " + path);
      std::printf("wrote vectors/md5z/hits.json\n");
    });
  }

  std::vector<std::string> vector_files() const override {
    return {"vectors/md5z/rfc1321.json", "vectors/md5z/bases.json", "vectors/md5z/candidates.json", "vectors/md5z/hits.json"};
  }
  std::map<std::string, std::string> generate_vectors() const override { return md5z::generate_vectors(); }
  std::vector<std::string> check_vectors(const std::string& root) const override { return md5z::check_vectors(root, true); }

  std::vector<std::string> oracle_ops() const override { return {"md5", "md5z."}; }
  OracleHandler oracle(const DeviceSelection& sel) const override { return md5z::oracle(sel); }
  std::vector<suite::cases::CaseSpec> cases(const std::string& tier, uint64_t seed, json* notes) const override {
    return md5z::cases(tier, seed, notes);
  }

  std::vector<std::string> fuzz_targets() const override { return {"md5z_tunnel"}; }
  std::vector<ZooCheck> zoo_checks() const override {
    return {
        {"md5z-props", false, "{build}/property_tests/md5z/md5z_test --gtest_brief=1"},
        {"md5z-fuzz", false, "{build}/md5z_tunnel_replay {source}/fuzz/corpus/md5z_tunnel"},
        {"vectors", false, "{build}/bitexact vectors check --family md5z --root {source}"},
        {"verify-cpu", false,
         "{build}/bitexact verify md5z --device cpu --quiet --bases 2 --range 0xfffe0000:2^32 --threshold 2"},
        {"md5z-gpu", true, "{build}/property_tests/md5z/md5z_gpu_test --gtest_brief=1"},
    };
  }
  std::vector<std::string> gpu_stage_runs() const override {
    return {"{build}/bitexact verify md5z --device gpu --bases 2 --threshold 2 --variant all",
            "{build}/bitexact selftest --full --device gpu --family md5z",
            "{build}/bitexact bench md5z --device gpu --rounds 3 --json"};
  }
  std::vector<std::string> sanitizer_runs() const override {
    return {
        "{build}/bitexact selftest --device gpu --family md5z",  // search (+ device sort), digests
        "{build}/property_tests/md5z/md5z_gpu_test --gtest_filter=GpuMd5z.HitBuffer*",  // overflow re-run
        "{build}/bitexact bench md5z --device gpu --rounds 3 --candidates 1048576 --threshold 2",  // LOP3 ceiling
    };
  }
};

}  // namespace
}  // namespace bx::md5z

const bx::Family& bx_family_md5z() {
  static const bx::md5z::Md5z f;
  return f;
}
