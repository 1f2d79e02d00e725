// Oracle requests for qpow (u64 values: 16 hex digits, big-endian numerals; inputs may be lazy, >= p):
//   {"op":"qpow.field.OP","a":U64,"b":U64}  OP: add sub mul sqr neg canonical   -> canonical values
//   {"op":"qpow.reduce128","x":32 hex digits}
//   {"op":"qpow.permute","state":[12 x U64]}
//   {"op":"qpow.hash_bytes","data":HEX}                      -> hash_squeeze_twice, 64 bytes
//   {"op":"qpow.hash","header":64 hex,"nonce":128 hex}        -> every variant's full 64-byte hash
//   {"op":"qpow.valid","header":..,"nonce":..,"difficulty":decimal|0x-hex} -> hash, target, valid
//   {"op":"qpow.search","header":..,"lo":128 hex,"count":N (1..2^16),"difficulty":..}
//        -> every valid nonce of [lo, lo + count) as its offset from lo, ascending (nonce 0 is never valid);
//           (a plugin that declares the 2^64-carry precondition gets the range split at the carry)
// Replies: {"ref":..., "impl":{label: value}, "agree":bool}; lossy implementations are listed under
// "characterised" and left out of "agree" (they are a candidate filter, not an implementation).
#include "cli/oracle_reply.hpp"
#include "cli/qpow/qpow.hpp"
#if defined(BX_HAVE_CUDA)
#include "gpu/kernels/qpow_kernels.hpp"
#endif

