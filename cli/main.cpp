// bitexact: list, selftest, verify, bench, vectors, oracle. Every command iterates over the registered
// families (cli/family.hpp); a family adds its own options to `verify F`, `bench F` and `vectors`.
// Errors: one line on stderr ("bitexact: error: ..."), exit 2 for bad input, 1 for a failed run.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <set>

#include "cli/bench_compare.hpp"
#include "cli/card_power.hpp"
#include "cli/cases.hpp"
#include "cli/exec_run.hpp"
#include "cli/family.hpp"
#include "suite/hex.hpp"
#include "cli/input_file.hpp"
#include "cli/json_out.hpp"
#include "cli/list.hpp"
#include "cli/numbers.hpp"
#include "cli/oracle.hpp"
#include "suite/paths.hpp"
#include "cli/run_result.hpp"
#include "cli/selftest.hpp"
#include "suite/isolate.hpp"
#include "suite/plugin.hpp"
#include "cli/spread.hpp"
#include "cli/usage.hpp"
#include "suite/vector_json.hpp"
#include "suite/vectors.hpp"

namespace {

struct FamilyRun {
  const bx::Family* family;
  CLI::App* sub;
  bx::SubcommandRun run;
};

// `verify F` / `bench F` for every family that has one; shared options stay on the parent (fallthrough).
template <class Add>
std::vector<FamilyRun> add_family_subcommands(CLI::App& parent, const char* what, Add add) {
  std::vector<FamilyRun> runs;
  for (auto* f : bx::families()) {
    auto* sub = parent.add_subcommand(f->name(), std::string(what) + " " + f->name() + ": " + f->description());
    sub->fallthrough();
    auto run = add(*f, *sub);
    if (run) runs.push_back({f, sub, run});
    else parent.remove_subcommand(sub);
  }
  parent.allow_extras();  // an unknown family name is reported below with the known ones
  return runs;
}

void no_extras(CLI::App& sub, const char* cmd) {
  const auto rest = sub.remaining();
  if (rest.empty()) return;
  std::string known;
  for (auto* f : bx::families()) known += (known.empty() ? "" : ", ") + f->name();
  for (auto* f : bx::families())
    if (rest[0] == f->name()) throw bx::InputError(std::string(cmd) + ": name one family at a time (" + rest[0] + " after another)");
  if (rest[0].rfind("-", 0) != 0) throw bx::InputError(std::string(cmd) + ": unknown family '" + rest[0] + "' (known: " + known + ")");
  throw bx::InputError(std::string(cmd) + ": unknown option '" + rest[0] + "'");
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"bitexact: bit-exact verification of GPU proof-of-work and hashing kernels"};
  app.require_subcommand(1);
  app.failure_message([](const CLI::App*, const CLI::Error& e) { return std::string("bitexact: error: ") + e.what() + "\n"; });

  auto* ls = app.add_subcommand("list", "families, variants (tags, contract, where each runs), GPUs; --faults, --checks");
  bx::ListCommand lc;
  auto* ls_json = ls->add_flag("--json", lc.json, "machine-readable output");
  // One listing at a time; the line-per-run listings and the resource spec have one format each.
  const std::vector<CLI::Option*> listings{
      ls->add_flag("--faults", lc.faults, "the planted faults of the zoo, with their family"),
      ls->add_flag("--checks", lc.checks, "the checks the zoo runs per family"),
      ls->add_flag("--sanitize", lc.sanitize, "the GPU runs that launch every kernel (ci/sanitize), one per line")->excludes(ls_json),
      ls->add_flag("--gpu-stage", lc.gpu_stage, "each family's long GPU runs (ci/gpu-stage), one per line")->excludes(ls_json),
      ls->add_flag("--ctest-resources", lc.ctest_resources, "a CTest resource specification of the GPUs found (ctest --resource-spec-file)")
          ->excludes(ls_json)};
  for (auto* a : listings)
    for (auto* b : listings)
      if (a != b) a->excludes(b);

