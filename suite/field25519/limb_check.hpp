// The limb-level checks of one field25519 implementation, on whatever limb form it declares: bitexact's
// own layouts (their bounds converted at registration) and a plugin's bx_limb_form go through the same
// catalogue and the same judge. Inputs are built by bitexact from integers and the declared bounds; outputs
// are read back as exact limbs, checked against the op's declared output bound and judged as field
// elements against the reference (never by the implementation's own encoder).
//   corners   every op on the corners of every declared bound up to its input bound, binary ops over the
//             cross product; values next to 0, p, 2p, 2^255 and 2^256 the form can hold (NearP)
//   carries   add of two tight corners feeding every op (sub(0, a + b) is donna's bug); x + neg(x) = 0
//   programs  seeded random op programs within the declared lazy budget (each value's bound follows the
//             op that made it), judged after every step
//   encode    loose corners and every op output to canonical bytes; decode of the bytes catalogue
//   outside   each op just past its declared input bound: reported apart, never a failure
// Every case carries flags naming the bug class it targets; a failure prints the case, its flags, the
// input limbs, both answers and the reproduce line.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gpu/field25519/layouts.hpp"
#include "suite/hex.hpp"
#include "suite/limb_form.hpp"
#include "suite/tally.hpp"

namespace bx::suite::field25519 {

using f25519::Op;
constexpr int kLimbOps = int(Op::sqrt_ratio) + 1;  // add .. sqrt_ratio: the ops a limb form can provide

// An implementation's limb level, type-erased onto exact limb vectors.
struct LimbOps {
  LimbForm form;
  Bound in[kLimbOps], out[kLimbOps];
  uint32_t provided = 0;  // bit (1 << op)
  // out/flags are sized by the caller; a thrown exception fails the batch with its message.
  std::function<void(Op, const std::vector<Limbs>& a, const std::vector<Limbs>& b, std::vector<Limbs>& out,
                     std::vector<uint8_t>& flags)>
      op;
  std::function<void(const std::vector<Limbs>& a, std::vector<Bytes32>& out)> encode;  // empty: not provided
  std::function<void(const std::vector<Bytes32>& in, std::vector<Limbs>& out)> decode;  // empty: not provided
  bool has(Op o) const { return provided >> int(o) & 1; }
};

struct LimbCheckOptions {
  uint64_t seed = 0x11b5;
  int programs = 48, steps = 32;   // lazy-budget programs: how many in parallel, how long
  std::string label;               // "field25519/fe51-portable@cpu"
  std::string reproduce;           // the one-line command that reruns this check
  std::function<void(const std::string&)> report;  // each failure (the caller caps how many it prints)
};

struct LimbCheckResult {
  Tally corners{"limbs"}, programs{"programs"}, encode{"encode"};
  size_t outside_probes = 0, outside_differ = 0;  // just past the declared input bounds (informational)
  std::vector<std::string> outside_examples;      // the first few that differ, one line each
};

LimbCheckResult run_limb_checks(const LimbOps& ops, const LimbCheckOptions& opt);

// p = 2^255 - 19 as an exact integer.
const Int& modulus();

}  // namespace bx::suite::field25519
