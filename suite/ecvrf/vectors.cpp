// ecvrf vector files (see vectors.hpp): generation from the golden model, strict loading, and the check.
//
// Each file is built by one "builder" per test: inputs -> the whole test (flags, inputs, every output) from
// the golden model (reference/ecvrf, reference/field25519; SHA-512 through OpenSSL). Generation calls the
// builders on a fixed input list; the check calls the same builders on the inputs it loaded and compares
// every output field, then runs the loaded test through the implementations under test (gpu/ecvrf on the
// host) and compares their bytes with the file's. Expected values therefore come from the files, the files
// from the golden model, and the RFC 9381 / spec 9 literals below only ever gate generation (and the
// check): the golden model must reproduce them.
#include "suite/ecvrf/vectors.hpp"

#include <algorithm>
#include <cstdio>
#include <set>
#include <thread>

#include "suite/ecvrf/decode_edges.hpp"
#include "suite/vector_json.hpp"
#include "gpu/ecvrf/batch_invert.hpp"
#include "gpu/ecvrf/tai.hpp"
#include "gpu/field25519/layouts.hpp"
#include "reference/ecvrf/oracles.hpp"
#include "reference/ecvrf/vrf.hpp"
#include "reference/field25519/ref25519.hpp"

namespace bx::ecvrf_vectors {

const char* const kSearchPath = "vectors/ecvrf/search.json";

namespace {

using namespace bx::vectors::io;
namespace G = bx::ref::ecvrf;
namespace RF = bx::ref::f25519;
using bx::ref::Int;
using ecvrf_family::Hit;
using ecvrf_family::Job;
using Bytes64 = G::Bytes64;
using Bytes = std::vector<uint8_t>;

const char* const kRfcPath = "vectors/ecvrf/rfc9381.json";
const char* const kDecodePath = "vectors/ecvrf/decode.json";
const char* const kScalarPath = "vectors/ecvrf/scalarmult.json";
const char* const kBatchPath = "vectors/ecvrf/batch_invert.json";
const char* const kShaPath = "vectors/ecvrf/sha512.json";
const char* const kGenerator = "bitexact vectors generate --family ecvrf";

// ==== small helpers ======================================================================================

Bytes32 b32(const Int& v) { return ecvrf_family::bytes_of(v); }  // 32 LE bytes of 0 <= v < 2^256
std::string hx(const Bytes32& b) { return to_hex(b); }
std::string hx(const Bytes64& b) { return to_hex(b.data(), b.size()); }
std::string hx(const Bytes& b) { return to_hex(b.data(), b.size()); }
std::string hx(const uint8_t* p, size_t n) { return to_hex(p, n); }
Int val(const Bytes32& b) { return RF::raw_value(b); }
Bytes64 to64(const uint8_t* p) {
  Bytes64 b;
  std::copy(p, p + 64, b.begin());
  return b;
}
Bytes32 to32(const uint8_t* p) {
  Bytes32 b;
  std::copy(p, p + 32, b.begin());
  return b;
}
Bytes32 first32(const Bytes64& h) { return to32(h.data()); }
// SHA-512(label)[0..31]: fixed, reproducible keys and headers.
Bytes32 label_bytes32(const std::string& label) {
  return first32(G::sha512(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(label.data()), label.size())));
}
// score (spec 9) as 16 hex digits, big-endian: beta[0..7] as printed in the spec's worked examples.
std::string score_hex(uint64_t s) {
  char b[20];
  std::snprintf(b, sizeof b, "%016llx", static_cast<unsigned long long>(s));
  return b;
}
Int pow2(int k) { return Int(1) << k; }

// Seeded values: splitmix64 (the stream is part of the file's definition: changing it changes the file).
struct SplitMix {
  uint64_t z;
  uint64_t next() {
    uint64_t v = (z += 0x9e3779b97f4a7c15ull);
    v = (v ^ (v >> 30)) * 0xbf58476d1ce4e5b9ull;
    v = (v ^ (v >> 27)) * 0x94d049bb133111ebull;
    return v ^ (v >> 31);
  }
  Bytes32 bytes32() {
    Bytes32 b;
    for (int i = 0; i < 32; i += 8) {
      const uint64_t v = next();
      for (int j = 0; j < 8; ++j) b[i + j] = uint8_t(v >> (8 * j));
    }
    return b;
  }
  Bytes32 below_2_255() {
    Bytes32 b = bytes32();
    b[31] &= 0x7f;
    return b;
  }
};

// The notes object: flag -> {bugType, description}.
struct Notes {
  json j = json::object();
  Notes& add(const char* flag, const char* bug, const char* desc) {
    j[flag] = {{"bugType", bug}, {"description", desc}};
    return *this;
  }
};

json header(const char* algorithm, const char* schema, const std::string& source, int n, const json& notes,
            const json& groups) {
  return file_header(algorithm, schema, kGenerator, source, n, notes, groups);
}
// A test in file order: tcId, comment, then the builder's fields (flags first), then result (the builder's
// verdict where it gives one, else "valid").
json numbered(int id, const std::string& comment, const json& built) {
  json t;
  t["tcId"] = id;
  t["comment"] = comment;
  for (auto it = built.begin(); it != built.end(); ++it)
    if (it.key() != "result") t[it.key()] = *it;
  t["result"] = built.value("result", "valid");
  return t;
}
void add_flag(json& flags, const std::string& f) {
  for (auto& x : flags)
    if (x == f) return;
  flags.push_back(f);
}

// ==== strict loading ======================================================================================

Bytes get_bytes(const json& t, const std::string& k, const std::string& where) {
  const std::string s = get_str(t, k, where);
  if (s.size() % 2) throw InputError(where + ": field '" + k + "': odd number of hex digits");
  return bx::vectors::io::file_hex(s, s.size() / 2, where + ": field '" + k + "'");
}
Bytes64 get_b64(const json& t, const std::string& k, const std::string& where) {
  const Bytes v = bx::vectors::io::file_hex(get_str(t, k, where), 64, where + ": field '" + k + "'");
  return to64(v.data());
}
Bytes32 get_b32_lt_2_255(const json& t, const std::string& k, const std::string& where) {
  const Bytes32 b = get_b32(t, k, where);
  if (b[31] & 0x80) throw InputError(where + ": field '" + k + "': must be below 2^255 (bit 255 clear)");
  return b;
}
// An array element: 32 bytes of hex (below 2^255 when lt_2_255).
Bytes32 elem_b32(const json& v, bool lt_2_255, const std::string& where) {
  if (!v.is_string()) throw InputError(where + ": must be a hex string");
  const Bytes32 b = bx::vectors::io::file_b32(v.get<std::string>(), where);
  if (lt_2_255 && (b[31] & 0x80)) throw InputError(where + ": must be below 2^255 (bit 255 clear)");
  return b;
}
int get_int(const json& t, const std::string& k, int lo, int hi, const std::string& where) {
  if (!t[k].is_number_integer() || t[k].get<int64_t>() < lo || t[k].get<int64_t>() > hi)
    throw InputError(where + ": field '" + k + "' must be an integer in " + std::to_string(lo) + ".." + std::to_string(hi));
  return t[k].get<int>();
}
// A decimal string below 2^64 (JSON numbers lose precision above 2^53 in most readers).
uint64_t get_dec_u64(const json& t, const std::string& k, const std::string& where) {
  const std::string s = get_str(t, k, where);
  if (s.empty() || s.size() > 20 || s.find_first_not_of("0123456789") != std::string::npos)
    throw InputError(where + ": field '" + k + "': expected a decimal integer below 2^64, got '" + s + "'");
  uint64_t v = 0;
  for (char c : s) {
    const uint64_t d = uint64_t(c - '0');
    if (v > (~0ull - d) / 10) throw InputError(where + ": field '" + k + "': " + s + " is not below 2^64");
    v = v * 10 + d;
  }
  return v;
}
uint64_t get_score(const json& t, const std::string& k, const std::string& where) {
  const Bytes b = bx::vectors::io::file_hex(get_str(t, k, where), 8, where + ": field '" + k + "'");
  uint64_t s = 0;
  for (uint8_t x : b) s = (s << 8) | x;
  return s;
}
const json& get_array(const json& t, const std::string& k, const std::string& where) {
  if (!t[k].is_array()) throw InputError(where + ": field '" + k + "' must be an array");
  return t[k];
}
void check_result_is(const json& t, const std::string& want, const std::string& where) {
  if (get_str(t, "result", where) != want) throw InputError(where + ": field 'result': expected '" + want + "'");
}

json parse_file(const std::string& file, const std::string& text, const char* schema) {
  const json top = parse_json(file, text);
  check_header(top, file, schema, {"source"});
  if (!top["generator"].is_string()) throw InputError(file + ": field 'generator' must be a string");
  return top;
}

// ==== reporting ===========================================================================================

// Problem lines of one file: "file: tcId N: who: what", at most `cap`, then one line counting the rest.
struct Lines {
  std::string file;
  std::vector<std::string>& out;
  size_t cap = 40, shown = 0, hidden = 0;
  void add(int id, const std::string& msg) {
    if (shown < cap) {
      out.push_back(file + ": tcId " + std::to_string(id) + ": " + msg);
      ++shown;
    } else {
      ++hidden;
    }
  }
  void finish() {
    if (hidden) out.push_back(file + ": " + std::to_string(hidden) + " more disagreement(s) not shown");
  }
};
// Byte comparison of one output: "who: what (inputs): expected E, got A".
void expect(Lines& l, int id, const std::string& who, const std::string& what, const std::string& inputs,
            const std::string& want, const std::string& got) {
  if (want != got) l.add(id, who + ": " + what + " (" + inputs + "): expected " + want + ", got " + got);
}
// The golden recomputation of a test against the file: every field the builder emits except flags (the
// source flags are not a function of the inputs; the stale check covers them).
void compare_with_golden(Lines& l, int id, const json& file_test, const json& golden, const std::string& inputs) {
  for (auto it = golden.begin(); it != golden.end(); ++it) {
    if (it.key() == "flags") continue;
    const json& have = file_test.contains(it.key()) ? file_test[it.key()] : json();
    if (have != *it)
      l.add(id, "golden model: field '" + it.key() + "' (" + inputs + "): the file has " + have.dump() +
                    " but the golden model computes " + it->dump());
  }
  for (auto it = file_test.begin(); it != file_test.end(); ++it)
    if (!golden.contains(it.key()) && it.key() != "tcId" && it.key() != "comment" && it.key() != "result")
      l.add(id, "golden model: field '" + it.key() + "' (" + inputs + "): the golden model gives no such output");
}
// Runs `body`; an exception (a recoding that does not reconstruct its scalar throws) is a disagreement.
template <class Body>
void guarded(Lines& l, int id, const std::string& who, const std::string& what, Body&& body) {
  try {
    body();
  } catch (const std::exception& e) {
    l.add(id, who + ": " + what + ": threw: " + e.what());
  }
}

// ==== host implementations under test =====================================================================

using ecvrf_family::for_each_host_layout;
template <class F>
std::string layout_label() {
  return std::string(F::name) + "-portable@cpu";
}
template <class F, class S>
std::string variant_label() {
  return ecvrf_family::host_variant_name<F, S>() + "@cpu";
}
// Encoding of a point through layout F (one inversion).
template <class F>
std::string enc_hex(const ecvrf::ge_ext<F>& p) {
  uint8_t e[32];
  ecvrf::ge_encode<F>(e, p);
  return hx(e, 32);
}
// The message bytes of a hash_string block (big-endian words), the first n.
Bytes block_bytes(const ecvrf::H2cBlock& m, int n) {
  Bytes b(n);
  for (int j = 0; j < n; ++j) b[j] = uint8_t(m.w[j >> 3] >> (56 - 8 * (j & 7)));
  return b;
}
template <bool Rolling>
const char* schedule_name() {
  return Rolling ? "sha512 (rolling schedule)" : "sha512 (80-word schedule)";
}

// ==== rfc9381.json ========================================================================================

const char* const kRfcSchema = "bitexact_ecvrf_rfc9381_v1";

// RFC 9381 Appendix B.3 and docs/specs/field25519_ecvrf.md 4.1, 4.2, 4.4, copied literally: generation refuses
// to write a file the golden model computes differently.
struct KatTry {
  int ctr;
  const char* candidate;
  const char* decode;  // "valid" or the strict decoder's rejection reason
  int torsion_order;   // of the decoded point (valid only)
};
struct RfcKat {
  const char* name;
  const char* sk;
  const char* alpha;
  const char* pk;
  const char* x;
  const char* x_mod_l;
  int ctr;
  const char* h;
  const char* gamma;
  const char* gamma8;
  const char* beta;
  const char* u_h;
  const char* u_gamma;
  std::vector<KatTry> tries;
  const char* input0;  // hash input of ctr 0 where the spec prints it, else nullptr
};
const std::vector<RfcKat>& rfc_kats() {
  static const std::vector<RfcKat> k = {
      {"Example 16", "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60", "",
       "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
       "307c83864f2833cb427a2ef1c00a013cfdff2768d980c0a3a520f006904de94f",
       "7c2cac12e69be96ae9065065462385e8fcff2768d980c0a3a520f006904de90f", 0,
       "91bbed02a99461df1ad4c6564a5f5d829d0b90cfc7903e7a5797bd658abf3318",
       "8657106690b5526245a92b003bb079ccd1a92130477671f6fc01ad16f26f723f",
       "f73a6475357f4a1ea70f5df101478fe6e51a18996da58571352665bfa75847b4",
       "90cf1df3b703cce59e2a35b925d411164068269d7b2d29f3301c03dd757876ff66b71dda49d2de59d03450451af026798e8f81cd2e333de5cdf4f3e140fdd8ae",
       "3d59e44b5885ef84757295604d3607322de9a1b8a18160e1bf8213acb0416b35",
       "0cc38279b865d5906256acb1cdff2e9d71a2481f72f65057cd9746606cad2d76",
       {{0, "d924e111020a9ff4887bc9e56e9e5b80c2ceb93f861a2f56d8ee2c52fd255466", "valid", 1}},
       "0301d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a0000"},
      {"Example 17", "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb", "72",
       "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
       "68bd9ed75882d52815a97585caf4790a7f6c6b3b7f821c5e259a24b02e502e51",
       "c799d106d5927970e5989f5671131fa27e6c6b3b7f821c5e259a24b02e502e01", 1,
       "5b659fc3d4e9263fd9a4ed1d022d75eaacc20df5e09f9ea937502396598dc551",
       "f3141cd382dc42909d19ec5110469e4feae18300e94f304590abdced48aed593",
       "9e31a48e0cbc6d405e9e9b1b76eaf1710d57323745a9c0dcaf32fe8e81bbc2f0",
       "eb4440665d3891d668e7e0fcaf587f1b4bd7fbfe99d0eb2211ccec90496310eb5e33821bc613efb94db5e5b54c70a848a0bef4553a41befc57663b56373a5031",
       "d4e6b2ee1d2c0efb8bcfcc0e39167df32eefa29881a012483bbd715ad436ee58",
       "29b6873554939e90a78eb495ea083b1cedba89e1500e5d22417a347b4a0fcc6f",
       {{0, "bde5e949af7cf4bc066450de29d9933d49ea8fa0ccb6b4eb51c7bd40f13d9b53", "not_square", 0},
        {1, "234d1b2b5084b2c5b322325d652fa081f277814e6c0b7201a1d1682b4b5f45f1", "valid", 8}},
       nullptr},
      {"Example 18", "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7", "af82",
       "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025",
       "909a8b755ed902849023a55b15c23d11ba4d7f4ec5c2f51b1325a181991ea95c",
       "ef76bea4dae9a6cb6013cf2cbce0e2a8b94d7f4ec5c2f51b1325a181991ea90c", 0,
       "bf4339376f5542811de615e3313d2b36f6f53c0acfebb482159711201192576a",
       "9bc0f79119cc5604bf02d23b4caede71393cedfbb191434dd016d30177ccbf80",
       "b04b5ab1905a87a86809610e0138dac24b7de924210cd94f7629212d44477ad6",
       "645427e5d00c62a23fb703732fa5d892940935942101e456ecca7bb217c61c452118fec1219202a0edcf038bb6373241578be7217ba85a2687f7a0310b2df19f",
       "add8dd98846a52e5c3497df4d50f900cdb149279b607fef2910fd914c88a012b",
       "8c1272853ef24ef6cb07c8d9e96bd2a7e5e644db3dc7a130ada63f5dbb8fba6a",
       {{0, "69dbad2aaff2ab565593ed5579ce0dab6797f6096c9a955cc413166d63d718f8", "valid", 8}},
       nullptr},
  };
  return k;
}

json rfc_notes() {
  return Notes()
      .add("Ktv", "BASIC", "Known answer of RFC 9381 Appendix B.3 (ECVRF-EDWARDS25519-SHA512-TAI), with the spec's intermediates.")
      .add("TaiRetry", "DECODING", "The first TAI candidate is not a point (ctr > 0): a decoder that skips the square check (spec 2.3 (c)) stops at ctr 0.")
      .add("TorsionCandidate", "COFACTOR", "The accepted candidate has a torsion component (order 8): multiplying the raw candidate by x, or skipping the cofactor clearing, gives a wrong Gamma.")
      .add("ClampedX", "SCALAR_RANGE", "x is clamped (255 bits, bit 254 set, x = 0 mod 8): a double-and-add over bits 0..253 drops bit 254; an even x needs the Joye-Tunstall k-1 fix-up.")
      .add("OddXModL", "RECODING", "x mod L is odd: a Joye-Tunstall recoder that treats every scalar as even (k - 1 plus H) breaks.")
      .add("EvenXModL", "RECODING", "x mod L is even: a Joye-Tunstall recoder without the k - 1 fix-up cannot recode it.")
      .j;
}

// inputs (sk, alpha) -> the test's flags and every intermediate, from the golden model.
json build_rfc(const Bytes32& sk, const Bytes& alpha) {
  const G::VrfKey key = G::vrf_key(sk);
  const G::VrfTrace t = G::vrf_trace(key, alpha);
  json flags = json::array({"Ktv"});
  json tries = json::array();
  for (const G::TaiTry& tr : t.tai.tries) {
    json j;
    j["ctr"] = tr.ctr;
    j["hashInput"] = hx(G::tai_hash_input(key.pk, alpha, tr.ctr));
    j["candidate"] = hx(tr.candidate);
    if (const G::Point* P = std::get_if<G::Point>(&tr.decoded)) {
      j["decode"] = "valid";
      j["torsionOrder"] = G::torsion_order(*P);
      j["cleared"] = hx(G::encode(*tr.cleared));
    } else {
      j["decode"] = std::string(G::name(std::get<G::DecodeError>(tr.decoded)));
    }
    tries.push_back(j);
  }
  json out;
  out["flags"] = flags;
  out["sk"] = hx(sk);
  out["alpha"] = hx(alpha);
  out["pk"] = hx(key.pk);
  out["x"] = hx(b32(key.x));
  out["xModL"] = hx(b32(key.x_mod_l));
  out["tries"] = tries;
  if (!t.tai.ctr) throw std::logic_error("rfc9381: the golden model finds no H");
  out["ctr"] = *t.tai.ctr;
  out["h"] = hx(G::encode(*t.tai.h));
  out["uH"] = hx(G::montgomery_u(*t.tai.h));
  out["gamma"] = hx(G::encode(*t.gamma));
  out["uGamma"] = hx(G::montgomery_u(*t.gamma));
  out["gamma8"] = hx(G::encode(*t.gamma8));
  out["beta"] = hx(*t.beta);
  if (*t.tai.ctr > 0) add_flag(out["flags"], "TaiRetry");
  if (out["tries"].back()["torsionOrder"] != 1) add_flag(out["flags"], "TorsionCandidate");
  add_flag(out["flags"], "ClampedX");
  add_flag(out["flags"], bit_test(key.x_mod_l, 0) ? "OddXModL" : "EvenXModL");
  return out;
}

// Fields of a built (or loaded) test that differ from the RFC/spec literal (empty: none).
std::vector<std::string> kat_mismatches(const RfcKat& k, const json& t) {
  std::vector<std::string> bad;
  const auto want = [&](const char* field, const json& v) {
    if (!t.contains(field) || t[field] != v) bad.push_back(std::string("field '") + field + "': " + v.dump());
  };
  want("sk", k.sk), want("alpha", k.alpha), want("pk", k.pk), want("x", k.x), want("xModL", k.x_mod_l);
  want("ctr", k.ctr), want("h", k.h), want("gamma", k.gamma), want("gamma8", k.gamma8), want("beta", k.beta);
  want("uH", k.u_h), want("uGamma", k.u_gamma);
  const json tries = t.contains("tries") ? t["tries"] : json::array();
  for (const KatTry& kt : k.tries) {
    const std::string f = "tries[" + std::to_string(kt.ctr) + "]";
    if (!tries.is_array() || int(tries.size()) <= kt.ctr) {
      bad.push_back(f + ": missing");
      continue;
    }
    const json& tr = tries[kt.ctr];
    if (tr.value("candidate", "") != kt.candidate) bad.push_back(f + ".candidate: " + kt.candidate);
    if (tr.value("decode", "") != kt.decode) bad.push_back(f + ".decode: " + kt.decode);
    if (kt.torsion_order && tr.value("torsionOrder", 0) != kt.torsion_order)
      bad.push_back(f + ".torsionOrder: " + std::to_string(kt.torsion_order));
  }
  if (k.input0 && (!tries.is_array() || tries.empty() || tries[0].value("hashInput", "") != k.input0))
    bad.push_back(std::string("tries[0].hashInput: ") + k.input0);
  return bad;
}

std::string generate_rfc() {
  json tests = json::array();
  int id = 0;
  for (const RfcKat& k : rfc_kats()) {
    const json built = build_rfc(bytes32_from_hex(k.sk, "sk"), from_hex(k.alpha, std::string(k.alpha).size() / 2, "alpha"));
    const auto bad = kat_mismatches(k, built);
    if (!bad.empty())
      throw std::logic_error(std::string(kRfcPath) + ": the golden model disagrees with RFC 9381 " + k.name + ", " +
                             bad.front() + " (the file is not written)");
    tests.push_back(numbered(++id, std::string("RFC 9381 B.3 ") + k.name, built));
  }
  const json groups = json::array({{{"type", "ecvrf-edwards25519-sha512-tai"}, {"tests", tests}}});
  return render(header("ECVRF-EDWARDS25519-SHA512-TAI", kRfcSchema,
                       "RFC 9381 Appendix B.3 (Examples 16-18); the candidates, x mod L, u(H) and u(Gamma) of "
                       "docs/specs/field25519_ecvrf.md 4.2 and 4.4; every value recomputed by the golden model (reference/ecvrf)",
                       id, rfc_notes(), groups),
                "testGroups");
}

struct RfcTry {
  int ctr;
  Bytes input;
  Bytes32 candidate;
  std::string decode;
  Bytes32 cleared{};
};
struct RfcCase {
  int id;
  json raw;
  Bytes32 sk, pk, x, x_mod_l, h, gamma, gamma8;
  Bytes alpha;
  std::vector<RfcTry> tries;
  int ctr;
  Bytes64 beta;
};

std::vector<RfcCase> load_rfc(const std::string& file, const std::string& text) {
  const json top = parse_file(file, text, kRfcSchema);
  std::vector<RfcCase> out;
  for_each_test(top, file, {"type"}, [&](const json&, const json& t, const std::string& where) {
    require_keys(t, {"tcId", "comment", "flags", "sk", "alpha", "pk", "x", "xModL", "tries", "ctr", "h", "uH", "gamma",
                     "uGamma", "gamma8", "beta", "result"},
                 {}, where);
    get_str(t, "comment", where);
    get_flags(t, top["notes"], where);
    RfcCase c{t["tcId"].get<int>(), t, get_b32(t, "sk", where), get_b32(t, "pk", where), get_b32(t, "x", where),
              get_b32(t, "xModL", where), get_b32(t, "h", where), get_b32(t, "gamma", where), get_b32(t, "gamma8", where),
              get_bytes(t, "alpha", where), {}, get_int(t, "ctr", 0, 255, where), get_b64(t, "beta", where)};
    get_b32(t, "uH", where), get_b32(t, "uGamma", where);
    if (c.alpha.size() > 75) throw InputError(where + ": field 'alpha': at most 75 bytes (one SHA-512 block)");
    const json& tries = get_array(t, "tries", where);
    for (size_t i = 0; i < tries.size(); ++i) {
      const std::string w = where + ": tries[" + std::to_string(i) + "]";
      const json& tr = tries[i];
      const bool valid = tr.is_object() && tr.contains("decode") && tr["decode"] == "valid";
      if (valid) require_keys(tr, {"ctr", "hashInput", "candidate", "decode", "torsionOrder", "cleared"}, {}, w);
      else require_keys(tr, {"ctr", "hashInput", "candidate", "decode"}, {}, w);
      RfcTry rt{get_int(tr, "ctr", int(i), int(i), w), get_bytes(tr, "hashInput", w), get_b32(tr, "candidate", w),
                get_str(tr, "decode", w)};
      if (valid) rt.cleared = get_b32(tr, "cleared", w), get_int(tr, "torsionOrder", 1, 8, w);
      c.tries.push_back(rt);
    }
    if (int(c.tries.size()) != c.ctr + 1) throw InputError(where + ": field 'tries': expected ctr + 1 tries");
    check_result(t, where);
    out.push_back(std::move(c));
  });
  return out;
}

// SHA-512 of the SK (x), of every try's hash input (the candidate) and the hash_string block assembly,
// through the implementations' SHA-512 (both schedules).
template <bool Rolling>
void host_rfc_hashes(Lines& l, const RfcCase& c) {
  const std::string who = schedule_name<Rolling>();
  uint8_t h[64];
  ecvrf::sha512<Rolling>(h, c.sk.data(), 32);
  expect(l, c.id, who, "x = clamp(SHA-512(sk)[0..31])", "sk " + hx(c.sk), hx(c.x), hx(G::clamp(to32(h))));
  ecvrf::H2cBlock m;
  ecvrf::h2c_block_alpha(m, c.pk.data(), c.alpha.data(), int(c.alpha.size()));
  for (const RfcTry& t : c.tries) {
    ecvrf::h2c_set_ctr(m, uint32_t(t.ctr));
    const std::string in = "pk " + hx(c.pk) + ", alpha '" + hx(c.alpha) + "', ctr " + std::to_string(t.ctr);
    expect(l, c.id, who, "hash_string block", in, hx(t.input), hx(block_bytes(m, int(t.input.size()))));
    uint64_t st[8];
    ecvrf::sha512_one_block<Rolling>(st, m.w);
    uint8_t cand[32];
    ecvrf::sha512_digest_bytes(cand, st, 32);
    expect(l, c.id, who, "candidate", in, hx(t.candidate), hx(cand, 32));
  }
}
// Every try's candidate through layout F's strict decoder and cofactor clearing.
template <class F>
void host_rfc_tries(Lines& l, const RfcCase& c) {
  for (const RfcTry& t : c.tries) {
    ecvrf::ge_ext<F> P, H;
    const ecvrf::DecodeStatus st = ecvrf::ge_decode<F>(P, t.candidate.data());
    const std::string in = "candidate " + hx(t.candidate) + " (ctr " + std::to_string(t.ctr) + ")";
    expect(l, c.id, layout_label<F>(), "strict decode", in, t.decode, ecvrf::decode_status_name(st));
    if (t.decode != "valid" || st != ecvrf::DecodeStatus::valid) continue;
    ecvrf::ge_mul8<F>(H, P, true);
    expect(l, c.id, layout_label<F>(), "8P", in, hx(t.cleared), enc_hex<F>(H));
  }
}
// The fused attempt of variant (F, S) with x and with x mod L: ctr, H, Gamma, 8 Gamma, beta.
template <class F, class S>
void host_rfc_attempt(Lines& l, const RfcCase& c) {
  const std::pair<const char*, const Bytes32*> scalars[] = {{"x", &c.x}, {"x mod L", &c.x_mod_l}};
  for (const auto& [kind, kp] : scalars) {
    const Bytes32& k = *kp;
    const std::string who = variant_label<F, S>(), in = "sk " + hx(c.sk) + ", alpha '" + hx(c.alpha) + "', " + kind;
    guarded(l, c.id, who, std::string("attempt with ") + kind, [&] {
      uint8_t beta[64];
      ecvrf::EcvrfTrace t{};
      ecvrf::ecvrf_beta_alpha<F, S>(beta, c.pk.data(), c.alpha.data(), int(c.alpha.size()), S::recode(k), &t);
      expect(l, c.id, who, "ctr", in, std::to_string(c.ctr), std::to_string(t.ctr));
      if (t.ctr != c.ctr) return;
      expect(l, c.id, who, "H", in, hx(c.h), hx(t.h, 32));
      expect(l, c.id, who, "Gamma", in, hx(c.gamma), hx(t.gamma, 32));
      expect(l, c.id, who, "8 Gamma", in, hx(c.gamma8), hx(t.gamma8, 32));
      expect(l, c.id, who, "beta", in, hx(c.beta), hx(beta, 64));
    });
  }
}

size_t check_rfc(const std::string& file, const std::string& text, Lines& l) {
  const auto cases = load_rfc(file, text);
  for (const RfcCase& c : cases) {
    compare_with_golden(l, c.id, c.raw, build_rfc(c.sk, c.alpha), "sk " + hx(c.sk) + ", alpha '" + hx(c.alpha) + "'");
    for (const RfcKat& k : rfc_kats())
      if (c.raw["sk"] == k.sk && c.raw["alpha"] == k.alpha)
        for (const auto& b : kat_mismatches(k, c.raw)) l.add(c.id, std::string("RFC 9381 ") + k.name + " says " + b);
    host_rfc_hashes<true>(l, c);
    host_rfc_hashes<false>(l, c);
    for_each_host_layout([&]<class F>() { host_rfc_tries<F>(l, c); });
    ecvrf_family::for_each_host_variant([&]<class F, class S>() { host_rfc_attempt<F, S>(l, c); });
  }
  for (const RfcKat& k : rfc_kats())
    if (std::none_of(cases.begin(), cases.end(), [&](const RfcCase& c) { return c.raw["sk"] == k.sk && c.raw["alpha"] == k.alpha; }))
      l.out.push_back(file + ": RFC 9381 " + k.name + " is missing");
  return cases.size();
}

// ==== decode.json =========================================================================================

const char* const kDecodeSchema = "bitexact_ecvrf_decode_v1";

json decode_notes() {
  return Notes()
      .add("NonCanonicalY", "DECODING", "Bits 0..254 are >= p: strict decoding rejects them (RFC 8032 5.1.3 step 1); a decoder that reduces them (spec 2.3 (a)) accepts 24 such encodings.")
      .add("XZeroSignSet", "DECODING", "x = 0 with bit 255 set: strict decoding rejects it (step 4); lax type (b) accepts it.")
      .add("NonSquare", "DECODING", "u/v is not a square: no point; a decoder that skips the check (type (c)) returns a point off the curve.")
      .add("SignBit", "DECODING", "Bit 255 set: a decoder that ignores it (type (d)) returns the negated point.")
      .add("LaxChangesTai", "DECODING", "A lax decoder accepts it as a point NOT of small order (8P is not the identity): the TAI output differs from RFC 9381's (one of the 20 encodings of spec 2.3; about 2^-251 per try, never seen by random tests).")
      .add("LaxSmallOrder", "DECODING", "A lax decoder accepts it as a point of small order: after the cofactor clearing TAI moves on exactly as under rejection.")
      .add("SmallOrder", "EDGE_CASE", "A point of small order (8P = identity): TAI must take the next ctr.")
      .add("TorsionComponent", "COFACTOR", "A point with a torsion component (not in the order-L subgroup, not of small order).")
      .add("PrimeOrder", "BASIC", "A point of the order-L subgroup.")
      .add("SqrtBranchMinus", "BRANCH", "Decoding takes the v x^2 = -u branch (x multiplied by sqrt(-1)).")
      .add("SqrtBranchPlus", "BRANCH", "Decoding takes the v x^2 = u branch.")
      .add("Torsion", "EDGE_CASE", "One of the 8 torsion points (spec 2.4) or one of their non-canonical encodings.")
      .add("TaiCandidate", "BASIC", "A TAI candidate of RFC 9381 Examples 16-18 (spec 4.2).")
      .add("SmallY", "BOUNDARY", "y near 0 or p (u = y^2 - 1 small): both branches of step 3 and the x = 0 cases.")
      .add("Random", "BASIC", "Seeded random 32-byte string.")
      .add("EdgeByte", "DECODING", "Next to a rejection rule in one byte position: y = p - 2^(8i) (below p, differing from p in byte i alone) or a small odd x with the sign set (non-zero in byte 0 alone). A y >= p or x = 0 check that reads only some bytes misjudges it.")
      .add("NonCanonicalX", "ENCODING", "Encoding with X held non-canonically (x + p): the sign bit must be the parity of the canonical x, never of the limbs.")
      .add("NonCanonicalYZ", "ENCODING", "Encoding with Y or Z held non-canonically (>= p).")
      .add("ZeroX", "ENCODING", "x = 0: the sign bit is 0 whatever the representation of 0 (0 or p).")
      .add("ProjectiveZ", "ENCODING", "Z != 1: the encoding divides by Z (one inversion).")
      .add("OffCurve", "ENCODING", "Coordinates not on the curve: the encoding reads no curve equation, only x, y and the parity.")
      .j;
}

// The golden decoder types of spec 2.3 the file records where they differ from the strict one.
const std::vector<std::pair<const char*, G::Laxness>>& lax_types() {
  static const std::vector<std::pair<const char*, G::Laxness>> v = {
      {"reduceY", {true, false, false, false}},         // (a)
      {"acceptXZeroSign", {false, true, false, false}},  // (b)
      {"skipSquareCheck", {false, false, true, false}},  // (c)
      {"ignoreSignBit", {false, false, false, true}},    // (d)
      {"libsodium", {true, true, false, false}},         // (a)+(b): libsodium 1.0.18 ge25519_frombytes (spec 2.3)
  };
  return v;
}

// One decoder outcome: {result: valid, point, cleared (8P), torsionOrder} or {result: invalid, reason}
// (points off the curve, from type (c), have no cleared/torsionOrder).
json outcome(const G::Decoded& d) {
  json j;
  if (const G::Point* P = std::get_if<G::Point>(&d)) {
    j["result"] = "valid";
    j["point"] = hx(G::encode(*P));
    if (G::is_on_curve(*P)) {
      j["cleared"] = hx(G::encode(G::mul_by_cofactor(*P)));
      j["torsionOrder"] = G::torsion_order(*P);
    }
  } else {
    j["result"] = "invalid";
    j["reason"] = std::string(G::name(std::get<G::DecodeError>(d)));
  }
  return j;
}
bool accepted_small(const json& o) { return o["result"] == "valid" && o.contains("cleared") && o["cleared"] == hx(G::encode(G::identity())); }
bool accepted_large(const json& o) { return o["result"] == "valid" && o.contains("cleared") && o["cleared"] != hx(G::encode(G::identity())); }

// Which branch of step 3 a y < p takes (labels only): v x^2 = u with x = u v^3 (u v^7)^((p-5)/8).
const char* sqrt_branch(const Int& y) {
  const Int y2 = RF::sqr(y), u = RF::sub(y2, 1), v = RF::add(RF::mul(G::d(), y2), 1);
  const Int v3 = RF::mul(RF::sqr(v), v), v7 = RF::mul(RF::sqr(v3), v);
  const Int x = RF::mul(RF::mul(u, v3), RF::pow22523(RF::mul(u, v7)));
  const Int vx2 = RF::mul(v, RF::sqr(x));
  return vx2 == RF::field().reduce(u) ? "SqrtBranchPlus" : vx2 == RF::neg(u) ? "SqrtBranchMinus" : nullptr;
}

// encoding -> the strict outcome (flattened into the test) and each lax type's where it differs.
json build_decode(const Bytes32& s, const std::vector<std::string>& source_flags) {
  json flags = json::array();
  for (auto& f : source_flags) add_flag(flags, f);
  Bytes32 low = s;
  low[31] &= 0x7f;
  const bool y_ge_p = val(low) >= RF::p();
  const json strict = outcome(G::decode(s));
  json lax = json::object();
  for (const auto& [name, how] : lax_types()) {
    const json o = outcome(G::decode_lax(s, how));
    if (o == strict) continue;
    lax[name] = o;
    if (strict["result"] == "invalid" && accepted_large(o)) add_flag(flags, "LaxChangesTai");
    if (strict["result"] == "invalid" && accepted_small(o)) add_flag(flags, "LaxSmallOrder");
  }
  if (y_ge_p) add_flag(flags, "NonCanonicalY");
  if (strict.value("reason", "") == "x_zero_sign_set") add_flag(flags, "XZeroSignSet");
  if (strict.value("reason", "") == "not_square") add_flag(flags, "NonSquare");
  if (s[31] & 0x80) add_flag(flags, "SignBit");
  if (strict["result"] == "valid") {
    if (accepted_small(strict)) add_flag(flags, "SmallOrder");
    else add_flag(flags, strict["torsionOrder"] == 1 ? "PrimeOrder" : "TorsionComponent");
  }
  if (!y_ge_p)
    if (const char* b = sqrt_branch(val(low)); b && strict["result"] == "valid") add_flag(flags, b);
  json out;
  out["flags"] = flags;
  out["encoding"] = hx(s);
  for (auto it = strict.begin(); it != strict.end(); ++it)
    if (it.key() != "result") out[it.key()] = *it;
  if (!lax.empty()) out["lax"] = lax;
  out["result"] = strict["result"];  // the strict verdict: "valid" or "invalid"
  return out;
}

// (X, Y, Z) raw < 2^255 -> encode((X/Z, Y/Z) mod p).
json build_encode(const Bytes32& X, const Bytes32& Y, const Bytes32& Z) {
  const Int zi = RF::invert(val(Z));
  const G::Point P{RF::mul(val(X), zi), RF::mul(val(Y), zi)};
  json flags = json::array();
  if (val(X) >= RF::p()) add_flag(flags, "NonCanonicalX");
  if (val(Y) >= RF::p() || val(Z) >= RF::p()) add_flag(flags, "NonCanonicalYZ");
  if (P.x == 0) add_flag(flags, "ZeroX");
  if (RF::field().reduce(val(Z)) != 1) add_flag(flags, "ProjectiveZ");
  if (!G::is_on_curve(P)) add_flag(flags, "OffCurve");
  return {{"flags", flags}, {"X", hx(X)}, {"Y", hx(Y)}, {"Z", hx(Z)}, {"encoding", hx(G::encode(P))}};
}

struct DecodeInput {
  Bytes32 s;
  std::string comment;
  std::vector<std::string> flags;
};
// The decoder table of spec 2.3, the torsion encodings of 2.4 (with their non-canonical forms), the TAI
// candidates of 4.2, y near 0 and p, and seeded strings.
std::vector<std::pair<std::string, std::vector<DecodeInput>>> decode_inputs() {
  const Int& p = RF::p();
  std::vector<std::pair<std::string, std::vector<DecodeInput>>> g;
  const auto with_sign = [](Bytes32 b, int sign) {
    b[31] = uint8_t((b[31] & 0x7f) | (sign << 7));
    return b;
  };
  auto& a = g.emplace_back("y >= p: y = p + j, j = 0..18, both sign bits (spec 2.3 (a))", std::vector<DecodeInput>{}).second;
  for (int j = 0; j < 19; ++j)
    for (int sign = 0; sign < 2; ++sign)
      a.push_back({with_sign(b32(p + j), sign), "y = p + " + std::to_string(j) + ", sign " + std::to_string(sign), {}});
  auto& b = g.emplace_back("x = 0 with the sign bit set (spec 2.3 (b))", std::vector<DecodeInput>{}).second;
  b.push_back({with_sign(b32(1), 1), "y = 1 (identity) with the sign set", {}});
  b.push_back({with_sign(b32(p - 1), 1), "y = -1 (order 2) with the sign set", {}});
  auto& e = g.emplace_back("next to each rejection rule in every byte position (y = p - 2^(8i); small odd x with the sign set)",
                           std::vector<DecodeInput>{}).second;
  for (const ecvrf_family::EdgeEncoding& x : ecvrf_family::decode_edge_encodings()) e.push_back({x.s, x.comment, {"EdgeByte"}});
  auto& t = g.emplace_back("torsion points (spec 2.4) and their non-canonical encodings", std::vector<DecodeInput>{}).second;
  const auto& tp = G::torsion_points();
  for (int k = 0; k < 8; ++k)
    t.push_back({G::encode(tp[k]), "torsion point " + std::to_string(k) + "*T8 (order " +
                                       std::to_string(G::order(tp[k]).convert_to<int>()) + ")", {"Torsion"}});
  t.push_back({with_sign(b32(1), 1), "identity with the sign set (x = 0)", {"Torsion"}});
  t.push_back({with_sign(b32(p - 1), 1), "order 2 point with the sign set (x = 0)", {"Torsion"}});
  t.push_back({b32(p + 1), "identity as y = p + 1", {"Torsion"}});
  t.push_back({with_sign(b32(p + 1), 1), "identity as y = p + 1 with the sign set", {"Torsion"}});
  t.push_back({b32(p), "order 4 point (y = 0, x even) as y = p", {"Torsion"}});
  t.push_back({with_sign(b32(p), 1), "order 4 point (y = 0, x odd) as y = p", {"Torsion"}});
  auto& c = g.emplace_back("TAI candidates of RFC 9381 Examples 16-18 (spec 4.2)", std::vector<DecodeInput>{}).second;
  for (const RfcKat& k : rfc_kats())
    for (const KatTry& kt : k.tries)
      c.push_back({bytes32_from_hex(kt.candidate, "candidate"), k.name + std::string(", ctr ") + std::to_string(kt.ctr),
                   {"TaiCandidate"}});
  auto& y = g.emplace_back("y near 0 and p (both branches of step 3)", std::vector<DecodeInput>{}).second;
  for (int j = 2; j <= 9; ++j) {
    y.push_back({b32(Int(j)), "y = " + std::to_string(j), {"SmallY"}});
    y.push_back({with_sign(b32(p - j), 1), "y = p - " + std::to_string(j) + ", sign 1", {"SmallY"}});
  }
  auto& r = g.emplace_back("seeded random strings", std::vector<DecodeInput>{}).second;
  SplitMix sm{0xec7f0dec0de};
  for (int i = 0; i < 32; ++i) r.push_back({sm.bytes32(), "seeded random", {"Random"}});
  return g;
}

struct EncodeInput {
  Bytes32 X, Y, Z;
  std::string comment;
};
// Coordinates held non-canonically before compression (the parity class of spec 2.4), projective Z.
std::vector<EncodeInput> encode_inputs() {
  const Int& p = RF::p();
  const G::Point B = G::base_point();
  const Int s = RF::sqrt_m1();
  std::vector<EncodeInput> v = {
      {b32(p), b32(1), b32(1), "identity with X = p (0 held as p)"},
      {b32(p), b32(p + 1), b32(1), "identity with X = p, Y = p + 1"},
      {b32(p), b32(p - 1), b32(1), "order 2 point (0, -1) with X = p"},
      {b32(s), b32(p), b32(1), "order 4 point (sqrt(-1), 0) with Y = p"},
      {b32(p - s), b32(p), b32(1), "order 4 point (-sqrt(-1), 0) with Y = p"},
      {b32(B.x), b32(B.y), b32(p + 1), "B with Z = p + 1 (1 held as p + 1)"},
  };
  for (int z : {2, 19, 38})
    v.push_back({b32(RF::mul(B.x, z)), b32(RF::mul(B.y, z)), b32(Int(z)), "B with Z = " + std::to_string(z)});
  v.push_back({b32(RF::neg(B.x)), b32(RF::neg(B.y)), b32(p - 1), "B with Z = p - 1"});
  for (int x = 1; x < 19; ++x)  // X = x + p: the values p + 1 .. 2^255 - 1, all that 255 bits hold
    v.push_back({b32(p + x), b32(Int(1000003) * (x + 7)), b32(1), "X = " + std::to_string(x) + " + p (off the curve)"});
  return v;
}

std::string generate_decode() {
  json groups = json::array();
  int id = 0;
  for (const auto& [what, inputs] : decode_inputs()) {
    json tests = json::array();
    for (const DecodeInput& in : inputs) tests.push_back(numbered(++id, in.comment, build_decode(in.s, in.flags)));
    groups.push_back({{"type", "decode"}, {"comment", what}, {"tests", tests}});
  }
  json tests = json::array();
  for (const EncodeInput& in : encode_inputs()) tests.push_back(numbered(++id, in.comment, build_encode(in.X, in.Y, in.Z)));
  groups.push_back({{"type", "encode"}, {"comment", "coordinates held non-canonically before compression"}, {"tests", tests}});
  return render(header("edwards25519 point decoding and encoding", kDecodeSchema,
                       "RFC 8032 5.1.2-5.1.3 and docs/specs/field25519_ecvrf.md 2.3-2.4; every value from the golden model "
                       "(reference/ecvrf decode, decode_lax, encode). 'lax' holds each lax decoder's outcome where it "
                       "differs from the strict one: reduceY (spec 2.3 (a)), acceptXZeroSign ((b)), skipSquareCheck ((c)), "
                       "ignoreSignBit ((d)), libsodium ((a)+(b): libsodium 1.0.18 crypto_core_ed25519_add, checked "
                       "against the library by vectors check)",
                       id, decode_notes(), groups),
                "testGroups");
}

struct DecodeCase {
  int id;
  json raw;
  Bytes32 s;
  bool valid;
  std::string reason;
  Bytes32 point{}, cleared{};
};
struct EncodeCase {
  int id;
  json raw;
  Bytes32 X, Y, Z, enc;
};
struct DecodeFile {
  std::vector<DecodeCase> decodes;
  std::vector<EncodeCase> encodes;
};

void load_outcome(const json& o, const std::string& where) {
  if (!o.is_object() || !o.contains("result") || !o["result"].is_string())
    throw InputError(where + ": expected an object with a string 'result'");
  if (o["result"] == "valid") {
    require_keys(o, {"result", "point"}, {"cleared", "torsionOrder"}, where);
    get_b32(o, "point", where);
    if (o.contains("cleared") != o.contains("torsionOrder")) throw InputError(where + ": 'cleared' and 'torsionOrder' come together");
    if (o.contains("cleared")) get_b32(o, "cleared", where), get_int(o, "torsionOrder", 1, 8, where);
  } else if (o["result"] == "invalid") {
    require_keys(o, {"result", "reason"}, {}, where);
    get_str(o, "reason", where);
  } else {
    throw InputError(where + ": field 'result': expected 'valid' or 'invalid'");
  }
}

DecodeFile load_decode(const std::string& file, const std::string& text) {
  const json top = parse_file(file, text, kDecodeSchema);
  DecodeFile out;
  for_each_test(top, file, {"type", "comment"}, [&](const json& g, const json& t, const std::string& where) {
    const std::string type = g["type"].is_string() ? g["type"].get<std::string>() : "";
    const int id = t["tcId"].get<int>();
    if (type == "decode") {
      const bool valid = t.is_object() && t.contains("result") && t["result"] == "valid";
      if (valid) require_keys(t, {"tcId", "comment", "flags", "encoding", "point", "cleared", "torsionOrder", "result"}, {"lax"}, where);
      else require_keys(t, {"tcId", "comment", "flags", "encoding", "reason", "result"}, {"lax"}, where);
      get_str(t, "comment", where);
      get_flags(t, top["notes"], where);
      DecodeCase c{id, t, get_b32(t, "encoding", where), valid, valid ? "valid" : get_str(t, "reason", where)};
      if (valid) c.point = get_b32(t, "point", where), c.cleared = get_b32(t, "cleared", where), get_int(t, "torsionOrder", 1, 8, where);
      else check_result_is(t, "invalid", where);
      if (t.contains("lax")) {
        if (!t["lax"].is_object()) throw InputError(where + ": field 'lax' must be an object");
        for (auto it = t["lax"].begin(); it != t["lax"].end(); ++it) {
          if (std::none_of(lax_types().begin(), lax_types().end(), [&](auto& l) { return it.key() == l.first; }))
            throw InputError(where + ": field 'lax': unknown decoder type '" + it.key() + "'");
          load_outcome(*it, where + ": lax." + it.key());
        }
      }
      out.decodes.push_back(std::move(c));
    } else if (type == "encode") {
      require_keys(t, {"tcId", "comment", "flags", "X", "Y", "Z", "encoding", "result"}, {}, where);
      get_str(t, "comment", where);
      get_flags(t, top["notes"], where);
      EncodeCase c{id, t, get_b32_lt_2_255(t, "X", where), get_b32_lt_2_255(t, "Y", where), get_b32_lt_2_255(t, "Z", where),
                   get_b32(t, "encoding", where)};
      if (RF::field().reduce(val(c.Z)) == 0) throw InputError(where + ": field 'Z': must not be 0 mod p");
      check_result(t, where);
      out.encodes.push_back(std::move(c));
    } else {
      throw InputError(file + ": testGroups: field 'type': expected 'decode' or 'encode'");
    }
  });
  return out;
}

// Strict decode through layout F: verdict, re-encoding, 8P and TAI's "valid and not of small order".
template <class F>
void host_decode(Lines& l, const DecodeCase& c) {
  const std::string who = layout_label<F>(), in = "encoding " + hx(c.s);
  ecvrf::ge_ext<F> P, H;
  const ecvrf::DecodeStatus st = ecvrf::ge_decode<F>(P, c.s.data());
  expect(l, c.id, who, "strict decode", in, c.reason, ecvrf::decode_status_name(st));
  const bool tai_h = ecvrf::candidate_to_h<F>(H, c.s.data());
  const bool want_h = c.valid && c.cleared != G::encode(G::identity());
  expect(l, c.id, who, "candidate_to_h (a valid H, not the identity)", in, want_h ? "true" : "false", tai_h ? "true" : "false");
  const bool tai_p = ecvrf::candidate_to_p<F>(P, c.s.data());  // the cofactor-folded pipelines' test by y
  expect(l, c.id, who, "candidate_to_p (valid, not of small order)", in, want_h ? "true" : "false", tai_p ? "true" : "false");
  ecvrf::ge_decode<F>(P, c.s.data());
  if (!c.valid || st != ecvrf::DecodeStatus::valid) return;
  expect(l, c.id, who, "re-encoding", in, hx(c.point), enc_hex<F>(P));
  ecvrf::ge_mul8<F>(H, P, true);
  expect(l, c.id, who, "8P", in, hx(c.cleared), enc_hex<F>(H));
}
// Compression of (X : Y : Z) held as given, through layout F.
template <class F>
void host_encode(Lines& l, const EncodeCase& c) {
  ecvrf::ge_ext<F> P;
  F::from_bytes(P.X, c.X.data());
  F::from_bytes(P.Y, c.Y.data());
  F::from_bytes(P.Z, c.Z.data());
  F::mul(P.T, P.X, P.Y);  // not read by the encoding
  expect(l, c.id, layout_label<F>(), "encoding", "X " + hx(c.X) + ", Y " + hx(c.Y) + ", Z " + hx(c.Z), hx(c.enc), enc_hex<F>(P));
}

// libsodium's lax decoder (crypto_core_ed25519_add(s, identity), spec 4.3) as independent evidence for the
// file's "libsodium" entry (or the strict outcome where the file has none): accepted with the same
// canonical re-encoding, or rejected.
void sodium_decode(Lines& l, const DecodeCase& c) {
  const json& want = c.raw.contains("lax") && c.raw["lax"].contains("libsodium") ? c.raw["lax"]["libsodium"] : c.raw;
  Bytes32 identity{};
  identity[0] = 1;
  const std::optional<Bytes32> got = G::sodium_add(c.s, identity);
  const std::string w = want["result"] == "valid" ? want["point"].get<std::string>() : "rejected";
  expect(l, c.id, "libsodium", "crypto_core_ed25519_add(encoding, identity)", "encoding " + hx(c.s), w, got ? hx(*got) : "rejected");
}

size_t check_decode(const std::string& file, const std::string& text, Lines& l) {
  const DecodeFile f = load_decode(file, text);
  for (const DecodeCase& c : f.decodes) {
    compare_with_golden(l, c.id, c.raw, build_decode(c.s, {}), "encoding " + hx(c.s));
    sodium_decode(l, c);
    for_each_host_layout([&]<class F>() { host_decode<F>(l, c); });
  }
  for (const EncodeCase& c : f.encodes) {
    compare_with_golden(l, c.id, c.raw, build_encode(c.X, c.Y, c.Z), "X " + hx(c.X) + ", Y " + hx(c.Y) + ", Z " + hx(c.Z));
    for_each_host_layout([&]<class F>() { host_encode<F>(l, c); });
  }
  return f.decodes.size() + f.encodes.size();
}

// ==== scalarmult.json =====================================================================================

const char* const kScalarSchema = "bitexact_ecvrf_scalarmult_v1";

json scalar_notes() {
  return Notes()
      .add("ZeroScalar", "EDGE_CASE", "k = 0: the identity; Joye-Tunstall recodes it as 1 with a final -H.")
      .add("EvenScalar", "RECODING", "Even k > 0: Joye-Tunstall recodes k - 1 and adds H at the end (a recoder without the fix-up fails).")
      .add("Bit254", "SCALAR_RANGE", "k >= 2^254: a double-and-add loop over bits 0..253 drops bit 254 (every clamped x).")
      .add("WnafCarryOut", "RECODING", "The width-5 wNAF of k has a digit above k's top bit: a window-reading recoder that drops the final carry fails (zkcrypto/group#83).")
      .add("NegativeDigits", "NEGATION", "The signed recodings of k have negative digits: a negated cached point that swaps Y+X and Y-X without negating 2dT fails (pycryptodome#810).")
      .add("ScalarAtLeastL", "REDUCTION", "k >= L: k P = (k mod L) P only for P in the order-L subgroup; the torsion groups tell the two apart.")
      .add("Extremal", "EDGE_CASE", "An extremal scalar of spec 3 / 6.1 (0, 1, 2, 7, 8, L - 1, L, L + 1, 2^252, 2^253 - 1, 2^254, 2^255 - 1, 2^255 - 8, 2^255 - 19, 0x55..55, 4L); all below 2^255, the range of every strategy.")
      .add("RfcSecret", "BASIC", "x or x mod L of RFC 9381 Examples 16-18 (x B is the public key).")
      .add("TorsionComponent", "COFACTOR", "The point has a torsion component: the result depends on k mod 8L (or k mod 8), not on k mod L.")
      .j;
}

// Flags of k from its integer value alone (an independent signed-window recoding on cpp_int: labels only).
json scalar_flags(const Int& k, const std::string& source) {
  json f = json::array({source});
  if (k == 0) add_flag(f, "ZeroScalar");
  else if (!bit_test(k, 0)) add_flag(f, "EvenScalar");
  if (k >= pow2(254)) add_flag(f, "Bit254");
  Int r = k;
  int pos = 0, top = -1;
  bool negative = false;
  while (r > 0) {  // width-5 NAF: odd digits in (-16, 16)
    if (bit_test(r, 0)) {
      int d = Int(r % 32).convert_to<int>();
      if (d >= 16) d -= 32;
      negative = negative || d < 0;
      r -= d;
      top = pos;
    }
    r >>= 1;
    ++pos;
  }
  if (k > 0 && top >= int(boost::multiprecision::msb(k)) + 1) add_flag(f, "WnafCarryOut");
  if (negative) add_flag(f, "NegativeDigits");
  if (k >= G::L()) add_flag(f, "ScalarAtLeastL");
  return f;
}

struct ScalarPoint {
  const char* name;
  G::Point P;
};
std::vector<ScalarPoint> scalar_points() {
  const G::Point& B = G::base_point();
  const G::Point& T8 = G::torsion_points()[1];
  return {{"B", B}, {"B + T8 (order 8L)", G::add(B, T8)}, {"T8 (order 8)", T8}};
}
struct ScalarInput {
  Int k;
  std::string name, source;
};
std::vector<ScalarInput> scalar_inputs() {
  const Int& L = G::L();
  Int fives = 0;
  for (int i = 0; i < 32; ++i) fives = (fives << 8) | 0x55;
  std::vector<ScalarInput> v = {{0, "0", "Extremal"}, {1, "1", "Extremal"}, {2, "2", "Extremal"}, {7, "7", "Extremal"},
                                {8, "8", "Extremal"}, {L - 1, "L - 1", "Extremal"}, {L, "L", "Extremal"},
                                {L + 1, "L + 1", "Extremal"}, {pow2(252), "2^252", "Extremal"},
                                {pow2(253) - 1, "2^253 - 1", "Extremal"}, {pow2(254), "2^254", "Extremal"},
                                {pow2(255) - 1, "2^255 - 1", "Extremal"}, {pow2(255) - 8, "2^255 - 8", "Extremal"},
                                {pow2(255) - 19, "2^255 - 19", "Extremal"}, {fives, "0x55..55", "Extremal"},
                                {4 * L, "4L", "Extremal"}};
  for (const RfcKat& k : rfc_kats()) {
    const G::VrfKey key = G::vrf_key(bytes32_from_hex(k.sk, "sk"));
    v.push_back({key.x, std::string(k.name) + " x", "RfcSecret"});
    v.push_back({key.x_mod_l, std::string(k.name) + " x mod L", "RfcSecret"});
  }
  return v;
}

// (point, k) -> encode(k P), every bit of k used (no clamping, no reduction).
json build_scalar(const Bytes32& point, const Bytes32& k, const std::string& source, bool torsion) {
  const G::Point P = std::get<G::Point>(G::decode(point));
  json f = scalar_flags(val(k), source);
  if (torsion) add_flag(f, "TorsionComponent");
  return {{"flags", f}, {"scalar", hx(k)}, {"out", hx(G::encode(G::mul(val(k), P)))}};
}

std::string generate_scalar() {
  json groups = json::array();
  int id = 0;
  const auto ks = scalar_inputs();
  for (const ScalarPoint& sp : scalar_points()) {
    const Bytes32 enc = G::encode(sp.P);
    const bool torsion = G::torsion_order(sp.P) > 1;
    json tests = json::array();
    for (const ScalarInput& in : ks)
      tests.push_back(numbered(++id, in.name + " times " + sp.name, build_scalar(enc, b32(in.k), in.source, torsion)));
    groups.push_back({{"type", "scalarmult"}, {"point", sp.name}, {"encoding", hx(enc)}, {"tests", tests}});
  }
  return render(header("edwards25519 scalar multiplication", kScalarSchema,
                       "docs/specs/field25519_ecvrf.md 3 and 6.1 (extremal scalars); every value from the golden model "
                       "(reference/ecvrf mul: every bit of k, no clamping, no reduction mod L)",
                       id, scalar_notes(), groups),
                "testGroups");
}

struct ScalarCase {
  int id;
  json raw;
  std::string point_name;
  Bytes32 point, k, out;
  std::vector<std::string> flags;
};
std::vector<ScalarCase> load_scalar(const std::string& file, const std::string& text) {
  const json top = parse_file(file, text, kScalarSchema);
  std::vector<ScalarCase> out;
  for_each_test(top, file, {"type", "point", "encoding"}, [&](const json& g, const json& t, const std::string& where) {
    if (g["type"] != "scalarmult") throw InputError(file + ": testGroups: field 'type': expected 'scalarmult'");
    const std::string gw = file + ": testGroups";
    const Bytes32 point = get_b32(g, "encoding", gw);
    if (!std::holds_alternative<G::Point>(G::decode(point))) throw InputError(gw + ": field 'encoding': not a point (strict decode)");
    require_keys(t, {"tcId", "comment", "flags", "scalar", "out", "result"}, {}, where);
    get_str(t, "comment", where);
    ScalarCase c{t["tcId"].get<int>(), t, get_str(g, "point", gw), point, get_b32_lt_2_255(t, "scalar", where),
                 get_b32(t, "out", where), get_flags(t, top["notes"], where)};
    check_result(t, where);
    out.push_back(std::move(c));
  });
  return out;
}

// k P through variant (F, S): the strategy's host recoding (it asserts its reconstruction), evaluation,
// the T*Z = X*Y invariant of the result, the encoding.
template <class F, class S>
void host_scalar(Lines& l, const ScalarCase& c, const ecvrf::ge_ext<F>& P) {
  const std::string who = variant_label<F, S>(), in = "k " + hx(c.k) + ", P " + hx(c.point);
  guarded(l, c.id, who, "k P (" + in + ")", [&] {
    ecvrf::ge_ext<F> R;
    S::template mul<F>(R, P, S::recode(c.k));
    if (!ecvrf::ge_t_consistent<F>(R)) l.add(c.id, who + ": T*Z != X*Y after the multiplication (" + in + ")");
    expect(l, c.id, who, "k P", in, hx(c.out), enc_hex<F>(R));
  });
}

size_t check_scalar(const std::string& file, const std::string& text, Lines& l) {
  const auto cases = load_scalar(file, text);
  for (const ScalarCase& c : cases) {
    const bool torsion = std::find(c.flags.begin(), c.flags.end(), "TorsionComponent") != c.flags.end();
    const std::string source = c.flags.empty() ? "" : c.flags.front();
    compare_with_golden(l, c.id, c.raw, build_scalar(c.point, c.k, source, torsion), "k " + hx(c.k) + ", P " + hx(c.point));
  }
  ecvrf_family::for_each_host_variant([&]<class F, class S>() {
    for (const ScalarCase& c : cases) {
      ecvrf::ge_ext<F> P;
      if (ecvrf::ge_decode<F>(P, c.point.data()) != ecvrf::DecodeStatus::valid) {
        l.add(c.id, variant_label<F, S>() + ": the point " + hx(c.point) + " does not decode");
        continue;
      }
      host_scalar<F, S>(l, c, P);
    }
  });
  return cases.size();
}

// ==== batch_invert.json ===================================================================================

const char* const kBatchSchema = "bitexact_ecvrf_batch_invert_v1";
constexpr int kMaxBatch = 8;  // fe_batch_invert's K: 1..8

json batch_notes() {
  return Notes()
      .add("Single", "EDGE_CASE", "One value: the batch is a single inversion.")
      .add("ZeroFirst", "ZERO_MASK", "A zero in the first position (its inverse is 0; without the zero mask every output is 0).")
      .add("ZeroMiddle", "ZERO_MASK", "A zero inside the batch.")
      .add("ZeroLast", "ZERO_MASK", "A zero in the last position.")
      .add("AllZero", "ZERO_MASK", "Every value is 0 (the prefix product is 1 after the mask).")
      .add("NonCanonicalZero", "ZERO_MASK", "p, a non-canonical 0: the zero test must look at the canonical value.")
      .add("NonCanonicalInput", "REDUCTION", "A value >= p (held unreduced by from_bytes).")
      .add("Repeat", "EDGE_CASE", "A value occurs twice.")
      .add("One", "EDGE_CASE", "The value 1 (or p + 1).")
      .add("MinusOne", "EDGE_CASE", "The value p - 1.")
      .add("OddSize", "EDGE_CASE", "An odd batch size.")
      .add("MaxSize", "EDGE_CASE", "The largest batch of the implementation (8 values).")
      .add("Plain", "BASIC", "Distinct canonical non-zero values: the prefix products and the walk back alone.")
      .j;
}

json batch_flags(const std::vector<Bytes32>& in) {
  const Int& p = RF::p();
  json f = json::array();
  const auto zero = [&](const Bytes32& b) { return RF::field().reduce(val(b)) == 0; };
  if (in.size() == 1) add_flag(f, "Single");
  if (in.size() % 2 && in.size() > 1) add_flag(f, "OddSize");
  if (in.size() == size_t(kMaxBatch)) add_flag(f, "MaxSize");
  if (std::all_of(in.begin(), in.end(), zero)) add_flag(f, "AllZero");
  else {
    if (zero(in.front())) add_flag(f, "ZeroFirst");
    if (in.size() > 2 && std::any_of(in.begin() + 1, in.end() - 1, zero)) add_flag(f, "ZeroMiddle");
    if (in.size() > 1 && zero(in.back())) add_flag(f, "ZeroLast");
  }
  for (size_t i = 0; i < in.size(); ++i) {
    const Int v = val(in[i]);
    if (v == p) add_flag(f, "NonCanonicalZero");
    if (v >= p) add_flag(f, "NonCanonicalInput");
    if (RF::field().reduce(v) == 1) add_flag(f, "One");
    if (v == p - 1) add_flag(f, "MinusOne");
    for (size_t j = 0; j < i; ++j)
      if (in[j] == in[i] && !zero(in[i])) add_flag(f, "Repeat");
  }
  if (f.empty() || (f.size() == 1 && (f[0] == "OddSize" || f[0] == "MaxSize"))) add_flag(f, "Plain");
  return f;
}
// inputs (raw, < 2^255) -> the single inversions (0 for 0), canonical.
json build_batch(const std::vector<Bytes32>& in) {
  json ins = json::array(), outs = json::array();
  for (const Bytes32& b : in) {
    ins.push_back(hx(b));
    outs.push_back(hx(b32(RF::invert(val(b)))));
  }
  return {{"flags", batch_flags(in)}, {"in", ins}, {"out", outs}};
}

std::vector<std::pair<std::string, std::vector<Bytes32>>> batch_inputs() {
  const Int& p = RF::p();
  SplitMix sm{0xba7c41a7};
  Bytes32 r[8];
  for (auto& x : r) x = sm.below_2_255();
  const Bytes32 z{}, one = b32(1), m1 = b32(p - 1), praw = b32(p), p1 = b32(p + 1), top = b32(pow2(255) - 1);
  const Bytes32 a = r[0], b = r[1], c = r[2], d = r[3];
  return {{"one value", {a}},
          {"zero alone", {z}},
          {"1 alone", {one}},
          {"p - 1 alone", {m1}},
          {"two values", {a, b}},
          {"zero first", {z, a}},
          {"zero last", {a, z}},
          {"two zeros", {z, z}},
          {"zero in the middle of three", {a, z, b}},
          {"three values", {a, b, c}},
          {"repeats", {a, a, b, b}},
          {"zero first, then 1", {z, a, b, one}},
          {"zero, then p - 1 last", {a, b, z, m1}},
          {"p (non-canonical 0), p + 1 (non-canonical 1), 2^255 - 1", {praw, a, m1, p1, top}},
          {"zeros first, middle and last of seven", {z, a, b, z, one, m1, z}},
          {"eight values with repeats, 1 and p - 1", {a, b, a, b, one, m1, c, d}},
          {"eight zeros", {z, z, z, z, z, z, z, z}},
          {"zeros first and last of eight", {z, r[2], r[3], r[4], r[5], r[6], r[7], z}},
          {"eight seeded values", {r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]}},
          {"p at every other place", {praw, a, praw, b, praw, c, praw, d}}};
}