  auto* st = app.add_subcommand("selftest", "every variant against the embedded vectors, then a seeded random batch");
  bx::SelftestCommand sc;
  bool quick = false;
  std::string st_dev = "all";
  auto* qf = st->add_flag("--quick", quick, "vectors and small random batches (default)");
  st->add_flag("--full", sc.opt.full, "larger random batches and every iterated vector")->excludes(qf);
  st->add_option("--device", st_dev, "cpu, all, gpu or a GPU index (default: all)")->type_name("DEVICE");
  bx::add_number(*st, "--seed", sc.opt.seed, "seed of the random batches");
  st->add_option("--family", sc.family, "run one family only")->type_name("FAMILY");
  st->add_option("--variant", sc.variant_glob, "run the variants matching a glob only (\"md5z/q9-*\", \"*ptx*\")")->type_name("GLOB");
  st->add_flag("--json", sc.json, "also print the rows as JSON");
  st->add_flag("--plugins-only", sc.plugins_only, "run only the implementations of the loaded plugins (--plugin), not bitexact's own");

  auto* vec = app.add_subcommand("vectors", "generate or check vectors/<family>/*.json");
  vec->require_subcommand(1);
  std::string vroot, vfam;
  auto* vgen = vec->add_subcommand("generate", "rewrite the deterministic vector files from the reference");
  vgen->add_option("--root", vroot, "repository root to write into (default: the source tree compiled in)")->type_name("DIR");
  vgen->add_option("--family", vfam, "one family only")->type_name("FAMILY");
  auto* vchk = vec->add_subcommand("check", "verify every vector file against the reference and against generation");
  vchk->add_option("--root", vroot, "tree to read (default: ./ when it holds vectors/, else the installed or source tree)")->type_name("DIR");
  vchk->add_option("--family", vfam, "one family only")->type_name("FAMILY");
  for (auto* f : bx::families()) f->add_vector_commands(*vec, bx::source_dir());

  bx::RunContext bctx, vctx;
  std::string bench_dev, ver_dev;
  auto* bench = app.add_subcommand("bench", "interleaved timed rounds with parity on every round (every family, or the named ones)");
  bench->add_option("--device", bench_dev, "cpu, all (every GPU, one process each), gpu, a GPU index or a list of them (0,1; 0,0 runs two on GPU 0) (default: gpu if present, else cpu)")->type_name("DEVICE");
  bx::add_number(*bench, "--rounds", bctx.rounds, "timed rounds (3..1000)", 3, 1000);
  bench->add_flag("--json", bctx.json, "also print JSON");
  bench->add_flag("--quiet", bctx.quiet, "no progress lines");
  const auto bench_runs = add_family_subcommands(*bench, "bench", [](const bx::Family& f, CLI::App& s) { return f.add_bench(s); });
  auto* bcmp = bench->add_subcommand("compare", "is NEW slower than BASE? two bench documents (--json), paired by implementation");
  std::string cmp_base, cmp_new, cmp_threshold = "2%";
  bcmp->add_option("base", cmp_base, "the BASE bench document")->required()->type_name("BASE");
  bcmp->add_option("new", cmp_new, "the NEW bench document")->required()->type_name("NEW");
  bcmp->add_option("--threshold", cmp_threshold, "the slowdown that fails, in percent (default 2%)")->type_name("PCT");

