// Board power, energy and clocks of the GPUs a bench runs on, read through NVML. The library
// (libnvidia-ml.so.1, part of the driver) is opened at run time, so a build needs no NVML headers and a
// machine without NVML still benches: it says why in one line and reports rates alone.
//
// A sampler thread reads every card every period (20 ms by default, well inside the 100 ms the figures need):
// the board's energy counter where the card has one, the board power, the SM and memory clocks. Energy over
// a window comes from the counter (power readings are averaged over up to a second on recent cards, the
// counter is not), else from the power readings integrated. Before the first round the monitor samples
// the idle card, so a figure can be read against what the board draws doing nothing.
#pragma once
#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

namespace bx {

struct PowerSample {
  double t = 0;         // steady-clock seconds (steady_seconds())
  double energy_j = 0;  // the board's energy counter; NaN where the card has none
  double power_w = 0;   // board power; NaN where unreadable
  unsigned sm_mhz = 0, mem_mhz = 0;
};

double steady_seconds();

// The energy a card used in [t0, t1], from samples in time order: from the energy counter where the samples
// around both ends have one (linear between them), else the power readings integrated (trapezoids, linear at
// the ends). NaN when the samples do not reach from t0 to t1 or hold neither.
double energy_between(const std::vector<PowerSample>& s, double t0, double t1);

// One timed run of one implementation: when it started and ended (steady seconds) and the seconds it
// measured itself (kernel time; the rest of the window is its host-side setup).
struct RunWindow {
  double t0 = 0, t1 = 0, busy = 0;
};

struct CardPlace {
  std::string place;       // "gpu0"
  std::string pci_bus_id;  // how NVML finds the card that CUDA calls gpu0 (their orders may differ)
};

class PowerMonitor {
 public:
  // Opens NVML (the environment's BX_NVML_LIBRARY names another library: the tests' stand-in), finds each
  // card, samples the idle cards for idle_s, then samples every period_ms until destroyed. Never throws:
  // a failure leaves ok() false and why() saying what NVML refused.
  explicit PowerMonitor(const std::vector<CardPlace>& cards, int period_ms = 20, double idle_s = 1.0);
  ~PowerMonitor();
  PowerMonitor(const PowerMonitor&) = delete;
  PowerMonitor& operator=(const PowerMonitor&) = delete;

  bool ok() const { return why_.empty(); }
  const std::string& why() const { return why_; }
  int period_ms() const { return period_ms_; }
  double idle_watts(const std::string& place) const;  // NaN for a place it does not watch
  bool watches(const std::string& place) const;

  struct Energy {
    double joules = 0, seconds = 0, busy = 0;  // over every window; busy: the runs' own seconds
    size_t runs = 0;
    double watts() const { return seconds > 0 ? joules / seconds : 0; }
  };
  // Energy over the windows (waits until a sample after the last window exists). joules NaN if unknown.
  Energy energy(const std::string& place, const std::vector<RunWindow>& windows) const;
  // The card's facts for a bench document: name, driver, CUDA versions are the caller's; here the driver,
  // the enforced power limit, the maximum clocks, the idle power and the SM clocks sampled in [t0, t1].
  nlohmann::ordered_json facts(const std::string& place, double t0, double t1) const;

 private:
  struct Card;
  struct Api;
  void sample_all();
  void wait_past(double t) const;

  std::string why_;
  int period_ms_;
  std::string driver_;
  std::vector<Card*> cards_;
  Api* api_ = nullptr;
  mutable std::mutex mu_;
  std::atomic<bool> stop_{false};
  std::thread sampler_;
};

// The monitor of the bench now running (null when none: no GPU, not a bench); bench documents read it.
PowerMonitor* bench_power();
void set_bench_power(PowerMonitor* m);  // watch_bench_power does this; tests set a stand-in's monitor

// Starts watching the selected GPUs for this bench (none: no monitor) and says in one line what it
// measures or why it cannot; the monitor stays bench_power() until the returned handle is dropped.
struct DeviceSelection;
std::shared_ptr<PowerMonitor> watch_bench_power(const DeviceSelection& devices);

}  // namespace bx