std::string generate_batch() {
  json tests = json::array();
  int id = 0;
  for (const auto& [what, in] : batch_inputs()) tests.push_back(numbered(++id, what, build_batch(in)));
  const json groups = json::array({{{"type", "batch-invert"}, {"tests", tests}}});
  return render(header("GF(2^255-19) Montgomery batch inversion", kBatchSchema,
                       "docs/specs/field25519_ecvrf.md 3.3; out[i] = in[i]^(p-2) mod p (0 for 0) from the golden model "
                       "(reference/field25519 invert)",
                       id, batch_notes(), groups),
                "testGroups");
}

struct BatchCase {
  int id;
  json raw;
  std::vector<Bytes32> in, out;
};
std::vector<BatchCase> load_batch(const std::string& file, const std::string& text) {
  const json top = parse_file(file, text, kBatchSchema);
  std::vector<BatchCase> out;
  for_each_test(top, file, {"type"}, [&](const json&, const json& t, const std::string& where) {
    require_keys(t, {"tcId", "comment", "flags", "in", "out", "result"}, {}, where);
    get_str(t, "comment", where);
    get_flags(t, top["notes"], where);
    BatchCase c{t["tcId"].get<int>(), t, {}, {}};
    const json &in = get_array(t, "in", where), &o = get_array(t, "out", where);
    if (in.empty() || in.size() > size_t(kMaxBatch) || o.size() != in.size())
      throw InputError(where + ": fields 'in' and 'out' must hold the same number (1.." + std::to_string(kMaxBatch) + ") of values");
    for (size_t i = 0; i < in.size(); ++i) {
        c.in.push_back(elem_b32(in[i], true, where + ": field 'in'[" + std::to_string(i) + "]"));
      c.out.push_back(elem_b32(o[i], false, where + ": field 'out'[" + std::to_string(i) + "]"));
    }
    check_result(t, where);
    out.push_back(std::move(c));
  });
  return out;
}