  auto* ver = app.add_subcommand("verify", "long differential run of one family (bitexact verify FAMILY --help)");
  ver->add_option("--device", ver_dev, "cpu, all (every GPU, the range split evenly, one process each), gpu, a GPU index or a list of them (0,1; 0,0 splits the range over two processes on GPU 0) (default: gpu if present, else cpu)")->type_name("DEVICE");
  ver->add_flag("--json", vctx.json, "also print JSON");
  ver->add_flag("--quiet", vctx.quiet, "no progress lines");
  std::string shard_spec;
  uint64_t shard_count = 0;
  ver->add_option("--shard", shard_spec, "run part i (0-based) of n contiguous parts of the range: i/n (default: from the "
                                         "Slurm, Kubernetes or GoogleTest variables when set)")->type_name("I/N");
  bx::add_number(*ver, "--shard-count", shard_count, "the shard count with Kubernetes' JOB_COMPLETION_INDEX (or BITEXACT_SHARD_COUNT)");
  ver->add_option("--result", vctx.result_path, "write the result document (JSON) to FILE, for `verify merge`")->type_name("FILE");
  auto* merge = ver->add_subcommand("merge", "check that shards' result files cover their range exactly once; sum their counts");
  std::vector<std::string> merge_files;
  merge->add_option("files", merge_files, "result files (--result of each shard)")->required();
  std::string merge_same_as;
  merge->add_option("--same-as", merge_same_as, "also require the merge to equal this unsharded run's result file")->type_name("FILE");
  merge->fallthrough();
  const auto verify_runs = add_family_subcommands(*ver, "verify", [](const bx::Family& f, CLI::App& s) { return f.add_verify(s); });

  bx::CasesCommand cases;
  bx::add_cases_command(app, cases);

  auto* orc = app.add_subcommand("oracle", "JSON lines on stdin -> JSON lines on stdout ({\"op\":\"list\"} lists the ops)");
  std::string orc_dev = "all";
  orc->add_option("--device", orc_dev, "cpu, all, gpu or a GPU index (default: all)")->type_name("DEVICE");

  // Implementations from outside: --plugin PATH (repeatable) wherever implementations are iterated.
  std::vector<std::string> plugins;
  double plugin_timeout = 60;
  for (CLI::App* a : {ls, st, ver, bench, orc}) {
    a->add_option("--plugin", plugins, "load a plugin (shared library, include/bitexact/plugin.h; repeatable)")->type_name("PATH");
    bx::add_number(*a, "--plugin-timeout", plugin_timeout, "seconds one plugin call may take before it is killed (default 60)", 1, 86400);
  }

  // Implementations from outside a process: --exec "COMMAND" runs a harness (any language, JSON lines;
  // docs/protocol.md). One way in per run: a harness run judges the harness's implementations only.
  bx::ExecOptions exec;
  for (CLI::App* a : {st, ver, bench}) {
    auto* e = a->add_option("--exec", exec.command, "run a harness speaking bitexact's JSON-lines protocol (docs/protocol.md) and judge its implementations")
                  ->type_name("COMMAND");
    for (CLI::Option* p : a->get_options())
      if (p->get_name() == "--plugin") e->excludes(p);
    bx::add_number(*a, "--exec-timeout", exec.timeout_s, "seconds one request to the harness may take (default 60)", 1, 86400);
  }
  for (CLI::App* a : {ver, bench}) bx::add_number(*a, "--exec-seed", exec.seed, "seed of the random cases --exec sends (default 1)");

  // An empty value is never "not given": every option that takes a value refuses "" (an unset shell
  // variable must not turn --variant "$V" into every variant or --result "$F" into no document).
  const CLI::Validator nonempty([](std::string& v) { return v.empty() ? std::string("an empty value") : std::string(); }, "");
  const std::function<void(CLI::App*)> refuse_empty = [&](CLI::App* a) {
    for (CLI::Option* o : a->get_options())
      if (!o->get_type_name().empty() && o != a->get_help_ptr()) o->check(nonempty);
    for (CLI::App* s : a->get_subcommands([](CLI::App*) { return true; })) refuse_empty(s);
  };
  refuse_empty(&app);

  auto* usage = app.add_subcommand("usage", "print the command synopsis (README's Commands block is generated from it)");

