// libFuzzer target over the user's code: fuzzes every host field25519 implementation of the plugin named by
// BX_FUZZ_PLUGIN differentially against the reference, in the plugin's own representation. Inputs are
// structure-aware: each operand is a limb vector of the plugin's declared form, every limb chosen at, next
// to or inside the bound the operation declares it accepts (and its negative where limbs are signed), so
// the corners where carries break are most of what is tried. Outputs are judged as bitexact judges them:
// within the op's declared output bound, the reference's field element, sqrt_ratio's flag; encode and
// decode against the reference's canonical bytes; the canonical-bytes operations on byte inputs.
// A difference prints the implementation, the operation, the input limbs and both answers, then aborts:
// libFuzzer saves the input (crash-<sha1>), and running the target on that file replays it.
//
//   BX_FUZZ_PLUGIN=build-fuzz/examples/plugins/field25519_fe64.so build-fuzz/fuzz/plugin_field25519_fuzz -max_total_time=60
//
// Input: byte 0 picks the check (a provided limb op, encode, decode, a bytes op); then per operand and
// limb one mode byte and 8 value bytes (fewer at the end of the input read as zero).
#include <string>
#include <vector>

#include "fuzz/plugin_fuzz.hpp"
#include "reference/field25519/ref25519.hpp"
#include "suite/field25519/plugin_ops.hpp"
#include "suite/field25519/reference_op.hpp"
#include "suite/plugin.hpp"

