#include "cli/bench_compare.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/bench_harness.hpp"
#include "cli/input_file.hpp"

namespace bx {

namespace {

using Json = nlohmann::json;  // (bx::json is the ordered one)

struct Row {
  std::string family, implementation, place, workload, unit;
  std::vector<double> rates;
};
using Key = std::tuple<std::string, std::string, std::string, std::string>;  // family, implementation, place, workload

struct Doc {
  std::string path, build;
  std::map<std::string, std::string> cards;  // place -> card or CPU model
  std::map<std::string, std::string> setup;  // place -> driver, CUDA and power limit (card_facts), where known
  std::map<Key, Row> rows;
};

Doc read_doc(const std::string& path) {
  const Json j = read_json_file<Json>(path, "bench document");
  if (!j.is_object() || !j.contains("bench") || !j["bench"].is_object() || j["bench"].empty())
    throw InputError("bench document " + path + ": no \"bench\" part (write one with `bitexact bench ... --json > FILE`)");
  Doc d{path, j.contains("build") ? j["build"].value("version", "?") + " " + j["build"].value("flags", "") : "?", {}, {}, {}};
  const auto bad = [&](const std::string& why) { throw InputError("bench document " + path + ": " + why); };
  for (const auto& [fam, b] : j["bench"].items()) {
    if (!b.is_object() || !b.contains("rows") || !b["rows"].is_array()) bad("family " + fam + " has no \"rows\"");
    if (b.value("parity", false) != true) bad("family " + fam + " failed parity (its rates are rates of wrong answers): not compared");
    if (b.contains("cards") && b["cards"].is_object())
      for (const auto& [place, card] : b["cards"].items())
        if (card.is_string()) d.cards[place] = card.get<std::string>();
    if (b.contains("card_facts") && b["card_facts"].is_object())
      for (const auto& [place, f] : b["card_facts"].items()) {
        if (!f.is_object() || !f.contains("driver")) continue;  // no NVML facts: nothing to compare
        const auto text = [&](const char* k) { return f.contains(k) ? (f[k].is_string() ? f[k].get<std::string>() : f[k].dump()) : "?"; };
        d.setup[place] = "driver " + text("driver") + ", CUDA " + text("cuda_driver") + ", power limit " + text("power_limit_w") + " W";
      }
    for (const Json& r : b["rows"]) {
      if (!r.is_object() || !r.contains("rates") || !r["rates"].is_array() || r["rates"].empty()) bad("family " + fam + ": a row without \"rates\"");
      Row row{fam, r.value("implementation", ""), r.value("place", ""), r.value("workload", ""), r.value("unit", ""), {}};
      for (const Json& x : r["rates"]) {
        if (!x.is_number() || x.get<double>() <= 0) bad(row.implementation + "@" + row.place + ": a rate that is not a positive number");
        row.rates.push_back(x.get<double>());
      }
      if (!d.rows.emplace(Key{fam, row.implementation, row.place, row.workload}, row).second)
        bad(row.implementation + "@" + row.place + " " + row.workload + " appears twice");
    }
  }
  return d;
}

}  // namespace

int run_bench_compare(const std::string& base_path, const std::string& new_path, double threshold_pct) {
  const Doc base = read_doc(base_path), fresh = read_doc(new_path);
  for (const auto& [place, card] : base.cards) {
    const auto it = fresh.cards.find(place);
    if (it != fresh.cards.end() && it->second != card)
      throw InputError("bench compare: " + place + " is " + card + " in " + base_path + " but " + it->second + " in " + new_path +
                       " (rates of different cards are not compared)");
  }
  // The same card under another driver or power limit is compared, but said: either can move a rate.
  for (const auto& [place, s] : base.setup) {
    const auto it = fresh.setup.find(place);
    if (it != fresh.setup.end() && it->second != s)
      std::printf("note: %s runs %s in BASE but %s in NEW\n", place.c_str(), s.c_str(), it->second.c_str());
  }
  const double t = threshold_pct / 100;
  std::printf("BASE %s: %s\nNEW  %s: %s\nthreshold %.2f %%: a regression needs every NEW round against every BASE round below %.4f\n\n",
              base_path.c_str(), base.build.c_str(), new_path.c_str(), fresh.build.c_str(), threshold_pct, 1 - t);
  std::printf("%-40s %-6s %-10s %12s %12s %-10s %8s  %-17s %s\n", "implementation", "place", "workload", "base", "new", "unit", "ratio",
              "interval", "verdict");
  size_t compared = 0, regressions = 0, missing = 0;
  for (const auto& [key, b] : base.rows) {
    const auto it = fresh.rows.find(key);
    if (it == fresh.rows.end()) {
      std::printf("%-40s %-6s %-10s %12s %12s %-10s %8s  %-17s %s\n", b.implementation.c_str(), b.place.c_str(), b.workload.c_str(), "", "-",
                  b.unit.c_str(), "", "", "MISSING in NEW (not measured)");
      ++missing;
      continue;
    }
    const Row& n = it->second;
    if (n.unit != b.unit) throw InputError("bench compare: " + b.implementation + "@" + b.place + " in " + b.unit + " and in " + n.unit);
    double lo = 1e300, hi = 0;
    for (double x : n.rates)
      for (double y : b.rates) lo = std::min(lo, x / y), hi = std::max(hi, x / y);
    const double mb = median(b.rates), mn = median(n.rates), ratio = mn / mb;
    const char* verdict = hi < 1 - t ? "REGRESSION" : lo > 1 + t ? "faster" : "same";
    regressions += hi < 1 - t;
    ++compared;
    char interval[48];
    std::snprintf(interval, sizeof interval, "[%.4f, %.4f]", lo, hi);
    std::printf("%-40s %-6s %-10s %12.5g %12.5g %-10s %8.4f  %-17s %s\n", b.implementation.c_str(), b.place.c_str(), b.workload.c_str(), mb, mn,
                b.unit.c_str(), ratio, interval, verdict);
  }
  size_t only_new = 0;
  for (const auto& [key, n] : fresh.rows)
    if (!base.rows.count(key)) ++only_new;
  if (only_new) std::printf("(%zu implementation(s) only in NEW: nothing to compare them with)\n", only_new);
  if (compared == 0) throw InputError("bench compare: " + base_path + " and " + new_path + " have no implementation in common");
  std::printf("\nbench compare %s: %zu compared, %zu regression(s), %zu missing in NEW\n", regressions || missing ? "FAILED" : "PASSED", compared,
              regressions, missing);
  return regressions || missing ? 1 : 0;
}

}  // namespace bx
