// What the two qpow miner plugins (host: qpow_miner_plugin.cpp, CUDA: qpow_miner_cuda.cu) share: the seal's
// byte order and the one-implementation table with the miner's stated precondition.
#pragma once
#include <bitexact/plugin.h>

#include <cstdint>

#include "gpu/qpow/search.hpp"

namespace qpow_miner {

// The 64-byte big-endian seal as bitexact's U512 (16 little-endian 32-bit limbs).
inline bx::qpow::U512 nonce_from_be(const uint8_t b[64]) {
  bx::qpow::U512 n;
  for (int i = 0; i < 16; ++i)
    n.limb[i] = uint32_t(b[63 - 4 * i]) | uint32_t(b[62 - 4 * i]) << 8 | uint32_t(b[61 - 4 * i]) << 16 | uint32_t(b[60 - 4 * i]) << 24;
  return n;
}
// 64 big-endian bytes as 8 words, most significant first (a target).
inline void words_from_be(const uint8_t b[64], uint64_t w[8]) {
  for (int j = 0; j < 8; ++j) {
    w[j] = 0;
    for (int k = 0; k < 8; ++k) w[j] = w[j] << 8 | b[8 * j + k];
  }
}

// The plugin table of one implementation (static storage: valid for the life of the library). The
// precondition is stated in words whenever ops.search_preconditions declares it.
inline const bx_plugin* one_implementation(const char* library, const char* name, uint32_t place, const bx_qpow_ops& ops) {
  static const char* const stated[] = {"a search request never crosses a multiple of 2^64 (the prestate holds nonce bits 64..511)",
                                       nullptr};
  static const bx_impl impl = {sizeof(bx_impl), name, BX_FAMILY_QPOW, place, BX_CONTRACT_BIT_EXACT, nullptr,
                               (ops.search_preconditions & BX_QPOW_SEARCH_WITHIN_2_64) ? stated : nullptr, nullptr, &ops};
  static const bx_plugin plugin = {BX_PLUGIN_ABI_VERSION, library, 1, &impl};
  return &plugin;
}

}  // namespace qpow_miner
