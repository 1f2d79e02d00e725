#include "cli/card_power.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <type_traits>

#include "cli/devices.hpp"

namespace bx {

double steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

namespace {

double lerp(const PowerSample& a, const PowerSample& b, double t, double PowerSample::*f) {
  if (b.t <= a.t) return a.*f;
  return a.*f + (b.*f - a.*f) * (t - a.t) / (b.t - a.t);
}

// Index of the last sample at or before t (samples in time order, s[0].t <= t).
size_t at_or_before(const std::vector<PowerSample>& s, double t) {
  const auto it = std::upper_bound(s.begin(), s.end(), t, [](double x, const PowerSample& p) { return x < p.t; });
  return size_t(it - s.begin()) - 1;
}

}  // namespace

double energy_between(const std::vector<PowerSample>& s, double t0, double t1) {
  const double nan = std::nan("");
  if (s.size() < 2 || t1 < t0 || s.front().t > t0 || s.back().t < t1) return nan;
  const size_t i0 = at_or_before(s, t0), i1 = at_or_before(s, t1);
  const size_t j0 = std::min(i0 + 1, s.size() - 1), j1 = std::min(i1 + 1, s.size() - 1);
  const bool counter = !std::isnan(s[i0].energy_j) && !std::isnan(s[j0].energy_j) && !std::isnan(s[i1].energy_j) &&
                       !std::isnan(s[j1].energy_j);
  if (counter) return lerp(s[i1], s[j1], t1, &PowerSample::energy_j) - lerp(s[i0], s[j0], t0, &PowerSample::energy_j);
  // An unreadable power sample is left out (its neighbours span it), never allowed to void the window.
  if (std::any_of(s.begin(), s.end(), [](const PowerSample& p) { return std::isnan(p.power_w); })) {
    std::vector<PowerSample> readable;
    for (const PowerSample& p : s)
      if (!std::isnan(p.power_w)) readable.push_back(p);
    return readable.size() == s.size() ? nan : energy_between(readable, t0, t1);
  }
  // Trapezoids over the power readings from t0 to t1 (each end's power interpolated).
  double e = 0, pt = t0, pw = lerp(s[i0], s[j0], t0, &PowerSample::power_w);
  for (size_t k = i0 + 1; k <= i1; ++k) {
    e += (s[k].t - pt) * (pw + s[k].power_w) / 2;
    pt = s[k].t, pw = s[k].power_w;
  }
  e += (t1 - pt) * (pw + lerp(s[i1], s[j1], t1, &PowerSample::power_w)) / 2;
  return std::isnan(e) ? nan : e;
}

// The few NVML entry points bench reads (their C ABI, as the driver's nvml.h declares them).
struct PowerMonitor::Api {
  using Ret = int;  // nvmlReturn_t; 0 is NVML_SUCCESS
  using Dev = void*;
  void* lib = nullptr;
  Ret (*init)() = nullptr;
  Ret (*shutdown)() = nullptr;
  const char* (*error_string)(Ret) = nullptr;
  Ret (*driver_version)(char*, unsigned) = nullptr;
  Ret (*by_pci)(const char*, Dev*) = nullptr;
  Ret (*power)(Dev, unsigned*) = nullptr;                 // mW
  Ret (*energy)(Dev, unsigned long long*) = nullptr;      // mJ since the driver loaded
  Ret (*power_limit)(Dev, unsigned*) = nullptr;           // mW, the enforced one
  Ret (*clock)(Dev, int, unsigned*) = nullptr;            // MHz; 1 = SM, 2 = memory
  Ret (*max_clock)(Dev, int, unsigned*) = nullptr;
  std::string err(Ret r) const { return error_string ? error_string(r) : "error " + std::to_string(r); }
};

struct PowerMonitor::Card {
  std::string place;
  void* dev = nullptr;
  bool counter = false;  // the card has an energy counter
  double limit_w = std::nan(""), idle_w = std::nan("");
  unsigned max_sm = 0, max_mem = 0;
  std::vector<PowerSample> samples;
};

PowerMonitor::PowerMonitor(const std::vector<CardPlace>& cards, int period_ms, double idle_s) : period_ms_(period_ms) {
  const char* env = std::getenv("BX_NVML_LIBRARY");
  const std::string path = env && *env ? env : "libnvidia-ml.so.1";
  void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char* e = dlerror();
    why_ = "NVML not found (" + std::string(e ? e : path) + ")";
    return;
  }
  api_ = new Api;
  api_->lib = lib;
  bool all = true;
  auto sym = [&](auto& fn, const char* name) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
    all = all && fn;
  };
  sym(api_->init, "nvmlInit_v2");
  sym(api_->shutdown, "nvmlShutdown");
  sym(api_->error_string, "nvmlErrorString");
  sym(api_->driver_version, "nvmlSystemGetDriverVersion");
  sym(api_->by_pci, "nvmlDeviceGetHandleByPciBusId_v2");
  sym(api_->power, "nvmlDeviceGetPowerUsage");
  sym(api_->energy, "nvmlDeviceGetTotalEnergyConsumption");
  sym(api_->power_limit, "nvmlDeviceGetEnforcedPowerLimit");
  sym(api_->clock, "nvmlDeviceGetClockInfo");
  sym(api_->max_clock, "nvmlDeviceGetMaxClockInfo");
  if (!all) {
    why_ = "NVML (" + path + ") lacks an entry point bench needs";
    api_->shutdown = nullptr;  // never started
    return;
  }
  if (const int r = api_->init(); r != 0) {
    why_ = "NVML refused to start: " + api_->err(r);
    api_->shutdown = nullptr;  // nothing to shut down
    return;
  }
  char drv[96] = {};
  if (api_->driver_version(drv, sizeof drv) == 0) driver_ = drv;
  for (const CardPlace& cp : cards) {
    auto* c = new Card;
    cards_.push_back(c);
    c->place = cp.place;
    // CUDA writes a 4-digit PCI domain ("0000:3B:00.0"), NVML's own form has 8: try both.
    int r = api_->by_pci(cp.pci_bus_id.c_str(), &c->dev);
    if (r != 0 && cp.pci_bus_id.find(':') == 4) r = api_->by_pci(("0000" + cp.pci_bus_id).c_str(), &c->dev);
    if (r != 0) {
      why_ = "NVML has no card at PCI " + cp.pci_bus_id + " (" + cp.place + "): " + api_->err(r);
      return;
    }
    unsigned mw = 0, mhz = 0;
    unsigned long long mj = 0;
    c->counter = api_->energy(c->dev, &mj) == 0;
    if (!c->counter) {
      if (const int r = api_->power(c->dev, &mw); r != 0) {
        why_ = "NVML gives neither board power nor an energy counter for " + cp.place + ": " + api_->err(r);
        return;
      }
    }
    if (api_->power_limit(c->dev, &mw) == 0) c->limit_w = mw / 1000.0;
    if (api_->max_clock(c->dev, 1, &mhz) == 0) c->max_sm = mhz;
    if (api_->max_clock(c->dev, 2, &mhz) == 0) c->max_mem = mhz;
  }
  // The idle cards, then the sampler.
  const double t0 = steady_seconds();
  sample_all();
  while (steady_seconds() < t0 + idle_s) {
    std::this_thread::sleep_for(std::chrono::milliseconds(period_ms_));
    sample_all();
  }
  for (Card* c : cards_) {
    const double e = energy_between(c->samples, c->samples.front().t, c->samples.back().t);
    c->idle_w = e / (c->samples.back().t - c->samples.front().t);
  }
  sampler_ = std::thread([this] {
    while (!stop_.load()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(period_ms_));
      sample_all();
    }
  });
}

