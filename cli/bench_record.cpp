#include "cli/bench_record.hpp"

#include <algorithm>
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
}  // namespace

void put_bench(const std::string& family, int rounds, bool parity, const std::map<std::string, nlohmann::ordered_json>& ceilings,
               const std::vector<BenchRow>& rows) {
  if (!json_out::active()) return;
  nlohmann::ordered_json cards = nlohmann::ordered_json::object(), ceil = nlohmann::ordered_json::object(),
                         js = nlohmann::ordered_json::array();
  for (const BenchRow& r : rows) {
    if (r.place == "cpu" && !cards.contains("cpu")) cards["cpu"] = cpu_model();
    if (r.place.rfind("gpu", 0) == 0 && !cards.contains(r.place)) cards[r.place] = gpu_name(std::stoi(r.place.substr(3)));
    js.push_back({{"implementation", r.implementation}, {"place", r.place}, {"origin", r.origin}, {"workload", r.workload},
                  {"unit", r.unit}, {"median", median(r.rates)}, {"rates", r.rates}, {"detail", r.detail}});
  }
  for (const auto& [place, c] : ceilings) ceil[place] = c;
  json_out::put({"build"}, nlohmann::ordered_json{{"version", BX_VERSION}, {"flags", BX_BUILD_FLAGS}});
  json_out::put({"bench", family}, nlohmann::ordered_json{{"family", family}, {"rounds", rounds}, {"parity", parity}, {"cards", cards},
                                                          {"ceilings", ceil}, {"rows", js}});
}

}  // namespace bx
