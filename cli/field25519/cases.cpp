// field25519's offline cases: the op cases of vectors/field25519/ops.json (the embedded copy the selftest
// reads, with their flags) and, for the full tier, seeded random operand pairs of verify's operand stream, each as an
// oracle request. Precondition: "canonical" when every operand is below p, else "below 2^255" (an
// implementation declaring canonical inputs only answers the first kind).
#include "suite/embedded.hpp"
#include "cli/field25519/family_parts.hpp"
#include "suite/field25519/vectors.hpp"
#include "gpu/field25519/draw.hpp"
#include "reference/field25519/ref25519.hpp"

namespace bx::field25519 {

namespace {

bool binary(f25519::Op op) { return op == f25519::Op::add || op == f25519::Op::sub || op == f25519::Op::mul || op == f25519::Op::sqrt_ratio; }

suite::cases::CaseSpec spec(f25519::Op op, const Bytes32& a, const Bytes32& b, std::vector<std::string> flags) {
  namespace R = ref::f25519;
  json req = {{"op", std::string("fe25519.") + f25519::op_name(op)}, {"a", to_hex(a)}};
  bool canonical = R::raw_value(a) < R::p();
  if (binary(op)) req["b"] = to_hex(b), canonical = canonical && R::raw_value(b) < R::p();
  canonical = canonical && a[31] < 0x80 && (!binary(op) || b[31] < 0x80);
  return {std::move(req), std::move(flags), canonical ? "canonical" : "below 2^255"};
}

}  // namespace

std::vector<suite::cases::CaseSpec> cases(const std::string& tier, uint64_t seed, json* notes) {
  const std::string rel = "vectors/field25519/ops.json";
  const std::string& text = embedded_file(rel);  // the selftest's vectors (vectors check keeps them equal to generation)
  if (notes) *notes = json::parse(text).at("notes");
  std::vector<suite::cases::CaseSpec> out;
  for (const vectors::FieldTest& t : vectors::parse_field(rel, text)) out.push_back(spec(t.op, t.a, t.b, t.flags));
  if (tier == "full")
    for (int o = 0; o < int(f25519::Op::count_); ++o)
      for (uint64_t i = 0; i < 256; ++i) {
        Bytes32 a, b;
        f25519::draw_operand(a.data(), seed, uint64_t(o) << 32 | i, 0);
        f25519::draw_operand(b.data(), seed, uint64_t(o) << 32 | i, 1);
        out.push_back(spec(f25519::Op(o), a, b, {"Random"}));
      }
  return out;
}

}  // namespace bx::field25519