namespace bx::qpow {
namespace R = ref::qpow;

namespace {
std::string text(const json& req, const char* key) {
  if (!req[key].is_string()) throw InputError(std::string("field '") + key + "' must be a string");
  return req[key].get<std::string>();
}
uint64_t u64_field(const json& v, const std::string& what) {
  if (!v.is_string()) throw InputError(what + " must be a string of 16 hex digits");
  const auto b = from_hex(v.get<std::string>(), 8, what);
  uint64_t x = 0;
  for (uint8_t c : b) x = x << 8 | c;
  return x;
}
std::string u64_hex(uint64_t v) {
  char b[20];
  std::snprintf(b, sizeof b, "%016llx", (unsigned long long)v);
  return b;
}

struct Layouts {
  // Host layouts (exact), named as the variants' layouts; GPU field layouts per device.
  std::vector<int> gpus;
};

template <class L>
uint64_t host_field(const std::string& op, uint64_t a, uint64_t b) {
  if (op == "add") return L::add(a, b);
  if (op == "sub") return L::sub(a, b);
  if (op == "mul") return L::mul(a, b);
  if (op == "sqr") return L::sqr(a);
  if (op == "neg") return L::neg(a);
  return gl::canonical(a);
}

json reply(const json& req, const DeviceSelection& sel) {
  const std::string op = req["op"].get<std::string>();
  if (op.rfind("qpow.field.", 0) == 0) {
    const std::string f = op.substr(11);
    if (f != "add" && f != "sub" && f != "mul" && f != "sqr" && f != "neg" && f != "canonical")
      throw InputError("unknown field op '" + f + "' (add, sub, mul, sqr, neg, canonical)");
    const bool binary = f == "add" || f == "sub" || f == "mul";
    if (binary) require_fields(req, {"a", "b"});
    else require_fields(req, {"a"});
    const uint64_t a = u64_field(req["a"], "field 'a'"), b = binary ? u64_field(req["b"], "field 'b'") : 0;
    uint64_t r = 0;
    if (f == "add") r = R::add(a, b);
    else if (f == "sub") r = R::sub(a, b);
    else if (f == "mul") r = R::mul(a, b);
    else if (f == "sqr") r = R::sqr(a);
    else if (f == "neg") r = R::neg(a);
    else r = R::canonical(a);
    OracleReply rep;
    rep.ref = u64_hex(r);
    json lossy = json::object();
    auto put = [&](const std::string& label, uint64_t raw, bool characterised) {
      const json shown = {{"raw", u64_hex(raw)}, {"canonical", u64_hex(gl::canonical(raw))}};
      if (characterised) lossy[label] = shown;
      else rep.answer_shown(label, shown, u64_hex(gl::canonical(raw)));
    };
    if (sel.cpu) {
      put("gl64@cpu", host_field<gl::gl64>(f, a, b), false);
      put("gl2x32-portable@cpu", host_field<gl::gl2x32<carry::portable>>(f, a, b), false);
      put("gl2x32-lossy-model@cpu", host_field<gl::gl2x32_lossy<carry::portable>>(f, a, b), true);
    }
#if defined(BX_HAVE_CUDA)
    static const std::pair<const char*, kern::QpowFieldOp> kops[] = {
        {"add", kern::QpowFieldOp::add}, {"sub", kern::QpowFieldOp::sub}, {"mul", kern::QpowFieldOp::mul},
        {"sqr", kern::QpowFieldOp::sqr}, {"neg", kern::QpowFieldOp::neg}, {"canonical", kern::QpowFieldOp::canonical}};
    kern::QpowFieldOp kop{};
    for (auto& [n, o] : kops)
      if (f == n) kop = o;
    for (int dev : sel.gpus) {
      const std::string g = "@gpu" + std::to_string(dev);
      const std::pair<const char*, kern::QpowFieldLayout> ls[] = {{"gl64", kern::QpowFieldLayout::gl64},
                                                                   {"gl2x32-portable", kern::QpowFieldLayout::gl2x32_portable},
                                                                   {"gl2x32-ptx", kern::QpowFieldLayout::gl2x32_ptx},
                                                                   {"gl2x32-lossy", kern::QpowFieldLayout::lossy_ptx}};
      for (auto& [n, l] : ls)
        put(n + g, kern::qpow_field_eval(dev, l, kop, {a}, {b})[0], l == kern::QpowFieldLayout::lossy_ptx);
    }
#endif
    for (const Impl& im : plugin_impls(sel)) {  // a plugin's mul and add (the contract's inputs are canonical)
      const auto& fn = f == "mul" ? im.plugin_mul : im.plugin_add;
      if ((f != "mul" && f != "add") || !fn) rep.not_provided(im.label());
      else if (a >= gl::P || b >= gl::P) rep.record(im.label(), "outside precondition");
      else rep.attempt(im.label(), [&] { return json(u64_hex(fn({a}, {b})[0])); });
    }
    json reply = rep.to_json();
    reply["characterised"] = lossy;
    return reply;
  }
  if (op == "qpow.reduce128") {
    require_fields(req, {"x"});
    const auto b = from_hex(text(req, "x"), 16, "field 'x'");
    uint64_t hi = 0, lo = 0;
    for (int i = 0; i < 8; ++i) hi = hi << 8 | b[i];
    for (int i = 8; i < 16; ++i) lo = lo << 8 | b[i];
    const uint64_t r = R::reduce128(hi, lo);
    OracleReply rep;
    rep.ref = u64_hex(r);
    json lossy = json::object();
    if (sel.cpu) {
      for (auto [n, v] : {std::pair<const char*, uint64_t>{"gl64@cpu", gl::gl64::reduce128(lo, hi)},
                          {"gl64-branchfree@cpu", gl::gl64::reduce128_branchfree(lo, hi)},
                          {"gl2x32-portable@cpu", gl::gl2x32<carry::portable>::reduce128(lo, hi)}})
        rep.answer(n, u64_hex(gl::canonical(v)));
      lossy["gl2x32-lossy-model@cpu"] = u64_hex(gl::canonical(gl::gl2x32_lossy<carry::portable>::reduce128(lo, hi)));
    }
    json reply = rep.to_json();
    reply["characterised"] = lossy;
    return reply;
  }
  if (op == "qpow.permute") {
    require_fields(req, {"state"});
    if (!req["state"].is_array() || req["state"].size() != 12) throw InputError("field 'state' must be an array of 12 U64");
    R::State s;
    for (int i = 0; i < 12; ++i) s[size_t(i)] = u64_field(req["state"][size_t(i)], "state[" + std::to_string(i) + "]");
    const R::State r = R::permute(s);
    auto arr = [](const uint64_t* v) {
      json a = json::array();
      for (int i = 0; i < 12; ++i) a.push_back(u64_hex(gl::canonical(v[i])));
      return a;
    };
    OracleReply rep;
    rep.ref = arr(r.data());
    auto put = [&](const std::string& n, const uint64_t* v) { rep.answer(n, arr(v)); };
    if (sel.cpu) {
      uint64_t a[12], b[12], c[12];
      for (int i = 0; i < 12; ++i) a[i] = b[i] = c[i] = s[size_t(i)];
      Permutation<gl::gl64, false>::permute(a, kQuantusP2);
      Permutation<gl::gl2x32<carry::portable>, false>::permute(b, kQuantusP2);
      Permutation<gl::gl64, true>::permute(c, kQuantusP2);
      put("gl64@cpu", a);
      put("gl2x32-portable@cpu", b);
      put("gl64-folded@cpu", c);
    }
#if defined(BX_HAVE_CUDA)
    for (int dev : sel.gpus) {
      const std::vector<uint64_t> in(s.begin(), s.end());
      for (auto [n, l] : {std::pair<const char*, kern::QpowFieldLayout>{"gl64", kern::QpowFieldLayout::gl64},
                          {"gl2x32-ptx", kern::QpowFieldLayout::gl2x32_ptx}})
        for (bool folded : {false, true}) {
          const auto o = kern::qpow_permute(dev, l, folded, in);
          put(std::string(n) + (folded ? "-folded" : "") + "@gpu" + std::to_string(dev), o.data());
        }
    }
#endif
    std::vector<uint64_t> lanes(12);  // a plugin's contract takes canonical lanes: the same field elements
    for (int i = 0; i < 12; ++i) lanes[size_t(i)] = gl::canonical(s[size_t(i)]);
    for (const Impl& im : plugin_impls(sel)) {
      if (!im.plugin_permute) rep.not_provided(im.label());
      else rep.attempt(im.label(), [&] { return arr(im.plugin_permute(lanes).data()); });
    }
    return rep.to_json();
  }
  if (op == "qpow.hash_bytes") {
    require_fields(req, {"data"});
    const std::string h = text(req, "data");
    if (h.size() % 2) throw InputError("field 'data': odd number of hex digits");
    const auto data = from_hex(h, h.size() / 2, "field 'data'");
    const auto r = R::hash_squeeze_twice(data);
    uint8_t a[64], b[64];
    Sponge<gl::gl64>::hash_squeeze_twice(data.data(), uint32_t(data.size()), a, kQuantusP2);
    Sponge<gl::gl2x32<carry::portable>>::hash_squeeze_twice(data.data(), uint32_t(data.size()), b, kQuantusP2);
    OracleReply rep;
    rep.ref = to_hex(r.data(), 64);
    rep.answer("gl64@cpu", to_hex(a, 64));
    rep.answer("gl2x32-portable@cpu", to_hex(b, 64));
    return rep.to_json();
  }
  if (op == "qpow.hash" || op == "qpow.valid") {
    if (op == "qpow.hash") require_fields(req, {"header", "nonce"});
    else require_fields(req, {"header", "nonce", "difficulty"});
    const Header h = parse_header(text(req, "header"), "field 'header'");
    const std::string ns = text(req, "nonce");
    if (ns.size() != 128) throw InputError("field 'nonce' must be 128 hex digits (the 64 big-endian seal bytes)");
    const Int n = parse_nonce(ns, "field 'nonce'");
    const Int r = R::mining_hash(h, n);
    if (op == "qpow.valid") {
      const std::string d = req["difficulty"].is_string() ? req["difficulty"].get<std::string>() : req["difficulty"].dump();
      const Int diff = parse_difficulty(d, "field 'difficulty'");
      const Int t = R::target_of(diff);
      return {{"hash", u512_hex(r)}, {"target", u512_hex(t)}, {"valid", R::hash_meets_target(r, t)},
              {"chain_accepts", n != 0 && R::hash_meets_target(r, t)}};
    }
    std::vector<Variant> vs;
    for (int k = 0; k < kVariantCount; ++k) vs.push_back(Variant(k));
    OracleReply rep;
    rep.ref = u512_hex(r);
    json lossy = json::object();  // characterised rows: shown apart, never compared
    auto all = impls(vs, sel);
    for (Impl& im : plugin_impls(sel)) all.push_back(std::move(im));
    for (const Impl& im : all) {
      if (!im.hashes) rep.not_provided(im.label());  // a plugin without the hash
      else if (im.lossy) lossy[im.label()] = words_hex(im.hashes(h, {to_u512(n)})[0]);
      else rep.attempt(im.label(), [&] { return json(words_hex(im.hashes(h, {to_u512(n)})[0])); });
    }
    json reply = rep.to_json();
    reply["characterised"] = lossy;
    return reply;
  }
  if (op == "qpow.search") {
    require_fields(req, {"header", "lo", "count", "difficulty"});
    const Header h = parse_header(text(req, "header"), "field 'header'");
    const std::string ls = text(req, "lo");
    if (ls.size() != 128) throw InputError("field 'lo' must be 128 hex digits (the 64 big-endian seal bytes)");
    const Int lo = parse_nonce(ls, "field 'lo'");
    if (!req["count"].is_number_unsigned() || req["count"].get<uint64_t>() == 0 || req["count"].get<uint64_t>() > (1u << 16))
      throw InputError("field 'count' must be an integer 1..65536");
    const uint64_t count = req["count"].get<uint64_t>();
    if (lo + count > (Int(1) << 512)) throw InputError("fields 'lo', 'count': the range passes 2^512");
    const std::string d = req["difficulty"].is_string() ? req["difficulty"].get<std::string>() : req["difficulty"].dump();
    const Int t = R::target_of(parse_difficulty(d, "field 'difficulty'"));
    OracleReply rep;
    rep.ref = reference_hits(h, lo, count, t);
    const SearchRequest rq = search_request(h, lo, count, t);
    std::vector<Variant> vs;
    for (int k = 0; k < kVariantCount; ++k) vs.push_back(Variant(k));
    auto all = impls(vs, sel);
    for (Impl& im : plugin_impls(sel)) all.push_back(std::move(im));
    json lossy = json::object();
    for (const Impl& im : all) {
      // im.search keeps a plugin's declared precondition (its requests are split at 2^64 carries).
      if (!im.search) rep.not_provided(im.label());
      else if (im.lossy) lossy[im.label()] = im.search(rq, nullptr);
      else rep.attempt(im.label(), [&] { return json(im.search(rq, nullptr)); });
    }
    json reply = rep.to_json();
    reply["characterised"] = lossy;
    return reply;
  }
  throw InputError("unknown op '" + op + "'");
}
}  // namespace

OracleHandler oracle(const DeviceSelection& sel) {
  return [sel](const json& req) { return reply(req, sel); };
}

}  // namespace bx::qpow