template <class F, int K>
void batch_invert_k(typename F::fe* out, const typename F::fe* in) {
  ecvrf::fe_batch_invert<F, K>(out, in);
}
// fe_batch_invert<F, K> with K = n (1..8).
template <class F>
void batch_invert_n(typename F::fe* out, const typename F::fe* in, size_t n) {
  switch (n) {
    case 1: return batch_invert_k<F, 1>(out, in);
    case 2: return batch_invert_k<F, 2>(out, in);
    case 3: return batch_invert_k<F, 3>(out, in);
    case 4: return batch_invert_k<F, 4>(out, in);
    case 5: return batch_invert_k<F, 5>(out, in);
    case 6: return batch_invert_k<F, 6>(out, in);
    case 7: return batch_invert_k<F, 7>(out, in);
    default: return batch_invert_k<F, 8>(out, in);
  }
}
template <class F>
void host_batch(Lines& l, const BatchCase& c) {
  typename F::fe in[kMaxBatch], out[kMaxBatch];
  std::string inputs = "in";
  for (size_t j = 0; j < c.in.size(); ++j) {
    F::from_bytes(in[j], c.in[j].data());
    inputs += " " + hx(c.in[j]);
  }
  batch_invert_n<F>(out, in, c.in.size());
  for (size_t j = 0; j < c.in.size(); ++j) {
    uint8_t got[32];
    F::to_bytes(got, out[j]);
    expect(l, c.id, layout_label<F>(), "batch inversion of " + std::to_string(c.in.size()) + ", out[" + std::to_string(j) + "]",
           inputs, hx(c.out[j]), hx(got, 32));
  }
}

