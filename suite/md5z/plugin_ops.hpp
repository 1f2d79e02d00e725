// An md5z plugin implementation (struct bx_md5z_ops) seen through the engine's types. Every call runs on a
// call site (suite/call_site.hpp) on guarded buffers: a crash, a hang, an error return or a stray write
// fails the call, naming the plugin and the operation. The searches keep the capacity contract (the hit
// buffer grows until the plugin's count fits) and report what breaks it.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "suite/plugin.hpp"

namespace bx::suite::md5z {

using Digest = std::array<uint8_t, 16>;
using Base = std::array<uint8_t, 52>;

struct Hit {
  uint32_t index = 0, zeros = 0;
  bool operator==(const Hit&) const = default;
};
struct SearchAnswer {
  std::vector<Hit> hits;  // as the plugin reported them (order kept)
  std::vector<std::string> contract_breaches;  // an index outside the request, a count past the request, ...
};

struct PluginMd5z {
  // Empty where not provided.
  std::function<std::vector<Digest>(const std::vector<std::vector<uint8_t>>& messages)> md5;
  std::function<std::vector<Digest>(const Base& base, const std::vector<uint32_t>& indices)> candidate_digests;
  // [lo, hi) at threshold; capacity: the first hit buffer's size. search_job gets bitexact's job of the base.
  std::function<SearchAnswer(const Base& base, uint64_t lo, uint64_t hi, uint32_t threshold, uint64_t capacity)> search, search_job;
  std::function<bx_md5z_job(const Base& base)> prepare;  // on the host on both places
};

// Validates the table (one InputError line naming the plugin and what is wrong) and binds its operations
// to run on `device` (-1: a host implementation; a GPU index for a device one, CUDA builds only).
PluginMd5z adapt(const PluginImpl& p, int device = -1);

// bitexact's job-level form of a base, from the reference (reference/md5z).
bx_md5z_job reference_job(const Base& base);

}  // namespace bx::suite::md5z
