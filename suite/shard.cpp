#include "suite/shard.hpp"

#include <cstdlib>
#include <optional>

namespace bx {
namespace {

// A decimal uint64 with no sign, spaces or suffix; nullopt otherwise.
std::optional<uint64_t> decimal(const std::string& s) {
  if (s.empty() || s.size() > 20 || s.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  unsigned __int128 v = 0;
  for (char c : s) v = v * 10 + unsigned(c - '0');
  if (v > ~uint64_t(0)) return std::nullopt;
  return uint64_t(v);
}

uint64_t env_number(const EnvLookup& env, const char* name) {
  const char* v = env(name);
  const auto n = decimal(v ? v : "");
  if (!n) {
    const std::string t = v ? v : "";
    const bool digits = !t.empty() && t.find_first_not_of("0123456789") == std::string::npos;
    throw InputError(std::string(name) + "='" + t + (digits ? "': out of range (at most 2^64-1)" : "': expected a decimal number"));
  }
  return *n;
}

ShardLevel checked(uint64_t index, uint64_t count, const std::string& what) {
  if (count == 0) throw InputError(what + ": a shard count of 0");
  if (index >= count)
    throw InputError(what + ": shard index " + std::to_string(index) + " is not below the count " + std::to_string(count) +
                     " (indices are 0-based)");
  return {index, count};
}

}  // namespace

RangePart split_part(uint64_t total, ShardLevel level, const std::string& what) {
  if (level.count > total)
    throw InputError(what + ": " + std::to_string(level.count) + " shards of a range of " + std::to_string(total) +
                     " unit(s): at most one shard per unit");
  using U = unsigned __int128;
  const uint64_t a = uint64_t(U(total) * level.index / level.count);
  const uint64_t b = uint64_t(U(total) * (level.index + 1) / level.count);
  return {a, b - a};
}

RangePart ShardPlan::part(uint64_t total) const {
  RangePart p{0, total};
  for (const ShardLevel& l : levels) {
    const RangePart q = split_part(p.size, l, "--shard " + spec());
    p = {p.offset + q.offset, q.size};
  }
  return p;
}

std::string ShardPlan::spec() const {
  std::string s;
  for (const ShardLevel& l : levels) s += (s.empty() ? "" : ",") + std::to_string(l.index) + "/" + std::to_string(l.count);
  return s;
}

ShardPlan ShardPlan::then(ShardLevel level) const {
  ShardPlan p = *this;
  p.levels.push_back(level);
  return p;
}

ShardPlan parse_shard(const std::string& spec) {
  ShardPlan plan;
  size_t pos = 0;
  while (pos <= spec.size()) {
    const size_t comma = spec.find(',', pos);
    const std::string one = spec.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    const size_t slash = one.find('/');
    const auto i = decimal(slash == std::string::npos ? "" : one.substr(0, slash));
    const auto n = decimal(slash == std::string::npos ? "" : one.substr(slash + 1));
    if (!i || !n) throw InputError("--shard '" + spec + "': expected i/n (0 <= i < n), or levels i/n,j/m");
    plan.levels.push_back(checked(*i, *n, "--shard " + spec));
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  plan.source = "--shard " + spec;
  return plan;
}

ShardPlan resolve_shard(const std::string& flag, uint64_t shard_count_flag, const EnvLookup& env) {
  if (!flag.empty()) return parse_shard(flag);
  auto set = [&](const char* name) { return env(name) != nullptr; };
  auto plan_of = [](uint64_t index, uint64_t count, const std::string& source) {
    ShardPlan p;
    p.levels.push_back(checked(index, count, source));
    p.source = source;
    return p;
  };
  if (set("SLURM_ARRAY_TASK_ID")) {
    const uint64_t id = env_number(env, "SLURM_ARRAY_TASK_ID");
    const std::string src = "SLURM_ARRAY_TASK_ID=" + std::to_string(id);
    if (set("SLURM_ARRAY_TASK_MIN") && set("SLURM_ARRAY_TASK_MAX")) {
      // MIN/MAX (and STEP) give the index exactly for --array=A-B[:S]; a task id off the grid is refused.
      const uint64_t lo = env_number(env, "SLURM_ARRAY_TASK_MIN"), hi = env_number(env, "SLURM_ARRAY_TASK_MAX");
      const uint64_t step = set("SLURM_ARRAY_TASK_STEP") ? env_number(env, "SLURM_ARRAY_TASK_STEP") : 1;
      if (step == 0 || hi < lo || id < lo || id > hi || (id - lo) % step || (hi - lo) / step == ~uint64_t(0))
        throw InputError(src + ": not on the array's grid SLURM_ARRAY_TASK_MIN=" + std::to_string(lo) + ", _MAX=" +
                         std::to_string(hi) + ", _STEP=" + std::to_string(step));
      return plan_of((id - lo) / step, (hi - lo) / step + 1,
                     src + ", SLURM_ARRAY_TASK_MIN=" + std::to_string(lo) + ", SLURM_ARRAY_TASK_MAX=" + std::to_string(hi) +
                         (step > 1 ? ", SLURM_ARRAY_TASK_STEP=" + std::to_string(step) : ""));
    }
    if (set("SLURM_ARRAY_TASK_COUNT")) {
      const uint64_t n = env_number(env, "SLURM_ARRAY_TASK_COUNT");
      return plan_of(id, n, src + ", SLURM_ARRAY_TASK_COUNT=" + std::to_string(n));
    }
    throw InputError(src + " without SLURM_ARRAY_TASK_COUNT or SLURM_ARRAY_TASK_MIN/_MAX: the shard count is unknown");
  }
  if (set("JOB_COMPLETION_INDEX")) {
    const uint64_t id = env_number(env, "JOB_COMPLETION_INDEX");
    const std::string src = "JOB_COMPLETION_INDEX=" + std::to_string(id);
    if (shard_count_flag) return plan_of(id, shard_count_flag, src + ", --shard-count " + std::to_string(shard_count_flag));
    if (set("BITEXACT_SHARD_COUNT")) {
      const uint64_t n = env_number(env, "BITEXACT_SHARD_COUNT");
      return plan_of(id, n, src + ", BITEXACT_SHARD_COUNT=" + std::to_string(n));
    }
    throw InputError(src + ": give the Job's completions as --shard-count N or BITEXACT_SHARD_COUNT");
  }
  if (set("GTEST_SHARD_INDEX") || set("GTEST_TOTAL_SHARDS")) {
    const uint64_t id = env_number(env, "GTEST_SHARD_INDEX"), n = env_number(env, "GTEST_TOTAL_SHARDS");
    return plan_of(id, n, "GTEST_SHARD_INDEX=" + std::to_string(id) + ", GTEST_TOTAL_SHARDS=" + std::to_string(n));
  }
  if (shard_count_flag) throw InputError("--shard-count without JOB_COMPLETION_INDEX in the environment");
  return {};
}

ShardPlan resolve_shard(const std::string& flag, uint64_t shard_count_flag) {
  return resolve_shard(flag, shard_count_flag, [](const char* n) { return static_cast<const char*>(std::getenv(n)); });
}

}  // namespace bx