size_t check_batch(const std::string& file, const std::string& text, Lines& l) {
  const auto cases = load_batch(file, text);
  for (const BatchCase& c : cases) {
    std::string inputs = "in";
    for (auto& b : c.in) inputs += " " + hx(b);
    compare_with_golden(l, c.id, c.raw, build_batch(c.in), inputs);
    for_each_host_layout([&]<class F>() { host_batch<F>(l, c); });
  }
  return cases.size();
}

// ==== sha512.json =========================================================================================

const char* const kShaSchema = "bitexact_ecvrf_sha512_v1";
constexpr int kShaMaxLen = 300;

json sha_notes() {
  return Notes()
      .add("Length", "BASIC", "Every length 0..300: block assembly and the position of the 0x80 byte.")
      .add("EmptyMessage", "EDGE_CASE", "The empty message: one block of padding only.")
      .add("PaddingBoundary", "PADDING", "111 (the longest one-block message), 112 (the shortest two-block one), 239, 240: the 0x80 byte and the 16-byte length field change blocks.")
      .add("LengthField", "PADDING", "A padding sized with SHA-256's 8-byte length field takes one block too few here (112..119, 240..247).")
      .add("BlockMultiple", "PADDING", "A whole number of 128-byte blocks: the padding is a block of its own.")
      .j;
}
Bytes sha_pattern(size_t n) {  // byte i = (131 i + 7) mod 256, the selftest's pattern
  Bytes m(n);
  for (size_t i = 0; i < n; ++i) m[i] = uint8_t(i * 131 + 7);
  return m;
}
json build_sha(const Bytes& msg) {
  const size_t n = msg.size();
  json f = json::array({"Length"});
  if (n == 0) add_flag(f, "EmptyMessage");
  if (n == 111 || n == 112 || n == 239 || n == 240) add_flag(f, "PaddingBoundary");
  if ((n + 9 + 127) / 128 != (n + 17 + 127) / 128) add_flag(f, "LengthField");
  if (n > 0 && n % 128 == 0) add_flag(f, "BlockMultiple");
  return {{"flags", f}, {"msg", hx(msg)}, {"digest", hx(G::sha512(msg))}};
}
std::string generate_sha() {
  json tests = json::array();
  int id = 0;
  for (int n = 0; n <= kShaMaxLen; ++n) tests.push_back(numbered(++id, "length " + std::to_string(n), build_sha(sha_pattern(n))));
  const json groups = json::array({{{"type", "sha512"}, {"pattern", "byte i = (131 i + 7) mod 256"}, {"tests", tests}}});
  return render(header("SHA-512", kShaSchema, "FIPS 180-4; digests from OpenSSL (EVP_sha512) through reference/ecvrf sha512",
                       id, sha_notes(), groups),
                "testGroups");
}
struct ShaCase {
  int id;
  json raw;
  Bytes msg;
  Bytes64 digest;
};
std::vector<ShaCase> load_sha(const std::string& file, const std::string& text) {
  const json top = parse_file(file, text, kShaSchema);
  std::vector<ShaCase> out;
  for_each_test(top, file, {"type", "pattern"}, [&](const json&, const json& t, const std::string& where) {
    require_keys(t, {"tcId", "comment", "flags", "msg", "digest", "result"}, {}, where);
    get_str(t, "comment", where);
    get_flags(t, top["notes"], where);
    out.push_back({t["tcId"].get<int>(), t, get_bytes(t, "msg", where), get_b64(t, "digest", where)});
    check_result(t, where);
  });
  return out;
}
template <bool Rolling>
void host_sha(Lines& l, const ShaCase& c) {
  uint8_t d[64];
  ecvrf::sha512<Rolling>(d, c.msg.data(), uint32_t(c.msg.size()));
  expect(l, c.id, schedule_name<Rolling>(), "digest", "length " + std::to_string(c.msg.size()), hx(c.digest), hx(d, 64));
}
size_t check_sha(const std::string& file, const std::string& text, Lines& l) {
  const auto cases = load_sha(file, text);
  for (const ShaCase& c : cases) {
    compare_with_golden(l, c.id, c.raw, build_sha(c.msg), "length " + std::to_string(c.msg.size()));
    host_sha<true>(l, c);
    host_sha<false>(l, c);
  }
  return cases.size();
}

