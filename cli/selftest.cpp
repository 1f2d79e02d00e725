#include "cli/selftest.hpp"
#include "cli/json_out.hpp"


#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <set>

#include "suite/hex.hpp"

namespace bx {

void TallyCheck::check(bool ok, const std::string& what) {
  ++t.total;
  if (ok) ++t.pass;
  else if (shown++ < 3) std::fprintf(stderr, "FAIL %s\n", what.c_str());
}


namespace {
// A cell: passes/total, "*" when some operation the check needs is not provided, "not provided" when none is.
std::string frac(const Tally& t) {
  if (t.wholly_not_provided()) return "not provided";
  return std::to_string(t.pass) + "/" + std::to_string(t.total) + (t.not_provided.empty() ? "" : "*");
}
}  // namespace

int run_selftest(const SelftestCommand& cmd) {
  const auto t0 = std::chrono::steady_clock::now();
  if (!cmd.family.empty()) family(cmd.family);  // throws for an unknown family, naming the known ones
  std::vector<const Family*> fams;  // the selected families with at least one variant matching the glob
  std::set<std::string> from_plugins;
  for (auto* f : families()) {
    if (!cmd.family.empty() && f->name() != cmd.family) continue;
    size_t matching = 0;
    for (auto& v : f->variants()) {
      if (v.origin != "built-in") from_plugins.insert(v.name);
      matching += variant_matches(cmd.variant_glob, v.name) && (!cmd.plugins_only || v.origin != "built-in");
    }
    if (matching) fams.push_back(f);
  }
  if (fams.empty() && cmd.plugins_only)
    throw InputError("selftest --plugins-only: no loaded plugin implementation" + (cmd.family.empty() ? "" : " of " + cmd.family) + " (--plugin)");
  if (fams.empty()) throw InputError("selftest: no variant matches --variant '" + cmd.variant_glob + "' (see `bitexact list`)");

  SelftestOptions opt = cmd.opt;
  opt.wants = [glob = cmd.variant_glob, only = cmd.plugins_only, from_plugins](const std::string& v) {
    return variant_matches(glob, v) && (!only || from_plugins.count(v));
  };
  std::printf("bitexact selftest (%s), seed %llu\n", opt.full ? "full" : "quick", (unsigned long long)opt.seed);
  if (opt.devices.gpus.empty())
    std::printf("%s\n", gpu_count() ? "GPUs present but not selected: CPU variants only"
                                    : "no GPU found: running the CPU (host) variants only; GPU variants NOT run");
  for (int g : opt.devices.gpus) std::printf("gpu%d: %s\n", g, gpu_name(g).c_str());

  bool all = true;
  size_t rows = 0;
  std::string first_failure;  // the summary line names it: one line says what failed (the embedded selftest's reason)
  json js = json::array();
  for (auto* f : fams) {
    const SelftestReport rep = f->selftest(opt);
    std::printf("\n== %s: %s\n", f->name().c_str(), f->description().c_str());
    for (auto& n : rep.notes) std::printf("   %s\n", n.c_str());
    int hw = 0, fw = 0;  // the host checks' name and count columns, as wide as their widest cell
    for (auto& h : rep.host_checks) hw = std::max(hw, int(h.name.size())), fw = std::max(fw, int(frac(h).size()));
    for (auto& h : rep.host_checks) {
      std::printf("   host check %-*s %-*s %s\n", hw, h.name.c_str(), fw, frac(h).c_str(), h.ok() ? "PASS" : "FAIL");
      if (!h.ok() && first_failure.empty()) first_failure = f->name() + " host check " + h.name + " " + frac(h);
      all = all && h.ok();
      js.push_back({{"family", f->name()}, {"host_check", h.name}, {"result", {h.pass, h.total}}, {"pass", h.ok()}});
    }
    if (rep.rows.empty()) {
      std::printf("   (no implementation of %s selected here)\n", f->name().c_str());
      continue;
    }
    // One table per family: the checks of every row, in order of first appearance, numbered [1]..[n]
    // with a legend; a row that has no such check shows "-" there (the check does not apply to it).
    int width = 30;
    for (auto& r : rep.rows) width = std::max(width, int(r.variant.size()));
    std::vector<std::string> names;
    for (auto& r : rep.rows)
      for (auto& c : r.checks)
        if (std::find(names.begin(), names.end(), c.name) == names.end()) names.push_back(c.name);
    std::vector<int> colw(names.size());
    for (size_t i = 0; i < names.size(); ++i) {
      colw[i] = int(std::to_string(i + 1).size()) + 2;
      for (auto& r : rep.rows)
        for (auto& c : r.checks)
          if (c.name == names[i]) colw[i] = std::max(colw[i], int(frac(c).size()));
      std::printf("   [%zu] %s\n", i + 1, names[i].c_str());
    }
    std::printf("%-*s %-6s", width, "variant", "where");
    for (size_t i = 0; i < names.size(); ++i) std::printf(" %-*s", colw[i], ("[" + std::to_string(i + 1) + "]").c_str());
    std::printf(" verdict\n");
    std::vector<std::string> lacking;  // "variant@where: ops (checks)", printed under the table
    for (auto& r : rep.rows) {
      std::printf("%-*s %-6s", width, r.variant.c_str(), r.where.c_str());
      json checks = json::object(), not_provided = json::object();
      std::map<std::string, std::vector<std::string>> by_op;
      for (size_t i = 0; i < names.size(); ++i) {
        const auto c = std::find_if(r.checks.begin(), r.checks.end(), [&](const Tally& t) { return t.name == names[i]; });
        std::printf(" %-*s", colw[i], c == r.checks.end() ? "-" : frac(*c).c_str());
        if (c == r.checks.end()) continue;
        checks[c->name] = {c->pass, c->total};
        if (!c->not_provided.empty()) {
          not_provided[c->name] = c->not_provided;
          by_op[c->not_provided].push_back(c->name);
        }
      }
      std::printf(" %s\n", r.ok() ? "PASS" : "FAIL");
      for (auto& [ops, cks] : by_op) {
        std::string l;
        for (auto& c : cks) l += (l.empty() ? "" : ", ") + c;
        lacking.push_back(r.variant + "@" + r.where + ": " + ops + " (" + l + ")");
      }
      if (!r.ok() && first_failure.empty()) {
        first_failure = r.variant + "@" + r.where;
        for (const Tally& c : r.checks)
          if (!c.ok() && !c.wholly_not_provided()) first_failure += " " + c.name + " " + frac(c);
      }
      all = all && r.ok();
      ++rows;
      js.push_back({{"family", f->name()}, {"variant", r.variant}, {"where", r.where}, {"checks", checks}, {"not_provided", not_provided},
                    {"pass", r.ok()}});
    }
    if (!lacking.empty()) {
      std::printf("   not provided (never counted as passes; * in a cell):\n");
      for (auto& l : lacking) std::printf("     %s\n", l.c_str());
    }
  }
  if (rows == 0) {
    std::printf("\nnothing ran: no selected variant can run on the selected places\n");
    first_failure = "nothing ran: no selected implementation runs on the selected places (host implementations run on the CPU)";
    all = false;
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("\nselftest %s: %zu implementation(s) of %zu famil%s, %.1f s%s\n", all ? "PASSED" : "FAILED", rows, fams.size(),
              fams.size() == 1 ? "y" : "ies", s, first_failure.empty() ? "" : ("; first failure: " + first_failure).c_str());
  if (cmd.json) {
    json_out::put({"rows"}, js);
    json_out::put({"seeds", "random_batches"}, cmd.opt.seed);
  }
  return all ? 0 : 1;
}

}  // namespace bx
