// The result document of a verify run, as data: what was run, the declared range and the part of it this
// run covered, integer counts per implementation, every disagreement. Every verify (each family, each bulk
// mode, built-in and plugin implementations alike) fills one; cli/run_result.hpp writes, reads and merges it.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "suite/shard.hpp"

namespace bx {

using json = nlohmann::ordered_json;

struct RunResult {
  std::string family, mode;  // mode: the kind of run ("search", "all-betas", "draws", "rows", ...)
  json params = json::object();  // every option that changes what is checked, the range excluded
  json seeds = json::object();
  std::vector<std::string> implementations;  // "variant@cpu" / "variant@gpu": the place kind, not the index
  std::string unit;      // what the range counts: "nonce", "index", "draw", "row", ...
  std::string range_lo;  // the declared range's first unit, as the family writes it (decimal or hex)
  uint64_t range_size = 0;
  RangePart covered;     // offsets into the declared range
  std::string shard, shard_source;
  json counts = json::object();  // implementation -> {counter: unsigned}: summed by the merge
  json seconds = json::object();  // implementation -> kernel/run seconds: summed, never compared
  json disagreements = json::array();  // objects naming the implementation, the unit and both answers
  bool pass = false;
  json details = json::object();  // facts of this run that do not add up (probe windows, rates, devices)
  // Filled by result_json from the build; kept when read back.
  std::string version, build;

  // Accumulate across batches, GPUs or headers (a counter or time not yet present starts at 0).
  void add_count(const std::string& who, const std::string& counter, uint64_t v);
  void add_counts(const std::string& who, std::initializer_list<std::pair<const char*, uint64_t>> counters);
  void add_seconds(const std::string& who, double s);
  // An order-independent fingerprint of a set of items (each hit, each judged output): the counter
  // grows by a 64-bit mix of the item's fields, mod 2^64. Shards' fingerprints add up to the unsharded
  // run's exactly when they found the same items (short of a 64-bit collision); a bare count of hits
  // can agree by chance, so every family folds the items it counts.
  void add_fold(const std::string& who, const std::string& counter, std::initializer_list<uint64_t> item);
};

// "index range 0 + [16384, 32768)": a part of r's declared range, for messages.
std::string range_text(const RunResult& r, RangePart p);

// The 64-bit mix add_fold adds for one item (for loops that sum many items before one add_count).
uint64_t fold_item(std::initializer_list<uint64_t> item);

// An implementation's name in a result: "variant@gpu3" -> "variant@gpu" (parts run on different GPUs
// merge), "variant@cpu" unchanged.
std::string result_label(const std::string& label);

}  // namespace bx
