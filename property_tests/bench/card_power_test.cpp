// Energy per item (cli/card_power): the integration over samples, and the monitor through NVML's C entry
// points, on a stand-in library with known answers (fake_nvml.c: one card drawing 250 W) and its
// misbehaviours. Each expectation is one a wrong monitor fails: a counter read in the wrong unit (mJ vs J),
// a window off its samples, power readings summed instead of integrated, a refusal taken for figures.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <thread>

#include "cli/bench_harness.hpp"
#include "cli/card_power.hpp"

namespace bx {
namespace {

std::vector<PowerSample> samples(bool counter) {
  // 0..1 s every 0.1 s: 100 W for the first half, 300 W after (the counter integrates exactly that).
  std::vector<PowerSample> s;
  double e = 1000;
  for (int k = 0; k <= 10; ++k) {
    const double t = 10 + 0.1 * k, w = t < 10.5 ? 100 : 300;
    s.push_back({t, counter ? e : std::nan(""), w, 1755, 2619});
    e += 0.1 * (t < 10.45 ? 100 : 300);
  }
  return s;
}

TEST(CardPower, EnergyFromTheCounter) {
  const auto s = samples(true);
  EXPECT_NEAR(energy_between(s, 10.0, 10.5), 50.0, 1e-9);   // 0.5 s at 100 W
  EXPECT_NEAR(energy_between(s, 10.5, 11.0), 150.0, 1e-9);  // 0.5 s at 300 W
  EXPECT_NEAR(energy_between(s, 10.05, 10.25), 20.0, 1e-9); // inside samples: linear between them
  EXPECT_NEAR(energy_between(s, 10.2, 10.2), 0.0, 1e-12);
}

TEST(CardPower, EnergyFromPowerReadings) {
  const auto s = samples(false);
  EXPECT_NEAR(energy_between(s, 10.0, 10.4), 40.0, 1e-9);
  EXPECT_NEAR(energy_between(s, 10.6, 11.0), 120.0, 1e-9);
  EXPECT_NEAR(energy_between(s, 10.0, 11.0), 200.0, 10.0);  // the step is a trapezoid between 10.4 and 10.5
}

TEST(CardPower, AnUnreadablePowerSampleIsLeftOut) {
  auto s = samples(false);
  s[2].power_w = std::nan("");  // t = 10.2, inside the 100 W half: its neighbours span it
  EXPECT_NEAR(energy_between(s, 10.0, 10.4), 40.0, 1e-9);
}

TEST(CardPower, WindowsOutsideTheSamplesAreUnknown) {
  const auto s = samples(true);
  EXPECT_TRUE(std::isnan(energy_between(s, 9.9, 10.5)));
  EXPECT_TRUE(std::isnan(energy_between(s, 10.5, 11.1)));
  EXPECT_TRUE(std::isnan(energy_between(s, 10.6, 10.5)));
  EXPECT_TRUE(std::isnan(energy_between({}, 10, 11)));
}

struct FakeNvml : ::testing::Test {
  void use(const char* mode) {
    setenv("BX_NVML_LIBRARY", BX_FAKE_NVML, 1);
    setenv("FAKE_NVML", mode, 1);
  }
  void TearDown() override {
    unsetenv("BX_NVML_LIBRARY");
    unsetenv("FAKE_NVML");
  }
};

PowerMonitor::Energy run_for(PowerMonitor& m, double seconds) {
  const double t0 = steady_seconds();
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  return m.energy("gpu0", {{t0, steady_seconds(), seconds / 2}});
}

TEST_F(FakeNvml, BoardPowerFromTheCounter) {
  use("");
  PowerMonitor m({{"gpu0", "0000:01:00.0"}}, 10, 0.2);
  ASSERT_TRUE(m.ok()) << m.why();
  EXPECT_NEAR(m.idle_watts("gpu0"), 250, 5);
  const auto e = run_for(m, 0.3);
  EXPECT_NEAR(e.watts(), 250, 5);
  EXPECT_NEAR(e.joules, 250 * e.seconds, 2);
  EXPECT_NEAR(e.busy / e.seconds, 0.5, 0.1);
  const auto f = m.facts("gpu0", steady_seconds() - 0.2, steady_seconds());
  EXPECT_EQ(f["driver"], "999.01-fake");
  EXPECT_EQ(f["power_limit_w"], 700.0);
  EXPECT_EQ(f["energy_source"], "energy counter");
  EXPECT_EQ(f["max_sm_clock_mhz"], 1980);
  EXPECT_EQ(f["sm_clock_mhz_seen"]["max"], 1755);
  EXPECT_TRUE(f["max_sm_clock_mhz"].is_number_integer() && !f["max_sm_clock_mhz"].is_number_unsigned());
  EXPECT_FALSE(m.watches("gpu1"));
  EXPECT_TRUE(std::isnan(m.energy("gpu1", {{0, 1, 1}}).joules));
}

TEST_F(FakeNvml, BoardPowerFromReadingsWithoutACounter) {
  use("no-counter");
  PowerMonitor m({{"gpu0", "0000:01:00.0"}}, 10, 0.1);
  ASSERT_TRUE(m.ok()) << m.why();
  EXPECT_NEAR(run_for(m, 0.2).watts(), 250, 5);
  EXPECT_EQ(m.facts("gpu0", 0, steady_seconds())["energy_source"], "power readings");
}

TEST_F(FakeNvml, RefusalsSayWhyAndGiveNoFigures) {
  use("refuse");
  PowerMonitor refused({{"gpu0", "0000:01:00.0"}}, 10, 0.1);
  EXPECT_FALSE(refused.ok());
  EXPECT_EQ(refused.why(), "NVML refused to start: Driver Not Loaded");
  EXPECT_FALSE(refused.watches("gpu0"));
  use("no-power");
  PowerMonitor blind({{"gpu0", "0000:01:00.0"}}, 10, 0.1);
  EXPECT_EQ(blind.why(), "NVML gives neither board power nor an energy counter for gpu0: Not Supported");
  use("");
  PowerMonitor elsewhere({{"gpu0", "0000:02:00.0"}}, 10, 0.1);
  EXPECT_EQ(elsewhere.why(), "NVML has no card at PCI 0000:02:00.0 (gpu0): Not Found");
  setenv("BX_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1", 1);
  PowerMonitor missing({{"gpu0", "0000:01:00.0"}}, 10, 0.1);
  EXPECT_NE(missing.why().find("NVML not found"), std::string::npos) << missing.why();
}

// The energy pass (bench_harness.hpp): a contender on a watched card whose rounds are short runs again
// until its windows reach kEnergySeconds, each output equal to its own last one; a CPU contender does not;
// a contender whose repeated run answers differently fails parity.
TEST_F(FakeNvml, TheEnergyPassRepeatsShortRunsOnACard) {
  use("");
  PowerMonitor m({{"gpu0", "0000:01:00.0"}}, 10, 0.1);
  ASSERT_TRUE(m.ok()) << m.why();
  set_bench_power(&m);
  int calls = 0;
  const auto sleepy = [&](int round, double& secs) {
    ++calls;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    secs += 0.02;
    return std::vector<uint64_t>{uint64_t(round)};
  };
  std::vector<Contender<std::vector<uint64_t>>> cs = {{"card", sleepy, "gpu0"}, {"cpu", [](int r, double& s) {
                                                          s += 0.001;
                                                          return std::vector<uint64_t>{uint64_t(r)};
                                                        }}};
  const auto none = [](int, const std::vector<std::vector<uint64_t>>&) { return std::vector<std::string>{}; };
  const RoundTimes t = run_interleaved<std::vector<uint64_t>>(3, cs, none);
  EXPECT_TRUE(t.parity);
  EXPECT_EQ(t.windows.at("cpu").size(), 3u);
  double span = 0;
  for (const RunWindow& w : t.windows.at("card")) span += w.t1 - w.t0;
  EXPECT_GE(span, kEnergySeconds);
  EXPECT_GT(t.windows.at("card").size(), 10u);
  EXPECT_EQ(size_t(calls), t.windows.at("card").size());
  // A kernel that answers differently when repeated (state left over from its last launch) fails parity.
  int n = 0;
  std::vector<Contender<std::vector<uint64_t>>> drift = {{"drift", [&](int, double& s) {
                                                            s += 0.001;
                                                            return std::vector<uint64_t>{uint64_t(n++ < 3 ? 0 : 1)};
                                                          },
                                                          "gpu0"}};
  EXPECT_FALSE((run_interleaved<std::vector<uint64_t>>(3, drift, none).parity));
  set_bench_power(nullptr);
}

}  // namespace
}  // namespace bx
