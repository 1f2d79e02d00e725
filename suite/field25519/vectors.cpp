#include "suite/field25519/vectors.hpp"

#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>

#include "reference/field25519/catalogue.hpp"
#include "suite/field25519/reference_op.hpp"
#include "suite/vector_json.hpp"
#include "reference/field25519/ref25519.hpp"

namespace bx::field25519::vectors {
using json = nlohmann::ordered_json;
using namespace bx::vectors::io;
using namespace bx::ref;
using namespace bx::ref::f25519;
using bx::f25519::Op;

namespace {

const char* kFieldPath = "vectors/field25519/ops.json";
const char* kX25519Path = "vectors/field25519/x25519_rfc7748.json";
const char* kFieldSchema = "bitexact_field25519_ops_v1";
const char* kX25519Schema = "bitexact_x25519_v1";
const uint64_t kFieldSeed = 0x25519f1e1d;
const uint64_t kX25519Seed = 0x7748;

Bytes32 b32(const Int& v) {
  auto x = to_le_bytes(v, 32);
  Bytes32 b;
  std::copy(x.begin(), x.end(), b.begin());
  return b;
}
Int val(const Bytes32& b) { return raw_value(b); }

const std::vector<std::pair<Op, bool>>& field_ops() {  // op, binary
  static const std::vector<std::pair<Op, bool>> ops = {
      {Op::add, true}, {Op::sub, true}, {Op::mul, true}, {Op::neg, false}, {Op::sqr, false}, {Op::mul_small, false},
      {Op::invert, false}, {Op::pow22523, false}, {Op::sqrt_ratio, true}, {Op::canonical, false}};
  return ops;
}
Op op_from_name(const std::string& file, const std::string& s) {
  for (auto& [op, bin] : field_ops())
    if (s == bx::f25519::op_name(op)) return op;
  throw InputError(file + ": testGroups: unknown op '" + s + "'");
}
bool op_binary(Op op) {
  for (auto& [o, bin] : field_ops())
    if (o == op) return bin;
  return false;
}


json field_notes() {
  json n;
  auto note = [&](const char* flag, const char* bug, const char* desc) {
    n[flag] = {{"bugType", bug}, {"description", desc}};
  };
  note("Boundary", "EDGE_CASE", "Operand from the boundary catalogue (spec 6.1): small constants, values around p and 2^255, curve constants.");
  note("LimbBoundary", "CARRY", "Operand 2^k-1, 2^k, 2^k+1 or 19*2^k at a limb boundary of some layout: incomplete carry propagation (rfc7748_precomputed#5).");
  note("NonCanonicalInput", "REDUCTION", "Operand in [p, 2^255): unreduced input used as is (firedancer#4917, OpenSSL 2018 x25519 class).");
  note("ZeroOperand", "EDGE_CASE", "Operand congruent to 0: inv(0) = 0, sqrt_ratio with v = 0.");
  note("EdgeResult", "REDUCTION", "Result 0 or in [p-19, p): final reduction near p (xous-core#76, Callipyge#6).");
  note("SqrtBranchPlus", "BRANCH", "sqrt_ratio where v*x^2 = u.");
  note("SqrtBranchMinus", "BRANCH", "sqrt_ratio where v*x^2 = -u: the result must be multiplied by sqrt(-1).");
  note("NonSquare", "BRANCH", "sqrt_ratio where u/v is not a square: was_square = false.");
  note("Random", "BASIC", "Seeded random operands.");
  return n;
}

std::vector<std::string> flags_for(Op op, const std::vector<const CatalogueEntry*>& src, const Int& a, const Int& b,
                                   const Int& out, bool was_square, bool random) {
  std::set<std::string> f;
  const Int& P = p();
  if (random) f.insert("Random");
  for (auto* e : src) {
    if (!e) continue;
    f.insert("Boundary");
    if (e->label.rfind("2^", 0) == 0 || e->label.rfind("19*2^", 0) == 0) f.insert("LimbBoundary");
  }
  const bool bin = op_binary(op);
  if (a >= P || (bin && b >= P)) f.insert("NonCanonicalInput");
  if (field().reduce(a) == 0 || (bin && field().reduce(b) == 0)) f.insert("ZeroOperand");
  if (out == 0 || out >= P - 19) f.insert("EdgeResult");
  if (op == Op::sqrt_ratio) {
    if (!was_square) f.insert("NonSquare");
    else {  // which branch the algorithm takes: the candidate before the sqrt(-1) correction
      const Int v = field().reduce(b), u = field().reduce(a);
      const Int v3 = field().mul(field().sqr(v), v), v7 = field().mul(field().sqr(v3), v);
      const Int cand = field().mul(field().mul(u, v3), pow22523(field().mul(u, v7)));
      f.insert(field().mul(v, field().sqr(cand)) == u ? "SqrtBranchPlus" : "SqrtBranchMinus");
    }
  }
  return {f.begin(), f.end()};
}


std::string generate_field() {
  const auto cat = boundary_catalogue_bytes();
  std::vector<const CatalogueEntry*> keys;
  for (auto& e : cat)
    for (const char* l : {"small 0", "small 1", "small 19", "p-1", "p+0 (non-canonical, < 2^255)",
                          "p+1 (non-canonical, < 2^255)", "p+18 (non-canonical, < 2^255)", "(p+1)/2", "2^51", "2^128-1",
                          "sqrt(-1)", "d"})
      if (e.label == l) keys.push_back(&e);
  std::mt19937_64 rng(kFieldSeed);
  auto rand255 = [&] {
    Bytes32 b;
    for (auto& x : b) x = uint8_t(rng());
    b[31] &= 0x7f;
    return val(b);
  };
  json groups = json::array();
  int id = 0;
  for (const auto& op_bin : field_ops()) {
    const Op op = op_bin.first;  // plain names, not a structured binding: the lambda below captures them
    const bool bin = op_bin.second;
    json tests = json::array();
    auto emit = [&](const Int& a, const Int& b, const std::vector<const CatalogueEntry*>& src, bool random,
                    const std::string& comment) {
      auto [out, sq] = reference_op(op, a, b);
      json t;
      t["tcId"] = ++id;
      t["comment"] = comment;
      t["flags"] = flags_for(op, src, a, b, out, sq, random);
      t["a"] = to_hex(b32(a));
      if (bin) t["b"] = to_hex(b32(b));
      t["out"] = to_hex(b32(out));
      if (op == Op::sqrt_ratio) t["wasSquare"] = sq;
      t["result"] = "valid";
      tests.push_back(t);
    };
    if (op == Op::sqrt_ratio) {
      for (auto& e : cat)
        for (auto* k : keys) emit(e.value, k->value, {&e, k}, false, "u = " + e.label + ", v = " + k->label);
      for (int i = 0; i < 48; ++i) {  // constructed branches: u = +-r^2 v, and u = 2 r^2 v (non-square)
        const Int r = rand255(), v = rand255();
        const Int r2v = field().mul(field().sqr(r), v);
        const int kind = i % 3;
        const Int u = kind == 0 ? r2v : kind == 1 ? field().neg(r2v) : field().mul(2, r2v);
        emit(u, v, {}, true, kind == 0 ? "u = r^2 v" : kind == 1 ? "u = -r^2 v" : "u = 2 r^2 v (non-square)");
      }
    } else if (bin) {
      for (auto& e : cat)
        for (auto* k : keys) emit(e.value, k->value, {&e, k}, false, e.label + ", " + k->label);
    } else {
      for (auto& e : cat) emit(e.value, 0, {&e}, false, e.label);
    }
    for (int i = 0; i < 32; ++i) emit(rand255(), rand255(), {}, true, "seeded random");
    groups.push_back({{"op", bx::f25519::op_name(op)}, {"tests", tests}});
  }
  return render(file_header("field25519", kFieldSchema, "bitexact vectors generate", "", id, field_notes(), groups), "testGroups");
}

struct Kat {
  const char *scalar, *u, *shared, *comment;
};
// RFC 7748 section 5.2 (tests 1 and 2) and the TweetNaCl pack25519 class vector (spec 5).
const Kat kKats[] = {
    {"a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4",
     "e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c",
     "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552", "RFC 7748 5.2 test 1"},
    {"4b66e9d4d1b4673c5ad22691957d6af5c11b6421e0ea01d42ca4169e7918ba0d",
     "e5210f12786811d3f4b7959d0538ae2c31dbe7106fc03c3efc4cd549c715a493",
     "95cbde9476e8907d7aade45cb4b873f88b595a68799fa152e6f8f7647aac7957", "RFC 7748 5.2 test 2 (u has bit 255 set)"},
    {"76f6507a08e5d77a9a7b316d93cbb59bafa2e13d1f84d181a35779e7fc471d19",
     "0900000000000000000000000000000000000000000000000000000000000000",
     "6f9253d8647cd88e3fb76358cfef0a9151aa8e7189fb6326dfb0603f6bffff7f",
     "TweetNaCl 20131229 pack25519 class: output top limb all ones"},
};
const std::pair<int, const char*> kIterated[] = {
    {1, "422c8e7a6227d7bca1350b3e2bb7279f7897b87bb6854b783c60e80311ae3079"},
    {1000, "684cf59ba83309552800ef566f2f4d3c1c3887c49360e3875f2eb94d99532c51"},
};

std::string generate_x25519() {
  json groups = json::array();
  int id = 0;
  json kat = json::array();
  for (auto& k : kKats)
    kat.push_back({{"tcId", ++id}, {"comment", k.comment}, {"flags", {"Ktv"}}, {"scalar", k.scalar}, {"u", k.u},
                   {"shared", k.shared}, {"result", "valid"}});
  groups.push_back({{"type", "known-answer"}, {"tests", kat}});
  json it = json::array();
  for (auto& [n, shared] : kIterated)
    it.push_back({{"tcId", ++id}, {"comment", "RFC 7748 5.2 iterated, " + std::to_string(n) + " iteration(s)"},
                  {"flags", {"Ktv", "Iterated"}}, {"iterations", n}, {"shared", shared}, {"result", "valid"}});
  groups.push_back({{"type", "iterated"}, {"tests", it}});
  const Bytes32 k1 = bytes32_from_hex(kKats[0].scalar, "scalar");
  json cu = json::array();
  for (auto& e : boundary_catalogue()) {
    if (e.value >= (Int(1) << 256)) continue;
    const Bytes32 u = b32(e.value);
    cu.push_back({{"tcId", ++id}, {"comment", "u = " + e.label + ", scalar of test 1"}, {"flags", {"BoundaryU"}},
                  {"scalar", to_hex(k1)}, {"u", to_hex(u)}, {"shared", to_hex(x25519(k1, u))}, {"result", "valid"}});
  }
  groups.push_back({{"type", "catalogue-u"}, {"tests", cu}});
  std::mt19937_64 rng(kX25519Seed);
  json rnd = json::array();
  for (int i = 0; i < 32; ++i) {
    Bytes32 k, u;
    for (auto& x : k) x = uint8_t(rng());
    for (auto& x : u) x = uint8_t(rng());
    rnd.push_back({{"tcId", ++id}, {"comment", "seeded random"}, {"flags", {"Random"}}, {"scalar", to_hex(k)},
                   {"u", to_hex(u)}, {"shared", to_hex(x25519(k, u))}, {"result", "valid"}});
  }
  groups.push_back({{"type", "random"}, {"tests", rnd}});
  json notes;
  notes["Ktv"] = {{"bugType", "BASIC"}, {"description", "Known answer from RFC 7748 / the TweetNaCl bug report."}};
  notes["Iterated"] = {{"bugType", "BASIC"}, {"description", "RFC 7748 iterated test: (k, u) <- (X25519(k, u), k)."}};
  notes["BoundaryU"] = {{"bugType", "EDGE_CASE"},
                        {"description", "u from the boundary catalogue, including u >= p and bit 255 set (masked)."}};
  notes["Random"] = {{"bugType", "BASIC"}, {"description", "Seeded random scalar and u."}};
  return render(file_header("X25519", kX25519Schema, "bitexact vectors generate",
                            "known-answer and iterated: RFC 7748 section 5.2 (iterated x1,000,000 is left to bitexact "
                            "selftest --full on a GPU); TweetNaCl class: seb.dbzteam.org 2014-04-28; others: the golden model",
                            id, notes, groups),
                "testGroups");
}

}  // namespace

std::vector<FieldTest> parse_field(const std::string& file, const std::string& text) {
  const json top = parse_json(file, text);
  check_header(top, file, kFieldSchema, {});
  std::vector<FieldTest> out;
  for_each_test(top, file, {"op"}, [&](const json& g, const json& t, const std::string& where, int id) {
    if (!g["op"].is_string()) throw InputError(file + ": testGroups: field 'op' must be a string");
    const Op op = op_from_name(file, g["op"].get<std::string>());
    const bool bin = op_binary(op);
    FieldTest ft;
    ft.tc_id = id;
    std::set<std::string> req = {"tcId", "comment", "flags", "a", "out", "result"};
    if (bin) req.insert("b");
    if (op == Op::sqrt_ratio) req.insert("wasSquare");
    require_keys(t, req, {}, where);
    ft.comment = get_str(t, "comment", where);
    ft.flags = get_flags(t, top["notes"], where);
    ft.op = op;
    ft.a = get_b32(t, "a", where);
    ft.b = bin ? get_b32(t, "b", where) : Bytes32{};
    ft.out = get_b32(t, "out", where);
    if (ft.a[31] & 0x80 || ft.b[31] & 0x80) throw InputError(where + ": operand has bit 255 set");
    if (op == Op::sqrt_ratio) {
      if (!t["wasSquare"].is_boolean()) throw InputError(where + ": field 'wasSquare' must be a boolean");
      ft.was_square = t["wasSquare"].get<bool>();
    }
    check_result(t, where);
    out.push_back(std::move(ft));
  });
  return out;
}

std::vector<X25519Test> parse_x25519(const std::string& file, const std::string& text) {
  const json top = parse_json(file, text);
  check_header(top, file, kX25519Schema, {"source"});
  std::vector<X25519Test> out;
  for_each_test(top, file, {"type"}, [&](const json& g, const json& t, const std::string& where, int id) {
    const bool iterated = g["type"] == "iterated";
    X25519Test xt;
    xt.tc_id = id;
    if (iterated) require_keys(t, {"tcId", "comment", "flags", "iterations", "shared", "result"}, {}, where);
    else require_keys(t, {"tcId", "comment", "flags", "scalar", "u", "shared", "result"}, {}, where);
    xt.comment = get_str(t, "comment", where);
    xt.flags = get_flags(t, top["notes"], where);
    xt.shared = get_b32(t, "shared", where);
    if (iterated) {
      if (!t["iterations"].is_number_integer() || t["iterations"].get<int>() < 1)
        throw InputError(where + ": field 'iterations' must be a positive integer");
      xt.iterations = t["iterations"].get<int>();
    } else {
      xt.scalar = get_b32(t, "scalar", where);
      xt.u = get_b32(t, "u", where);
    }
    check_result(t, where);
    out.push_back(std::move(xt));
  });
  return out;
}

std::map<std::string, std::string> generate_vectors() {
  return {{kFieldPath, generate_field()}, {kX25519Path, generate_x25519()}};
}

std::vector<std::string> check_vectors(const std::string& root, bool verbose) {
  std::vector<std::string> problems;
  const std::map<std::string, std::string> fresh = {{kFieldPath, generate_field()}, {kX25519Path, generate_x25519()}};
  for (auto& [rel, want] : fresh) {
    std::string text;
    if (!read_repo_file(root, rel, text, problems)) continue;
    try {
      size_t n = 0;
      if (rel == kFieldPath) {
        for (auto& t : parse_field(rel, text)) {
          auto [out, sq] = reference_op(t.op, val(t.a), val(t.b));
          if (b32(out) != t.out || (t.op == Op::sqrt_ratio && sq != t.was_square))
            problems.push_back(rel + ": tcId " + std::to_string(t.tc_id) + ": field 'out': the reference disagrees\n" +
                               hexdump_diff(b32(out).data(), t.out.data(), 32));
          ++n;
        }
      } else {
        for (auto& t : parse_x25519(rel, text)) {
          Bytes32 got = t.iterations ? x25519_iterate(t.iterations, [](const Bytes32& k, const Bytes32& u) {
            return bx::ref::f25519::x25519(k, u);
          })
                                     : bx::ref::f25519::x25519(t.scalar, t.u);
          if (got != t.shared)
            problems.push_back(rel + ": tcId " + std::to_string(t.tc_id) + ": field 'shared': the reference disagrees\n" +
                               hexdump_diff(got.data(), t.shared.data(), 32));
          ++n;
        }
      }
      if (verbose) std::printf("%s: %zu tests verified against the reference\n", rel.c_str(), n);
    } catch (const InputError& e) {
      problems.push_back(bx::vectors::io::malformed(e.what()));
    }
    if (auto st = stale_line(rel, text, want, "field25519"); !st.empty()) problems.push_back(st);
  }
  return problems;
}

}  // namespace bx::field25519::vectors
