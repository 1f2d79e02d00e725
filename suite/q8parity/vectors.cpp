// vectors/q8parity/matvec.json: small Q8_0 matrices built around one bug class each (special scales and
// codes, subnormal and signed-zero activations, cancellation that any other summation order rounds
// differently, odd row counts, eight distinct tokens); vectors/q8parity/rmsnorm.json: rows around the
// 32 lanes and the butterfly (1, 31, 32, 33 elements), weighted and not, zero rows, overflow, subnormals,
// eps 0. Expected outputs from the reference as float32 bit patterns. Generated deterministically;
// `vectors check` recomputes every expected output and compares each file with what generation gives; the
// selftest runs every variant on the embedded copies.
#include "suite/q8parity/vectors.hpp"
#include "suite/embedded.hpp"
#include "suite/q8parity/judge.hpp"
#include "suite/vector_json.hpp"

namespace bx::q8parity {
namespace io = bx::vectors::io;
using suite::q8parity::float_hex;
namespace {

constexpr const char* kMatvecPath = "vectors/q8parity/matvec.json";
constexpr const char* kSchema = "q8parity_matvec_v1";
constexpr const char* kRmsPath = "vectors/q8parity/rmsnorm.json";
constexpr const char* kRmsSchema = "q8parity_rmsnorm_v1";

struct Spec {
  const char* comment;
  std::vector<std::string> flags;
  size_t rows, k;
  int ntok;
  uint64_t seed;
  // Edits applied to a seeded uniform matrix: scale of block b (fp16 bits), code (block, index), activation.
  std::vector<std::pair<size_t, uint16_t>> scales;
  std::vector<std::tuple<size_t, int, int8_t>> codes;
  std::vector<std::pair<size_t, float>> xs;
  bool cancel = false;  // activations of alternating huge and small magnitude: every reordering rounds differently
};

std::vector<Spec> specs() {
  std::vector<Spec> s;
  s.push_back({"codes -128 and 127 in every position", {"CodeExtremes", "PackedSign"}, 3, 64, 1, 1, {}, {}, {}});
  for (int i = 0; i < 32; ++i) {
    s.back().codes.push_back({0, i, int8_t(i % 2 ? 127 : -128)});
    s.back().codes.push_back({3, i, int8_t(-128)});
  }
  s.push_back({"scales +0 and -0", {"SignedZero"}, 2, 64, 2, 2, {{0, 0x0000}, {1, 0x8000}, {2, 0x8000}}, {}, {}});
  s.push_back({"subnormal scales (fp16 0x0001, 0x03ff, 0x8200)", {"SubnormalScale"}, 2, 96, 1, 3,
               {{0, 0x0001}, {1, 0x03ff}, {3, 0x8200}, {5, 0x0001}}, {}, {}});
  s.push_back({"largest finite scale 65504 with large activations: overflow to inf", {"Overflow"}, 2, 64, 1, 4,
               {{0, 0x7bff}, {1, 0x7bff}, {2, 0xfbff}}, {}, {{0, 3e34f}, {1, -3e34f}, {40, 1e35f}}});
  s.push_back({"infinite and NaN scales", {"NonFinite"}, 3, 64, 1, 5, {{0, 0x7c00}, {2, 0xfc00}, {4, 0x7e00}}, {}, {}});
  s.push_back({"subnormal activations: among ordinary ones, and a whole token of them (block sums at the subnormal scale)",
               {"SubnormalActivation"}, 4, 64, 2, 6, {}, {}, {}});
  for (size_t i = 0; i < 64; i += 3) s.back().xs.push_back({i, q8::float_of(uint32_t(0x00012345u + i * 977u))});
  for (size_t i = 64; i < 128; ++i) s.back().xs.push_back({i, q8::float_of(uint32_t((i % 2 ? 0x80000000u : 0u) | (0x00400000u + i * 4099u)))});
  s.push_back({"signed zero activations", {"SignedZero"}, 2, 64, 1, 7, {}, {}, {}});
  for (size_t i = 0; i < 64; ++i) s.back().xs.push_back({i, i % 3 ? 0.0f : -0.0f});
  s.back().xs.push_back({5, 1.5f});
  s.push_back({"cancellation: any other order of the sums rounds differently", {"SummationOrder"}, 4, 512, 2, 8, {}, {}, {}});
  s.back().cancel = true;
  s.push_back({"odd row count (the NR = 2 tail row)", {"Tail"}, 5, 96, 3, 9, {}, {}, {}});
  s.push_back({"eight distinct tokens", {"TokenIndependence"}, 3, 288, 8, 10, {}, {}, {}});
  return s;
}

MatvecInput build(const Spec& s) {
  MatvecInput in = random_matvec(s.seed, s.rows, s.k, s.ntok, false);
  for (auto [b, d] : s.scales) in.w[b * 34] = uint8_t(d), in.w[b * 34 + 1] = uint8_t(d >> 8);
  for (auto [b, i, q] : s.codes) in.w[b * 34 + 2 + size_t(i)] = uint8_t(q);
  for (auto [i, f] : s.xs) in.x[i] = f;
  if (s.cancel)
    for (size_t i = 0; i < in.x.size(); ++i) in.x[i] = (i % 2 ? 1.0f : 4096.0f) * (i % 4 < 2 ? 1.0f : -1.0f) + float(i % 7) * 0.001f;
  return in;
}


struct RmsSpec {
  const char* comment;
  std::vector<std::string> flags;
  size_t n;
  bool has_w;
  float eps;
  uint64_t seed;
  int kind;  // 0 uniform, 1 zeros, 2 huge (x^2 overflows), 3 subnormal, 4 mixed magnitudes
};
std::vector<RmsSpec> rms_specs() {
  return {{"one element: lanes 1..31 hold 0 and the butterfly still sums 32 values", {"EmptyLanes"}, 1, true, 1e-6f, 1, 0},
          {"31 elements: lane 31 empty", {"LaneTail"}, 31, true, 1e-6f, 2, 0},
          {"32 elements: one per lane", {"LaneTail"}, 32, true, 1e-6f, 3, 0},
          {"33 elements: lane 0 holds two", {"LaneTail", "LaneOrder"}, 33, true, 1e-6f, 4, 0},
          {"100 elements, weighted", {"LaneOrder"}, 100, true, 1e-6f, 5, 4},
          {"100 elements without a weight (y = x * r)", {"NoWeight"}, 100, false, 1e-5f, 6, 4},
          {"a zero row: r = 1 / sqrt(eps)", {"ZeroRow"}, 64, true, 1e-6f, 7, 1},
          {"x^2 overflows: ss = inf, r = 0", {"Overflow"}, 40, true, 1e-6f, 8, 2},
          {"subnormal elements: ss underflows below eps", {"Subnormal"}, 70, true, 1e-12f, 9, 3},
          {"a zero row with eps 0: r = inf, y = 0 * inf = NaN", {"EpsZero"}, 32, false, 0.0f, 10, 1},
          {"a model's stream length 2560 (n_embd)", {"LaneOrder"}, 2560, true, 1e-6f, 11, 4}};
}
NormInput build_rms(const RmsSpec& s) {
  NormInput in = random_norm(s.seed, s.n, 1, s.has_w, false);
  in.eps = s.eps;
  for (size_t i = 0; i < s.n; ++i) {
    float& x = in.x[i];
    switch (s.kind) {
      case 1: x = i % 3 ? 0.0f : -0.0f; break;
      case 2: x = (i % 2 ? -3e19f : 2e19f) * float(1 + i % 5); break;
      case 3: x = q8::float_of(uint32_t((i % 2 ? 0x80000000u : 0u) | (0x00100000u + uint32_t(i) * 7919u))); break;
      case 4: x *= i % 7 == 0 ? 1000.0f : (i % 5 == 0 ? 1e-3f : 1.0f); break;
      default: break;
    }
  }
  return in;
}

// A vector file's text: the Wycheproof-shaped header and one group of `type` per test.
std::string render_file(const char* algorithm, const char* schema, const io::json& notes, const char* header,
                        const char* type, const std::vector<io::json>& tests) {
  io::json groups = io::json::array();
  for (const io::json& t : tests) groups.push_back({{"type", type}, {"tests", io::json::array({t})}});
  const io::json top = {{"algorithm", algorithm},
                        {"schema", schema},
                        {"generator", "bitexact vectors generate --family q8parity"},
                        {"numberOfTests", tests.size()},
                        {"notes", notes},
                        {"header", {header}},
                        {"testGroups", groups}};
  return io::render(top, "testGroups");
}

// Every test of a file, strictly: the header, each group's keys, the test's keys (exactly `keys`), flags
// described in notes, result "valid", numberOfTests; fn(test, where, tcId) reads the rest.
template <class Fn>
void for_each_test(const std::string& file, const std::string& text, const char* schema,
                   const std::set<std::string>& keys, Fn&& fn) {
  const io::json top = io::parse_json(file, text);
  io::check_header(top, file, schema, {"header"});
  io::for_each_test(top, file, {"type"}, [&](const io::json&, const io::json& t, const std::string& where, int id) {
    io::require_keys(t, keys, {}, where);
    io::get_flags(t, top["notes"], where);
    io::check_result(t, where);
    fn(t, where, id);
  });
}

// Field f as exactly n bytes of hex (InputError naming the test and the field otherwise).
std::vector<uint8_t> sized_hex(const io::json& t, const char* f, size_t n, const std::string& where) {
  const std::string h = io::get_str(t, f, where);
  if (h.size() != 2 * n)
    throw InputError(where + ": field '" + f + "': expected " + std::to_string(n) + " bytes, got " + std::to_string(h.size() / 2));
  return bx::vectors::io::file_hex(h, n, where + ": field '" + f + "'");
}
std::vector<float> sized_floats(const io::json& t, const char* f, size_t n, const std::string& where) {
  return floats_of(sized_hex(t, f, 4 * n, where), where + ": field '" + f + "'");
}

// One owned file under root: parsed, every expected output recomputed by the reference, and the text equal
// to generation. want(v) is the reference's output for test v.
size_t rows_of(const MatvecVector& v) { return v.in.rows; }  // how describe() places an output
size_t rows_of(const RmsnormVector&) { return 0; }
template <class Parse, class Want>
void check_file(const std::string& root, const char* rel, Parse&& parse, Want&& want, const std::string& generated,
                std::vector<std::string>& problems) {
  std::string text;
  if (!io::read_repo_file(root, rel, text, problems)) return;
  try {
    for (const auto& v : parse(rel, text)) {
      const Diff d = diff(want(v), v.y);
      if (!d.same())
        problems.push_back(std::string(rel) + ": tcId " + std::to_string(v.id) + ": the reference gives other outputs: " +
                           describe(d, rows_of(v)));
    }
  } catch (const InputError& e) {
    problems.push_back(bx::vectors::io::malformed(e.what()));
    return;
  }
  if (auto st = bx::vectors::io::stale_line(rel, text, generated, "q8parity"); !st.empty()) problems.push_back(st);
}

}  // namespace

std::string generate_matvec_text() {
  using io::json;
  json notes = {
      {"CodeExtremes", "codes -128 and 127: the ends of int8 (ggml's quantizer makes only -127..127, files may hold -128)"},
      {"PackedSign", "negative codes: a packed word widened as unsigned bytes gets them wrong"},
      {"SignedZero", "scales or activations -0 and +0: the sign of a zero sum follows IEEE rules exactly"},
      {"SubnormalScale", "fp16 subnormal scales: a conversion or a kernel that flushes subnormals gets 0"},
      {"Overflow", "the largest finite fp16 scale with large activations: sums overflow to inf in the canonical order"},
      {"NonFinite", "inf and NaN scales propagate (NaNs compared as a class)"},
      {"SubnormalActivation", "subnormal activations: flush-to-zero (-ftz=true) changes the products"},
      {"SummationOrder", "alternating magnitudes: any other order of the 32 fmas or of the blocks rounds differently"},
      {"Tail", "row count not a multiple of NR = 2: the tail row must be computed"},
      {"TokenIndependence", "eight distinct tokens: token t must read only its own activations"}};
  std::vector<json> tests;
  for (const Spec& s : specs()) {
    const MatvecInput in = build(s);
    tests.push_back({{"tcId", tests.size() + 1}, {"comment", s.comment}, {"flags", s.flags}, {"rows", in.rows}, {"k", in.k},
                     {"ntok", in.ntok}, {"weights", to_hex(in.w.data(), in.w.size())}, {"x", floats_hex(in.x)},
                     {"y", floats_hex(reference_matvec(in))}, {"result", "valid"}});
  }
  return render_file("q8parity-matvec", kSchema, notes,
                     "weights: rows*k/32 Q8_0 blocks (fp16 scale LE, 32 int8); x: ntok*k float32 LE token-major; "
                     "y: ntok*rows float32 LE token-major, the canonical order of docs/specs/q8parity.md",
                     "MatvecTest", tests);
}

std::vector<MatvecVector> parse_matvec(const std::string& file, const std::string& text) {
  std::vector<MatvecVector> out;
  for_each_test(file, text, kSchema, {"tcId", "comment", "flags", "rows", "k", "ntok", "weights", "x", "y", "result"},
                [&](const io::json& t, const std::string& where, int id) {
                  MatvecVector v;
                  v.id = id;
                  v.comment = io::get_str(t, "comment", where);
                  for (const char* f : {"rows", "k", "ntok"})
                    if (!t[f].is_number_unsigned()) throw InputError(where + ": field '" + f + "' must be a positive integer");
                  const uint64_t rows = t["rows"].get<uint64_t>(), k = t["k"].get<uint64_t>(), ntok = t["ntok"].get<uint64_t>();
                  if (rows == 0 || rows > 65536 || k == 0 || k % 32 || k > 65536 || ntok < 1 || ntok > 8)
                    throw InputError(where + ": rows 1..65536, k a multiple of 32 up to 65536, ntok 1..8");
                  v.in.rows = size_t(rows), v.in.k = size_t(k), v.in.ntok = int(ntok);
                  v.in.w = sized_hex(t, "weights", v.in.rows * (v.in.k / 32) * 34, where);
                  v.in.x = sized_floats(t, "x", size_t(v.in.ntok) * v.in.k, where);
                  v.y = sized_floats(t, "y", size_t(v.in.ntok) * v.in.rows, where);
                  out.push_back(std::move(v));
                });
  return out;
}

std::vector<MatvecVector> load_embedded_matvec() {
  return parse_matvec(std::string("(embedded) ") + kMatvecPath, embedded_file(kMatvecPath));
}

std::string generate_rmsnorm_text() {
  using io::json;
  json notes = {{"EmptyLanes", "fewer elements than lanes: empty lanes hold 0 and join the butterfly"},
                {"LaneTail", "lengths around 32: which lane holds the last elements"},
                {"LaneOrder", "more than one element per lane with mixed magnitudes: another order of the sums rounds differently"},
                {"NoWeight", "the unweighted form y = x * r (one rounding)"},
                {"ZeroRow", "all (signed) zeros: ss = 0, r = 1 / sqrt(eps)"},
                {"Overflow", "x^2 overflows: ss = inf, r = 0"},
                {"Subnormal", "subnormal elements: flush-to-zero changes ss and y"},
                {"EpsZero", "eps 0 on a zero row: r = inf and y = NaN (compared as a class)"}};
  std::vector<json> tests;
  for (const RmsSpec& s : rms_specs()) {
    const NormInput in = build_rms(s);
    tests.push_back({{"tcId", tests.size() + 1}, {"comment", s.comment}, {"flags", s.flags}, {"n", in.n},
                     {"eps", float_hex(in.eps)}, {"x", floats_hex(in.x)}, {"w", in.has_w ? floats_hex(in.w) : ""},
                     {"y", floats_hex(reference_rmsnorm(in))}, {"result", "valid"}});
  }
  return render_file("q8parity-rmsnorm", kRmsSchema, notes,
                     "x, w, y: n float32 LE (w empty: no weight); eps: the float32 bit pattern, 8 hex digits; "
                     "the canonical order of docs/specs/q8parity.md (32 lanes, xor butterfly, 1 / sqrt(ss / n + eps))",
                     "RmsnormTest", tests);
}

std::vector<RmsnormVector> parse_rmsnorm(const std::string& file, const std::string& text) {
  std::vector<RmsnormVector> out;
  for_each_test(file, text, kRmsSchema, {"tcId", "comment", "flags", "n", "eps", "x", "w", "y", "result"},
                [&](const io::json& t, const std::string& where, int id) {
                  RmsnormVector v;
                  v.id = id;
                  v.comment = io::get_str(t, "comment", where);
                  if (!t["n"].is_number_unsigned() || t["n"].get<uint64_t>() == 0 || t["n"].get<uint64_t>() > 65536)
                    throw InputError(where + ": field 'n' must be 1..65536");
                  v.in.n = size_t(t["n"].get<uint64_t>());
                  const std::string eps = io::get_str(t, "eps", where);
                  io::require_lowercase_hex(eps, where + ": field 'eps'");
                  v.in.eps = float_of_hex8(eps, where + ": field 'eps'");
                  v.in.x = sized_floats(t, "x", v.in.n, where);
                  v.in.has_w = !io::get_str(t, "w", where).empty();
                  if (v.in.has_w) v.in.w = sized_floats(t, "w", v.in.n, where);
                  v.y = sized_floats(t, "y", v.in.n, where);
                  out.push_back(std::move(v));
                });
  return out;
}

std::vector<RmsnormVector> load_embedded_rmsnorm() {
  return parse_rmsnorm(std::string("(embedded) ") + kRmsPath, embedded_file(kRmsPath));
}

std::vector<std::string> vector_files() { return {kMatvecPath, kRmsPath}; }
std::map<std::string, std::string> generate_vectors() {
  return {{kMatvecPath, generate_matvec_text()}, {kRmsPath, generate_rmsnorm_text()}};
}

std::vector<std::string> check_vectors(const std::string& root) {
  std::vector<std::string> problems;
  check_file(root, kMatvecPath, parse_matvec, [](const MatvecVector& v) { return reference_matvec(v.in); }, generate_matvec_text(),
             problems);
  check_file(root, kRmsPath, parse_rmsnorm, [](const RmsnormVector& v) { return reference_rmsnorm(v.in); },
             generate_rmsnorm_text(), problems);
  return problems;
}

}  // namespace bx::q8parity
