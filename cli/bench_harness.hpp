// The shared bench harness: interleaved timed rounds with parity on every round. In round r every
// contender runs once on round r's input, in an order rotated by r, so clock drift, thermal state and
// cache warmth fall on all of them alike; `parity` then judges that round's outputs (one per contender,
// in contender order) and returns its problems. Timings without parity are not reported as passing.
// Energy: a contender on a card the bench's power monitor watches (Contender::card) whose round windows
// add up to less than kEnergySeconds runs again on the last round's input, back to back, until they do
// (a card's energy counter moves in steps of tens of milliseconds: a 10 ms kernel cannot be read alone).
// Each such run is a window of its own, and its output must equal that contender's last-round output.
#pragma once
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "cli/card_power.hpp"

namespace bx {

template <class Out>
struct Contender {
  std::string label;
  std::function<Out(int round, double& seconds)> run;  // adds the measured seconds of this run
  std::string card = "";  // "gpu0" for a contender on a card: its energy is measured there (card_power)
};

constexpr double kEnergySeconds = 1.0;

// Outputs compared as bytes (floats by their bits: a NaN equals itself), so a deterministic kernel's
// repeated run always matches its own earlier one.
template <class T>
bool same_bytes(const std::vector<T>& a, const std::vector<T>& b) {
  static_assert(std::is_trivially_copyable_v<T>);
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

struct RoundTimes {
  std::map<std::string, std::vector<double>> seconds;  // contender label -> one entry per round
  // contender label -> when each run began and ended: one per round, then the energy pass's runs
  std::map<std::string, std::vector<RunWindow>> windows;
  bool parity = true;
};

template <class Out>
RoundTimes run_interleaved(int rounds, const std::vector<Contender<Out>>& cs,
                           const std::function<std::vector<std::string>(int round, const std::vector<Out>& outs)>& parity) {
  RoundTimes t;
  const auto timed = [&](size_t j, int r) {  // one run of contender j on round r's input, its window kept
    double secs = 0;
    const double t0 = steady_seconds();
    Out out = cs[j].run(r, secs);
    t.windows[cs[j].label].push_back({t0, steady_seconds(), secs});
    return out;
  };
  std::vector<Out> last(cs.size());  // each contender's output of the last round
  for (int r = 0; r < rounds; ++r) {
    std::vector<Out> outs(cs.size());
    for (size_t k = 0; k < cs.size(); ++k) {
      const size_t j = (k + size_t(r)) % cs.size();
      outs[j] = timed(j, r);
      t.seconds[cs[j].label].push_back(t.windows[cs[j].label].back().busy);
    }
    for (const auto& p : parity(r, outs)) {
      t.parity = false;
      std::fprintf(stderr, "PARITY FAIL round %d: %s\n", r, p.c_str());
    }
    if (r == rounds - 1) last = std::move(outs);
  }
  PowerMonitor* pm = bench_power();
  for (size_t j = 0; j < cs.size() && pm && rounds > 0; ++j) {
    if (!pm->watches(cs[j].card)) continue;
    auto& w = t.windows[cs[j].label];
    double span = 0;
    for (const RunWindow& x : w) span += x.t1 - x.t0;
    for (int k = 0; span < kEnergySeconds && k < 100000; ++k) {
      const Out out = timed(j, rounds - 1);
      span += w.back().t1 - w.back().t0;
      if (!same_bytes(out, last[j])) {
        t.parity = false;
        std::fprintf(stderr, "PARITY FAIL energy pass: %s differs from its own round %d output\n", cs[j].label.c_str(), rounds - 1);
        break;
      }
    }
  }
  return t;
}

inline double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace bx
