// What the plugin fuzzers (fuzz/plugin_<family>.cpp) share: loading the plugin named by BX_FUZZ_PLUGIN
// (every problem one line and exit 2 at start-up, before any input), adapting its host implementations of
// one family through the engine's own adapter, calls in process (a crash is the fuzzer's finding), the
// input read as a stream, and the report of a difference, which aborts so libFuzzer saves the input.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "suite/plugin.hpp"

namespace bx::plugin_fuzz {

// The input as a stream; past its end every byte is 0 (so every input is a whole case).
struct Stream {
  const uint8_t* d;
  size_t n, at = 0;
  uint8_t byte() { return at < n ? d[at++] : 0; }
  uint64_t word() {
    uint64_t w = 0;
    for (int k = 0; k < 8; ++k) w |= uint64_t(byte()) << (8 * k);
    return w;
  }
};

// Every host implementation of `family` in the plugin, as adapt(PluginImpl, -1) makes it, named
// "<family>/<name>". Exits 2 with one line when BX_FUZZ_PLUGIN is unset, does not load or has none.
template <class Adapted, class Adapt>
std::vector<std::pair<std::string, Adapted>> load_host_impls(const char* target, uint32_t family, Adapt adapt) {
  const char* path = std::getenv("BX_FUZZ_PLUGIN");
  if (!path || !*path) {
    std::fprintf(stderr, "%s: error: set BX_FUZZ_PLUGIN to the plugin (.so) to fuzz\n", target);
    std::exit(2);
  }
  setenv("BX_PLUGIN_IN_PROCESS", "1", 1);  // a crash of the plugin is the fuzzer's finding, not a forked child's
  std::vector<std::pair<std::string, Adapted>> out;
  try {
    suite::load_plugin(path);
    const std::string fam = suite::family_name(family);
    for (const suite::PluginPlace& pl : suite::plugin_places(fam, true, {}, [](const suite::PluginImpl&) {}))
      out.emplace_back(fam + "/" + pl.impl.name, adapt(pl.impl));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: error: %s\n", target, e.what());
    std::exit(2);
  }
  if (out.empty()) {
    std::fprintf(stderr, "%s: error: %s has no host %s implementation\n", target, path, suite::family_name(family).c_str());
    std::exit(2);
  }
  for (auto& [name, a] : out) std::fprintf(stderr, "%s: fuzzing %s\n", target, name.c_str());
  return out;
}

// One difference: the implementation, the operation, its inputs and both answers; then abort (libFuzzer
// saves the input as crash-<sha1>; running the target on that file replays it).
[[noreturn]] inline void difference(const std::string& impl, const std::string& what, const std::string& inputs, const std::string& got,
                                    const std::string& want) {
  std::fprintf(stderr, "\nDIFFERENCE: %s %s\n%s  got  %s\n  want %s\n(replay: BX_FUZZ_PLUGIN=%s <this target> <the saved crash file>)\n",
               impl.c_str(), what.c_str(), inputs.c_str(), got.c_str(), want.c_str(), std::getenv("BX_FUZZ_PLUGIN"));
  std::abort();
}

// Calls fn; an exception (the plugin returned an error, broke its contract) is a difference.
template <class Fn>
void call_or_report(const std::string& impl, const std::string& what, const std::string& inputs, Fn fn) {
  try {
    fn();
  } catch (const std::exception& e) {
    difference(impl, what, inputs, std::string("an error: ") + e.what(), "an answer");
  }
}

// One operation a fuzzer checks: whether an implementation provides it, and its run on one input.
template <class Impl>
struct Check {
  std::function<bool(const Impl&)> provided;
  std::function<void(const std::string& name, const Impl& im, Stream& s)> run;
};

// A family's fuzzer: the plugin's implementations and the checks. One input: its first byte picks the check
// among those the implementation provides, a second byte (only when there are several) the implementation.
template <class Impl>
struct Fuzzer {
  std::vector<std::pair<std::string, Impl>> impls;
  std::vector<Check<Impl>> checks;
  int one(const uint8_t* data, size_t size) const {
    if (size < 1) return 0;
    Stream s{data, size};
    const uint8_t pick = s.byte();
    const auto& [name, im] = impls[impls.size() > 1 ? s.byte() % impls.size() : 0];  // up to 64 per plugin
    std::vector<const Check<Impl>*> provided;
    for (const Check<Impl>& c : checks)
      if (c.provided(im)) provided.push_back(&c);
    if (!provided.empty()) provided[pick % provided.size()]->run(name, im, s);
    return 0;
  }
};

}  // namespace bx::plugin_fuzz