PowerMonitor::~PowerMonitor() {
  stop_ = true;
  if (sampler_.joinable()) sampler_.join();
  for (Card* c : cards_) delete c;
  if (api_) {
    if (api_->shutdown) api_->shutdown();
    dlclose(api_->lib);
    delete api_;
  }
}

void PowerMonitor::sample_all() {
  for (Card* c : cards_) {
    PowerSample s;
    unsigned mw = 0, mhz = 0;
    unsigned long long mj = 0;
    // The time is the counter's (read first); power is averaged by the driver anyway, clocks are a state.
    s.energy_j = c->counter && api_->energy(c->dev, &mj) == 0 ? mj / 1000.0 : std::nan("");
    s.t = steady_seconds();
    s.power_w = api_->power(c->dev, &mw) == 0 ? mw / 1000.0 : std::nan("");
    s.sm_mhz = api_->clock(c->dev, 1, &mhz) == 0 ? mhz : 0;
    s.mem_mhz = api_->clock(c->dev, 2, &mhz) == 0 ? mhz : 0;
    std::lock_guard<std::mutex> g(mu_);
    c->samples.push_back(s);
  }
}

void PowerMonitor::wait_past(double t) const {
  // The sampler runs until the monitor is destroyed: a sample after t comes within a period.
  for (int k = 0; k < 50; ++k) {
    {
      std::lock_guard<std::mutex> g(mu_);
      bool all = true;
      for (const Card* c : cards_) all = all && !c->samples.empty() && c->samples.back().t >= t;
      if (all) return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(period_ms_));
  }
}