// ==== search.json =========================================================================================

const char* const kSearchSchema = "bitexact_ecvrf_search_v1";

json search_notes() {
  return Notes()
      .add("SpecExample", "BASIC", "A worked example of docs/specs/field25519_ecvrf.md 9 (SK of Example 16, header 0).")
      .add("TaiRetry", "DECODING", "The attempt needs ctr > 0.")
      .add("Nonce32Boundary", "NONCE", "Nonce 2^32 - 1 or 2^32, or a window across 2^32: the high word of LE64(nonce) (a 32-bit nonce counter wraps here).")
      .add("NonceTop", "NONCE", "Nonce 2^64 - 1, or a window that ends at 2^64.")
      .add("FrozenHits", "SEARCH", "Every hit (score < target, strict) of a nonce window, in nonce order, found by the golden model's search: a search reports each exactly once.")
      .add("TargetZero", "SEARCH", "target 0 admits no nonce.")
      .add("TargetMax", "SEARCH", "target 2^64 - 1 admits every attempt with a beta (except score 2^64 - 1).")
      .add("ScalarX", "SCALAR_RANGE", "The search multiplies by the clamped x (255 bits).")
      .add("ScalarXModL", "SCALAR_RANGE", "The search multiplies by x mod L (same Gamma: H is in the order-L subgroup).")
      .j;
}

