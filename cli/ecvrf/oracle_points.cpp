// The oracle's edwards25519 point ops (requests and answers: the comment of oracle.cpp). The reference
// is the golden model (reference/ecvrf/edwards.hpp); the implementations are gpu/ecvrf's strict decoder,
// addition and scalar strategies on every host layout (carry::portable), encoded by gpu/ecvrf's encoder.
// Inputs are decoded strictly in request order; the first rejection is the answer of that implementation.
#include <algorithm>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <variant>

#include "cli/ecvrf/ecvrf.hpp"
#include "cli/ecvrf/oracle_parts.hpp"
#include "gpu/ecvrf/codec.hpp"
#include "reference/ecvrf/edwards.hpp"
#include "reference/ecvrf/oracles.hpp"
#if defined(BX_HAVE_CUDA)
#include "gpu/kernels/ecvrf_kernels.hpp"
#endif

namespace bx::ecvrf_family {
namespace {

enum class PointOpKind { decode, add, scalarmult };
// A parsed point request: the encodings under their field names, in request order (decode: point;
// add: p, q; scalarmult: point), and the scalar (scalarmult; all 256 bits, used as given).
struct PointOp {
  PointOpKind kind;
  std::vector<std::pair<const char*, Bytes32>> points;
  Bytes32 scalar{};
};

PointOp parse_point_op(const json& req) {
  const std::string name = req["op"].get<std::string>();
  if (name == "ed25519.decode") {
    require_fields(req, {"point"});
    return {PointOpKind::decode, {{"point", hex32_field(req, "point")}}};
  }
  if (name == "ed25519.add") {
    require_fields(req, {"p", "q"});
    return {PointOpKind::add, {{"p", hex32_field(req, "p")}, {"q", hex32_field(req, "q")}}};
  }
  if (name == "ed25519.scalarmult") {
    require_fields(req, {"scalar", "point"});
    return {PointOpKind::scalarmult, {{"point", hex32_field(req, "point")}}, hex32_field(req, "scalar")};
  }
  throw InputError("unknown op '" + name + "' (ed25519.decode, ed25519.add, ed25519.scalarmult)");
}

// Every point answer is one of these two shapes.
json point_answer(const uint8_t enc[32]) { return {{"point", to_hex(enc, 32)}}; }
json rejection_answer(const char* input, const std::string& reason) { return {{"rejected", reason}, {"input", input}}; }

json golden_point_answer(const PointOp& op) {
  namespace R = ref::ecvrf;
  std::vector<R::Point> P;
  for (const auto& [field, enc] : op.points) {
    const R::Decoded d = R::decode(enc);
    if (const auto* e = std::get_if<R::DecodeError>(&d)) return rejection_answer(field, std::string(R::name(*e)));
    P.push_back(std::get<R::Point>(d));
  }
  R::Point out = P[0];
  if (op.kind == PointOpKind::add) out = R::add(P[0], P[1]);
  if (op.kind == PointOpKind::scalarmult) out = R::mul(ref::from_le_bytes(op.scalar.data(), 32), P[0]);
  return point_answer(R::encode(out).data());
}

// Layout F's strict decodes of op's inputs into P (tight, valid T), or the first rejection.
template <class F>
std::optional<json> host_decode_inputs(const PointOp& op, ecvrf::ge_ext<F> (&P)[2]) {
  for (size_t i = 0; i < op.points.size(); ++i) {
    const ecvrf::DecodeStatus st = ecvrf::ge_decode<F>(P[i], op.points[i].second.data());
    if (st != ecvrf::DecodeStatus::valid) return rejection_answer(op.points[i].first, ecvrf::decode_status_name(st));
  }
  return std::nullopt;
}
template <class F>
json host_encoded(const ecvrf::ge_ext<F>& R) {
  uint8_t e[32];
  ecvrf::ge_encode<F>(e, R);
  return point_answer(e);
}

// decode and add: the layout's codec and addition (one answer per layout).
template <class F>
json host_layout_answer(const PointOp& op) {
  ecvrf::ge_ext<F> P[2];
  if (auto rejected = host_decode_inputs<F>(op, P)) return *rejected;
  if (op.kind == PointOpKind::add) ecvrf::ge_add<F>(P[0], P[0], P[1]);
  return host_encoded<F>(P[0]);
}

// The scalars a strategy's recoder takes: all 256 bits, except Joye-Tunstall's (k < 2^255).
template <class S>
constexpr bool takes_bit_255 = !std::is_same_v<S, ecvrf::JoyeTunstall>;

// scalarmult: strategy S on layout F. A recoding that does not reconstruct the scalar throws (the caller's
// OracleReply::attempt makes it a failed answer, which disagrees; never a refusal).
template <class F, class S>
json host_strategy_answer(const PointOp& op) {
  ecvrf::ge_ext<F> P[2];
  if (auto rejected = host_decode_inputs<F>(op, P)) return *rejected;
  ecvrf::ge_ext<F> R;
  S::template mul<F>(R, P[0], S::recode(op.scalar));
  return host_encoded<F>(R);
}


// Every host implementation of op: per layout ("ecvrf/fe51-portable@cpu") for decode and add, per
// variant ("ecvrf/fe51-portable/w4/fused/k1@cpu": its scalar strategy) for scalarmult.
void host_point_answers(const PointOp& op, OracleReply& r) {
  if (op.kind != PointOpKind::scalarmult) {
    const auto layout = [&]<class F>() { r.answer(std::string("ecvrf/") + F::name + "-portable@cpu", host_layout_answer<F>(op)); };
    for_each_host_layout(layout);
    return;
  }
  for_each_host_variant([&]<class F, class S>() {
    const std::string name = host_variant_name<F, S>() + "@cpu";
    if (!takes_bit_255<S> && (op.scalar[31] & 0x80))
      return r.refusal(name, std::string(S::name) + " recodes scalars below 2^255 only");
    r.attempt(name, [&] { return host_strategy_answer<F, S>(op); });
  });
}

// libsodium's crypto_scalarmult_ed25519_noclamp (spec 4.3): it clears scalar bit 255 (so it does not
// apply when that bit is set), takes canonical order-L points only and refuses a zero scalar and an
// identity result. Compared only where both it and the golden model give a point.
void sodium_scalarmult_answer(const PointOp& op, OracleReply& r) {
  if (op.scalar[31] & 0x80) return r.refusal("libsodium", "not applicable: libsodium clears scalar bit 255");
  const auto got = ref::ecvrf::sodium_scalarmult_noclamp(op.scalar, op.points[0].second);
  if (!got) return r.refusal("libsodium", "crypto_scalarmult_ed25519_noclamp refused (rc -1)");
  if (r.ref.contains("point")) r.answer("libsodium", point_answer(got->data()));
  else r.record("libsodium", point_answer(got->data()));
}

#if defined(BX_HAVE_CUDA)
// The card's strict decodes of op's inputs through variant v's point code, or its first rejection.
std::optional<json> gpu_rejection(const PointOp& op, int dev, const std::string& variant) {
  kern::EcvrfPointInputs in;
  for (const auto& pt : op.points) in.decodes.push_back(pt.second);
  const kern::EcvrfPointOutputs dec = kern::ecvrf_point_checks(dev, variant, in);
  for (size_t i = 0; i < op.points.size(); ++i)
    if (const auto st = ecvrf::DecodeStatus(dec.decode_status.at(i)); st != ecvrf::DecodeStatus::valid)
      return rejection_answer(op.points[i].first, ecvrf::decode_status_name(st));
  return std::nullopt;
}
json gpu_layout_answer(const PointOp& op, int dev, const std::string& variant) {
  if (auto rejected = gpu_rejection(op, dev, variant)) return *rejected;
  kern::EcvrfPointInputs in;
  if (op.kind == PointOpKind::decode) {
    in.decodes = {op.points[0].second};
    return point_answer(kern::ecvrf_point_checks(dev, variant, in).decoded.at(0).data());
  }
  in.adds = {{op.points[0].second, op.points[1].second}};
  return point_answer(kern::ecvrf_point_checks(dev, variant, in).sums.at(0).at(0).data());
}
json gpu_strategy_answer(const PointOp& op, int dev, const std::string& variant, const std::string& tag) {
  if (auto rejected = gpu_rejection(op, dev, variant)) return *rejected;
  kern::EcvrfPointInputs in;
  in.h_point = op.points[0].second;
  in.scalars = {op.scalar};
  in.only_strategy = tag;
  return point_answer(kern::ecvrf_point_checks(dev, variant, in).scalar_products.at(0).second.at(0).data());
}

// Every GPU's point code (ecvrf_point_checks): decode and add once per compiled layout-backend
// ("ecvrf/fe32-ptx@gpu0"), scalarmult once per compiled layout-backend and strategy ("ecvrf/fe32-ptx/jt@gpu0").
void gpu_point_answers(const PointOp& op, int dev, OracleReply& r) {
  std::vector<std::string> done;
  const std::string at = "@gpu" + std::to_string(dev);
  const auto first = [&](const std::string& name) {
    if (std::find(done.begin(), done.end(), name) != done.end()) return false;
    done.push_back(name);
    return true;
  };
  for (const auto& v : kern::ecvrf_device_variants()) {
    const std::string layout = "ecvrf/" + v.layout + "-" + v.backend;
    if (op.kind != PointOpKind::scalarmult) {
      if (first(layout + at)) r.attempt(layout + at, [&] { return gpu_layout_answer(op, dev, v.name); });
      continue;
    }
    for (const std::string& tag : v.point_strategies) {
      const std::string name = layout + "/" + tag + at;
      if (!first(name)) continue;
      if (tag == ecvrf::JoyeTunstall::tag && (op.scalar[31] & 0x80)) {
        r.refusal(name, std::string(ecvrf::JoyeTunstall::name) + " recodes scalars below 2^255 only");
        continue;
      }
      r.attempt(name, [&] { return gpu_strategy_answer(op, dev, v.name, tag); });
    }
  }
}
#endif

// A plugin's answer in the same shapes: its decoder's verdict on the inputs in request order (a rejection
// names the first input it rejects), then its add or scalar_mult on valid encodings. An operation it does
// not provide reads "not provided"; inputs its contract does not take (a scalar of 2^255 or more) are a
// refusal, shown and not compared.
void plugin_point_answers(const PointOp& op, const std::vector<PluginEntry>& plugins, OracleReply& r) {
  for (const PluginEntry& im : plugins) {
    const auto& e = im.ops;
    const bool has_op = op.kind == PointOpKind::decode ? bool(e.decode) : op.kind == PointOpKind::add ? bool(e.add) : bool(e.scalar_mult);
    if (!has_op || (op.kind != PointOpKind::decode && !e.decode && r.ref.contains("rejected"))) {
      r.not_provided(im.label());
      continue;
    }
    if (op.kind == PointOpKind::scalarmult && (op.scalar[31] & 0x80)) {
      r.refusal(im.label(), "the contract's scalars are below 2^255");
      continue;
    }
    r.attempt(im.label(), [&]() -> json {
      if (e.decode) {  // the plugin's own verdicts on the inputs, first rejection first
        std::vector<suite::ecvrf::B32> in;
        for (const auto& [field, enc] : op.points) in.push_back(enc);
        const auto d = e.decode(in);
        for (size_t i = 0; i < d.size(); ++i)
          if (d[i].status != BX_ECVRF_DECODE_VALID) return rejection_answer(op.points[i].first, suite::ecvrf::decode_status_name(d[i].status));
        if (op.kind == PointOpKind::decode) return point_answer(d[0].canonical.data());
      }
      if (op.kind == PointOpKind::add) return point_answer(e.add({op.points[0].second}, {op.points[1].second})[0].data());
      return point_answer(e.scalar_mult({op.scalar}, {op.points[0].second})[0].data());
    });
  }
}

}  // namespace

json ed25519_reply(const json& req, bool cpu, const std::vector<int>& gpus, const std::vector<PluginEntry>& plugins) {
  const PointOp op = parse_point_op(req);
  OracleReply r;
  r.ref = golden_point_answer(op);
  if (cpu) host_point_answers(op, r);
  plugin_point_answers(op, plugins, r);
#if defined(BX_HAVE_CUDA)
  for (int dev : gpus) gpu_point_answers(op, dev, r);
#else
  (void)gpus;
#endif
  if (op.kind == PointOpKind::scalarmult) sodium_scalarmult_answer(op, r);
  return r.to_json();
}

}  // namespace bx::ecvrf_family
