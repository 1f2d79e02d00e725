// q8parity as a Family: Q8_0 matvec, rmsnorm and the hyper-connection read, every variant of
// gpu/q8parity/variants.hpp, each bitwise equal to its declared order (docs/specs/q8parity.md).
#include <CLI/CLI.hpp>
#include <unistd.h>

#include <cstdio>
#include <sstream>

#include "cli/numbers.hpp"
#include "cli/q8parity/q8parity.hpp"
#include "suite/q8parity/plugin_ops.hpp"
#include "suite/q8parity/vectors.hpp"
#include "cli/plugin_variants.hpp"
#include "suite/call_site.hpp"

namespace bx::q8parity {
namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string part;
  while (std::getline(ss, part, sep))
    if (!part.empty()) out.push_back(part);
  return out;
}

// "1..8", "1,2,4" or "3" -> token counts in 1..8.
std::vector<int> parse_ntoks(const std::string& s) {
  std::vector<int> out;
  auto num = [&](const std::string& t) {
    if (t.empty() || t.find_first_not_of("0123456789") != std::string::npos || t.size() > 2 || std::stoi(t) < 1 || std::stoi(t) > 8)
      throw InputError("--ntok: expected token counts 1..8 as N, A..B or a comma list, got '" + s + "'");
    return std::stoi(t);
  };
  for (const std::string& part : split(s, ',')) {
    const auto dots = part.find("..");
    if (dots == std::string::npos) {
      out.push_back(num(part));
      continue;
    }
    const int a = num(part.substr(0, dots)), b = num(part.substr(dots + 2));
    if (a > b) throw InputError("--ntok: empty range '" + part + "'");
    for (int t = a; t <= b; ++t) out.push_back(t);
  }
  if (out.empty()) throw InputError("--ntok: no token count given");
  return out;
}

size_t parse_k(long long k, const char* what) {
  if (k < 32 || k % 32 || k > (1 << 20)) throw InputError(std::string(what) + ": must be a positive multiple of 32 up to 2^20");
  return size_t(k);
}
size_t parse_rows(long long r, const char* what) {
  if (r < 1 || r > (1 << 24)) throw InputError(std::string(what) + ": must be 1..2^24");
  return size_t(r);
}

// The matrix shape options verify and bench share: --rows, --k, --ntok.
struct ShapeArgs {
  long long rows, k = 4096;
  std::string ntok = "1..8";
  CLI::Option *rows_opt = nullptr, *k_opt = nullptr;
  void add(CLI::App& sub, const char* rows_help) {
    rows_opt = add_number(sub, "--rows", rows, rows_help, 1, 1 << 24);
    k_opt = add_number(sub, "--k", k, "row length K, a multiple of 32 (default 4096)", 32, 1 << 20);
    sub.add_option("--ntok", ntok, "token counts: N, A..B or a comma list (default 1..8)")->type_name("LIST");
  }
  template <class Options>
  void parse_into(Options& o) const {
    o.rows = parse_rows(rows, "--rows");
    o.k = parse_k(k, "--k");
    o.ntoks = parse_ntoks(ntok);
    // The weights (34 bytes per 32), the activations and an output per variant must fit in memory: asked
    // for more, the run says how much instead of failing an allocation.
    const double bytes = double(o.rows) * double(o.k) * 34 / 32 + 8.0 * double(o.k) * 4 + 8.0 * double(o.rows) * 4 * 16;
    const double have = double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGESIZE));
    if (have > 0 && bytes > have / 2) {
      char msg[160];
      std::snprintf(msg, sizeof msg, "--rows %zu x --k %zu needs about %.1f GiB of host memory; this machine has %.1f GiB", size_t(o.rows),
                    size_t(o.k), bytes / (1 << 30), have / (1 << 30));
      throw InputError(msg);
    }
  }
};

class Q8Parity final : public Family {
 public:
  std::string name() const override { return "q8parity"; }
  std::string description() const override {
    return "Q8_0 matvec, rmsnorm and the hyper-connection read for 1..8 tokens: every variant bitwise equal to its declared order";
  }
  std::vector<VariantInfo> variants() const override {
    std::vector<VariantInfo> out;
    for (size_t v = 0; v < kVariantCount; ++v) {
      const q8::VariantRow& r = kVariants[v];
      VariantInfo vi;
      vi.name = r.name;
      vi.layout = r.op == Op::matvec ? "q8_0" : "f32";
      vi.shortcuts = split(r.shortcuts, ',');
      vi.contract = r.contract;
#if !defined(BX_HAVE_CUDA)
      vi.gpu = false;
#endif
      vi.description = r.description;
      out.push_back(vi);
    }
    for (auto& vi : plugin_variants("q8parity", out, [](const suite::PluginImpl& p) {
           if (p.place == BX_PLACE_DEVICE && !suite::device_sites_available()) return std::string("device implementation (needs a CUDA build)");
           const auto q = suite::q8parity::adapt(p, p.place == BX_PLACE_DEVICE ? 0 : -1);  // validates the table; binds, touches no device
           std::string ops = std::string(q.matvec ? "matvec" : "") + (q.matvec && q.rmsnorm ? " " : "") + (q.rmsnorm ? "rmsnorm" : "");
           char bound[32];
           std::snprintf(bound, sizeof bound, "%.3g", q.nmse_bound);
           return "ops: " + ops + (q.characterised ? std::string("; judged within NMSE ") + bound + " of the canonical order" : "; bitwise (canonical order)");
         }))
      out.push_back(vi);
    return out;
  }
  SelftestReport selftest(const SelftestOptions& opt) const override { return q8parity::selftest(opt); }

