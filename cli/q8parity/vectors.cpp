// vectors/q8parity/matvec.json: small Q8_0 matrices built around one bug class each (special scales and
// codes, subnormal and signed-zero activations, cancellation that any other summation order rounds
// differently, odd row counts, eight distinct tokens), expected outputs from the reference as float32 bit
// patterns. Generated deterministically; `vectors check` recomputes every expected output and compares the
// file with what generation gives; the selftest runs every variant on the embedded copy.
#include "cli/q8parity/q8parity.hpp"
#include "cli/q8parity/vectors.hpp"
#include "cli/embedded.hpp"
#include "cli/vector_json.hpp"

namespace bx::q8parity {
namespace io = bx::vectors::io;
namespace {

constexpr const char* kMatvecPath = "vectors/q8parity/matvec.json";
constexpr const char* kSchema = "q8parity_matvec_v1";

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

std::string hex_floats(const std::vector<float>& v) {
  const auto b = to_bytes(v);
  return to_hex(b.data(), b.size());
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
  json groups = json::array();
  int id = 0;
  for (const Spec& s : specs()) {
    const MatvecInput in = build(s);
    const std::vector<float> y = reference_matvec(in);
    json t = {{"tcId", ++id}, {"comment", s.comment}, {"flags", s.flags}, {"rows", in.rows}, {"k", in.k}, {"ntok", in.ntok},
              {"weights", to_hex(in.w.data(), in.w.size())}, {"x", hex_floats(in.x)}, {"y", hex_floats(y)}, {"result", "valid"}};
    groups.push_back({{"type", "MatvecTest"}, {"tests", json::array({t})}});
  }
  json top = {{"algorithm", "q8parity-matvec"},
              {"schema", kSchema},
              {"generator", "bitexact vectors generate --family q8parity"},
              {"numberOfTests", id},
              {"notes", notes},
              {"header", {"weights: rows*k/32 Q8_0 blocks (fp16 scale LE, 32 int8); x: ntok*k float32 LE token-major; "
                          "y: ntok*rows float32 LE token-major, the canonical order of specs/q8parity.md"}},
              {"testGroups", groups}};
  return io::render(top, "testGroups");
}

std::vector<MatvecVector> parse_matvec(const std::string& file, const std::string& text) {
  using io::json;
  const json top = io::parse_json(file, text);
  io::check_header(top, file, kSchema, {"header"});
  std::vector<MatvecVector> out;
  std::set<int> seen;
  for (const json& g : top["testGroups"]) {
    io::require_keys(g, {"type", "tests"}, {}, file + ": a test group");
    for (const json& t : g["tests"]) {
      const int id = io::get_id(t, seen, file);
      const std::string where = file + ": tcId " + std::to_string(id);
      io::require_keys(t, {"tcId", "comment", "flags", "rows", "k", "ntok", "weights", "x", "y", "result"}, {}, where);
      io::get_flags(t, top["notes"], where);
      io::check_result(t, where);
      MatvecVector v;
      v.id = id;
      v.comment = io::get_str(t, "comment", where);
      for (const char* f : {"rows", "k", "ntok"})
        if (!t[f].is_number_unsigned()) throw InputError(where + ": field '" + f + "' must be a positive integer");
      v.in.rows = t["rows"].get<size_t>(), v.in.k = t["k"].get<size_t>(), v.in.ntok = t["ntok"].get<int>();
      if (v.in.rows == 0 || v.in.rows > 65536 || v.in.k == 0 || v.in.k % 32 || v.in.k > 65536 || v.in.ntok < 1 || v.in.ntok > 8)
        throw InputError(where + ": rows 1..65536, k a multiple of 32 up to 65536, ntok 1..8");
      const size_t wb = v.in.rows * (v.in.k / 32) * 34;
      auto hex_field = [&](const char* f, size_t n) {
        const std::string h = io::get_str(t, f, where);
        if (h.size() != 2 * n)
          throw InputError(where + ": field '" + f + "': expected " + std::to_string(n) + " bytes, got " + std::to_string(h.size() / 2));
        return from_hex(h, n, where + ": field '" + f + "'");
      };
      v.in.w = hex_field("weights", wb);
      v.in.x = floats_of(hex_field("x", size_t(v.in.ntok) * v.in.k * 4), where + ": field 'x'");
      v.y = floats_of(hex_field("y", size_t(v.in.ntok) * v.in.rows * 4), where + ": field 'y'");
      out.push_back(std::move(v));
    }
  }
  if (int(out.size()) != top["numberOfTests"].get<int>()) throw InputError(file + ": numberOfTests does not match the tests");
  return out;
}

std::vector<MatvecVector> load_embedded_matvec() {
  return parse_matvec(std::string("(embedded) ") + kMatvecPath, embedded_file(kMatvecPath));
}

std::vector<std::string> vector_files() { return {kMatvecPath}; }
std::map<std::string, std::string> generate_vectors() { return {{kMatvecPath, generate_matvec_text()}}; }

std::vector<std::string> check_vectors(const std::string& root) {
  std::vector<std::string> problems;
  std::string text;
  if (!io::read_repo_file(root, kMatvecPath, text, problems)) return problems;
  try {
    for (const MatvecVector& v : parse_matvec(kMatvecPath, text)) {
      const Diff d = diff(reference_matvec(v.in), v.y);
      if (!d.same()) problems.push_back(std::string(kMatvecPath) + ": tcId " + std::to_string(v.id) + ": the reference gives other outputs: " + describe(d, v.in.rows));
    }
  } catch (const InputError& e) {
    problems.push_back(e.what());
    return problems;
  }
  if (text != generate_matvec_text())
    problems.push_back(std::string(kMatvecPath) + ": differs from `bitexact vectors generate` (regenerate and review the diff)");
  return problems;
}

}  // namespace bx::q8parity
