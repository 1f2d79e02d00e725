// bitexact: list, selftest, verify, bench, vectors, oracle. Errors: one line on stderr, non-zero exit.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <tuple>

#include "cli/bench.hpp"
#include "cli/md5z.hpp"
#include "cli/oracle.hpp"
#include "cli/paths.hpp"
#include "cli/registry.hpp"
#include "cli/selftest.hpp"
#include "cli/vectors.hpp"
#include "cli/verify.hpp"
#include "gpu/core/fault.hpp"
#if defined(BX_HAVE_CUDA)
#include "gpu/core/cuda_check.hpp"
#endif

namespace {

std::string default_devices(bool prefer_gpu) {
  return prefer_gpu && bx::gpu_count() > 0 ? "gpu" : (prefer_gpu ? "cpu" : "all");
}

int cmd_list() {
  const int n = bx::gpu_count();
  std::printf("families:\n  field25519   arithmetic mod 2^255-19 (add sub neg mul sqr mul_small invert pow22523 sqrt_ratio canonical)\n"
              "  x25519       RFC 7748 ladder over every field25519 layout\n"
              "  md5z         MD5 leading-zero search over a Q9 tunnel (52-byte messages, 2^32 candidates per base)\n");
  std::printf("layouts: fe51 (5x51), fe32 (8x32 saturated), fe29 (9x29 lazy), fe26 (10x26/25 signed)\n");
  std::printf("backends: portable (host and device), ptx (device only)\n");
  std::printf("GPUs: %d%s\n", n,
#if defined(BX_HAVE_CUDA)
              ""
#else
              " (this build has no CUDA kernels)"
#endif
  );
  for (int i = 0; i < n; ++i) std::printf("  gpu%d: %s\n", i, bx::gpu_name(i).c_str());
  std::printf("variants:\n");
  for (auto& v : bx::field_variants()) {
    std::string where = v.host ? "cpu" : "";
    if (n) where += std::string(where.empty() ? "" : ", ") + "gpu";
    std::printf("  %-28s runs here on: %s\n", v.name.c_str(), where.empty() ? "(needs a GPU)" : where.c_str());
  }
  for (auto v : bx::md5::kAllVariants)
    std::printf("  %-28s runs here on: cpu%s   %s\n", bx::md5::variant_name(v), n ? ", gpu" : "",
                bx::md5::variant_description(v));
#if defined(BX_ZOO)
  std::printf("fault zoo build: BX_FAULT=<name> plants one of:\n");
#define BX_PRINT_FAULT(name, desc) std::printf("  %-32s %s\n", #name, desc);
  BX_FAULT_LIST(BX_PRINT_FAULT)
#undef BX_PRINT_FAULT
#endif
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"bitexact: bit-exact verification of GPU field arithmetic and hashing kernels"};
  app.require_subcommand(1);

  app.add_subcommand("list", "families, layouts, backends, variants and where they can run");

  auto* st = app.add_subcommand("selftest", "every variant against the embedded vectors, then a seeded random batch");
  bool quick = false, full = false, st_json = false;
  std::string st_dev;
  uint64_t st_seed = bx::SelftestOptions{}.seed;
  auto* qf = st->add_flag("--quick", quick, "vectors and a small random batch (default)");
  st->add_flag("--full", full, "larger random batch and every iterated X25519 vector")->excludes(qf);
  st->add_option("--device", st_dev, "cpu, all, gpu or a GPU index (default: all)");
  st->add_option("--seed", st_seed, "seed of the random batch");
  st->add_flag("--json", st_json, "also print the table as JSON");

