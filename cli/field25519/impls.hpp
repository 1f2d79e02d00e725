// Every field25519 implementation on every place it can run: the built-in layouts x backends and every
// loaded plugin's implementations. selftest, verify, bench, the oracle and `list` iterate over it, so a
// layout added to f25519::AllLayouts (gpu/field25519/layouts.hpp) or a plugin given with --plugin is
// picked up everywhere without further edits, and both get the same checks.
#pragma once
#include <array>
#include <functional>
#include <string>
#include <vector>

#include "cli/devices.hpp"
#include "cli/family.hpp"
#include "suite/hex.hpp"
#include "suite/implementation.hpp"
#include "gpu/field25519/layouts.hpp"
#include "suite/field25519/limb_check.hpp"

namespace bx::field25519 {

// One field25519 implementation (suite::Implementation: "field25519/fe51-portable" or
// "field25519/<plugin implementation>", its place and origin) and its operations.
struct FieldImpl : suite::Implementation {
  std::string code_name;  // a built-in layout's kernel name, "fe51/portable"; a plugin's implementation name
  // One op per item on 32-byte operands (bits 0..254 read): canonical bytes; flags = sqrt_ratio's was_square.
  // Only the ops in bytes_provided may be called; canonical_inputs_only: inputs must be below p.
  std::function<void(f25519::Op, const Bytes32* a, const Bytes32* b, size_t n, Bytes32* out, uint8_t* flags)> eval;
  uint32_t bytes_provided = (1u << int(f25519::Op::count_)) - 1;
  bool canonical_inputs_only = false;
  // A device plugin's bytes op on device buffers and a stream (verify's bulk cross-check); empty otherwise.
  std::function<void(f25519::Op, const uint8_t* a, const uint8_t* b, size_t n, uint8_t* out, uint8_t* flags, void* stream)> device_bytes;
  // A plugin's bench chains (suite/field25519/plugin_ops.hpp): fills out, returns the call's seconds; empty
  // for built-in layouts (bench runs theirs directly) and plugins that do not provide them.
  std::function<double(f25519::Op, const std::vector<Bytes32>& a, const std::vector<Bytes32>& b, uint32_t iters, std::vector<Bytes32>& out)> chain;
  // Empty where not provided (then every check needing it says so).
  std::function<void(const Bytes32* k, const Bytes32* u, size_t n, Bytes32* out)> x25519;
  // The limb level on this place (suite/field25519/limb_check.hpp); empty: no limb form declared.
  std::function<suite::field25519::LimbOps()> limbs;
  // The start-up derivation (f25519::fe_derive_constants) on this place: kDerivedConstants canonical values.
  std::function<std::array<Bytes32, f25519::kDerivedConstants>()> derive;
  bool provides(f25519::Op op) const { return bytes_provided >> int(op) & 1; }
};

// A built-in layout's kernel name as every table prints it: "fe51/portable" -> "field25519/fe51-portable".
std::string builtin_variant_name(const std::string& code_name);

std::vector<VariantInfo> field_variants();
std::vector<FieldImpl> field_impls(const DeviceSelection& sel);
// Every built-in layout's declared bounds as the engine's run-time form ("fe51", form).
std::vector<std::pair<std::string, suite::LimbForm>> builtin_limb_forms();

}  // namespace bx::field25519