  SubcommandRun add_verify(CLI::App& sub) const override {
    struct Args {
      ShapeArgs shape{4099};
      uint64_t seed = 1;
      bool special = false;
      std::vector<std::string> variants;
      std::string gguf, tensor, x_tensor;
    };
    auto a = std::make_shared<Args>();
    auto* gguf = sub.add_option("--gguf", a->gguf, "a GGUF file: run on its Q8_0 tensor --tensor (rows and K from its shape)")->type_name("FILE");
    sub.add_option("--tensor", a->tensor, "the Q8_0 weight tensor of --gguf")->type_name("NAME");
    sub.add_option("--x-tensor", a->x_tensor, "an F32/F16 tensor of --gguf as the activations (default: seeded)")->type_name("NAME");
    a->shape.add(sub, "matrix rows (default 4099: a tail for NR = 2 and for the row groups)");
    gguf->excludes(a->shape.rows_opt)->excludes(a->shape.k_opt);  // the tensor's shape is the shape
    add_number(sub, "--seed", a->seed, "input seed (default 1)");
    sub.add_flag("--special", a->special, "draw the spec's special scales, codes and activations among the inputs");
    sub.add_option("--variant", a->variants, "variant names or globs (\"*nr2*\"), an op (matvec, rmsnorm, gr), or all (default matvec)")->type_name("GLOB");
    return [a](const RunContext& ctx) {
      VerifyOptions o;
      a->shape.parse_into(o);
      o.seed = a->seed;
      o.special = a->special;
      o.variants = parse_variants(a->variants.empty() ? std::vector<std::string>{"matvec"} : a->variants);
      if (a->gguf.empty() != a->tensor.empty()) throw InputError("verify q8parity: --gguf and --tensor go together");
      if (!a->x_tensor.empty() && a->gguf.empty()) throw InputError("verify q8parity: --x-tensor needs --gguf");
      o.gguf = a->gguf, o.tensor = a->tensor, o.x_tensor = a->x_tensor;
      return run_verify(ctx, o);
    };
  }
  SubcommandRun add_bench(CLI::App& sub) const override {
    struct Args {
      ShapeArgs shape{128256};
      int reps = 10;
    };
    auto a = std::make_shared<Args>();
    a->shape.add(sub, "matrix rows (default 128256, a vocabulary projection: 558 MB of weights with K 4096)");
    add_number(sub, "--reps", a->reps, "launches per timed sample (default 10)", 1, 1000);
    return [a](const RunContext& ctx) {
      BenchOptions o;
      a->shape.parse_into(o);
      o.reps = a->reps;
      return run_bench(ctx, o);
    };
  }

  std::vector<std::string> vector_files() const override { return q8parity::vector_files(); }
  std::map<std::string, std::string> generate_vectors() const override { return q8parity::generate_vectors(); }
  std::vector<std::string> check_vectors(const std::string& root) const override { return q8parity::check_vectors(root); }

  std::vector<std::string> oracle_ops() const override { return {"q8."}; }
  OracleHandler oracle(const DeviceSelection& sel) const override { return q8parity::oracle(sel); }
  std::vector<suite::cases::CaseSpec> cases(const std::string& tier, uint64_t seed, json* notes) const override {
    return q8parity::cases(tier, seed, notes);
  }

  std::vector<std::string> fuzz_targets() const override { return {"q8parity_diff", "q8parity_gguf"}; }
  std::vector<ZooCheck> zoo_checks() const override {
    return {
        {"q8parity-fuzz", false, "{build}/q8parity_diff_replay {source}/fuzz/corpus/q8parity_diff"},
        {"q8parity-props", false, "{build}/property_tests/q8parity/q8parity_test --gtest_brief=1"},
        {"q8parity-gpu", true, "{build}/property_tests/q8parity/q8parity_gpu_test --gtest_brief=1"},
    };
  }
  std::vector<std::string> gpu_stage_runs() const override {
    return {"{build}/bitexact selftest --full --device gpu --family q8parity",
            "{build}/bitexact verify q8parity --device gpu --rows 14336 --k 4096 --ntok 1..8",
            "{build}/bitexact verify q8parity --device gpu --rows 4099 --k 4096 --ntok 1..8 --special",
            "{build}/bitexact bench q8parity --device gpu --rounds 5 --json"};
  }
  std::vector<std::string> sanitizer_runs() const override {
    return {"{build}/bitexact selftest --device gpu --family q8parity",
            "{build}/bitexact verify q8parity --device gpu --quiet --rows 131 --k 544 --ntok 1..8"};
  }
};

}  // namespace
}  // namespace bx::q8parity

const bx::Family& bx_family_q8parity() {
  static const bx::q8parity::Q8Parity f;
  return f;
}