// Spec 9's worked examples (SK of Example 16, header 0), copied literally.
struct WorkedKat {
  const char* label;
  uint64_t nonce;
  int ctr;
  const char *h, *gamma, *score, *beta;  // beta: nullptr where the spec prints only the score
};
const std::vector<WorkedKat>& worked_kats() {
  static const std::vector<WorkedKat> k = {
      {"0", 0, 0, "b8f7970ad5967478b3317f7b6d84439c002b222add9fa9ed3a9bd1a9be9d8a5d",
       "fffa802f1b54099a8f593e14912d399f2292e2d8cb5e97ab0da8f56d7aed26fe", "55f759d5793adb8b",
       "55f759d5793adb8b60c5693c667b52049a40636fed36ea84aece3040824661479ce4f39c19dfd5b82e1f8fd6ae636efc38c167b35aeb981b95682302b6b318d5"},
      {"1", 1, 0, "47d367fa137ef304f641795e475448edae51e505f5fed2776d0860c6d7ea3d04",
       "d19f15e3bf6f8afa1cffb4d471a2c7002a3450aab03e969f649195de0347b31f", "c0a2f748a72b78eb", nullptr},
      {"2^32 - 1", 0xffffffffull, 2, "665e06335a5839e2efb9d483c482c4aa0d978dfe18d56aa94e769a7546f7a615",
       "3e79a877ca1a540e1e58c59fd91bc8ba8d2097964b760f46750f8bd374d5d8b1", "6e155162bfdd6a9f", nullptr},
      {"2^32", 0x100000000ull, 0, "25e840e66f7874e066e53a8ef40cc1f801dcf64753e1f8560d983c93bb344688",
       "fa2455727991f4a1c6ce26e5de0e2f614909628facee2040212a17f81c93166c", "daba37dfa5d476e5", nullptr},
      {"2^64 - 1", ~0ull, 0, "be6cfc3296169af8ddca7c7b431545c41e8b0d91785c3f1dfb392476b3f8d197",
       "8e0c85ce3c79b9d2a5eb1d6adee82f2b182e900f08459b77250e3aeac825783e", "5a2bd05a5d188066", nullptr},
  };
  return k;
}
Bytes32 ex16_sk() { return bytes32_from_hex(rfc_kats()[0].sk, "sk"); }

