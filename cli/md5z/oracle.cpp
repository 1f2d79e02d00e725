// Oracle requests for md5z:
//   {"op":"md5","data":HEX}                       -> {"ref":DIGEST,"impl":{"gpu/md5 (host)":DIGEST},"agree":bool}
//   {"op":"md5z.base","seed":N}                   -> {"base":HEX52,"q":[Q1..Q24]}
//   {"op":"md5z.candidate","base":HEX52,"index":N} -> {"ref":{"message","digest","zeros"},
//        "impl":{"md5z/q9-v1@gpu0":{"digest":HEX32,"zeros":K},...},"agree":bool}
//   {"op":"md5z.search","base":HEX52,"lo":N,"hi":N,"threshold":T}  (0 <= lo < hi <= 2^32, hi - lo <= 2^24)
//        -> {"ref":[{"index":I,"zeros":Z},...] (every hit, index order),"impl":{...: the same from each search}}
// Each implementation reports its own full output: the digest along its own code path (the tunnel
// variants with steps 61..63 forced) and the zero count its search reports at threshold 0; agree
// compares both with OpenSSL. Loaded plugins answer beside the built-in variants (md5 where they provide
// it; a digest they do not provide is shown as "not provided" and not compared).
#include "cli/md5z/md5z.hpp"
#include "cli/oracle_reply.hpp"
#include "gpu/md5z/search.hpp"

namespace bx::md5z {
namespace R = ref::md5z;

namespace {
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

json reply(const json& req, const std::vector<Impl>& impls) {
  const std::string op = req["op"].get<std::string>();
  if (op == "md5") {
    require_fields(req, {"data"});
    const std::string h = text(req, "data");
    if (h.size() % 2) throw InputError("field 'data': odd number of hex digits");
    const auto data = from_hex(h, h.size() / 2, "field 'data'");
    const std::string r = R::digest_hex(R::md5(data.data(), data.size()));
    uint8_t d[16];
    md5::md5_bytes(data.data(), data.size(), d);
    OracleReply rep;
    rep.ref = r;
    rep.answer("md5z/md5_bytes@cpu", to_hex(d, 16));
    for (auto& im : impls) {
      if (im.builtin()) continue;  // the built-in variants share md5_bytes above
      if (!im.plugin_md5) rep.not_provided(im.label() + " md5");
      else rep.attempt(im.label(), [&] { return json(R::digest_hex(im.plugin_md5({data})[0])); });
    }
    return rep.to_json();
  }
  if (op == "md5z.base") {
    require_fields(req, {"seed"});
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
    require_fields(req, {"base", "index"});
    const Message base = parse_base(text(req, "base"), "field 'base'");
    if (!req["index"].is_number_unsigned() || req["index"].get<uint64_t>() >= md5::kIndexEnd)
      throw InputError("field 'index' must be an integer 0..2^32-1");
    const uint32_t i = uint32_t(req["index"].get<uint64_t>());
    R::CandidateHasher h(base);
    const auto d = h.digest(i);
    const auto msg = h.message(i);
    const auto tb = prepare(base, "field 'base'");
    OracleReply rep;
    rep.ref = {{"message", to_hex(msg.data(), 52)}, {"digest", R::digest_hex(d)}, {"zeros", R::zeros(d)}};
    for (auto& im : impls) {
      if (!im.search) {  // said, never silently left out
        rep.not_provided(im.label());
        continue;
      }
      if (!im.digests) {  // a plugin without candidate_digests: its zero count compared, the digest said
        json shown;
        const json compared = [&] {
          try {
            const auto got = im.search(tb, i, uint64_t(i) + 1, 0, nullptr);
            return json{{"zeros", got.size() == 1 && md5::hit_index(got[0]) == i ? md5::hit_zeros(got[0]) : -1}};
          } catch (const std::exception& e) {
            return json{{"failed", e.what()}};
          }
        }();
        shown = compared;
        shown["digest"] = "not provided";
        rep.answer_shown(im.label(), shown, compared);
        continue;
      }
      rep.attempt(im.label(), [&] {
        const auto got = im.search(tb, i, uint64_t(i) + 1, 0, nullptr);
        const int z = got.size() == 1 && md5::hit_index(got[0]) == i ? md5::hit_zeros(got[0]) : -1;
        const auto h = im.digests(tb, {i})[0];
        uint8_t bytes[16];
        md5::store_digest(h.data(), bytes);
        return json{{"digest", to_hex(bytes, 16)}, {"zeros", z}};
      });
    }
    return rep.to_json();
  }
  if (op == "md5z.search") {
    require_fields(req, {"base", "lo", "hi", "threshold"});
    const Message base = parse_base(text(req, "base"), "field 'base'");
    const uint64_t lo = number(req, "lo", md5::kIndexEnd - 1), hi = number(req, "hi", md5::kIndexEnd);
    if (hi <= lo || hi - lo > (uint64_t(1) << 24)) throw InputError("fields 'lo', 'hi': want lo < hi <= lo + 2^24");
    const int t = int(number(req, "threshold", 32));
    const auto as_json = [](const std::vector<uint64_t>& hits) {
      json a = json::array();
      for (uint64_t h : hits) a.push_back({{"index", md5::hit_index(h)}, {"zeros", md5::hit_zeros(h)}});
      return a;
    };
    OracleReply rep;
    rep.ref = as_json(reference_hits(base, lo, hi, t));
    const auto tb = prepare(base, "field 'base'");
    for (auto& im : impls) {
      if (!im.search) rep.not_provided(im.label());
      else rep.attempt(im.label(), [&] { return as_json(im.search(tb, lo, hi, t, nullptr)); });
    }
    return rep.to_json();
  }
  throw InputError("unknown op '" + op + "'");
}

}  // namespace

OracleHandler oracle(const DeviceSelection& sel) {
  auto list = std::make_shared<std::vector<Impl>>(impls(md5::all_variants(), sel));
  for (Impl& im : plugin_impls(sel)) list->push_back(std::move(im));  // plugins answer beside them
  return [list](const json& req) { return reply(req, *list); };
}

}  // namespace bx::md5z