bool PowerMonitor::watches(const std::string& place) const {
  if (!ok()) return false;
  for (const Card* c : cards_)
    if (c->place == place) return true;
  return false;
}

double PowerMonitor::idle_watts(const std::string& place) const {
  for (const Card* c : cards_)
    if (c->place == place) return c->idle_w;
  return std::nan("");
}

PowerMonitor::Energy PowerMonitor::energy(const std::string& place, const std::vector<RunWindow>& windows) const {
  Energy e;
  if (!watches(place) || windows.empty()) {
    e.joules = std::nan("");
    return e;
  }
  double last = 0;
  for (const RunWindow& w : windows) last = std::max(last, w.t1);
  wait_past(last);
  std::lock_guard<std::mutex> g(mu_);
  for (const Card* c : cards_) {
    if (c->place != place) continue;
    for (const RunWindow& w : windows) {
      e.joules += energy_between(c->samples, w.t0, w.t1);
      e.seconds += w.t1 - w.t0;
      e.busy += w.busy;
      ++e.runs;
    }
  }
  return e;
}

nlohmann::ordered_json PowerMonitor::facts(const std::string& place, double t0, double t1) const {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  if (!watches(place)) return j;
  wait_past(t1);
  std::lock_guard<std::mutex> g(mu_);
  for (const Card* c : cards_) {
    if (c->place != place) continue;
    std::vector<unsigned> sm, mem;
    for (const PowerSample& s : c->samples)
      if (s.t >= t0 && s.t <= t1) sm.push_back(s.sm_mhz), mem.push_back(s.mem_mhz);
    std::sort(sm.begin(), sm.end());
    std::sort(mem.begin(), mem.end());
    const auto num = [](double x) { return std::isnan(x) ? nlohmann::ordered_json() : nlohmann::ordered_json(x); };
    j = {{"driver", driver_},
         {"power_limit_w", num(c->limit_w)},
         {"idle_w", num(c->idle_w)},
         {"energy_source", c->counter ? "energy counter" : "power readings"},
         {"sample_period_ms", period_ms_},
         {"max_sm_clock_mhz", int(c->max_sm)},  // int: bench documents write unsigned numbers as strings
         {"max_mem_clock_mhz", int(c->max_mem)}};
    if (!sm.empty())
      j["sm_clock_mhz_seen"] = {{"min", int(sm.front())}, {"median", int(sm[sm.size() / 2])}, {"max", int(sm.back())}},
      j["mem_clock_mhz_seen"] = {{"min", int(mem.front())}, {"max", int(mem.back())}};
  }
  return j;
}

namespace {
PowerMonitor* g_bench_power = nullptr;
}
PowerMonitor* bench_power() { return g_bench_power; }
void set_bench_power(PowerMonitor* m) { g_bench_power = m; }

std::shared_ptr<PowerMonitor> watch_bench_power(const DeviceSelection& devices) {
  if (devices.gpus.empty()) return nullptr;
  std::vector<CardPlace> cards;
  for (int g : devices.gpus) cards.push_back({"gpu" + std::to_string(g), gpu_pci_bus_id(g)});
  auto* m = new PowerMonitor(cards);
  g_bench_power = m;
  if (!m->ok()) {
    std::printf("energy: not measured (%s): rates only\n", m->why().c_str());
  } else {
    std::printf("energy: NVML board power every %d ms; idle", m->period_ms());
    for (const CardPlace& c : cards) std::printf(" %s %.1f W", c.place.c_str(), m->idle_watts(c.place));
    std::printf("\n");
  }
  return std::shared_ptr<PowerMonitor>(m, [](PowerMonitor* p) {
    if (g_bench_power == p) g_bench_power = nullptr;
    delete p;
  });
}

}  // namespace bx