void nonce_flags(json& f, uint64_t n) {
  if (n == 0xffffffffull || n == 0x100000000ull) add_flag(f, "Nonce32Boundary");
  if (n == ~0ull) add_flag(f, "NonceTop");
}
// (sk, header, nonce) -> the attempt's ctr, H, Gamma, 8 Gamma, beta and score.
json build_worked(const Bytes32& sk, const Bytes32& header, uint64_t nonce) {
  const G::VrfKey key = G::vrf_key(sk);
  const auto alpha = G::job_alpha(header, nonce);
  const G::VrfTrace t = G::vrf_trace(key, alpha);
  json f = json::array({"SpecExample"});
  json j = {{"flags", f}, {"sk", hx(sk)}, {"pk", hx(key.pk)}, {"header", hx(header)}, {"nonce", std::to_string(nonce)}};
  if (!t.beta) {
    j["ctr"] = -1;
    return j;
  }
  if (*t.tai.ctr > 0) add_flag(j["flags"], "TaiRetry");
  nonce_flags(j["flags"], nonce);
  j["ctr"] = *t.tai.ctr;
  j["h"] = hx(G::encode(*t.tai.h));
  j["gamma"] = hx(G::encode(*t.gamma));
  j["gamma8"] = hx(G::encode(*t.gamma8));
  j["beta"] = hx(*t.beta);
  j["score"] = score_hex(G::score(*t.beta));
  return j;
}
std::vector<std::string> worked_mismatches(const WorkedKat& k, const json& t) {
  std::vector<std::string> bad;
  const auto want = [&](const char* field, const json& v) {
    if (!t.contains(field) || t[field] != v) bad.push_back(std::string("field '") + field + "': " + v.dump());
  };
  want("sk", rfc_kats()[0].sk), want("header", hx(Bytes32{})), want("ctr", k.ctr), want("h", k.h), want("gamma", k.gamma);
  want("score", k.score);
  if (k.beta) want("beta", k.beta);
  return bad;
}

// The frozen-hit windows: (sk, header, scalar kind, lo, count, target), lo + count <= 2^64.
struct WindowInput {
  Bytes32 sk, header;
  bool x_mod_l;
  uint64_t lo, count, target;
  std::string comment;
};
std::vector<WindowInput> window_inputs() {
  const Bytes32 zero{}, derived = label_bytes32("bitexact ecvrf search.json key 1"),
                derived_header = label_bytes32("bitexact ecvrf search.json header 1");
  Bytes32 ff, pattern;
  ff.fill(0xff);
  for (int i = 0; i < 32; ++i) pattern[i] = uint8_t(0xa5 ^ (i * 29));
  const Bytes32 sk17 = bytes32_from_hex(rfc_kats()[1].sk, "sk"), sk18 = bytes32_from_hex(rfc_kats()[2].sk, "sk");
  const uint64_t t62 = uint64_t(1) << 62, two32 = uint64_t(1) << 32;
  return {{ex16_sk(), zero, true, 0, 32, t62, "Example 16's SK, header 0, x mod L, nonces [0, 32), target 2^62"},
          {ex16_sk(), zero, false, two32 - 8, 16, t62, "Example 16's SK, header 0, x, nonces [2^32 - 8, 2^32 + 8), target 2^62"},
          {sk17, pattern, false, two32 - 16, 32, t62, "Example 17's SK, header a5^29i, x, nonces [2^32 - 16, 2^32 + 16), target 2^62"},
          {sk18, ff, true, ~uint64_t(0) - 15, 16, t62, "Example 18's SK, header ff..ff, x mod L, nonces [2^64 - 16, 2^64), target 2^62"},
          {derived, derived_header, false, 0x0123456789abcdefull, 16, ~uint64_t(0),
           "derived key 1, derived header, x, 16 nonces at 0x0123456789abcdef, target 2^64 - 1"},
          {derived, derived_header, true, 0xfedcba9876543210ull, 8, 0, "derived key 1, derived header, x mod L, 8 nonces, target 0"}};
}

// (sk, header, kind, window, target) -> pk, the scalar and the golden model's hits (reference/ecvrf search).
json build_window(const Bytes32& sk, const Bytes32& header, bool x_mod_l, uint64_t lo, uint64_t count, uint64_t target) {
  const G::VrfKey key = G::vrf_key(sk);
  json f = json::array({"FrozenHits"});
  if (lo < (uint64_t(1) << 32) && count > (uint64_t(1) << 32) - lo) add_flag(f, "Nonce32Boundary");
  if (lo + count == 0) add_flag(f, "NonceTop");  // lo + count = 2^64 wraps to 0
  if (target == 0) add_flag(f, "TargetZero");
  if (target == ~uint64_t(0)) add_flag(f, "TargetMax");
  add_flag(f, x_mod_l ? "ScalarXModL" : "ScalarX");
  json hits = json::array();
  for (const G::Hit& h : G::search(sk, header, lo, count, target))
    hits.push_back({{"nonce", std::to_string(h.nonce)}, {"score", score_hex(h.score)}});
  return {{"flags", f}, {"sk", hx(sk)}, {"pk", hx(key.pk)}, {"header", hx(header)},
          {"scalarKind", x_mod_l ? "x mod L" : "x"}, {"scalar", hx(b32(x_mod_l ? key.x_mod_l : key.x))},
          {"lo", std::to_string(lo)}, {"count", std::to_string(count)}, {"target", std::to_string(target)}, {"hits", hits}};
}

std::string generate_search() {
  json worked = json::array();
  int id = 0;
  for (const WorkedKat& k : worked_kats()) {
    const json built = build_worked(ex16_sk(), Bytes32{}, k.nonce);
    const auto bad = worked_mismatches(k, built);
    if (!bad.empty())
      throw std::logic_error(std::string(kSearchPath) + ": the golden model disagrees with the spec 9 worked example of nonce " +
                             std::to_string(k.nonce) + ", " + bad.front() + " (the file is not written)");
    worked.push_back(numbered(++id, std::string("spec 9 worked example, nonce ") + k.label, built));
  }
  json frozen = json::array();
  for (const WindowInput& w : window_inputs())
    frozen.push_back(numbered(++id, w.comment, build_window(w.sk, w.header, w.x_mod_l, w.lo, w.count, w.target)));
  const json groups = json::array({{{"type", "worked-example"}, {"tests", worked}}, {{"type", "frozen-hits"}, {"tests", frozen}}});
  return render(header("ECVRF-EDWARDS25519-SHA512-TAI search (bitexact job)", kSearchSchema,
                       "docs/specs/field25519_ecvrf.md 9 (job: alpha = header || LE64(nonce), score = beta[0..7] big-endian, hit iff "
                       "score < target); worked examples copied from the spec and recomputed, hits from the golden model's "
                       "search (reference/ecvrf search)",
                       id, search_notes(), groups),
                "testGroups");
}

struct WorkedCase {
  int id;
  json raw;
  Bytes32 sk, pk, header;
  uint64_t nonce;
  int ctr;
  Bytes32 h{}, gamma{}, gamma8{};
  Bytes64 beta{};
};
struct SearchFile {
  std::vector<WorkedCase> worked;
  std::vector<SearchWindow> windows;
  std::vector<json> window_raw;
};

SearchWindow load_window(const json& t, const json& notes, const std::string& where) {
  require_keys(t, {"tcId", "comment", "flags", "sk", "pk", "header", "scalarKind", "scalar", "lo", "count", "target", "hits", "result"},
               {}, where);
  SearchWindow w;
  w.tc_id = t["tcId"].get<int>();
  w.comment = get_str(t, "comment", where);
  w.flags = get_flags(t, notes, where);
  w.job.sk = get_b32(t, "sk", where);
  w.job.pk = get_b32(t, "pk", where);
  w.job.header = get_b32(t, "header", where);
  w.job.scalar_kind = get_str(t, "scalarKind", where);
  if (w.job.scalar_kind != "x" && w.job.scalar_kind != "x mod L")
    throw InputError(where + ": field 'scalarKind': expected 'x' or 'x mod L'");
  w.job.x = get_b32_lt_2_255(t, "scalar", where);
  w.lo = get_dec_u64(t, "lo", where);
  w.count = get_dec_u64(t, "count", where);
  w.target = get_dec_u64(t, "target", where);
  if (w.count == 0 || w.count > 4096 || (w.lo != 0 && w.count - 1 > ~w.lo))
    throw InputError(where + ": field 'count': must be 1..4096 with lo + count <= 2^64");
  const json& hits = get_array(t, "hits", where);
  for (size_t i = 0; i < hits.size(); ++i) {
    const std::string hw = where + ": hits[" + std::to_string(i) + "]";
    require_keys(hits[i], {"nonce", "score"}, {}, hw);
    const Hit h{get_dec_u64(hits[i], "nonce", hw), get_score(hits[i], "score", hw)};
    if (h.nonce < w.lo || h.nonce - w.lo >= w.count) throw InputError(hw + ": field 'nonce': outside the window");
    if (!w.hits.empty() && h.nonce <= w.hits.back().nonce) throw InputError(hw + ": field 'nonce': hits must be in increasing nonce order");
    if (h.score >= w.target) throw InputError(hw + ": field 'score': not below the target");
    w.hits.push_back(h);
  }
  check_result(t, where);
  return w;
}