  auto* vec = app.add_subcommand("vectors", "generate or check vectors/*/*.json");
  vec->require_subcommand(1);
  auto* vgen = vec->add_subcommand("generate", "rewrite the vector files from the reference (deterministic)");
  std::string vroot = bx::source_dir();
  vgen->add_option("--root", vroot, "repository root to write into");
  auto* vchk = vec->add_subcommand("check", "verify every vector file against the reference and against generation");
  vchk->add_option("--root", vroot, "repository root to read from");
  auto* vfind = vec->add_subcommand("find-hits", "GPU: search hits with 2..N zeros and write vectors/md5z/hits.json (frozen)");
  vfind->add_option("--root", vroot, "repository root to write into");
  int find_max = 10, find_dev = 0;
  vfind->add_option("--max-zeros", find_max, "largest zero count to find (2..11)")->check(CLI::Range(2, 11));
  vfind->add_option("--device", find_dev, "GPU index");

  auto* bench = app.add_subcommand("bench", "interleaved timed rounds with parity on every round");
  std::vector<std::string> bench_what;
  std::string bench_dev;
  bx::BenchOptions bopt;
  bench->add_option("family", bench_what, "field25519, md5z (default: every family)");
  bench->add_option("--device", bench_dev, "cpu, all, gpu or a GPU index (default: gpu if present)");
  bench->add_option("--rounds", bopt.rounds, "timed rounds (>= 3)")->check(CLI::Range(3, 1000));
  bench->add_option("--iters", bopt.iters, "dependent operations per thread")->check(CLI::Range(1, 1 << 20));
  bench->add_flag("--json", bopt.json, "also print JSON");
  bx::md5z::BenchOptions mbopt;
  bench->add_option("--threshold", mbopt.threshold, "md5z: hit threshold (zero digits) for the parity check")->check(CLI::Range(1, 32));
  bench->add_option("--candidates", mbopt.candidates, "md5z: candidates per variant per round (<= 2^32)")
      ->check(CLI::Range(uint64_t(1) << 20, uint64_t(1) << 32));

  auto* orc = app.add_subcommand("oracle", "JSON lines on stdin -> JSON lines on stdout");
  std::string orc_dev;
  orc->add_option("--device", orc_dev, "cpu, all, gpu or a GPU index (default: all)");

