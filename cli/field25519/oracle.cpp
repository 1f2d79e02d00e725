// Oracle requests of field25519 (each implementation answers with its own canonical bytes):
//   {"op":"fe25519.OP","a":HEX,"b":HEX}   OP: add sub mul sqr neg invert pow22523 sqrt_ratio mul_small canonical
//   {"op":"x25519","scalar":HEX,"u":HEX}  (the reply also carries OpenSSL's and libsodium's answers)
// Implementations are keyed "field25519/fe32-ptx@gpu0".
#include "cli/field25519/family_parts.hpp"
#include "cli/oracle_reply.hpp"
#include <nlohmann/json.hpp>

#include "suite/field25519/reference_op.hpp"
#include "reference/field25519/ref25519.hpp"
#include "reference/field25519/x25519_oracles.hpp"

namespace bx::field25519 {
using f25519::Op;

namespace {

std::string impl_key(const FieldImpl& fi) { return fi.name + "@" + fi.where; }

// Operand: 64 hex digits, little-endian, below 2^255 (p..2^255-1 allowed as non-canonical).
Bytes32 operand(const json& req, const char* key) {
  if (!req.contains(key)) throw InputError(std::string("missing field '") + key + "'");
  if (!req[key].is_string()) throw InputError(std::string("field '") + key + "' must be a hex string");
  Bytes32 b = bytes32_from_hex(req[key].get<std::string>(), std::string("field '") + key + "'");
  return b;
}
Bytes32 field_operand(const json& req, const char* key) {
  Bytes32 b = operand(req, key);
  if (b[31] & 0x80) throw InputError(std::string("field '") + key + "': bit 255 is set (operands are below 2^255)");
  return b;
}

json field_reply(const json& req, const std::string& opname, const std::vector<FieldImpl>& impls) {
  static const std::pair<const char*, Op> ops[] = {
      {"add", Op::add}, {"sub", Op::sub}, {"mul", Op::mul}, {"sqr", Op::sqr}, {"neg", Op::neg},
      {"invert", Op::invert}, {"pow22523", Op::pow22523}, {"sqrt_ratio", Op::sqrt_ratio},
      {"mul_small", Op::mul_small}, {"canonical", Op::canonical}};
  const Op* op = nullptr;
  for (auto& [n, o] : ops)
    if (opname == n) op = &o;
  if (!op) throw InputError("unknown op 'fe25519." + opname + "'");
  const bool binary = *op == Op::add || *op == Op::sub || *op == Op::mul || *op == Op::sqrt_ratio;
  for (auto it = req.begin(); it != req.end(); ++it)
    if (it.key() != "op" && it.key() != "a" && it.key() != "b") throw InputError("unknown field '" + it.key() + "'");
  const Bytes32 a = field_operand(req, "a");
  const Bytes32 b = binary || req.contains("b") ? field_operand(req, "b") : Bytes32{};
  namespace R = ref::f25519;
  const ref::Int x = R::raw_value(a), y = R::raw_value(b);
  OracleReply r;
  auto shape = [&](const Bytes32& v, bool sq) -> json {
    if (*op == Op::sqrt_ratio) return {{"was_square", sq}, {"root", to_hex(v)}};
    return to_hex(v);
  };
  {
    auto [w, sq] = reference_op(*op, x, y);
    r.ref = shape(R::encode(w), sq);
  }
  // Every implementation's full answer; one that does not provide the op, or whose declared precondition
  // excludes the input, says so and is not compared.
  const auto accepts = [&](const FieldImpl& fi) { return !fi.canonical_inputs_only || (R::decode_strict(a) && R::decode_strict(b)); };
  for (auto& fi : impls) {
    if (!fi.provides(*op)) r.not_provided(impl_key(fi));
    else if (!accepts(fi)) r.record(impl_key(fi), "outside precondition");
    else
      r.attempt(impl_key(fi), [&] {
        Bytes32 out;
        uint8_t flag = 0;
        fi.eval(*op, &a, &b, 1, &out, &flag);
        return shape(out, flag != 0);
      });
  }
  return r.to_json();
}

json x25519_reply(const json& req, const std::vector<FieldImpl>& impls) {
  for (auto it = req.begin(); it != req.end(); ++it)
    if (it.key() != "op" && it.key() != "scalar" && it.key() != "u") throw InputError("unknown field '" + it.key() + "'");
  const Bytes32 k = operand(req, "scalar"), u = operand(req, "u");  // RFC 7748 decoding: all 256 bits accepted
  const Bytes32 r = ref::f25519::x25519(k, u);
  OracleReply rep;
  rep.ref = to_hex(r);
  for (auto& fi : impls) {
    if (!fi.x25519) rep.not_provided(impl_key(fi));
    else
      rep.attempt(impl_key(fi), [&] {
        Bytes32 out;
        fi.x25519(&k, &u, 1, &out);
        return json(to_hex(out));
      });
  }
  auto opt = [](const std::optional<Bytes32>& v) -> json { return v ? json(to_hex(*v)) : json(nullptr); };
  json reply = rep.to_json();
  reply["oracles"] = {{"openssl", opt(ref::f25519::x25519_openssl(k, u))}, {"libsodium", opt(ref::f25519::x25519_sodium(k, u))}};
  return reply;
}

}  // namespace

OracleHandler oracle(const DeviceSelection& sel) {
  auto impls = std::make_shared<std::vector<FieldImpl>>(field_impls(sel));
  return [impls](const json& req) -> json {
    const std::string op = req["op"].get<std::string>();
    if (op.rfind("fe25519.", 0) == 0) return field_reply(req, op.substr(8), *impls);
    if (op == "x25519") return x25519_reply(req, *impls);
    throw InputError("unknown op '" + op + "'");
  };
}

}  // namespace bx::field25519
