#include "suite/md5z/vectors.hpp"

#include <cstring>
#include <fstream>
#include <random>
#include <set>
#include <sstream>

#include "suite/embedded.hpp"
#include "suite/md5z/base.hpp"
#include "suite/vector_json.hpp"

namespace bx::md5z {
using namespace bx::vectors::io;
namespace R = ref::md5z;

namespace {

const char* kMd5Path = "vectors/md5z/rfc1321.json";
const char* kBasesPath = "vectors/md5z/bases.json";
const char* kCandPath = "vectors/md5z/candidates.json";
const char* kHitsPath = "vectors/md5z/hits.json";
const uint64_t kRandomSeed = 0x3d5a;

std::string hex52(const R::Message& m) { return to_hex(m.data(), m.size()); }
std::string hex32(uint32_t v) {
  char b[12];
  std::snprintf(b, sizeof b, "%08x", v);
  return b;
}

json candidate_json(int id, const std::string& comment, const std::vector<std::string>& flags, uint64_t seed, uint32_t index) {
  const auto base = R::make_base(seed);
  R::CandidateHasher h(base);
  const auto d = h.digest(index);
  return {{"tcId", id}, {"comment", comment}, {"flags", flags}, {"seed", seed}, {"base", hex52(base)}, {"index", index},
          {"message", hex52(h.message(index))}, {"digest", R::digest_hex(d)}, {"zeros", R::zeros(d)}, {"result", "valid"}};
}

json candidate_notes() {
  json n;
  n["IndexBoundary"] = {{"bugType", "EDGE_CASE"}, {"description", "Index 0, 1, 2, around 2^31 or at the 2^32 end: index arithmetic that wraps or skips."}};
  n["Random"] = {{"bugType", "BASIC"}, {"description", "Seeded random index."}};
  n["FrozenHit"] = {{"bugType", "EARLY_EXIT"}, {"description", "A hit found by search: an early exit or zero count that drops or miscounts it is caught."}};
  n["H0Zero"] = {{"bugType", "EARLY_EXIT"}, {"description", "h0 == 0 (8 or more zeros): steps 61..63 and h1 must be computed."}};
  n["ExactThreshold"] = {{"bugType", "EARLY_EXIT"}, {"description", "Searched at T = its zero count: an early exit that rejects zeros == T drops it."}};
  return n;
}

json header(const char* algorithm, const char* schema, const char* generator, int n, const json& notes, const json& groups) {
  return file_header(algorithm, schema, generator, "", n, notes, groups);
}

std::string generate_md5() {
  static const char* suite[][2] = {
      {"", "d41d8cd98f00b204e9800998ecf8427e"},
      {"a", "0cc175b9c0f1b6a831c399e269772661"},
      {"abc", "900150983cd24fb0d6963f7d28e17f72"},
      {"message digest", "f96b697d7cb7938d525a2f31aaf161d0"},
      {"abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"},
      {"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"},
      {"12345678901234567890123456789012345678901234567890123456789012345678901234567890", "57edf4a22be3c955ac49da2e2107b67a"}};
  json tests = json::array();
  int id = 0;
  for (auto& s : suite)
    tests.push_back({{"tcId", ++id}, {"comment", std::string("RFC 1321 A.5: \"") + s[0] + "\""}, {"flags", {"Rfc1321"}},
                     {"msg", to_hex(reinterpret_cast<const uint8_t*>(s[0]), std::strlen(s[0]))}, {"digest", s[1]}, {"result", "valid"}});
  json notes;
  notes["Rfc1321"] = {{"bugType", "BASIC"}, {"description", "Known answer from RFC 1321 appendix A.5."}};
  return render(header("MD5", "bitexact_md5_v1", "bitexact vectors generate", id, notes, json::array({{{"type", "known-answer"}, {"tests", tests}}})),
                "testGroups");
}

std::string generate_bases() {
  json good = json::array(), bad = json::array();
  int id = 0;
  for (uint64_t seed : {0ull, 1ull, 2ull, 3ull, 4ull, 5ull, 6ull, 7ull, 0xdeadbeefull}) {
    const auto b = R::make_base(seed);
    const auto q = R::states(b);
    json qs = json::array();
    for (int k = 1; k <= 24; ++k) qs.push_back(hex32(q[k]));
    good.push_back({{"tcId", ++id}, {"comment", "make_base(" + std::to_string(seed) + ")"}, {"flags", {"Base"}}, {"seed", seed},
                    {"base", hex52(b)}, {"q", qs}, {"result", "valid"}});
  }
  auto not_base = [&](const std::string& comment, const R::Message& m) {
    bad.push_back({{"tcId", ++id}, {"comment", comment}, {"flags", {"NotABase"}}, {"base", hex52(m)}, {"result", "invalid"}});
  };
  const auto b0 = R::make_base(0);
  for (int word : {0, 7, 8, 9, 10}) {
    auto m = b0;
    m[4 * word] ^= 1;
    not_base("make_base(0) with bit 0 of m" + std::to_string(word) + " flipped", m);
  }
  R::Message z{}, ff;
  ff.fill(0xff);
  not_base("52 zero bytes", z);
  not_base("52 bytes 0xff", ff);
  json notes;
  notes["Base"] = {{"bugType", "BASIC"}, {"description", "Q9-tunnel base from the deterministic generator, with Q[1..24]."}};
  notes["NotABase"] = {{"bugType", "INPUT"}, {"description", "52 bytes with Q[10] != 0 or Q[11] != 0xffffffff: every tool must reject it."}};
  return render(header("MD5-Q9-tunnel", "bitexact_md5z_bases_v1", "bitexact vectors generate", id, notes,
                       json::array({{{"type", "base"}, {"tests", good}}, {{"type", "not-a-base"}, {"tests", bad}}})),
                "testGroups");
}

std::string generate_candidates() {
  json tests = json::array();
  int id = 0;
  std::mt19937_64 rng(kRandomSeed);
  for (uint64_t seed : {0ull, 1ull, 2ull, 3ull}) {
    for (uint32_t i : {0u, 1u, 2u, 0x7fffffffu, 0x80000000u, 0xfffffffeu, 0xffffffffu})
      tests.push_back(candidate_json(++id, "make_base(" + std::to_string(seed) + "), boundary index", {"IndexBoundary"}, seed, i));
    for (int k = 0; k < 8; ++k)
      tests.push_back(candidate_json(++id, "make_base(" + std::to_string(seed) + "), random index", {"Random"}, seed, uint32_t(rng())));
  }
  return render(header("MD5-Q9-tunnel", "bitexact_md5z_candidates_v1", "bitexact vectors generate", id, candidate_notes(),
                       json::array({{{"type", "candidate"}, {"tests", tests}}})),
                "testGroups");
}

const std::string* embedded(const std::string& rel) {
  for (auto& f : embedded_vectors())
    if (f.path == rel) return &f.content;
  return nullptr;
}
const std::string& embedded_or_throw(const std::string& rel) {
  const std::string* s = embedded(rel);
  if (!s) throw InputError("the embedded vector file " + rel + " is missing from this build");
  return *s;
}

R::Message get_msg(const json& t, const std::string& k, const std::string& where) {
  auto v = bx::vectors::io::file_hex(get_str(t, k, where), 52, where + ": field '" + k + "'");
  R::Message m;
  std::copy(v.begin(), v.end(), m.begin());
  return m;
}
uint64_t get_u64(const json& t, const std::string& k, const std::string& where, uint64_t max) {
  if (!t[k].is_number_unsigned() || t[k].get<uint64_t>() > max)
    throw InputError(where + ": field '" + k + "' must be an integer 0.." + std::to_string(max));
  return t[k].get<uint64_t>();
}

}  // namespace

std::vector<Md5Test> parse_md5(const std::string& file, const std::string& text) {
  const json top = parse_json(file, text);
  check_header(top, file, "bitexact_md5_v1", {});
  std::vector<Md5Test> out;
  for_each_test(top, file, {"type"}, [&](const json&, const json& t, const std::string& where, int id) {
    Md5Test m;
    m.tc_id = id;
    require_keys(t, {"tcId", "comment", "flags", "msg", "digest", "result"}, {}, where);
    m.comment = get_str(t, "comment", where);
    get_flags(t, top["notes"], where);
    const std::string mh = get_str(t, "msg", where);
    m.msg = bx::vectors::io::file_hex(mh, mh.size() / 2, where + ": field 'msg'");
    if (mh.size() % 2) throw InputError(where + ": field 'msg': odd number of hex digits");
    m.digest = get_str(t, "digest", where);
    bx::vectors::io::file_hex(m.digest, 16, where + ": field 'digest'");
    check_result(t, where);
    out.push_back(std::move(m));
  });
  return out;
}

std::vector<BaseTest> parse_bases(const std::string& file, const std::string& text) {
  const json top = parse_json(file, text);
  check_header(top, file, "bitexact_md5z_bases_v1", {});
  std::vector<BaseTest> out;
  for_each_test(top, file, {"type"}, [&](const json& g, const json& t, const std::string& where, int id) {
    const bool valid = g["type"] == "base";
    if (!valid && g["type"] != "not-a-base") throw InputError(file + ": testGroups: unknown type");
    BaseTest b;
    b.tc_id = id;
    b.valid = valid;
    if (valid) require_keys(t, {"tcId", "comment", "flags", "seed", "base", "q", "result"}, {}, where);
    else require_keys(t, {"tcId", "comment", "flags", "base", "result"}, {}, where);
    b.comment = get_str(t, "comment", where);
    b.flags = get_flags(t, top["notes"], where);
    b.base = get_msg(t, "base", where);
    if (get_str(t, "result", where) != (valid ? "valid" : "invalid"))
      throw InputError(where + ": field 'result': expected '" + (valid ? "valid" : "invalid") + "'");
    if (valid) {
      b.seed = get_u64(t, "seed", where, ~0ull);
      if (!t["q"].is_array() || t["q"].size() != 24) throw InputError(where + ": field 'q' must be 24 hex words (Q[1..24])");
      for (int k = 0; k < 24; ++k) {
        auto v = bx::vectors::io::file_hex(t["q"][k].is_string() ? t["q"][k].get<std::string>() : "", 4, where + ": field 'q'");
        b.q[k] = uint32_t(v[0]) << 24 | uint32_t(v[1]) << 16 | uint32_t(v[2]) << 8 | v[3];
      }
    }
    out.push_back(std::move(b));
  });
  return out;
}

std::vector<CandidateTest> parse_candidates(const std::string& file, const std::string& text) {
  const json top = parse_json(file, text);
  const bool hits = file.find("hits") != std::string::npos;
  check_header(top, file, hits ? "bitexact_md5z_hits_v1" : "bitexact_md5z_candidates_v1", {});
  std::vector<CandidateTest> out;
  for_each_test(top, file, {"type"}, [&](const json&, const json& t, const std::string& where, int id) {
    CandidateTest c;
    c.tc_id = id;
    require_keys(t, {"tcId", "comment", "flags", "seed", "base", "index", "message", "digest", "zeros", "result"}, {}, where);
    c.comment = get_str(t, "comment", where);
    c.flags = get_flags(t, top["notes"], where);
    c.seed = get_u64(t, "seed", where, ~0ull);
    c.base = get_msg(t, "base", where);
    c.index = uint32_t(get_u64(t, "index", where, 0xffffffffull));
    c.message = get_msg(t, "message", where);
    c.digest = get_str(t, "digest", where);
    bx::vectors::io::file_hex(c.digest, 16, where + ": field 'digest'");
    c.zeros = int(get_u64(t, "zeros", where, 32));
    check_result(t, where);
    out.push_back(std::move(c));
  });
  return out;
}

std::map<std::string, std::string> generate_vectors() {
  return {{kMd5Path, generate_md5()}, {kBasesPath, generate_bases()}, {kCandPath, generate_candidates()}};
}

std::string render_hits(const std::vector<CandidateTest>& hits) {
  json tests = json::array();
  int id = 0;
  for (auto& h : hits) {
    json j = candidate_json(++id, h.comment, h.flags, h.seed, h.index);
    if (j["zeros"].get<int>() != h.zeros) throw std::runtime_error("render_hits: OpenSSL disagrees with a found hit (seed " +
                                                                   std::to_string(h.seed) + ", index " + std::to_string(h.index) + ")");
    tests.push_back(j);
  }
  return render(header("MD5-Q9-tunnel", "bitexact_md5z_hits_v1",
                       "bitexact vectors find-hits (GPU search, every hit re-hashed with OpenSSL; frozen)", id,
                       candidate_notes(), json::array({{{"type", "frozen-hit"}, {"tests", tests}}})),
                "testGroups");
}

std::vector<std::string> check_vectors(const std::string& root, bool verbose) {
  std::vector<std::string> problems;
  auto fail = [&](const std::string& rel, int id, const std::string& what) {
    problems.push_back(rel + ": tcId " + std::to_string(id) + ": " + what);
  };
  const auto fresh = generate_vectors();
  for (const char* rel : {kMd5Path, kBasesPath, kCandPath, kHitsPath}) {
    std::string text;
    if (!read_repo_file(root, rel, text, problems)) continue;
    size_t n = 0;
    try {
      if (std::string(rel) == kMd5Path) {
        for (auto& t : parse_md5(rel, text)) {
          ++n;
          if (R::digest_hex(R::md5(t.msg.data(), t.msg.size())) != t.digest) fail(rel, t.tc_id, "OpenSSL disagrees");
          uint8_t d[16];
          md5::md5_bytes(t.msg.data(), t.msg.size(), d);
          if (to_hex(d, 16) != t.digest) fail(rel, t.tc_id, "gpu/md5 (host) disagrees: " + to_hex(d, 16));
        }
      } else if (std::string(rel) == kBasesPath) {
        for (auto& t : parse_bases(rel, text)) {
          ++n;
          uint32_t w[16];
          md5::message_words(t.base.data(), w);
          md5::TunnelBase tb;
          const bool tunnel_ok = md5::tunnel_prepare(w, tb);
          if (!t.valid) {
            if (R::base_problem(t.base).empty() || tunnel_ok) fail(rel, t.tc_id, "a non-base is accepted");
            continue;
          }
          if (R::make_base(t.seed) != t.base) fail(rel, t.tc_id, "make_base(seed) differs from 'base'");
          const auto q = R::states(t.base);
          for (int k = 1; k <= 24; ++k)
            if (q[k] != t.q[k - 1] || tb.q[k + 3] != t.q[k - 1]) fail(rel, t.tc_id, "Q[" + std::to_string(k) + "] differs");
          if (!R::base_problem(t.base).empty() || !tunnel_ok) fail(rel, t.tc_id, "rejected as a base");
        }
      } else {
        for (auto& t : parse_candidates(rel, text)) {
          ++n;
          if (R::make_base(t.seed) != t.base) fail(rel, t.tc_id, "make_base(seed) differs from 'base'");
          const auto msg = R::candidate(t.base, t.index);
          if (msg != t.message) fail(rel, t.tc_id, "candidate(base, index) differs from 'message'\n" + hexdump_diff(t.message.data(), msg.data(), 52));
          const auto d = R::md5(t.message);
          if (R::digest_hex(d) != t.digest) fail(rel, t.tc_id, "OpenSSL digest " + R::digest_hex(d) + " != " + t.digest);
          if (R::zeros(d) != t.zeros) fail(rel, t.tc_id, "zero count " + std::to_string(R::zeros(d)) + " != " + std::to_string(t.zeros));
          const auto tb = prepare(t.base, rel);
          for (auto v : md5::all_variants()) {
            const int got = md5::with_variant(v, [&](auto c) { return md5::candidate_zeros<decltype(c)>(tb, t.index, 0, 1); });
            if (got != t.zeros) fail(rel, t.tc_id, std::string(md5::variant_name(v)) + " (host) counts " + std::to_string(got));
          }
        }
      }
      if (verbose) std::printf("%s: %zu tests verified (OpenSSL, reference, host per-candidate code)\n", rel, n);
    } catch (const InputError& e) {
      problems.push_back(bx::vectors::io::malformed(e.what()));
    }
    if (fresh.count(rel))
      if (auto st = bx::vectors::io::stale_line(rel, text, fresh.at(rel), "md5z"); !st.empty()) problems.push_back(st);
  }
  return problems;
}

std::vector<CandidateTest> load_embedded_hits() { return parse_candidates("(embedded) " + std::string(kHitsPath), embedded_or_throw(kHitsPath)); }
std::vector<CandidateTest> load_embedded_candidates() {
  return parse_candidates("(embedded) " + std::string(kCandPath), embedded_or_throw(kCandPath));
}
std::vector<BaseTest> load_embedded_bases() { return parse_bases("(embedded) " + std::string(kBasesPath), embedded_or_throw(kBasesPath)); }
std::vector<Md5Test> load_embedded_md5() { return parse_md5("(embedded) " + std::string(kMd5Path), embedded_or_throw(kMd5Path)); }

}  // namespace bx::md5z
