#include "cli/bench_record.hpp"

#include <algorithm>

#include "cli/bench_harness.hpp"
#include "cli/devices.hpp"
#include "cli/json_out.hpp"

namespace bx {

std::vector<double> per_round_rates(const std::vector<double>& seconds, double items, double scale) {
  std::vector<double> r;
  for (double s : seconds) r.push_back(s > 0 ? items / s / scale : 0.0);
  return r;
}

void put_bench(const std::string& family, int rounds, bool parity, const std::map<std::string, nlohmann::ordered_json>& ceilings,
               const std::vector<BenchRow>& rows) {
  if (!json_out::active()) return;
  nlohmann::ordered_json cards = nlohmann::ordered_json::object(), ceil = nlohmann::ordered_json::object(),
                         js = nlohmann::ordered_json::array();
  for (const BenchRow& r : rows) {
    if (r.place.rfind("gpu", 0) == 0 && !cards.contains(r.place)) cards[r.place] = gpu_name(std::stoi(r.place.substr(3)));
    js.push_back({{"implementation", r.implementation}, {"place", r.place}, {"origin", r.origin}, {"workload", r.workload},
                  {"unit", r.unit}, {"median", median(r.rates)}, {"rates", r.rates}, {"detail", r.detail}});
  }
  for (const auto& [place, c] : ceilings) ceil[place] = c;
  json_out::put({"bench"}, nlohmann::ordered_json{{"family", family}, {"rounds", rounds}, {"parity", parity}, {"cards", cards},
                                                  {"ceilings", ceil}, {"rows", js}});
}

}  // namespace bx
