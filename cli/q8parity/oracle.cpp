// Oracle requests for q8parity (floats as little-endian float32 bytes in hex, token-major):
//   {"op":"q8.matvec","rows":R,"k":K,"ntok":T,"weights":HEX,"x":HEX}
//        weights: R*K/32 Q8_0 blocks of 34 bytes as GGUF stores them; x: T*K floats
//        -> {"ref":HEX(T*R floats),"impl":{"q8parity/matvec/...@cpu":HEX,...},"agree":bool,"negative_control_differs":bool}
//   {"op":"q8.rmsnorm","x":HEX,"w":HEX or "","eps":HEX8}   (eps: the float's 32-bit pattern, 8 hex digits)
//        -> {"ref":HEX,"impl":{...},"agree":bool}
//   {"op":"q8.gr_read","hc":C,"n_embd":E,"hc_lr":L,"ntok":T,"r":HEX,"w_norm":HEX,"w_down":HEX,"w_up":HEX,"eps":HEX8}
//        -> {"ref":{"xn","pre","lo","gate","mixed"},"impl":{name@place:{...}},"agree_exact":bool,"nmse":{...}}
// Every implementation reports its whole output. agree: every bit-exact implementation equals the
// reference bit for bit (NaNs as a class); the negative control is reported, never counted in agree.
// Loaded plugins answer q8.matvec and q8.rmsnorm: bit-exact ones are compared, a characterised one is
// shown with its NMSE verdict against the canonical order (not counted in agree).
// For the gr read, agree_exact compares the parts without expf (xn, pre) everywhere and every part on the
// CPU; nmse gives each implementation's lo and mixed against float64.
#include "cli/oracle_reply.hpp"
#include "cli/q8parity/q8parity.hpp"

#include <functional>
#include <memory>

