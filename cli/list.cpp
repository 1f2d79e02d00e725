#include "cli/list.hpp"

#include <algorithm>
#include <array>

#include <cstdio>

#include "cli/family.hpp"

namespace bx {

namespace {
std::string join(const std::vector<std::string>& v, const char* sep) {
  std::string s;
  for (auto& x : v) s += (s.empty() ? "" : sep) + x;
  return s;
}
std::vector<std::string> runs_on(const VariantInfo& v, int gpus) {
  std::vector<std::string> w;
  if (v.cpu) w.push_back("cpu");
  if (v.gpu)
    for (int g = 0; g < gpus; ++g) w.push_back("gpu" + std::to_string(g));
  return w;
}
}  // namespace

int run_list(const ListCommand& cmd) {
  const int gpus = gpu_count();
  if (cmd.ctest_resources) {  // ctest --resource-spec-file: one slot per GPU, so a "gpus:1" test holds a whole device
    // Ids are the indices gpu_count() enumerates (within CUDA_VISIBLE_DEVICES, as cmake/ctest_gpu_launch.sh maps them).
    json g = json::array();
    for (int i = 0; i < gpus; ++i) g.push_back({{"id", std::to_string(i)}, {"slots", 1}});
    json local = json::object();
    local["gpus"] = g;
    json spec = json::object();
    spec["version"] = {{"major", 1}, {"minor", 0}};
    spec["local"] = json::array({local});
    if (gpus == 0) std::fprintf(stderr, "bitexact: no GPU found: the resource specification lists no gpus\n");
    std::printf("%s\n", spec.dump().c_str());
    return 0;
  }
  if (cmd.faults) {
    const auto faults = all_faults();
    if (cmd.json) {
      json js = json::array();
      for (auto& f : faults)
        js.push_back({{"family", f.family}, {"name", f.name}, {"where", f.where}, {"description", f.description}});
      std::printf("%s\n", js.dump().c_str());
      return 0;
    }
    std::printf("%-12s %-36s %-7s %s\n", "family", "fault", "where", "description");
    for (auto& f : faults)
      std::printf("%-12s %-36s %-7s %s\n", f.family.c_str(), f.name.c_str(), f.where.c_str(), f.description.c_str());
    std::printf("\n%s\n", zoo_build() ? "this is a zoo build: BX_FAULT=<name> plants one of them"
                                      : "planted only in the zoo build (cmake --preset zoo): BX_FAULT=<name>");
    return 0;
  }
  if (cmd.sanitize || cmd.gpu_stage) {  // one line per run: family<TAB>command
    for (auto* f : families())
      for (auto& c : cmd.sanitize ? f->sanitizer_runs() : f->gpu_stage_runs()) std::printf("%s\t%s\n", f->name().c_str(), c.c_str());
    return 0;
  }
  if (cmd.checks) {  // the zoo's checks: selftest (every family) plus each family's own
    json js = json::array();
    for (auto* f : families()) {
      js.push_back({{"family", f->name()}, {"name", "selftest-cpu"}, {"gpu", false},
                    {"command", "{build}/bitexact selftest --device cpu --family " + f->name()}});
      js.push_back({{"family", f->name()}, {"name", "selftest-gpu"}, {"gpu", true},
                    {"command", "{build}/bitexact selftest --device gpu --family " + f->name()}});
      for (auto& c : f->zoo_checks())
        js.push_back({{"family", f->name()}, {"name", c.name}, {"gpu", c.gpu}, {"command", c.command}});
    }
    if (cmd.json) {
      std::printf("%s\n", js.dump().c_str());
    } else {
      for (auto& c : js)
        std::printf("%-12s %-14s %-4s %s\n", c["family"].get<std::string>().c_str(), c["name"].get<std::string>().c_str(),
                    c["gpu"].get<bool>() ? "gpu" : "cpu", c["command"].get<std::string>().c_str());
    }
    return 0;
  }
  if (cmd.json) {
    json fams = json::array();
    for (auto* f : families()) {
      json vs = json::array();
      for (auto& v : f->variants())
        vs.push_back({{"name", v.name}, {"layout", v.layout}, {"backend", v.backend}, {"shortcuts", v.shortcuts},
                      {"contract", v.contract}, {"runs_on", runs_on(v, gpus)}, {"description", v.description},
                      {"origin", v.origin}});
      fams.push_back({{"name", f->name()}, {"description", f->description()}, {"variants", vs},
                      {"vector_files", f->vector_files()}, {"oracle_ops", f->oracle_ops()}, {"fuzz_targets", f->fuzz_targets()}});
    }
    json g = json::array();
    for (int i = 0; i < gpus; ++i) g.push_back({{"index", i}, {"name", gpu_name(i)}});
    std::printf("%s\n", json({{"families", fams}, {"gpus", g}, {"cuda_build", 
#if defined(BX_HAVE_CUDA)
                                                                true
#else
                                                                false
#endif
                                                               }, {"zoo_build", zoo_build()}}).dump().c_str());
    return 0;
  }
  std::printf("GPUs: %d%s\n", gpus,
#if defined(BX_HAVE_CUDA)
              ""
#else
              " (this build has no CUDA kernels)"
#endif
  );
  for (int i = 0; i < gpus; ++i) std::printf("  gpu%d: %s\n", i, gpu_name(i).c_str());
  // Columns as wide as their widest cell, so long variant names and shortcut lists never shift a row.
  std::vector<std::array<std::string, 8>> rows{{"family", "variant", "layout", "backend", "shortcuts", "contract", "runs on", "description"}};
  for (auto* f : families())
    for (auto& v : f->variants()) {
      const auto where = runs_on(v, gpus);
      rows.push_back({f->name(), v.name, v.layout, v.backend, v.shortcuts.empty() ? "-" : join(v.shortcuts, ","), v.contract,
                      where.empty() ? "(needs a GPU)" : join(where, ","), v.description});
    }
  std::array<size_t, 8> w{};
  for (auto& r : rows)
    for (size_t c = 0; c < 7; ++c) w[c] = std::max(w[c], r[c].size());
  std::printf("\n");
  for (auto& r : rows) {
    for (size_t c = 0; c < 7; ++c) std::printf("%-*s  ", int(w[c]), r[c].c_str());
    std::printf("%s\n", r[7].c_str());
  }
  bool any_plugin = false;
  for (auto* f : families())
    for (auto& v : f->variants())
      if (v.origin != "built-in") {
        if (!any_plugin) std::printf("\nfrom plugins:\n");
        any_plugin = true;
        std::printf("  %s  %s\n", v.name.c_str(), v.origin.c_str());
      }
  std::printf("\nfamilies:\n");
  for (auto* f : families()) std::printf("  %-12s %s\n", f->name().c_str(), f->description().c_str());
  return 0;
}

}  // namespace bx
