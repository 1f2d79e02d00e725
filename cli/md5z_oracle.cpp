// Oracle requests for md5z:
//   {"op":"md5","data":HEX}                       -> {"ref":DIGEST,"impl":{"gpu/md5 (host)":DIGEST},"agree":bool}
//   {"op":"md5z.base","seed":N}                   -> {"base":HEX52,"q":[Q1..Q24]}
//   {"op":"md5z.candidate","base":HEX52,"index":N} -> {"ref":{"message","digest","zeros"},"impl":{variant@where: zeros},"agree"}
#include "cli/md5z.hpp"

namespace bx::md5z {
using json = nlohmann::ordered_json;
namespace R = ref::md5z;

namespace {
void only_fields(const json& req, std::initializer_list<const char*> keys) {
  for (auto it = req.begin(); it != req.end(); ++it) {
    bool ok = it.key() == "op";
    for (auto k : keys) ok = ok || it.key() == k;
    if (!ok) throw InputError("unknown field '" + it.key() + "'");
  }
  for (auto k : keys)
    if (!req.contains(k)) throw InputError(std::string("missing field '") + k + "'");
}
uint64_t number(const json& req, const char* key, uint64_t max) {
  const json& v = req[key];
  if (!v.is_number_unsigned() || v.get<uint64_t>() > max)
    throw InputError(std::string("field '") + key + "' must be an integer 0.." + std::to_string(max));
  return v.get<uint64_t>();
}
std::string text(const json& req, const char* key) {
  if (!req[key].is_string()) throw InputError(std::string("field '") + key + "' must be a hex string");
  return req[key].get<std::string>();
}
}  // namespace

json oracle_reply(const json& req, const std::vector<Impl>& impls) {
  const std::string op = req["op"].get<std::string>();
  if (op == "md5") {
    only_fields(req, {"data"});
    const std::string h = text(req, "data");
    if (h.size() % 2) throw InputError("field 'data': odd number of hex digits");
    const auto data = from_hex(h, h.size() / 2, "field 'data'");
    const std::string r = R::digest_hex(R::md5(data.data(), data.size()));
    uint8_t d[16];
    md5::md5_bytes(data.data(), data.size(), d);
    return {{"ref", r}, {"impl", {{"gpu/md5@cpu", to_hex(d, 16)}}}, {"agree", to_hex(d, 16) == r}};
  }
  if (op == "md5z.base") {
    only_fields(req, {"seed"});
    const auto b = R::make_base(number(req, "seed", ~0ull));
    const auto q = R::states(b);
    json qs = json::array();
    for (int k = 1; k <= 24; ++k) {
      char s[12];
      std::snprintf(s, sizeof s, "%08x", q[k]);
      qs.push_back(s);
    }
    return {{"base", to_hex(b.data(), 52)}, {"q", qs}};
  }
  if (op == "md5z.candidate") {
    only_fields(req, {"base", "index"});
    const Message base = parse_base(text(req, "base"), "field 'base'");
    if (!req["index"].is_number_unsigned() || req["index"].get<uint64_t>() >= md5::kIndexEnd)
      throw InputError("field 'index' must be an integer 0..2^32-1");
    const uint32_t i = uint32_t(req["index"].get<uint64_t>());
    R::CandidateHasher h(base);
    const auto d = h.digest(i);
    const auto msg = h.message(i);
    const auto tb = prepare(base, "field 'base'");
    json impl = json::object();
    bool agree = true;
    for (auto& im : impls) {
      if (!im.search) continue;
      const auto got = im.search(tb, i, uint64_t(i) + 1, 0, nullptr);
      const int z = got.size() == 1 ? md5::hit_zeros(got[0]) : -1;
      agree = agree && z == R::zeros(d);
      impl[im.label()] = z;
    }
    return {{"ref", {{"message", to_hex(msg.data(), 52)}, {"digest", R::digest_hex(d)}, {"zeros", R::zeros(d)}}},
            {"impl", impl},
            {"agree", agree}};
  }
  throw InputError("unknown op '" + op + "'");
}

}  // namespace bx::md5z
