// The variant registry: every field25519 implementation (layout x backend) on every place it can run.
// selftest, verify, bench, oracle and `list` iterate over it, so a new layout added to
// f25519::AllLayouts (gpu/field25519/layouts.hpp) is picked up everywhere without further edits.
#pragma once
#include <functional>
#include <string>
#include <vector>
#include "cli/hex.hpp"
#include "gpu/field25519/layouts.hpp"

namespace bx {

// Which places to run on: the CPU (host builds of the portable backend) and/or GPUs.
struct DeviceSelection {
  bool cpu = true;
  std::vector<int> gpus;
};
int gpu_count();                          // 0 without CUDA support or a device
std::string gpu_name(int dev);
// "cpu", "all" (CPU and every GPU), "gpu" (every GPU only) or a GPU index N; throws InputError.
DeviceSelection parse_devices(const std::string& s);

struct FieldImpl {
  std::string name;   // "fe51/portable"
  std::string where;  // "cpu" or "gpu0", "gpu1", ...
  int device = -1;    // -1 on the CPU
  std::function<void(f25519::Op, const Bytes32* a, const Bytes32* b, size_t n, Bytes32* out, uint8_t* flags)> eval;
  std::function<void(const Bytes32* k, const Bytes32* u, size_t n, Bytes32* out)> x25519;
  std::string label() const { return name + "@" + where; }
  std::string variant() const;  // "field25519/fe51-portable"
};

struct VariantInfo {
  std::string name;     // field25519/fe32-ptx
  std::string layout;   // fe32
  std::string backend;  // ptx
  bool host;            // runs on the CPU (portable backend)
};
std::vector<VariantInfo> field_variants();
std::vector<FieldImpl> field_impls(const DeviceSelection& sel);

}  // namespace bx
