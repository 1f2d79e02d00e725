// A q8parity plugin implementation (struct bx_q8parity_ops) seen through the engine's types. Every call runs
// on a call site (suite/call_site.hpp) on guarded buffers: a crash, a hang, an error return or a stray
// write fails the call, naming the plugin and the operation.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "suite/plugin.hpp"

namespace bx::suite::q8parity {

struct PluginQ8 {
  bool characterised = false;  // judged by NMSE against float64 (BX_CONTRACT_CHARACTERISED), else bitwise
  double nmse_bound = 0;
  // Empty where not provided. matvec: w rows x k/32 blocks, x ntok x k -> ntok x rows; adds the seconds of
  // the call alone (no copies; bench's figure) to *seconds when not null.
  std::function<std::vector<float>(const std::vector<uint8_t>& w, const std::vector<float>& x, uint64_t rows, uint64_t k, uint32_t ntok,
                                   double* seconds)>
      matvec;
  // x nrows x n; w w_period x n, or empty (no weight) -> nrows x n.
  std::function<std::vector<float>(const std::vector<float>& x, const std::vector<float>& w, uint64_t n, uint64_t nrows,
                                   uint64_t w_period, float eps)>
      rmsnorm;
};

// Validates the table (one InputError line naming the plugin and what is wrong) and binds its operations
// to run on `device` (-1: a host implementation; a GPU index for a device one, CUDA builds only).
PluginQ8 adapt(const PluginImpl& p, int device = -1);

}  // namespace bx::suite::q8parity