SearchFile load_search(const std::string& file, const std::string& text) {
  const json top = parse_file(file, text, kSearchSchema);
  SearchFile out;
  for_each_test(top, file, {"type"}, [&](const json& g, const json& t, const std::string& where) {
    if (g["type"] == "worked-example") {
      const bool has = t.is_object() && t.contains("ctr") && t["ctr"].is_number_integer() && t["ctr"].get<int64_t>() >= 0;
      if (has) require_keys(t, {"tcId", "comment", "flags", "sk", "pk", "header", "nonce", "ctr", "h", "gamma", "gamma8", "beta", "score", "result"}, {}, where);
      else require_keys(t, {"tcId", "comment", "flags", "sk", "pk", "header", "nonce", "ctr", "result"}, {}, where);
      get_str(t, "comment", where);
      get_flags(t, top["notes"], where);
      WorkedCase c{t["tcId"].get<int>(), t, get_b32(t, "sk", where), get_b32(t, "pk", where), get_b32(t, "header", where),
                   get_dec_u64(t, "nonce", where), get_int(t, "ctr", -1, 255, where)};
      if (has) {
        c.h = get_b32(t, "h", where), c.gamma = get_b32(t, "gamma", where), c.gamma8 = get_b32(t, "gamma8", where);
        c.beta = get_b64(t, "beta", where);
        if (get_score(t, "score", where) != G::score(c.beta)) throw InputError(where + ": field 'score': not beta[0..7]");
      }
      check_result(t, where);
      out.worked.push_back(std::move(c));
    } else if (g["type"] == "frozen-hits") {
      out.windows.push_back(load_window(t, top["notes"], where));
      out.window_raw.push_back(t);
    } else {
      throw InputError(file + ": testGroups: field 'type': expected 'worked-example' or 'frozen-hits'");
    }
  });
  return out;
}

// The miner's attempt (h2c_block_miner) of variant (F, S) with x and x mod L (the scalars come from the
// golden model's key derivation, as a pool hands them to a miner).
template <class F, class S>
void host_worked(Lines& l, const WorkedCase& c, const Bytes32& x, const Bytes32& x_mod_l) {
  const std::pair<const char*, const Bytes32*> scalars[] = {{"x", &x}, {"x mod L", &x_mod_l}};
  for (const auto& [kind, kp] : scalars) {
    const Bytes32& k = *kp;
    const std::string who = variant_label<F, S>(), in = "sk " + hx(c.sk) + ", header " + hx(c.header) + ", nonce " +
                                                          std::to_string(c.nonce) + ", " + kind;
    guarded(l, c.id, who, std::string("attempt with ") + kind, [&] {
      uint8_t beta[64];
      ecvrf::EcvrfTrace t{};
      ecvrf::ecvrf_attempt<F, S>(beta, c.pk.data(), c.header.data(), c.nonce, S::recode(k), &t);
      expect(l, c.id, who, "ctr", in, std::to_string(c.ctr), std::to_string(t.ctr));
      if (t.ctr != c.ctr || c.ctr < 0) return;
      expect(l, c.id, who, "H", in, hx(c.h), hx(t.h, 32));
      expect(l, c.id, who, "Gamma", in, hx(c.gamma), hx(t.gamma, 32));
      expect(l, c.id, who, "8 Gamma", in, hx(c.gamma8), hx(t.gamma8, 32));
      expect(l, c.id, who, "beta", in, hx(c.beta), hx(beta, 64));
      expect(l, c.id, who, "score", in, score_hex(G::score(c.beta)), score_hex(ecvrf::beta_score(beta)));
    });
  }
}

std::string window_text(const SearchWindow& w) {
  return "sk " + hx(w.job.sk) + ", header " + hx(w.job.header) + ", " + w.job.scalar_kind + ", nonces [" +
         std::to_string(w.lo) + ", +" + std::to_string(w.count) + "), target " + std::to_string(w.target);
}

size_t check_search(const std::string& file, const std::string& text, Lines& l) {
  const SearchFile f = load_search(file, text);
  for (const WorkedCase& c : f.worked) {
    compare_with_golden(l, c.id, c.raw, build_worked(c.sk, c.header, c.nonce),
                        "sk " + hx(c.sk) + ", header " + hx(c.header) + ", nonce " + std::to_string(c.nonce));
    for (const WorkedKat& k : worked_kats())
      if (c.raw["sk"] == rfc_kats()[0].sk && c.raw["header"] == hx(Bytes32{}) && c.nonce == k.nonce)
        for (const auto& b : worked_mismatches(k, c.raw)) l.add(c.id, "spec 9 says " + b);
    const G::VrfKey key = G::vrf_key(c.sk);
    const Bytes32 x = b32(key.x), xl = b32(key.x_mod_l);
    ecvrf_family::for_each_host_variant([&]<class F, class S>() { host_worked<F, S>(l, c, x, xl); });
  }
  for (const WorkedKat& k : worked_kats())
    if (std::none_of(f.worked.begin(), f.worked.end(), [&](const WorkedCase& c) { return c.nonce == k.nonce; }))
      l.out.push_back(file + ": the spec 9 worked example of nonce " + std::to_string(k.nonce) + " is missing");
  // The golden recomputation of each window (its hits from reference/ecvrf search) ...
  for (size_t i = 0; i < f.windows.size(); ++i) {
    const SearchWindow& w = f.windows[i];
    compare_with_golden(l, w.tc_id, f.window_raw[i],
                        build_window(w.job.sk, w.job.header, w.job.scalar_kind == "x mod L", w.lo, w.count, w.target),
                        window_text(w));
  }
  // ... and every host variant's search over it, one thread per variant (in variant order in the output).
  const std::vector<Searcher> hs = host_searchers();
  std::vector<std::vector<std::string>> found(hs.size());
  std::vector<std::thread> pool;
  const size_t workers = std::max<size_t>(1, std::min<size_t>(std::thread::hardware_concurrency(), hs.size()));
  for (size_t t = 0; t < workers; ++t)
    pool.emplace_back([&, t] {
      for (size_t i = t; i < hs.size(); i += workers) found[i] = check_frozen_hits(file, f.windows, hs[i], 4);
    });
  for (auto& th : pool) th.join();
  for (auto& lines : found)
    for (auto& s : lines) l.out.push_back(s);
  return f.worked.size() + f.windows.size();
}

// ==== the files ===========================================================================================

using Generator = std::string (*)();
using Checker = size_t (*)(const std::string& file, const std::string& text, Lines& l);  // -> tests checked
struct FileKind {
  const char* path;
  Generator generate;
  Checker check;
  const char* against;  // what check runs each test through
};
const std::vector<FileKind>& files() {
  static const std::vector<FileKind> f = {
      {kRfcPath, generate_rfc, check_rfc, "golden model, RFC 9381 literals, host SHA-512 and every layout x 4 strategies"},
      {kDecodePath, generate_decode, check_decode, "golden model, libsodium, every host layout"},
      {kScalarPath, generate_scalar, check_scalar, "golden model, every host layout x 4 strategies"},
      {kBatchPath, generate_batch, check_batch, "golden model, every host layout"},
      {kShaPath, generate_sha, check_sha, "OpenSSL, host SHA-512 with both schedules"},
      {kSearchPath, generate_search, check_search, "golden model and search, spec 9 literals, every host layout x 4 strategies"}};
  return f;
}

}  // namespace

// ==== public ==============================================================================================

std::vector<std::string> vector_files() {
  std::vector<std::string> v;
  for (const FileKind& f : files()) v.push_back(f.path);
  return v;
}

std::map<std::string, std::string> generate_vectors() {
  std::map<std::string, std::string> m;
  for (const FileKind& f : files()) m[f.path] = f.generate();
  return m;
}

std::vector<std::string> check_vectors(const std::string& root) {
  std::vector<std::string> problems;
  for (const FileKind& f : files()) {
    std::string text;
    if (!read_repo_file(root, f.path, text, problems)) continue;
    Lines l{f.path, problems};
    const size_t before = problems.size();
    size_t n = 0;
    try {
      n = f.check(f.path, text, l);
    } catch (const InputError& e) {
      problems.push_back(bx::vectors::io::malformed(e.what()));  // that one line, no stale line after it
      continue;
    } catch (const std::exception& e) {
      problems.push_back(std::string(f.path) + ": " + e.what());
    }
    l.finish();
    if (problems.size() == before) std::printf("%s: %zu tests verified (%s)\n", f.path, n, f.against);
    try {
      const std::string fresh = f.generate();
      if (auto st = stale_line(f.path, text, fresh, "ecvrf"); !st.empty()) problems.push_back(st);
    } catch (const std::exception& e) {
      problems.push_back(std::string(f.path) + ": generation fails: " + e.what());
    }
  }
  return problems;
}

std::vector<SearchWindow> load_search_windows(const std::string& file, const std::string& text) {
  return load_search(file, text).windows;
}

std::vector<std::string> check_frozen_hits(const std::string& file, const std::vector<SearchWindow>& windows,
                                           const Searcher& s, size_t max_lines) {
  std::vector<std::string> out;
  size_t hidden = 0;
  const auto add = [&](const SearchWindow& w, const std::string& what) {
    if (out.size() < max_lines) out.push_back(file + ": tcId " + std::to_string(w.tc_id) + ": " + s.name + ": " + what + " (" + window_text(w) + ")");
    else ++hidden;
  };
  for (const SearchWindow& w : windows) {
    std::vector<Hit> got;
    try {
      got = s.run(w.job, w.lo, w.count, w.target);
    } catch (const std::exception& e) {
      add(w, std::string("search threw: ") + e.what());
      continue;
    }
    std::sort(got.begin(), got.end(), [](const Hit& a, const Hit& b) { return a.nonce < b.nonce; });
    size_t i = 0, j = 0;  // merge the two nonce-ordered lists
    while (i < w.hits.size() || j < got.size()) {
      if (j > 0 && j < got.size() && got[j].nonce == got[j - 1].nonce) {
        add(w, "duplicate hit at nonce " + std::to_string(got[j].nonce));
        ++j;
      } else if (j == got.size() || (i < w.hits.size() && w.hits[i].nonce < got[j].nonce)) {
        add(w, "missing hit: nonce " + std::to_string(w.hits[i].nonce) + ", score " + score_hex(w.hits[i].score));
        ++i;
      } else if (i == w.hits.size() || got[j].nonce < w.hits[i].nonce) {
        add(w, "extra hit: nonce " + std::to_string(got[j].nonce) + ", score " + score_hex(got[j].score) + " (not a hit)");
        ++j;
      } else {
        if (got[j].score != w.hits[i].score)
          add(w, "nonce " + std::to_string(got[j].nonce) + ": score: expected " + score_hex(w.hits[i].score) + ", got " +
                     score_hex(got[j].score));
        ++i, ++j;
      }
    }
  }
  if (hidden) out.push_back(file + ": " + s.name + ": " + std::to_string(hidden) + " more disagreement(s) not shown");
  return out;
}

Searcher golden_searcher() {
  return {"golden model", [](const Job& job, uint64_t lo, uint64_t count, uint64_t target) {
            std::vector<Hit> h;
            for (const G::Hit& x : G::search(job.sk, job.header, lo, count, target)) h.push_back({x.nonce, x.score});
            return h;
          }};
}

std::vector<Searcher> host_searchers() {
  std::vector<Searcher> v;
  for (const ecvrf_family::HostAttempt& a : ecvrf_family::host_attempts())
    v.push_back({a.variant + "@cpu", [run = a.run](const Job& job, uint64_t lo, uint64_t count, uint64_t target) {
                   std::vector<Hit> hits;
                   for (uint64_t i = 0; i < count; ++i) {
                     const auto alpha = G::job_alpha(job.header, lo + i);
                     uint8_t beta[64];
                     if (run(beta, job.pk.data(), alpha.data(), int(alpha.size()), job.x) < 0) continue;
                     const uint64_t s = G::score(to64(beta));
                     if (s < target) hits.push_back({lo + i, s});
                   }
                   return hits;
                 }});
  return v;
}

}  // namespace bx::ecvrf_vectors
