#include "cli/bench_record.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>

#include "bx_build_info.hpp"

#include "cli/bench_harness.hpp"
#include "cli/devices.hpp"
#include "cli/json_out.hpp"

namespace bx {

std::vector<double> per_round_rates(const std::vector<double>& seconds, double items, double scale) {
  std::vector<double> r;
  for (double s : seconds) r.push_back(s > 0 ? items / s / scale : 0.0);
  return r;
}

namespace {
// The CPU's model name (/proc/cpuinfo), so that two documents from different machines are not compared.
std::string cpu_model() {
  std::ifstream f("/proc/cpuinfo");
  for (std::string line; std::getline(f, line);)
    if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos) return line.substr(line.find(':') + 2);
  return "unknown CPU";
}

std::string per_joule_unit(const std::string& unit) {
  return unit.size() > 2 && unit.compare(unit.size() - 2, 2, "/s") == 0 ? unit.substr(0, unit.size() - 2) + "/J" : unit + " s/J";
}

std::string version_text(int v) { return v > 0 ? std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10) : "unknown"; }

// Energy of each row that ran on a card the bench's monitor watches (null elsewhere): the board's energy
// over the windows of the row's runs (the rounds', then the energy pass's: bench_harness.hpp), the items
// they did per joule of it (each run's rate times its own timed seconds, over the joules of the whole
// windows: setup between launches costs energy too), the mean board power, and the share of the windows
// the runs' own timed seconds took. Windows shorter than five sampling periods on average are flagged.
std::vector<nlohmann::ordered_json> row_energy(const std::vector<BenchRow>& rows) {
  std::vector<nlohmann::ordered_json> out(rows.size());
  PowerMonitor* pm = bench_power();
  if (!pm || !pm->ok()) return out;
  for (size_t k = 0; k < rows.size(); ++k) {
    const BenchRow& r = rows[k];
    if (!pm->watches(r.place) || r.windows.size() < r.rates.size() || r.rates.empty()) continue;
    const PowerMonitor::Energy e = pm->energy(r.place, r.windows);
    if (std::isnan(e.joules) || e.seconds <= 0 || e.joules <= 0) continue;
    double items = 0;  // a round's rate times its own seconds; the energy pass's runs at the median rate
    for (size_t i = 0; i < r.windows.size(); ++i) items += (i < r.rates.size() ? r.rates[i] : median(r.rates)) * r.windows[i].busy;
    out[k] = {{"per_joule", items / e.joules}, {"unit", per_joule_unit(r.unit)}, {"watts", e.watts()}, {"joules", e.joules},
              {"busy_share", e.busy / e.seconds}, {"window_s", e.seconds},
              {"short_windows", e.seconds / double(e.runs) < 5 * pm->period_ms() / 1000.0}};
  }
  return out;
}

void print_energy(const std::string& family, const std::vector<BenchRow>& rows, const std::vector<nlohmann::ordered_json>& energy,
                  const std::map<std::string, nlohmann::ordered_json>& facts) {
  bool any = false;
  for (const auto& e : energy) any = any || !e.is_null();
  if (!any) return;
  std::printf("\nenergy, %s (NVML board power, sampled every %d ms while each implementation ran):\n", family.c_str(),
              bench_power()->period_ms());
  for (const auto& [place, f] : facts) {
    const auto num = [&](const char* k, const char* fmt) {
      char b[32] = "?";
      if (f.contains(k) && f[k].is_number()) std::snprintf(b, sizeof b, fmt, f[k].get<double>());
      return std::string(b);
    };
    std::printf("  %s: idle %s W, power limit %s W, %s; SM clock seen %s MHz (max %d)\n", place.c_str(), num("idle_w", "%.1f").c_str(),
                num("power_limit_w", "%.0f").c_str(), f.value("energy_source", "?").c_str(),
                f.contains("sm_clock_mhz_seen") ? (std::to_string(f["sm_clock_mhz_seen"]["min"].get<int>()) + "-" +
                                                   std::to_string(f["sm_clock_mhz_seen"]["max"].get<int>())).c_str()
                                                : "-",
                f.value("max_sm_clock_mhz", 0));
  }
  std::printf("  %-44s %-6s %-8s %9s %14s %-10s %6s\n", "implementation", "place", "workload", "board W", "per joule", "unit", "busy");
  for (size_t k = 0; k < rows.size(); ++k) {
    if (energy[k].is_null()) continue;
    std::printf("  %-44s %-6s %-8s %9.1f %14.5g %-10s %5.0f%%%s%s\n", rows[k].implementation.c_str(), rows[k].place.c_str(),
                rows[k].workload.c_str(), energy[k]["watts"].get<double>(), energy[k]["per_joule"].get<double>(),
                energy[k]["unit"].get<std::string>().c_str(), 100 * energy[k]["busy_share"].get<double>(),
                energy[k]["short_windows"].get<bool>() ? "  (short runs)" : "",
                energy[k]["busy_share"].get<double>() < 0.5 ? "  (mostly setup)" : "");
  }
  std::printf("  (per joule = the items the runs did over the board's energy while they ran, setup between launches\n"
              "  included; busy = the share of those windows the runs' own timed seconds took; short runs: under five\n"
              "  sampling periods each, so their energy leans on interpolation; mostly setup: busy under 50 %%, as for\n"
              "  a plugin whose call copies its inputs from the host, so the figure is not the kernel's energy)\n");
}
}  // namespace

