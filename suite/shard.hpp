// Shards: a deterministic split of a run's range into contiguous parts, so that a CI matrix, a Slurm
// job array or a Kubernetes Indexed Job can spread one verify over many workers (and `--device all`
// over the GPUs of one host). Part i of n of a range of T units is [floor(T i / n), floor(T (i+1) / n)):
// the n parts are contiguous, disjoint and their union is the range, for every n <= T.
// A plan may nest levels ("1/4,0/2": part 0 of 2 of part 1 of 4); each level splits the part before it.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "suite/hex.hpp"  // InputError

namespace bx {

struct ShardLevel {
  uint64_t index = 0, count = 1;  // 0 <= index < count
};

// [offset, offset + size) of a declared range, in the range's own units.
struct RangePart {
  uint64_t offset = 0, size = 0;
  bool operator==(const RangePart&) const = default;
};

// Part `index` of `count` of [0, total); count <= total (else InputError naming `what`).
RangePart split_part(uint64_t total, ShardLevel level, const std::string& what = "--shard");

struct ShardPlan {
  std::vector<ShardLevel> levels;  // empty: the whole range
  std::string source;              // where the plan came from: "--shard 1/4", "SLURM_ARRAY_TASK_ID=1, ...", ""
  bool active() const { return !levels.empty(); }
  // The part of [0, total) this plan covers (every level applied in order).
  RangePart part(uint64_t total) const;
  // "1/4" or "1/4,0/2"; "" when inactive. Parses back with parse_shard().
  std::string spec() const;
  // The plan with one more level (the GPU's share of this plan's part).
  ShardPlan then(ShardLevel level) const;
};

// "i/n" or "i/n,j/m,...", each 0 <= i < n (InputError otherwise).
ShardPlan parse_shard(const std::string& spec);

// The plan of a run: --shard SPEC when given, else the first of these engines' variables that is set:
//   Slurm job arrays:         SLURM_ARRAY_TASK_ID with SLURM_ARRAY_TASK_COUNT, or with SLURM_ARRAY_TASK_MIN
//                             and _MAX (and _STEP): index (ID - MIN) / STEP of (MAX - MIN) / STEP + 1;
//   Kubernetes Indexed Jobs:  JOB_COMPLETION_INDEX with --shard-count N or BITEXACT_SHARD_COUNT;
//   GoogleTest sharding:      GTEST_SHARD_INDEX with GTEST_TOTAL_SHARDS;
// else no plan. A variable that is set but malformed (or an index outside its count) is an InputError:
// a worker that silently ran the whole range would double-count it.
using EnvLookup = std::function<const char*(const char* name)>;
ShardPlan resolve_shard(const std::string& flag, uint64_t shard_count_flag, const EnvLookup& env);
ShardPlan resolve_shard(const std::string& flag, uint64_t shard_count_flag);  // the process environment

}  // namespace bx