namespace {

using namespace bx;
using namespace bx::suite;
using namespace bx::suite::field25519;
namespace R = bx::ref::f25519;

plugin_fuzz::Fuzzer<PluginField> g;

using plugin_fuzz::Stream;

// One limb within [-max, max] (signed) or [0, max]: the bound itself, one below, 0, 1, half of it, or any
// value inside; negated on signed forms when the mode byte says so.
Int limb(Stream& s, uint64_t max, bool is_signed) {
  const uint8_t mode = s.byte();
  const uint64_t w = s.word();
  uint64_t v;
  switch (mode & 7) {
    case 0: case 1: v = max; break;
    case 2: v = max ? max - 1 : 0; break;
    case 3: v = 0; break;
    case 4: v = max ? 1 : 0; break;
    case 5: v = max / 2 + ((w & 1) && max > 1); break;  // never past max (a bound may be 0 or 1)
    default: v = max == UINT64_MAX ? w : w % (max + 1); break;
  }
  Int r = Int(v);
  if (is_signed && (mode & 8)) r = -r;
  return r;
}

Limbs operand(Stream& s, const LimbForm& f, Bound b) {
  Limbs x;
  for (int j = 0; j < f.limbs; ++j) x.push_back(limb(s, f.max(b)[size_t(j)], f.is_signed));
  return x;
}

std::string hex_of(const Bytes32& b) { return to_hex(b); }

void check_limb_op(const std::string& name, const PluginField& im, Op op, Stream& s) {
  const LimbOps& L = *im.limbs;
  const Int& p = modulus();
  const Limbs a = operand(s, L.form, L.in[int(op)]), b = operand(s, L.form, L.in[int(op)]);
  std::vector<Limbs> out(1, Limbs(L.form.limbs, Int(0)));
  std::vector<uint8_t> flags(1, 0);
  const std::string inputs = "  a " + limbs_hex(a) + "\n  b " + limbs_hex(b) + "\n  (inputs within its declared " +
                             bound_name(L.in[int(op)]) + " bound)\n";
  const std::string what = f25519::op_name(op);
  try {
    L.op(op, {a}, {b}, out, flags);
  } catch (const std::exception& e) {
    plugin_fuzz::difference(name, what, inputs, std::string("an error: ") + e.what(), "an answer");
  }
  const auto [w, wflag] = reference_op(op, element(L.form, a, p), element(L.form, b, p));
  const std::string past = past_bound(L.form, out[0], L.out[int(op)]);
  const Bytes32 got = R::encode(element(L.form, out[0], p)), want = R::encode(w);
  if (!past.empty()) plugin_fuzz::difference(name, what, inputs, limbs_hex(out[0]) + " (" + past + ")", std::string("within its declared ") + bound_name(L.out[int(op)]) + " bound");
  if (got != want) plugin_fuzz::difference(name, what, inputs, limbs_hex(out[0]) + " = " + hex_of(got), hex_of(want));
  if (op == Op::sqrt_ratio && (flags[0] != 0) != wflag)
    plugin_fuzz::difference(name, what, inputs, "was_square " + std::to_string(flags[0] != 0), "was_square " + std::to_string(wflag));
}

void check_encode(const std::string& name, const PluginField& im, Stream& s) {
  const LimbOps& L = *im.limbs;
  const Limbs a = operand(s, L.form, Bound::loose);
  std::vector<Bytes32> got(1);
  const std::string inputs = "  a " + limbs_hex(a) + " (loose)\n";
  try {
    L.encode({a}, got);
  } catch (const std::exception& e) {
    plugin_fuzz::difference(name, "encode", inputs, std::string("an error: ") + e.what(), "an answer");
  }
  const Bytes32 want = R::encode(element(L.form, a, modulus()));
  if (got[0] != want) plugin_fuzz::difference(name, "encode", inputs, hex_of(got[0]), hex_of(want));
}

void check_decode(const std::string& name, const PluginField& im, Stream& s) {
  const LimbOps& L = *im.limbs;
  Bytes32 in;
  for (auto& c : in) c = s.byte();
  std::vector<Limbs> out(1, Limbs(L.form.limbs, Int(0)));
  const std::string inputs = "  bytes " + hex_of(in) + "\n";
  try {
    L.decode({in}, out);
  } catch (const std::exception& e) {
    plugin_fuzz::difference(name, "decode", inputs, std::string("an error: ") + e.what(), "an answer");
  }
  const std::string past = past_bound(L.form, out[0], Bound::tight);
  const Bytes32 want = R::encode(R::decode_lax(in)), got = R::encode(element(L.form, out[0], modulus()));
  if (!past.empty()) plugin_fuzz::difference(name, "decode", inputs, limbs_hex(out[0]) + " (" + past + ")", "within the tight bound");
  if (got != want) plugin_fuzz::difference(name, "decode", inputs, limbs_hex(out[0]) + " = " + hex_of(got), hex_of(want));
}

void check_bytes_op(const std::string& name, const PluginField& im, Op op, Stream& s) {
  Bytes32 a, b, got;
  for (auto& c : a) c = s.byte();
  for (auto& c : b) c = s.byte();
  a[31] &= 0x7f, b[31] &= 0x7f;
  if (im.canonical_inputs_only) a = R::encode(R::decode_lax(a)), b = R::encode(R::decode_lax(b));
  uint8_t flag = 0;
  const std::string inputs = "  a " + hex_of(a) + "\n  b " + hex_of(b) + "\n";
  const std::string what = std::string(f25519::op_name(op)) + " (canonical bytes)";
  try {
    im.eval(op, &a, &b, 1, &got, &flag);
  } catch (const std::exception& e) {
    plugin_fuzz::difference(name, what, inputs, std::string("an error: ") + e.what(), "an answer");
  }
  const auto [w, wflag] = reference_op(op, R::raw_value(a), R::raw_value(b));
  if (got != R::encode(w)) plugin_fuzz::difference(name, what, inputs, hex_of(got), hex_of(R::encode(w)));
  if (op == Op::sqrt_ratio && (flag != 0) != wflag) plugin_fuzz::difference(name, what, inputs, "was_square " + std::to_string(flag != 0), "was_square " + std::to_string(wflag));
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  g.impls = plugin_fuzz::load_host_impls<PluginField>("plugin_field25519", BX_FAMILY_FIELD25519, [](const PluginImpl& p) { return adapt(p, -1); });
  using C = plugin_fuzz::Check<PluginField>;
  for (int o = 0; o < kLimbOps; ++o)  // the limb ops it provides, then encode and decode, then the canonical-bytes ops
    g.checks.push_back(C{[o](const PluginField& im) { return im.limbs && im.limbs->has(Op(o)); },
                         [o](auto& n, auto& im, Stream& s) { check_limb_op(n, im, Op(o), s); }});
  g.checks.push_back(C{[](const PluginField& im) { return im.limbs && bool(im.limbs->encode); }, check_encode});
  g.checks.push_back(C{[](const PluginField& im) { return im.limbs && bool(im.limbs->decode); }, check_decode});
  for (int o = 0; o < int(Op::count_); ++o)
    g.checks.push_back(C{[o](const PluginField& im) { return bool(im.bytes_provided >> o & 1); },
                         [o](auto& n, auto& im, Stream& s) { check_bytes_op(n, im, Op(o), s); }});
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) { return g.one(data, size); }