void put_bench(const std::string& family, int rounds, bool parity, const std::map<std::string, nlohmann::ordered_json>& ceilings,
               const std::vector<BenchRow>& rows) {
  // The facts of each watched card over the span of this family's runs on it: driver, power limit, idle
  // power, the clocks seen.
  std::map<std::string, nlohmann::ordered_json> facts;
  if (PowerMonitor* pm = bench_power(); pm && pm->ok()) {
    std::map<std::string, std::pair<double, double>> span;
    for (const BenchRow& r : rows)
      for (const RunWindow& w : r.windows) {
        auto [it, fresh] = span.emplace(r.place, std::make_pair(w.t0, w.t1));
        if (!fresh) it->second.first = std::min(it->second.first, w.t0), it->second.second = std::max(it->second.second, w.t1);
      }
    for (const auto& [place, s] : span)
      if (pm->watches(place)) facts[place] = pm->facts(place, s.first, s.second);
  }
  const std::vector<nlohmann::ordered_json> energy = row_energy(rows);
  print_energy(family, rows, energy, facts);
  if (!json_out::active()) return;
  nlohmann::ordered_json cards = nlohmann::ordered_json::object(), ceil = nlohmann::ordered_json::object(),
                         card_facts = nlohmann::ordered_json::object(), js = nlohmann::ordered_json::array();
  for (size_t k = 0; k < rows.size(); ++k) {
    const BenchRow& r = rows[k];
    if (r.place == "cpu" && !cards.contains("cpu")) cards["cpu"] = cpu_model();
    if (r.place.rfind("gpu", 0) == 0 && !cards.contains(r.place)) {
      const int dev = std::stoi(r.place.substr(3));
      cards[r.place] = gpu_name(dev);
      nlohmann::ordered_json f = {{"pci_bus_id", gpu_pci_bus_id(dev)},
                                  {"cuda_driver", version_text(cuda_driver_version())},
                                  {"cuda_runtime", version_text(cuda_runtime_version())}};
      if (facts.count(r.place)) f.update(facts.at(r.place));
      else if (bench_power() && !bench_power()->ok()) f["energy"] = "not measured: " + bench_power()->why();
      else f["energy"] = "not measured";
      card_facts[r.place] = f;
    }
    nlohmann::ordered_json row = {{"implementation", r.implementation}, {"place", r.place}, {"origin", r.origin}, {"workload", r.workload},
                                  {"unit", r.unit}, {"median", median(r.rates)}, {"rates", r.rates}, {"detail", r.detail}};
    if (!energy[k].is_null()) row["energy"] = energy[k];
    js.push_back(std::move(row));
  }
  for (const auto& [place, c] : ceilings) ceil[place] = c;
  json_out::put({"build"}, nlohmann::ordered_json{{"version", BX_VERSION}, {"flags", BX_BUILD_FLAGS}});
  json_out::put({"bench", family}, nlohmann::ordered_json{{"family", family}, {"rounds", rounds}, {"parity", parity}, {"cards", cards},
                                                          {"card_facts", card_facts}, {"ceilings", ceil}, {"rows", js}});
}

}  // namespace bx
