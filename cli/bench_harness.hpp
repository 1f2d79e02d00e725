// The shared bench harness: interleaved timed rounds with parity on every round. In round r every
// contender runs once on round r's input, in an order rotated by r, so clock drift, thermal state and
// cache warmth fall on all of them alike; `parity` then judges that round's outputs (one per contender,
// in contender order) and returns its problems. Timings without parity are not reported as passing.
#pragma once
#include <algorithm>
#include <cstdio>
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
};

struct RoundTimes {
  std::map<std::string, std::vector<double>> seconds;  // contender label -> one entry per round
  std::map<std::string, std::vector<RunWindow>> windows;  // contender label -> when each run began and ended
  bool parity = true;
};

template <class Out>
RoundTimes run_interleaved(int rounds, const std::vector<Contender<Out>>& cs,
                           const std::function<std::vector<std::string>(int round, const std::vector<Out>& outs)>& parity) {
  RoundTimes t;
  for (int r = 0; r < rounds; ++r) {
    std::vector<Out> outs(cs.size());
    for (size_t k = 0; k < cs.size(); ++k) {
      const size_t j = (k + size_t(r)) % cs.size();
      double secs = 0;
      const double t0 = steady_seconds();
      outs[j] = cs[j].run(r, secs);
      t.seconds[cs[j].label].push_back(secs);
      t.windows[cs[j].label].push_back({t0, steady_seconds(), secs});
    }
    for (const auto& p : parity(r, outs)) {
      t.parity = false;
      std::fprintf(stderr, "PARITY FAIL round %d: %s\n", r, p.c_str());
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