  auto* ver = app.add_subcommand("verify", "long differential run of a family");
  std::string ver_family, ver_dev;
  bx::VerifyOptions vopt;
  ver->add_option("family", ver_family, "field25519 or md5z")->required();
  // md5z
  long long m_bases = 0, m_threshold = 2;
  std::vector<std::string> m_base_hex, m_variants;
  std::string m_range = "0:2^32";
  bool m_json = false;
  ver->add_option("--bases", m_bases, "md5z: bases from seeds SEED..SEED+N-1 (bitexact's deterministic generator)");
  ver->add_option("--base", m_base_hex, "md5z: a base as 104 hex digits (repeatable)");
  ver->add_option("--range", m_range, "md5z: index range LO:HI, HI <= 2^32 (default 0:2^32)");
  ver->add_option("--threshold", m_threshold, "md5z: report candidates with >= T leading zero hex digits (default 2)");
  ver->add_option("--variant", m_variants, "md5z: plain, q9-v0, q9-v1, q9-v2 or all (default all)");
  ver->add_flag("--json", m_json, "md5z: also print the table as JSON");
  ver->add_option("--ops", vopt.ops, "operations per layout (default 1e10)");
  ver->add_option("--seed", vopt.seed, "operand stream seed");
  ver->add_option("--first", vopt.first, "first draw index (resume point)");
  ver->add_option("--device", ver_dev, "cpu, all, gpu or a GPU index (default: gpu if present)");
  ver->add_option("--sample-shift", vopt.sample_shift, "judge one draw in 2^N with the reference")->check(CLI::Range(0, 40));

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }

  try {
    if (app.got_subcommand("list")) return cmd_list();
    if (st->parsed()) {
      bx::SelftestOptions o;
      o.full = full;
      o.seed = st_seed;
      o.json = st_json;
      o.devices = bx::parse_devices(st_dev.empty() ? "all" : st_dev);
      return bx::run_selftest(o);
    }
    if (vgen->parsed()) {
      for (auto& [rel, text] : bx::vectors::generate_all()) {
        std::ofstream f(vroot + "/" + rel, std::ios::binary);
        if (!f) throw bx::InputError("cannot write " + vroot + "/" + rel);
        f << text;
        std::printf("wrote %s\n", rel.c_str());
      }
      return 0;
    }
    if (vfind->parsed()) {
      if (find_dev < 0 || find_dev >= bx::gpu_count()) throw bx::InputError("vectors find-hits: no GPU " + std::to_string(find_dev));
      const std::string text = bx::md5z::find_hits(find_dev, find_max);
      std::ofstream f(vroot + "/vectors/md5z/hits.json", std::ios::binary);
      if (!f) throw bx::InputError("cannot write " + vroot + "/vectors/md5z/hits.json");
      f << text;
      std::printf("wrote vectors/md5z/hits.json\n");
      return 0;
    }
    if (vchk->parsed()) {
      auto problems = bx::vectors::check_all(vroot, true);
      for (auto& p : problems) std::fprintf(stderr, "%s\n", p.c_str());
      std::printf("vectors check: %s\n", problems.empty() ? "OK" : "FAILED");
      return problems.empty() ? 0 : 1;
    }
    if (bench->parsed()) {
      bool field = bench_what.empty(), md5 = bench_what.empty();
      for (auto& w : bench_what) {
        if (w == "field25519") field = true;
        else if (w == "md5z") md5 = true;
        else throw bx::InputError("bench: unknown family '" + w + "' (known: field25519, md5z)");
      }
      bopt.devices = bx::parse_devices(bench_dev.empty() ? default_devices(true) : bench_dev);
      int rc = 0;
      if (field) rc |= bx::run_bench(bopt);
      if (md5) {
        mbopt.devices = bopt.devices;
        mbopt.rounds = bopt.rounds;
        mbopt.json = bopt.json;
        if (mbopt.devices.gpus.empty() && mbopt.candidates > (uint64_t(1) << 24)) mbopt.candidates = uint64_t(1) << 24;
        rc |= bx::md5z::run_bench(mbopt);
      }
      return rc;
    }
    if (orc->parsed()) {
      bx::run_oracle(std::cin, std::cout, bx::parse_devices(orc_dev.empty() ? "all" : orc_dev));
      return 0;
    }
    if (ver->parsed()) {
      if (ver_family == "md5z") {
        bx::md5z::VerifyOptions mo;
        mo.devices = bx::parse_devices(ver_dev.empty() ? default_devices(true) : ver_dev);
        mo.threshold = bx::md5z::check_threshold(m_threshold);
        std::tie(mo.lo, mo.hi) = bx::md5z::parse_range(m_range);
        mo.variants = bx::md5z::parse_variants(m_variants.empty() ? std::vector<std::string>{"all"} : m_variants);
        mo.json = m_json;
        if (m_bases < 0 || m_bases > 1000000) throw bx::InputError("--bases: must be 0..1000000");
        const uint64_t seed0 = ver->count("--seed") ? vopt.seed : 0;
        for (long long k = 0; k < m_bases; ++k) mo.bases.push_back(bx::ref::md5z::make_base(seed0 + uint64_t(k)));
        for (size_t k = 0; k < m_base_hex.size(); ++k)
          mo.bases.push_back(bx::md5z::parse_base(m_base_hex[k], "--base #" + std::to_string(k + 1)));
        if (mo.bases.empty()) throw bx::InputError("verify md5z: give --bases N or --base HEX");
        return bx::md5z::run_verify(mo);
      }
      if (ver_family != "field25519") throw bx::InputError("verify: unknown family '" + ver_family + "' (known: field25519, md5z)");
      vopt.devices = bx::parse_devices(ver_dev.empty() ? default_devices(true) : ver_dev);
      if (!vopt.devices.gpus.empty()) vopt.devices.cpu = false;
      return bx::run_verify_field(vopt);
    }
  } catch (const bx::InputError& e) {
    std::fprintf(stderr, "bitexact: error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bitexact: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