  try {
    // An unknown word where a subcommand is required is named (CLI11 would only say one is required).
    CLI::App* cur = &app;
    for (int i = 1; i < argc && cur->get_require_subcommand_min() > 0 && argv[i][0] != '-'; ++i) {
      CLI::App* next = nullptr;
      for (CLI::App* s : cur->get_subcommands([](CLI::App*) { return true; }))
        if (s->get_name() == argv[i]) next = s;
      if (!next) {
        std::string known;
        for (CLI::App* s : cur->get_subcommands([](CLI::App*) { return true; })) known += (known.empty() ? "" : ", ") + s->get_name();
        throw bx::InputError("unknown subcommand '" + std::string(argv[i]) + "' (known: " + known + ")");
      }
      cur = next;
    }
    // --json on a run: the one document is set up before parsing, so a bad option is a document too.
    const std::string cmd1 = argc > 1 ? argv[1] : "";
    if (cmd1 == "selftest" || cmd1 == "verify" || cmd1 == "bench")
      for (int i = 2; i < argc; ++i)
        if (std::string(argv[i]) == "--json") bx::json_out::begin(argc, argv);
    try {
      app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
      return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
      return app.exit(e);
    } catch (const CLI::ParseError& e) {
      std::fprintf(stderr, "bitexact: error: %s (see --help)\n", e.what());
      return bx::json_out::finish(2, e.what());
    }
    bx::suite::isolate::set_default_timeout_s(plugin_timeout);
    for (auto& p : plugins) bx::suite::load_plugin(p);
    // The command that was parsed; with --json, its one document is written by json_out::finish.
    const auto run = [&]() -> int {
      if (usage->parsed()) {
        std::fputs(bx::usage_synopsis(app).c_str(), stdout);
        return 0;
      }
      if (ls->parsed()) return bx::run_list(lc);
      if (cases.parsed()) return cases.run(argc, argv);
      if (st->parsed() && !exec.command.empty()) {
        if (!sc.variant_glob.empty()) throw bx::InputError("selftest: --variant selects built-in variants; with --exec the harness's implementations run");
        return bx::run_exec_checks("selftest", exec, sc.family, sc.opt.full ? "full" : "quick");
      }
      if (st->parsed()) {
        sc.opt.devices = bx::parse_devices(st_dev);
        return bx::run_selftest(sc);
      }
      if (vgen->parsed()) {
        const std::string root = vroot.empty() ? bx::source_dir() : bx::vectors::resolve_root(vroot);
        for (auto& [rel, text] : bx::vectors::generate_all(bx::vector_owners(), vfam)) {
          std::ofstream f(root + "/" + rel, std::ios::binary);
          if (!f || !(f << text)) throw bx::InputError("cannot write " + root + "/" + rel);
          std::printf("wrote %s\n", rel.c_str());
        }
        return 0;
      }
      if (vchk->parsed()) {
        const std::string root = bx::vectors::resolve_root(vroot);
        std::printf("vectors check: reading %s/vectors\n", root.c_str());
        const auto problems = bx::vectors::check_all(bx::vector_owners(), root, vfam);
        // A malformed file is bad input (exit 2, its error lines alone: the stale line that follows from it
        // says nothing more); well-formed files that disagree are a failed check (exit 1, every line).
        // Lines about a malformed file's own content after its error line (its stale check) are left out;
        // every line about the other files is printed.
        std::set<std::string> bad_files;
        for (auto& p : problems)
          if (bx::vectors::io::is_malformed(p)) bad_files.insert(p.substr(0, p.find(':')));
        const size_t malformed = bad_files.size();
        for (auto& p : problems)
          if (bx::vectors::io::is_malformed(p)) std::fprintf(stderr, "bitexact: error: %s\n", p.c_str());
          else if (!bad_files.count(p.substr(0, p.find(':')))) std::fprintf(stderr, "%s\n", p.c_str());
        std::printf("vectors check: %s\n", problems.empty() ? "OK" : malformed ? "FAILED (malformed input)" : "FAILED");
        return problems.empty() ? 0 : malformed ? 2 : 1;
      }
      if (bcmp->parsed()) {
        std::string t = cmp_threshold;
        if (!t.empty() && t.back() == '%') t.pop_back();
        double pct = -1;
        try {
          size_t used = 0;
          pct = std::stod(t, &used);
          if (used != t.size()) pct = -1;
        } catch (const std::exception&) {
        }
        if (!(pct > 0 && pct < 100)) throw bx::InputError("--threshold: '" + cmp_threshold + "' is not a percentage above 0 and below 100");
        return bx::run_bench_compare(cmp_base, cmp_new, pct);
      }
      if (bench->parsed()) {
        no_extras(*bench, "bench");
        bctx.device_given = !bench_dev.empty();
        bctx.devices = bx::run_devices(bench_dev);
        bool any = false;
        for (auto& r : bench_runs) any = any || r.sub->parsed();
        if (!exec.command.empty()) {
          if (bctx.device_given) throw bx::InputError("bench: --device chooses bitexact's places; a harness (--exec) runs where it runs");
          std::string fam;
          for (auto& r : bench_runs)
            if (r.sub->parsed()) fam = r.family->name();
          return bx::run_exec_bench(exec, fam, bctx.rounds);
        }
        if (bctx.devices.gpus.size() > 1) return bx::spread_bench(argc, argv, bctx);
        const auto power = bx::watch_bench_power(bctx.devices);  // energy per item where NVML answers
        int rc = 0;
        for (auto& r : bench_runs)
          if (!any || r.sub->parsed()) {
            std::printf("\n=== bench %s\n", r.family->name().c_str());
            rc |= r.run(bctx);
          }
        return rc;
      }
      if (merge->parsed()) return bx::run_verify_merge(merge_files, merge_same_as, vctx);
      if (ver->parsed()) {
        no_extras(*ver, "verify");
        vctx.device_given = !ver_dev.empty();
        vctx.devices = bx::run_devices(ver_dev);
        vctx.shard = bx::resolve_shard(shard_spec, shard_count);
        if (!vctx.result_path.empty()) bx::require_writable_file(vctx.result_path, "--result");
        if (vctx.shard.active()) std::printf("shard: %s from %s\n", vctx.shard.spec().c_str(), vctx.shard.source.c_str());
        const FamilyRun* chosen = nullptr;
        for (auto& r : verify_runs)
          if (r.sub->parsed()) {
            if (chosen) throw bx::InputError("verify: name one family (got " + chosen->family->name() + " and " + r.family->name() + ")");
            chosen = &r;
          }
        if (chosen && !exec.command.empty()) {
          if (vctx.device_given || vctx.shard.active() || !vctx.result_path.empty())
            throw bx::InputError("verify --exec: --device, --shard and --result are bitexact's own runs; a harness runs where it runs, unsharded");
          return bx::run_exec_checks("verify", exec, chosen->family->name(), "full");
        }
        if (chosen && vctx.devices.gpus.size() > 1) return bx::spread_verify(argc, argv, chosen->family->name(), vctx);
        if (chosen) return chosen->run(vctx);
        std::string known;
        for (auto& r : verify_runs) known += (known.empty() ? "" : ", ") + r.family->name();
        throw bx::InputError("verify: name a family (" + known + ")");
      }
      if (orc->parsed()) {
        bx::run_oracle(std::cin, std::cout, bx::parse_devices(orc_dev));
        return 0;
      }
      return 0;
    };
    return bx::json_out::finish(run(), "");
  } catch (const bx::InputError& e) {
    std::fprintf(stderr, "bitexact: error: %s\n", e.what());
    return bx::json_out::finish(2, e.what());
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "bitexact: error: out of memory (a size asked for is larger than this machine can hold)\n");
    return bx::json_out::finish(1, "out of memory");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bitexact: error: %s\n", e.what());
    return bx::json_out::finish(1, e.what());
  }
  return 0;
}
