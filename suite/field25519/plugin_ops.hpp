// A field25519 plugin implementation (struct bx_field25519_ops) seen through the engine's types: its
// canonical-bytes operations and its limb level (LimbOps on its declared form). Every call runs on a call
// site (suite/call_site.hpp: a forked child on the host, bitexact's stream on a GPU) on guarded buffers, so
// a crash, a hang, an error return or a stray write fails the batch with the plugin's name and the
// operation, and the run goes on.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "suite/field25519/limb_check.hpp"
#include "suite/plugin.hpp"

namespace bx::suite::field25519 {

struct PluginField {
  std::string label;             // "field25519/<name> from plugin <library>"
  uint32_t bytes_provided = 0;   // ops callable on canonical bytes (directly or composed from the limb level)
  bool bytes_composed = false;   // no bytes_op: decode -> limb op -> encode
  bool canonical_inputs_only = false;  // bytes_input = BX_F25519_IN_CANONICAL
  std::function<void(Op, const Bytes32* a, const Bytes32* b, size_t n, Bytes32* out, uint8_t* flags)> eval;
  std::optional<LimbOps> limbs;
  // A device implementation's bytes op called directly on device buffers and a stream, no guards (the
  // bulk cross-check's hot path); empty for host implementations. Throws on a non-zero return.
  std::function<void(Op, const uint8_t* a, const uint8_t* b, size_t n, uint8_t* out, uint8_t* flags, void* stream)> device_bytes;
  // bench's dependent chains (bench_chain: op mul or sqr, canonical inputs) on a call site: fills out and
  // returns the seconds of the call alone. Empty: not provided.
  std::function<double(Op, const std::vector<Bytes32>& a, const std::vector<Bytes32>& b, uint32_t iters, std::vector<Bytes32>& out)> chain;
};

// Validates the implementation's field25519 table (one InputError line naming the plugin and what is
// wrong) and binds its operations to run on `device` (-1 for a host implementation; a GPU index for a
// device one, which needs a CUDA build: suite/call_site.hpp).
PluginField adapt(const PluginImpl& p, int device = -1);

}  // namespace bx::suite::field25519
