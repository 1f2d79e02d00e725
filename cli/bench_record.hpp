// The one shape of every bench document (--json): each family's bench adds rows, one per implementation on
// a place and workload, with its rate in every round (not only a median, so two documents can be compared
// with an interval: `bench compare`), the parity verdict of the rounds, the cards (and the CPU model) the
// rows ran on, the ceilings measured in the same run and the build:
//   {"build": {"version": ..., "flags": ...},
//    "bench": {F: {"family": F, "rounds": N, "parity": true|false, "cards": {"cpu": "model", "gpu0": "NVIDIA H200"},
//                  "card_facts": {"gpu0": {"pci_bus_id", "cuda_driver", "cuda_runtime", and where NVML answers "driver",
//                                 "power_limit_w", "idle_w", "max_sm_clock_mhz", "sm_clock_mhz_seen": {min, median, max}, ...}},
//                  "ceilings": {"gpu0": {"imad_per_s": ...}, ...},
//                  "rows": [{"implementation": "md5z/q9-v2", "place": "gpu0", "origin": "built-in" | "plugin PATH",
//                            "workload": "mul" | "ntok 8" | "", "unit": "G cand/s", "median": x, "rates": [...],
//                            "detail": {family-specific figures: registers, shares of a ceiling, ...},
//                            "energy": {"per_joule", "unit": "G cand/J", "watts", "joules", "busy_share", "window_s",
//                                       "short_windows"} (a card NVML watched)}]}, ...}}
#pragma once
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/card_power.hpp"

namespace bx {

struct BenchRow {
  std::string implementation;       // "md5z/q9-v2", "field25519/fe64-saturated", ...
  std::string place;                // "cpu", "gpu0", ...
  std::string origin = "built-in";  // or "plugin <path>"
  std::string workload;             // the operation or size where a family times several ("mul", "ntok 8"), else ""
  std::string unit;                 // "G cand/s", "MH/s", "G op/s", "GB/s"
  std::vector<double> rates;        // one per round, in unit
  std::vector<RunWindow> windows = {};  // when each round's run began and ended: its energy on a card (card_power)
  nlohmann::ordered_json detail = nlohmann::ordered_json::object();
};

// items / seconds / scale for each round's seconds (0 where a round took no measurable time).
std::vector<double> per_round_rates(const std::vector<double>& seconds, double items, double scale);

// Writes the document's "bench" part (when --json is on): the family, rounds, parity, the names of the
// cards the rows ran on, the ceilings per place and the rows.
void put_bench(const std::string& family, int rounds, bool parity, const std::map<std::string, nlohmann::ordered_json>& ceilings,
               const std::vector<BenchRow>& rows);

// The plugin implementations bench can time: each one that does not provide the timed operation is named in
// one line, "<label>: <op> not provided (nothing to time)", never silently left out.
template <class T, class Provides>
std::vector<T> timeable(std::vector<T> impls, const char* op, Provides provides) {
  std::vector<T> out;
  for (T& im : impls) {
    if (provides(im))
      out.push_back(std::move(im));
    else
      std::printf("%s: %s not provided (nothing to time)\n", im.label().c_str(), op);
  }
  return out;
}

}  // namespace bx
