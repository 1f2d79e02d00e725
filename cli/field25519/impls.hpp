// Every field25519 implementation (layout x backend) on every place it can run: selftest, verify,
// bench, the oracle and `list` iterate over it, so a layout added to f25519::AllLayouts
// (gpu/field25519/layouts.hpp) is picked up everywhere without further edits.
#pragma once
#include <array>
#include <functional>
#include <string>
#include <vector>

#include "cli/devices.hpp"
#include "cli/family.hpp"
#include "cli/hex.hpp"
#include "gpu/field25519/layouts.hpp"

namespace bx::field25519 {

struct FieldImpl {
  std::string name;   // "fe51/portable"
  std::string where;  // "cpu" or "gpu0", "gpu1", ...
  int device = -1;    // -1 on the CPU
  // One op per item on 32-byte operands (bits 0..254 read): canonical bytes; flags = sqrt_ratio's was_square.
  std::function<void(f25519::Op, const Bytes32* a, const Bytes32* b, size_t n, Bytes32* out, uint8_t* flags)> eval;
  std::function<void(const Bytes32* k, const Bytes32* u, size_t n, Bytes32* out)> x25519;
  // The limb-level corner cases (limb_cases.hpp) on this place; failures go to `report`.
  std::function<Tally(const std::function<void(const std::string&)>& report)> limb_check;
  // The start-up derivation (f25519::fe_derive_constants) on this place: kDerivedConstants canonical values.
  std::function<std::array<Bytes32, f25519::kDerivedConstants>()> derive;
  std::string label() const { return name + "@" + where; }
  std::string variant() const;  // "field25519/fe51-portable"
};

std::vector<VariantInfo> field_variants();
std::vector<FieldImpl> field_impls(const DeviceSelection& sel);

}  // namespace bx::field25519
