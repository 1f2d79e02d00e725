// Host-side interface to the md5z search kernels (plain C++: callable from g++-compiled code).
// Every function selects the device, checks every CUDA call and throws bx::CudaError or
// std::invalid_argument; nothing is silently truncated.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>
#include "gpu/md5z/tunnel.hpp"

#include "gpu/kernels/device.hpp"

namespace bx::kern {

struct Md5zSearchStats {
  double kernel_seconds = 0;  // sum of the launches' event times (reruns included)
  uint64_t candidates = 0;    // indices searched
  unsigned launches = 0;
  unsigned reruns = 0;        // slices re-run because the hit buffer was too small
};

// Every index in [lo, hi) (hi <= 2^32) whose zero count is >= threshold, searched by variant `v` on
// device `dev`: packed hits (md5::pack_hit), sorted by index, each reported by the kernel exactly once.
// The hit buffer starts at `initial_capacity` entries (0: sized from the expected count); a launch whose
// hits overflow it is re-run with a buffer large enough for all of them.
// Launches cover at most max_slice indices each (<= 2^31; smaller only to test slice ends).
std::vector<uint64_t> md5z_search(int dev, md5::Variant v, const md5::TunnelBase& tb, uint64_t lo, uint64_t hi,
                                  int threshold, Md5zSearchStats* stats = nullptr, size_t initial_capacity = 0,
                                  uint64_t max_slice = uint64_t(1) << 31);

// The digest words (h0..h3) of each candidate index along variant v's own code path on device dev, with
// steps 61..63 always run: the oracle's per-implementation answer.
std::vector<std::array<uint32_t, 4>> md5z_digests(int dev, md5::Variant v, const md5::TunnelBase& tb,
                                                  const std::vector<uint32_t>& indices);

struct KernelInfo {
  int registers;
  size_t local_bytes;  // per-thread local memory (spills, local arrays)
};
KernelInfo md5z_kernel_info(md5::Variant v);


}  // namespace bx::kern
