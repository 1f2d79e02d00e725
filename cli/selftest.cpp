#include "cli/selftest.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "cli/hex.hpp"

namespace bx {

void TallyCheck::check(bool ok, const std::string& what) {
  ++t.total;
  if (ok) ++t.pass;
  else if (shown++ < 3) std::fprintf(stderr, "FAIL %s\n", what.c_str());
}

bool variant_matches(const std::string& glob, const std::string& variant) {
  if (glob.empty()) return true;
  if (fnmatch(glob.c_str(), variant.c_str(), 0) == 0) return true;
  const auto slash = variant.find('/');
  return glob.find('/') == std::string::npos && slash != std::string::npos &&
         fnmatch(glob.c_str(), variant.c_str() + slash + 1, 0) == 0;
}

namespace {
std::string frac(const Tally& t) { return std::to_string(t.pass) + "/" + std::to_string(t.total); }
}  // namespace

int run_selftest(const SelftestCommand& cmd) {
  const auto t0 = std::chrono::steady_clock::now();
  if (!cmd.family.empty()) family(cmd.family);  // throws for an unknown family, naming the known ones
  std::vector<const Family*> fams;  // the selected families with at least one variant matching the glob
  for (auto* f : families()) {
    if (!cmd.family.empty() && f->name() != cmd.family) continue;
    size_t matching = 0;
    for (auto& v : f->variants()) matching += variant_matches(cmd.variant_glob, v.name);
    if (matching) fams.push_back(f);
  }
  if (fams.empty()) throw InputError("selftest: no variant matches --variant '" + cmd.variant_glob + "' (see `bitexact list`)");

  SelftestOptions opt = cmd.opt;
  opt.wants = [glob = cmd.variant_glob](const std::string& v) { return variant_matches(glob, v); };
  std::printf("bitexact selftest (%s), seed %llu\n", opt.full ? "full" : "quick", (unsigned long long)opt.seed);
  if (opt.devices.gpus.empty())
    std::printf("%s\n", gpu_count() ? "GPUs present but not selected: CPU variants only"
                                    : "no GPU found: running the CPU (host) variants only; GPU variants NOT run");
  for (int g : opt.devices.gpus) std::printf("gpu%d: %s\n", g, gpu_name(g).c_str());

  bool all = true;
  size_t rows = 0;
  json js = json::array();
  for (auto* f : fams) {
    const SelftestReport rep = f->selftest(opt);
    std::printf("\n== %s: %s\n", f->name().c_str(), f->description().c_str());
    for (auto& n : rep.notes) std::printf("   %s\n", n.c_str());
    for (auto& h : rep.host_checks) {
      std::printf("   host check %-34s %-15s %s\n", h.name.c_str(), frac(h).c_str(), h.ok() ? "PASS" : "FAIL");
      all = all && h.ok();
      js.push_back({{"family", f->name()}, {"host_check", h.name}, {"result", {h.pass, h.total}}, {"pass", h.ok()}});
    }
    if (rep.rows.empty()) {
      std::printf("   (no implementation of %s selected here)\n", f->name().c_str());
      continue;
    }
    // The variant column fits the longest name; a header line precedes every run of rows whose checks
    // differ from the previous row's (families whose ops have different checks).
    int width = 30;
    for (auto& r : rep.rows) width = std::max(width, int(r.variant.size()));
    std::vector<std::string> header;
    for (auto& r : rep.rows) {
      std::vector<std::string> names;
      for (auto& c : r.checks) names.push_back(c.name);
      if (names != header) {
        header = names;
        std::printf("%-*s %-6s", width, "variant", "where");
        for (auto& n : names) std::printf(" %-15s", n.c_str());
        std::printf(" verdict\n");
      }
      std::printf("%-*s %-6s", width, r.variant.c_str(), r.where.c_str());
      json checks = json::object();
      for (auto& c : r.checks) {
        std::printf(" %-15s", frac(c).c_str());
        checks[c.name] = {c.pass, c.total};
      }
      std::printf(" %s\n", r.ok() ? "PASS" : "FAIL");
      all = all && r.ok();
      ++rows;
      js.push_back({{"family", f->name()}, {"variant", r.variant}, {"where", r.where}, {"checks", checks}, {"pass", r.ok()}});
    }
  }
  if (rows == 0) {
    std::printf("\nnothing ran: no selected variant can run on the selected places\n");
    all = false;
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("\nselftest %s: %zu implementation(s) of %zu famil%s, %.1f s\n", all ? "PASSED" : "FAILED", rows, fams.size(),
              fams.size() == 1 ? "y" : "ies", s);
  if (cmd.json) std::printf("%s\n", js.dump().c_str());
  return all ? 0 : 1;
}

}  // namespace bx