namespace bx::q8parity {
namespace {

uint64_t number(const json& req, const char* key, uint64_t lo, uint64_t hi) {
  const json& v = req[key];
  if (!v.is_number_unsigned() || v.get<uint64_t>() < lo || v.get<uint64_t>() > hi)
    throw InputError(std::string("field '") + key + "' must be an integer " + std::to_string(lo) + ".." + std::to_string(hi));
  return v.get<uint64_t>();
}
std::vector<uint8_t> bytes(const json& req, const char* key, size_t n) {
  if (!req[key].is_string()) throw InputError(std::string("field '") + key + "' must be a hex string");
  const std::string h = req[key].get<std::string>();
  if (h.size() != 2 * n)
    throw InputError(std::string("field '") + key + "': expected " + std::to_string(n) + " bytes (" + std::to_string(2 * n) +
                     " hex digits) for the shape, got " + std::to_string(h.size()) + " hex digits");
  return from_hex(h, n, std::string("field '") + key + "'");
}
std::vector<float> floats(const json& req, const char* key, size_t n) { return floats_of(bytes(req, key, 4 * n), key); }
float eps_of(const json& req) {
  if (!req["eps"].is_string()) throw InputError("field 'eps' must be a hex string");
  return float_of_hex8(req["eps"].get<std::string>(), "field 'eps'");
}
json gr_json(const q8::GrResult& g) {
  return {{"xn", floats_hex(g.xn)}, {"pre", floats_hex(g.pre)}, {"lo", floats_hex(g.lo)}, {"gate", floats_hex(g.gate)}, {"mixed", floats_hex(g.mixed)}};
}

// One implementation's answer, by its contract: a bit-exact one compared bit for bit; the negative control
// shown, never compared (it must differ); a characterised one shown with its NMSE verdict, never counted in
// agree (as the epilogue forms of the gr read); "not provided" where it lacks the op. A plugin's failed call
// is its answer; a built-in's is the request's error.
void answer(OracleReply& rep, const Impl& im, const std::vector<float>& want, const std::function<std::vector<float>()>& run,
            bool* control_differs = nullptr) {
  std::vector<float> got;
  try {
    got = run();
  } catch (const std::exception& e) {
    if (im.builtin()) throw;
    return rep.answer(im.label(), {{"failed", e.what()}});
  }
  if (im.negative()) {
    if (control_differs) *control_differs = *control_differs && !diff(got, want).same();
    return rep.record(im.label(), floats_hex(got));
  }
  if (!im.characterised()) return rep.answer(im.label(), floats_hex(got));
  const std::string problem = nmse_problem(got, want, im.nmse_bound);
  rep.record(im.label(), {{"output", floats_hex(got)}, {"characterised", problem.empty() ? "within its NMSE bound" : problem}});
}

json reply(const json& req, const std::vector<Impl>& impls) {
  const std::string op = req["op"].get<std::string>();
  if (op == "q8.matvec") {
    require_fields(req, {"rows", "k", "ntok", "weights", "x"});
    MatvecInput in;
    in.rows = number(req, "rows", 1, 1 << 20);
    in.k = number(req, "k", 32, 1 << 20);
    if (in.k % 32) throw InputError("field 'k' must be a multiple of 32");
    in.ntok = int(number(req, "ntok", 1, 8));
    in.w = bytes(req, "weights", in.rows * (in.k / 32) * 34);
    in.x = floats(req, "x", size_t(in.ntok) * in.k);
    const std::vector<float> want = reference_matvec(in);
    OracleReply rep;
    rep.ref = floats_hex(want);
    bool control_differs = true;
    for (const Impl& im : impls) {
      if (!im.answers(Op::matvec)) continue;
      if (!im.matvec) rep.not_provided(im.label());
      else answer(rep, im, want, [&] { return im.matvec(in, nullptr); }, &control_differs);
    }
    json reply = rep.to_json();
    reply["negative_control_differs"] = control_differs;
    return reply;
  }
  if (op == "q8.rmsnorm") {
    require_fields(req, {"x", "w", "eps"});
    if (!req["x"].is_string() || req["x"].get<std::string>().empty() || req["x"].get<std::string>().size() % 8)
      throw InputError("field 'x' must be a non-empty hex string of float32 values (8 hex digits each)");
    NormInput in;
    in.n = req["x"].get<std::string>().size() / 8;
    in.x = floats(req, "x", in.n);
    in.has_w = req["w"].is_string() && !req["w"].get<std::string>().empty();
    if (in.has_w) in.w = floats(req, "w", in.n);
    in.eps = eps_of(req);
    const std::vector<float> want = reference_rmsnorm(in);
    OracleReply rep;
    rep.ref = floats_hex(want);
    for (const Impl& im : impls) {
      if (!im.answers(Op::rmsnorm)) continue;
      if (!im.rmsnorm) rep.not_provided(im.label());
      else answer(rep, im, want, [&] { return im.rmsnorm(in); });
    }
    return rep.to_json();
  }
  if (op == "q8.gr_read") {
    require_fields(req, {"hc", "n_embd", "hc_lr", "ntok", "r", "w_norm", "w_down", "w_up", "eps"});
    R::GrInputs in;
    in.shape.hc = int(number(req, "hc", 1, 16));
    in.shape.n_embd = int(number(req, "n_embd", 32, 16384));
    in.shape.hc_lr = int(number(req, "hc_lr", 32, 4096));
    const std::string bad = in.shape.check();
    if (!bad.empty()) throw InputError("q8.gr_read: " + bad);
    in.ntok = int(number(req, "ntok", 1, 8));
    const size_t W = in.shape.width(), L = size_t(in.shape.hc_lr);
    in.r = floats(req, "r", size_t(in.ntok) * W);
    in.w_norm = floats(req, "w_norm", W);
    in.w_down = bytes(req, "w_down", L * (W / 32) * 34);
    in.w_up = bytes(req, "w_up", W * (L / 32) * 34);
    in.eps = eps_of(req);
    const R::GrOutputs want = R::gr_read(in);
    const R::GrOutputs64 want64 = R::gr_read64(in);
    json impl = json::object(), nmse = json::object();
    bool agree = true;
    for (const Impl& im : impls) {
      if (!im.gr) continue;
      const q8::GrResult got = im.gr(in, nullptr);
      const std::string name = im.label();
      impl[name] = gr_json(got);
      agree = agree && diff(got.xn, want.xn).same() && diff(got.pre, want.pre).same();
      if (im.device < 0)
        agree = agree && diff(got.lo, want.lo).same() && diff(got.gate, want.gate).same() && diff(got.mixed, want.mixed).same();
      nmse[name] = {{"lo", R::nmse(got.lo, want64.lo)}, {"mixed", R::nmse(got.mixed, want64.mixed)}};
    }
    return {{"ref", gr_json({want.xn, want.pre, want.lo, want.gate, want.mixed})}, {"impl", impl}, {"agree_exact", agree},
            {"nmse", nmse}};
  }
  throw InputError("unknown op '" + op + "'");
}

}  // namespace

OracleHandler oracle(const DeviceSelection& sel) {
  const auto all = std::make_shared<std::vector<Impl>>(impls(parse_variants({"all"}), sel));
  return [all](const json& req) {
    try {
      return reply(req, *all);
    } catch (const std::invalid_argument& e) {  // a shape the reference or a kernel refuses: one error line
      throw InputError(e.what());
    }
  };
}

}  // namespace bx::q8parity
