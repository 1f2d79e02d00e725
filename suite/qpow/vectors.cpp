// qpow vector files: generation from the golden model with the spec's known answers written in literally,
// strict loading, and checking (every case recomputed with reference/qpow, every literal known answer
// checked against the reference, every file compared with generation byte for byte).
//
// The flags of the field file name the reduction branches a case drives. They are computed by a small
// classifier below (unsigned __int128, a description of the qp-poseidon goldilocks.rs reduction and of the
// be8ee1e8 lossy reduce128, spec 7); it labels cases and never computes an expected value: every "out" is
// the reference's (or a spec literal checked against the reference).
#include "suite/qpow/vectors.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <set>
#include <sstream>

#include "suite/embedded.hpp"
#include "suite/hex.hpp"
#include "suite/vector_json.hpp"
#include "reference/qpow/qpow_ref.hpp"

namespace bx::qpow {
using namespace bx::vectors::io;
namespace R = bx::ref::qpow;
using R::Int;

namespace {

constexpr uint64_t P = R::kP;
constexpr uint64_t EPS = 0xffffffffull;
using u128 = unsigned __int128;

const char* kFieldPath = "vectors/qpow/field.json";
const char* kPermPath = "vectors/qpow/permutation.json";
const char* kHashPath = "vectors/qpow/hash_bytes.json";
const char* kFeltPath = "vectors/qpow/felt_sponge.json";
const char* kMiningPath = "vectors/qpow/mining.json";
const char* kValidityPath = "vectors/qpow/validity.json";
const char* kGenerator = "bitexact vectors generate --family qpow";
const uint64_t kRandomSeed = 0x71706f77;  // "qpow"

using Header = std::array<uint8_t, 32>;
using B64 = std::array<uint8_t, 64>;
using State = std::array<uint64_t, 12>;

// ---- small helpers ------------------------------------------------------------------------------------
std::string w16(uint64_t v) {
  char b[20];
  std::snprintf(b, sizeof b, "%016llx", static_cast<unsigned long long>(v));
  return b;
}
std::string hexs(const uint8_t* p, size_t n) { return to_hex(p, n); }
template <size_t N>
std::string hexs(const std::array<uint8_t, N>& a) {
  return to_hex(a.data(), N);
}
template <size_t N>
std::array<uint8_t, N> unhex_n(const std::string& s) {
  const auto v = from_hex(s, N, "literal");
  std::array<uint8_t, N> a{};
  std::copy(v.begin(), v.end(), a.begin());
  return a;
}
Int int_be(const uint8_t* p, size_t n) {
  Int v = 0;
  for (size_t i = 0; i < n; ++i) v = (v << 8) + p[i];
  return v;
}
Int int_be(const B64& b) { return int_be(b.data(), 64); }
B64 be_of(const Int& v) { return R::nonce_be_bytes(v); }  // [0, 2^512 - 1], else std::out_of_range
Int pow2(int k) { return Int(1) << k; }
Int int_hex(const std::string& h) { return Int("0x" + h); }
std::string int_str(const Int& v) { return v.str(); }
// Twelve words from a space-separated list of numerals in `base` (16 or 10).
State words(const std::string& list, int base) {
  std::istringstream in(list);
  State s{};
  std::string w;
  for (int i = 0; i < 12; ++i) {
    in >> w;
    s[i] = std::strtoull(w.c_str(), nullptr, base);
  }
  return s;
}
State seq_state(uint64_t first) {
  State s{};
  for (int i = 0; i < 12; ++i) s[i] = first + uint64_t(i);
  return s;
}
Header rep_header(uint8_t b) {
  Header h;
  h.fill(b);
  return h;
}
Header seq_header() {
  Header h;
  for (int i = 0; i < 32; ++i) h[i] = uint8_t(i);
  return h;
}
std::string header_name(const Header& h) {
  if (std::all_of(h.begin(), h.end(), [&](uint8_t x) { return x == h[0]; })) {
    char b[12];
    std::snprintf(b, sizeof b, "%02x x32", h[0]);
    return b;
  }
  if (h == seq_header()) return "000102..1f";
  return hexs(h);
}
std::string hex_int(const Int& v) {
  std::ostringstream o;
  o << std::hex << v;
  return "0x" + o.str();
}
void add_flag(std::vector<std::string>& f, const std::string& x) {
  if (std::find(f.begin(), f.end(), x) == f.end()) f.push_back(x);
}

// ---- reduction-branch classifier (labels only; see the file comment) ----------------------------------
struct Cls {
  uint64_t raw = 0;         // the qp-poseidon / gl64 output (possibly lazy)
  uint64_t lossy = 0;       // the be8ee1e8 lossy engine's output (reduce-type and add ops)
  bool borrow = false, carry = false, dbl = false, dbl_borrow = false, lazy_out = false, bit65 = false, slip = false;
};
// x = lo + 2^64 hi: t0 = lo - h1 (borrow: - EPS), t2 = t0 + h0 EPS (carry: + EPS) [goldilocks.rs];
// lossy: (mid:lo) = (r1:r0) + r2 EPS, c its 65th bit, v = (mid + c:lo), t = r3 + c kept in 32 bits, v - t
// with the final borrow dropped [mining.cu be8ee1e8, spec 7 (i)-(iii)].
Cls cls_reduce(u128 x) {
  Cls c;
  const uint64_t lo = uint64_t(x), hi = uint64_t(x >> 64);
  const uint64_t h0 = hi & EPS, h1 = hi >> 32;
  c.borrow = lo < h1;
  uint64_t t0 = lo - h1;
  if (c.borrow) t0 -= EPS;
  const uint64_t t1 = (h0 << 32) - h0;
  const uint64_t t2 = t0 + t1;
  c.carry = t2 < t1;
  c.raw = t2 + (c.carry ? EPS : 0);
  c.lazy_out = c.raw >= P;
  const uint32_t r0 = uint32_t(lo), r1 = uint32_t(lo >> 32), r2 = uint32_t(hi), r3 = uint32_t(hi >> 32);
  const uint64_t m = uint64_t(r2) * EPS;
  const uint64_t s = (uint64_t(r1) << 32 | r0) + m;
  const uint32_t cc = s < m;
  const uint64_t v = (uint64_t(uint32_t(s >> 32) + cc) << 32) | uint32_t(s);
  const uint64_t t = uint64_t(r3) + cc;
  c.lossy = v - uint32_t(t);
  c.slip = t >> 32 || v < t;
  return c;
}
Cls cls_add(uint64_t a, uint64_t b) {
  Cls c;
  uint64_t s = a + b;
  c.carry = s < a;
  c.lossy = s;
  if (c.carry) {
    s += EPS;
    c.lossy = s;
    c.dbl = s < EPS;
    if (c.dbl) s += EPS;
  }
  c.raw = s;
  c.lazy_out = s >= P;
  c.slip = c.dbl;
  return c;
}
Cls cls_sub(uint64_t a, uint64_t b) {
  Cls c;
  uint64_t d = a - b;
  c.borrow = a < b;
  if (c.borrow) {
    c.dbl_borrow = d < EPS;
    d -= EPS;
    if (c.dbl_borrow) d -= EPS;
  }
  c.raw = c.lossy = d;
  c.lazy_out = d >= P;
  return c;
}
bool bit65(uint64_t a) { return ((a & EPS) * (a >> 32)) >> 63; }  // 2 a0 a1 >= 2^64

// Flags of a field case: the source flag, then the classes in a fixed order.
std::vector<std::string> field_flags(const std::string& op, uint64_t a, uint64_t b, const std::string& source) {
  std::vector<std::string> f;
  if (!source.empty()) f.push_back(source);
  Cls c;
  bool lazy_in = false;
  if (op == "add") c = cls_add(a, b), lazy_in = a >= P || b >= P;
  else if (op == "sub") c = cls_sub(a, b), lazy_in = a >= P || b >= P;
  else if (op == "neg") c = cls_sub(0, a), lazy_in = a >= P;
  else if (op == "mul") c = cls_reduce(u128(a) * b), lazy_in = a >= P || b >= P;
  else if (op == "sqr") c = cls_reduce(u128(a) * a), c.bit65 = bit65(a), lazy_in = a >= P;
  else if (op == "reduce128") c = cls_reduce(u128(b) << 64 | a);
  else if (op == "canonical") lazy_in = a >= P;
  else if (op == "sbox") {  // x2 = x^2, x3 = x2 x, x4 = x2^2, x7 = x3 x4 with canonical intermediates
    lazy_in = a >= P;
    const uint64_t x2 = R::sqr(a), x3 = R::mul(x2, a);
    c.bit65 = bit65(a) || bit65(x2);
    c.slip = cls_reduce(u128(a) * a).slip || cls_reduce(u128(x2) * a).slip || cls_reduce(u128(x2) * x2).slip ||
             cls_reduce(u128(x3) * R::sqr(x2)).slip;
  }
  if (lazy_in) f.push_back("lazy-input");
  if (op != "sbox" && op != "canonical") {
    if (c.carry) f.push_back("carry");
    if (c.dbl) f.push_back("double-overflow");
    if (c.borrow) f.push_back("borrow");
    if (c.dbl_borrow) f.push_back("double-borrow");
    if (c.lazy_out) f.push_back("lazy-output");
  }
  if (c.bit65) f.push_back("sqr-bit65");
  if (c.slip) f.push_back("lossy-slip");
  return f;
}

bool binary_op(const std::string& op) { return op == "add" || op == "sub" || op == "mul" || op == "reduce128"; }
const std::set<std::string> kVectorOps = {"add", "sub", "mul", "sqr", "neg", "canonical", "sbox", "reduce128"};
uint64_t ref_field(const std::string& op, uint64_t a, uint64_t b) {
  if (op == "add") return R::add(a, b);
  if (op == "sub") return R::sub(a, b);
  if (op == "mul") return R::mul(a, b);
  if (op == "sqr") return R::sqr(a);
  if (op == "neg") return R::neg(a);
  if (op == "canonical") return R::canonical(a);
  if (op == "sbox") return R::sbox(a);
  if (op == "reduce128") return R::reduce128(b, a);  // a = low word, b = high word
  throw std::logic_error("ref_field: unknown op " + op);
}
State ref_layer(const std::string& layer, const State& s) {
  if (layer == "m4") return R::m4_layer(s);
  if (layer == "external") return R::external_linear(s);
  if (layer == "internal") return R::internal_linear(s);
  if (layer == "permute") return R::permute(s);
  throw std::logic_error("ref_layer: unknown layer " + layer);
}
const std::set<std::string> kLayers = {"m4", "external", "internal", "permute"};

// =====================================================================================================
// The spec's known answers (docs/specs/qpow.md), literally.
// =====================================================================================================
constexpr uint64_t kA = 13835875475997267463ull, kB = 13593300247443167546ull;  // 9.1 (= RC_init[0][0], ...)
constexpr uint64_t kInv2 = 9223372034707292161ull;                              // 1/2 mod p

struct FieldKat {
  const char* op;
  uint64_t a, b, out;
  const char* comment;
};
// 9.1, qp-poseidon src/goldilocks.rs tests (v3.0.2, 60f7f4c).
const FieldKat kFieldKats[] = {
    {"add", kA, kB, 8982431654025850688ull, "a + b"},
    {"sub", kA, kB, 242575228554099917ull, "a - b"},
    {"mul", kA, kB, 16746386726560462281ull, "a * b"},
    {"mul", kA, kInv2, 16141309772705925892ull, "a / 2 = a * 2^-1"},
    {"sbox", kA, 0, 5716687150516714629ull, "a^7"},
    {"mul", P - 2, kInv2, 18446744069414584320ull, "(p-2) * 2^-1 = p-1 (also halve(p-2) = p-1)"},
    {"add", P - 1, P - 2, P - 3, "(p-1) + (p-2) = p-3"},
    {"sub", P - 1, P - 2, 1, "(p-1) - (p-2) = 1"},
    {"mul", P - 1, P - 2, 2, "(p-1) * (p-2) = 2"},
    {"sub", 3, 5, P - 2, "3 - 5 = p-2"},
    {"sbox", 0, 0, 0, "S-box 0 -> 0"},
    {"sbox", 1, 0, 1, "S-box 1 -> 1"},
    {"sbox", 2, 0, 128, "S-box 2 -> 128"},
    {"sbox", 5, 0, 78125, "S-box 5 -> 78125"},
    {"sbox", EPS, 0, EPS, "S-box 2^32-1 -> 2^32-1"},
};

struct BranchKat {
  const char* op;
  uint64_t a, b;
  uint64_t raw;    // the reference reduction's raw u64 output (goldilocks.rs), 0 where the spec gives none
  uint64_t exact;  // canonical value (the case's out)
  uint64_t lossy;  // the lossy engine's value where the spec gives one, else 0
  const char* comment;
};
// 8 reference reduction branches (*derived*) and 7 lossy slips on canonical inputs (*derived*).
const BranchKat kBranchKats[] = {
    {"mul", EPS, (1ull << 32) + 1, 0xffffffffffffffffull, 0xfffffffeull, 0,
     "spec 8: EPS * (2^32+1): no branch, raw output 0xffffffffffffffff >= p"},
    {"mul", EPS, 0x8000000080000000ull, 0x7fffffff00000000ull, 0x7fffffff00000000ull, 0,
     "spec 8: EPS * 0x8000000080000000: carry only, raw 0x7fffffff00000000"},
    {"mul", 1ull << 48, 1ull << 48, 0xffffffff00000000ull, 0xffffffff00000000ull, 0xffffffffffffffffull,
     "spec 8: 2^48 * 2^48: borrow only, raw 0xffffffff00000000; spec 7: the lossy reduce128 gives 0xffffffffffffffff"},
    {"mul", P - 1, P - 1, 0xffffffff00000002ull, 1, 0, "spec 8: (p-1)^2: borrow, raw output 0xffffffff00000002 >= p"},
    {"mul", 1ull << 48, 0x8000000080000000ull, 0x00007fffffff0000ull, 0x00007fffffff0000ull, 0,
     "spec 8: 2^48 * 0x8000000080000000: borrow and carry, raw 0x00007fffffff0000"},
    {"mul", 1ull << 63, 1ull << 63, 0, 0xfffffffec0000001ull, 0xffffffffc0000000ull,
     "spec 7: 2^63 * 2^63 = 0xfffffffec0000001; the lossy reduce128 gives 0xffffffffc0000000"},
};

// 9.1 layers and the zero state's first round; 9.2 permutations.
const char* kMI_1_12 =
    "14102670999874605902 12724564314584031161 2820561051427350843 16542800896675938601 15306463738286039492 "
    "7752500014678011478 6061018803481092188 7074894295206835361 12845226504185330854 9784840285965170449 "
    "9819782087245364719 15989125545469266117";
const char* kZeroSbox =  // S-box(0 + RC_init[0][i])
    "5716687150516714629 12606094110489894541 7176561780833472673 2787933693728327558 2372134002172061930 "
    "5020691920936401247 15687823912570289724 15071980520517301340 751173130886275522 17086029608447879298 "
    "4895459708442877360 10576769927437500691";
const char* kZeroRound0 =  // M_E of the above
    "15870188304392300026 5420667415882104228 4061330223075420786 3907156211996553271 7220184397568305579 "
    "6276399041015305555 10112551490188661599 920706293309282174 6439956850909369582 10360554408705021829 "
    "3933312188334710888 6787120046090971660";
const char* kPermZero =
    "c9bc9432e1686884 03ecbab0dcdd2189 5e7ac885b3dc1215 6ac07513801d191f ca5c593fb184dcfc 414dec5f3e455287 "
    "1a17df170127ae41 e7e592bd0af9b0a5 c71a9b27edc66a4c 2728671759ac43c2 b9969c20f7f672f9 c5140b586823b92f";
const char* kPermSeq1 =
    "7e9574e2a3d6c48b 9d7bc16d282d2f2b 798826626d94a498 0831011bb22304c7 bdccb5931fffd16c e98687714dacbefc "
    "c6a1ed29dd75e027 1aec96681d15f765 c74b2c710b170a23 5fb4aff45e9c24fb 1fb3d228db0127eb e201a7e214b16e74";
const char* kPermSeq0 =
    "3c255c29c0029764 3c48ad460707bcbb ed87631c58a59fc8 3b5922b5cf78a93e 0996bcad4c1b17dc 4c69032fa5763dde "
    "2a22052ca28059ae aac048bf637d0e44 b6ac092db0a4726f 27208f2c604c179f 2275c76e2b994314 9dd6a3e90b5b02d0";

struct PermKat {
  const char* layer;
  State in, out;
  const char* flag;  // known-answer or spec-derived
  const char* comment;
};
std::vector<PermKat> perm_kats() {
  State m4in{}, m4out{};
  m4in[0] = 1, m4in[1] = 2, m4in[2] = 3, m4in[3] = 4;
  m4out[0] = 15, m4out[1] = 18, m4out[2] = 21, m4out[3] = 16;
  const State me = {144, 156, 168, 148, 172, 184, 196, 176, 200, 212, 224, 204};
  return {
      {"m4", m4in, m4out, "known-answer", "spec 9.1: M4 (1,2,3,4) = (15,18,21,16) (chunk 0; chunks 1, 2 zero)"},
      {"external", seq_state(1), me, "known-answer", "spec 9.1: M_E (1..12)"},
      {"internal", seq_state(1), words(kMI_1_12, 10), "known-answer", "spec 9.1: M_I (1..12)"},
      {"external", State{}, State{}, "known-answer", "spec 9.1: zero state, M_E 0 = 0"},
      {"external", words(kZeroSbox, 10), words(kZeroRound0, 10), "known-answer",
       "spec 9.1: zero state, initial round 0: M_E of S-box(RC_init[0])"},
      {"permute", State{}, words(kPermZero, 16), "known-answer", "spec 9.2: perm(0^12) (P3_ZERO_RESULT)"},
      {"permute", seq_state(1), words(kPermSeq1, 16), "known-answer", "spec 9.2: perm(1,2,...,12) (P3_SEQ_RESULT)"},
      {"permute", seq_state(0), words(kPermSeq0, 16), "spec-derived", "spec 9.2: perm(0,1,...,11) (derived)"},
  };
}

struct HashKat {
  std::vector<uint8_t> data;
  const char* hash;  // hash_bytes (32 bytes)
  const char* name;
};
std::vector<uint8_t> zeros(size_t n) { return std::vector<uint8_t>(n, 0); }
std::vector<uint8_t> counting(size_t n, uint8_t first = 0) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = uint8_t(first + i);
  return v;
}
// 9.3, qp-poseidon src/lib.rs test_known_value_hashes.
std::vector<HashKat> hash_kats() {
  const std::string hw = "hello world";
  return {
      {zeros(0), "4d8d22af81f6c27a005a07028590ef4ee480f6c4b93f813daf9de47a07c8ae86", "empty"},
      {zeros(1), "8f5b42e350ff5a12788210c86c2bcd49243b8f9350de818b3b0c56839a42ebad", "00"},
      {zeros(2), "3e6ee24fb61a22f4d825b72fc8ebd359e3b3b9566e246c71c3e450ebe3262f9c", "00 x2"},
      {zeros(3), "34f4338a6f1b671062a3ac00b37ca05a47b43e16e589ccaa5b063416ba42356b", "00 x3"},
      {zeros(4), "7bac8c6bc49b0b750f2ce0912b815a2cb4ae20c75ac430850257882d9d321afa", "00 x4"},
      {zeros(5), "c95cfddb573adf4070b3d7c8d2dfbbee48b4b973d80cbda2b458abe7bb6f0def", "00 x5"},
      {zeros(6), "a4dc08d0a8c5ea44007462fe1fd8e45962d4ea85c420eab4140fbb30b5b5e111", "00 x6"},
      {zeros(7), "b01975012df91d9f9f040c34655f23f3ec1f6d1738d85679e9848143756637c9", "00 x7"},
      {zeros(8), "eacd9e48d2e968131e48c8e69f2a211cc06c7778db6c5467348b45418fc7f585", "00 x8"},
      {zeros(9), "00df670e8ec0751d3fb9b5f0281d0af9a7a82f62ad35a21247a9d6117daec151", "00 x9"},
      {zeros(14), "d6182896f274c5d9640972e2bf2a5e893e516a21adfdd8ebd39969128d619934", "00 x14"},
      {zeros(15), "15fc2f3c3bc51c96797b889d4fecfcd3535b959f510c007598a87f099e356303", "00 x15"},
      {{0, 0, 0, 1}, "6ffff0c97262139567c426e916c1fd70c924010153c366bb2a8957ea89902942", "00 00 00 01"},
      {counting(8, 1), "131020b2e74819343f8568258ae2e9717e9b2253d57baabab78a518bc7499a8b", "01..08"},
      {std::vector<uint8_t>(32, 0xff), "41260a4322e97dc3dda2b5f70b5ffb1b43071ad5510e101f34209721042c0987", "ff x32"},
      {std::vector<uint8_t>(hw.begin(), hw.end()), "fd1f5d7d4701c25bbdd5dd6e3be6abb474fffbaa402f814dce95f8283abbf3e7",
       "\"hello world\""},
      {counting(32), "36884f9093be80632397f5736dce2fece627a4182daf3cdbf8bf12c8e3e02668", "bytes 0..31"},
      {counting(64), "dd0d06fbe4e7575d0eeac53706482cbbe592e269a35bcd5591a495814371724e", "bytes 0..63"},
  };
}

struct MiningKat {
  Header header;
  Int nonce;
  const char* hash;  // 64 bytes, big-endian U512; nullptr: the hash is given by another row (same input)
  const char* mid;   // 12 hex words or nullptr
  const char* flag;  // known-answer or spec-derived
  std::string comment;
};
const char* kSrcGolden = "qp-poseidon tests/golden_vectors.rs (d181804)";
const char* kSrcKvs = "quantus-miner crates/pow-core/src/lib.rs NONCE_HASH_KVS (be8ee1e8)";
const char* kSrcGpu = "quantus-miner crates/engine-gpu/tests/gpu_golden.rs (039aec5)";
Int u64max() { return pow2(64) - 1; }
Int kv5_nonce() { return (int_hex("deadbeefcafe") << 300) | int_hex("1234567890abcdef"); }
B64 nonce_01x64() {
  B64 b;
  b.fill(1);
  return b;
}
std::vector<MiningKat> mining_kats() {
  const Int n01 = int_be(nonce_01x64());
  auto s = [](const char* src, const std::string& what) { return std::string("spec 9.4") + what + ", " + src; };
  return {
      // (a)
      {rep_header(0), 0,
       "8e64e3d8e0f38f882e8501f9e525df0a95d2e91e9cfc32c9248d756fb07780e2f8fdca2c5a54441e6fcd8d774a5f6aae72f36d1c76bc19f691a0d4f6c607e8cc",
       nullptr, "known-answer", s(kSrcGolden, "(a) 00 x32, nonce 0")},
      {rep_header(0), 1,
       "9a18eabb9d910135a553a511209963dfafd2dc62989e2e013c18d626fa17c66fd3899fc3fe2bcc88be8ce416a4bd15e9f157cc5b251112f93938b38617548f6c",
       nullptr, "known-answer", s(kSrcGolden, "(a) 00 x32, nonce 1")},
      {rep_header(1), 123,
       "0c580156318afca56700b7a2cafa4f44277a6c7ea668717984ed26b8169d277521951b73329d898590e953c35d036726becb74bc29d765112ec99b14d0dc5189",
       nullptr, "known-answer", s(kSrcGolden, "(a) 01 x32, nonce 123")},
      {rep_header(0xff), u64max(),
       "822f70999ee517f610b51bbb79ba88bfbb19cb77b316df25d8aeb4c2682673555e9fc6a588ee96dcce4ff0d2b8d97f4aa89d0f46c97f9027b386d42b14be5100",
       nullptr, "known-answer", s(kSrcGolden, "(a) ff x32, nonce 2^64-1")},
      {rep_header(0x2a), int_hex("deadbeef"),
       "f974a312ffd7b21ba3e71c499cf178e39d19d178b4483da321da23c48c02e7c874561d93d6e590656905c21a0142a512fe1ebbf69babc904fe1c359f72e5420c",
       nullptr, "known-answer", s(kSrcGolden, "(a) 2a x32, nonce 0xdeadbeef")},
      // (b): KV1 and KV4 have the hashes of (a) rows 1 and 4
      {rep_header(0), 0, nullptr,
       "8646d336b5a0fccd 818ca59548916345 49475e8bc9c928bc c469163bcdc4900b e4421fafacd59087 633f49b998698d66 "
       "4a9067e3883e76da 193039e85ea14472 203d2d3ee6a8eba8 ef5b9ce39bcff072 c16a3c8dd5680003 d77c52ab5bf7cf1f",
       "known-answer", s(kSrcKvs, "(b) KV1 midstate")},
      {rep_header(1), 1,
       "e4ef79db80b642a093d7e38e6a6daac7ec1cca7293ddbe3710b4e6781be4add0b93f7e3440626df5bb23b757436787ba8d3fd0a2652e387f8af5bd8a5cc2ce2f",
       "788cf743676a5c85 dce1d727e1189b53 36e0e019f5a0bf3a 806487dd9c3bf83f cb6d7300de1ab5fe 7dbe191fa64fc6b7 "
       "95dedc7fe99861be b1a3885303f7467d 891eb002a34a0f17 4be4cf057a87208a e9113e7dc541745f faeda908097d00f1",
       "known-answer", s(kSrcKvs, "(b) KV2 01 x32, nonce 1, with midstate")},
      {seq_header(), int_hex("1234567890abcdef"),
       "7f6c410ce62e7fc54811ad3b8b92664ac0f8b1d2cd6eb163129251146e7ee34d27794aaae1b31eaaeb98ab835bae6a2b9ac4ad6f08c95903e1423f0b865816ff",
       "f6fc848ab2dddc18 fd88d1f0ccda99fe 27cfa43b8ab9947a 6a505b37f02183d3 5f98f1d3524fb0c6 d6de4efd98793e2e "
       "f3f205bd1e4d4526 c0c9046201e91dd6 cd2d28eef32b18de a303ecbc8e98000c 3db245e7738f3aca bc55f7553023863e",
       "known-answer", s(kSrcKvs, "(b) KV3 000102..1f, nonce 0x1234567890abcdef, with midstate")},
      {rep_header(0xff), u64max(), nullptr,
       "d1fe93daa1f07409 0ea440f2b57a0ecf 3b7a1f3cb2d48e39 43a5a1255658d1b2 ebe00ad8f0fe28c0 b5618e7c6d6072d1 "
       "158b7b19f80ec62c 329a91c8de5575c2 d1637d851a474212 2d927735708f3b7d 6219c7cf8ef5af51 802028c39ccd8f13",
       "known-answer", s(kSrcKvs, "(b) KV4 midstate")},
      {rep_header(7), kv5_nonce(),
       "eab81cdb33db293aef7e1f10f85cb08d17bc197c284d46a25d9dc57cdb7ba878adf3f5c354318121876795aab08c0941afda21d835383faa2f139c26be31a30a",
       "41885398f5b05a0d b7f17cee3f70d242 307aecc5bca54c7e b74164c0d6de7e91 0c0a9b27281c8181 d84ddf12fdddf0ee "
       "88f8cdf552c0a15e 88da4cfbfbf92d22 8c344261349149db 0c0fd0d6a8444652 7a57b00736d58568 9ad40597f4fe2abc",
       "known-answer", s(kSrcKvs, "(b) KV5 07 x32, nonce (0xdeadbeefcafe << 300) | 0x1234567890abcdef, with midstate")},
      // (c)
      {rep_header(1), 123456789,
       "715331a49bffbb8c0a42935113041b6d9d17d64952136b7a533627cf6ce280be17a8d61c656543159c68332fb64ab7fe5ec396bb80b71f219ee282ed661a0522",
       nullptr, "known-answer", s(kSrcGpu, "(c) 01 x32, nonce 123456789")},
      {rep_header(0xab), u64max(),
       "4933afa670ead2a3e350f9d1a3fda366c85fe6f4bde4746d6e934860a157c658aa69949ec4be51d6b05e7e9ca9dbfc496c1cde141c75501cb5d7778e18f0c193",
       nullptr, "known-answer", s(kSrcGpu, "(c) ab x32, nonce 2^64-1")},
      {seq_header(), 987654321,
       "c4e198c0c86b117719a86d039d4ee239d2484161af628e34639943338d066a2a140d9cf9c51da80625cdc4d6b8d33513d9bed3faa3f164628d0472d1b9aca392",
       nullptr, "known-answer", s(kSrcGpu, "(c) 000102..1f, nonce 987654321")},
      {rep_header(0xff), 42,
       "d637170b8aa94e2d020ae5ccf96149e338cbb5185623f30ec8df4df6497e72f78f9b43cf2475894a4e9d9da8d0e97092f50a8ac0667b247d4c3ccd96194f64d4",
       nullptr, "known-answer", s(kSrcGpu, "(c) ff x32, nonce 42")},
      {rep_header(7), pow2(40),
       "8316c75199697e0a7315def7b4b25038a53403cbb3a6c7f43ba65705cab02057fb30dfdf3e2a663808924035ec77fa3d4223ec9044e65b9fb9bb7313813f6614",
       nullptr, "known-answer", s(kSrcGpu, "(c) 07 x32, nonce 2^40")},
      // (d)
      {rep_header(1), n01,
       "7200d9e324776e2a2da728ba5d2fb479fc679cc59b7258dfbe38cdc6d528ade6aa42c39f5fe6393cb9abef00a0d9c1612610a894eeaa7323b336a88f8ae7b155",
       nullptr, "spec-derived", "spec 9.4(d) derived: the chain test input, 01 x32, nonce bytes 01 x64"},
      // (e)
      {seq_header(), pow2(32) - 1,
       "41a318dbecec5d908c80a7e5950267fb9c2bbcecf87b40ce7f5f713544f97ee7e74b316f6b6b5adb580bcdecd6036e3669044b1510e9be778fcb545eb91c4737",
       nullptr, "spec-derived", "spec 9.4(e) derived: 000102..1f, nonce 2^32-1"},
      {seq_header(), pow2(32),
       "ab898b186ec1150296aaa02cf81c506f1b60f50eb6102c17dd47dd336cdb7532214cb4bf0c5e8504ce9e4f117f34cb71a9792b13143c67822fd3babc416fac2c",
       nullptr, "spec-derived", "spec 9.4(e) derived: 000102..1f, nonce 2^32"},
      {seq_header(), pow2(64) - 1,
       "b63dbaebd10aa32e0a40d4bf57bd226579c4bebb0e7374911d7abbb90db0afd06fea3616d51a0b64d87b784df06ab92805adb0fb51ca178b7973f36a582fd596",
       nullptr, "spec-derived", "spec 9.4(e) derived: 000102..1f, nonce 2^64-1"},
      {seq_header(), pow2(64),
       "ddf630a598fe449556301deda7c9fe1c09fb7464ab7336a4432d18d488c406f8607e7b3e6c25783b320e21dfdb2f2c81e04aefe8c036953a3b5160b2165bf460",
       nullptr, "spec-derived", "spec 9.4(e) derived: 000102..1f, nonce 2^64"},
      {seq_header(), pow2(256) - 1,
       "885e7a2ab901d94dd06688e3c31ff9992714f5eda4cf4d66dfffbddb2f9aa353f691ff72b7226332c8331aa02fbbe868bb16362c4023d99444377611da02455b",
       nullptr, "spec-derived", "spec 9.4(e) derived: 000102..1f, nonce 2^256-1"},
      {seq_header(), pow2(256),
       "d33b265e75febc3db4abd24e1e849612fe5d20cbeecb5d6f287f29288bed8276867ae5a21ec3604cda9261256d4461018bf3232ed57fba5bbb7685b2700783b9",
       nullptr, "spec-derived", "spec 9.4(e) derived: 000102..1f, nonce 2^256"},
      {seq_header(), R::kU512Max,
       "ea1bcc6705a0aea6fc71c3aa289fb66864443d7ccba76f2adaf4ba3628f874ecdd3d308b0e738642cd6144247ec3b87ec23b3901ea2040c4c22bf3abd6dc07bb",
       nullptr, "spec-derived", "spec 9.4(e) derived: 000102..1f, nonce 2^512-1"},
      // 9.5
      {rep_header(0), 705,
       "003b54fe9408fb8505db12607e3f6524ae543844bcd5d71a0689931214d429698f0440ddefab5aba70d424dc60ff5dcecaf41ef0cb34c459249aa18fe4d897b7",
       nullptr, "spec-derived", "spec 9.5 derived: 00 x32, nonce 705 (the smallest hash among nonces 1..3000)"},
  };
}
// The spec's hash of (header, nonce), "" if it gives none.
std::string spec_hash(const Header& h, const Int& n) {
  static const auto kats = mining_kats();
  for (auto& k : kats)
    if (k.hash && k.header == h && k.nonce == n) return k.hash;
  return "";
}
// 9.4(d) intermediate values (derived), header 00 x32, nonce 0.
const char* kC0to3 = "888ff3e0d8e3648e 0adf25e5f901852e c932fc9c1ee9d295 e28077b06f758d24";
const char* kPrestate00 =
    "fb417e232c4bcaac ce354f2db159e45f 82e3a1629069ddb4 ff54ddb43f4d09fd c83e0345164fc14a 77c6c17e0a3358a3 "
    "99534d0c611fa463 2cfa6c6dcd8b967d 27c1587224a286f6 dc46a2c2c9a4d56a 2730156999ce6f39 1e9b1022c8be145a";
// 9.5 derived: targets of difficulties 1104 and 1105.
const char* kTarget1104 =
    "003b5cc0ed7303b5cc0ed7303b5cc0ed7303b5cc0ed7303b5cc0ed7303b5cc0ed7303b5cc0ed7303b5cc0ed7303b5cc0ed7303b5cc0ed7303b5cc0ed7303b5cc";
const char* kTarget1105 =
    "003b4f003b4f003b4f003b4f003b4f003b4f003b4f003b4f003b4f003b4f003b4f003b4f003b4f003b4f003b4f003b4f003b4f003b4f003b4f003b4f003b4f00";

// =====================================================================================================
// Generation
// =====================================================================================================
json note(const char* bug, const char* what) { return {{"bugType", bug}, {"description", what}}; }

json top_doc(const char* algorithm, const char* schema, const char* source, int n, const json& notes, const json& groups) {
  return file_header(algorithm, schema, kGenerator, source, n, notes, groups);
}
json word_array(const State& s) {
  json a = json::array();
  for (uint64_t w : s) a.push_back(w16(w));
  return a;
}
// A vector document from its groups: each case through to_json, numbered tests counted, one top_doc.
template <class Case, class ToJson>
std::string render_groups(const std::vector<std::pair<std::string, std::vector<Case>>>& gs, const ToJson& to_json, const char* algorithm,
                          const char* schema, const char* source, const json& notes) {
  json groups = json::array();
  int n = 0;
  for (auto& [type, cases] : gs) {
    json tests = json::array();
    for (auto& c : cases) tests.push_back(to_json(c)), ++n;
    groups.push_back({{"type", type}, {"tests", tests}});
  }
  return render(top_doc(algorithm, schema, source, n, notes, groups), "testGroups");
}

// ---- field ----
const char* kFieldSchema = "bitexact_qpow_field_v1";
json field_notes() {
  json n;
  n["known-answer"] = note("BASIC", "Known answer from qp-poseidon src/goldilocks.rs tests (spec 9.1).");
  n["spec-derived"] = note("BASIC", "Known answer marked derived in the spec (recomputed independently there, not in an upstream file).");
  n["boundary"] = note("EDGE_CASE", "Operands from the spec 8 boundary catalogue (all pairs for add, sub, mul).");
  n["lazy-input"] = note("REDUCTION", "An operand in [p, 2^64): a legal lazy representative that must be reduced, not rejected or misread.");
  n["carry"] = note("CARRY", "add: a + b overflows 2^64 (fold EPS); mul/sqr/reduce128: t0 + h0*EPS carries in the goldilocks.rs reduction (add EPS).");
  n["double-overflow"] = note("CARRY", "add: a second 2^64 overflow after folding EPS (both operands lazy); the lossy engine folds once only (error -EPS).");
  n["borrow"] = note("CARRY", "sub/neg: a < b; mul/sqr/reduce128: lo - h1 borrows in the goldilocks.rs reduction (subtract EPS).");
  n["double-borrow"] = note("CARRY", "sub/neg: a second borrow after subtracting EPS (b lazy, a small): the result is a - b + 2p.");
  n["lazy-output"] = note("REDUCTION", "The goldilocks.rs (gl64) unreduced result lies in [p, 2^64): an output path without canonicalisation is wrong.");
  n["sqr-bit65"] = note("CARRY", "2*a0*a1 >= 2^64 in the 3-product squaring (for sbox: in x^2 or x^4): its 65th bit must reach word r3.");
  n["lossy-slip"] = note("REDUCTION", "The deliberately lossy be8ee1e8 reduce128/add (gl2x32-lossy, contract characterised) answers this case wrongly by a documented error term (+EPS, +2^32, -EPS; sbox: with canonical intermediates).");
  return n;
}
struct CatValue {
  uint64_t v;
  const char* name;
};
// Spec 8 field operands (duplicates removed: EPS = 2^32-1, 2^32*EPS = p-1, (2^32+1)*EPS = 2^64-1).
const CatValue kCatalogue[] = {
    {0, "0"},
    {1, "1"},
    {2, "2"},
    {P - 2, "p-2"},
    {P - 1, "p-1"},
    {P, "p"},
    {P + 1, "p+1"},
    {0xfffffffffffffffeull, "2^64-2"},
    {0xffffffffffffffffull, "2^64-1"},
    {EPS, "2^32-1"},
    {1ull << 32, "2^32"},
    {(1ull << 32) + 1, "2^32+1"},
    {1ull << 48, "2^48"},
    {1ull << 63, "2^63"},
    {2 * EPS, "2*EPS"},
    {0xfffffffeffffffffull, "0xfffffffeffffffff"},
    {0x8000000080000000ull, "0x8000000080000000"},
};
json field_json(const FieldCase& c) {
  json t = {{"tcId", c.id}, {"comment", c.comment}, {"flags", c.flags}, {"op", c.op}};
  if (c.op == "reduce128")  // the 128-bit input as 32 hex digits, high word first (as the oracle takes it)
    t["x"] = w16(c.b) + w16(c.a);
  else
    t["a"] = w16(c.a);
  if (binary_op(c.op) && c.op != "reduce128") t["b"] = w16(c.b);
  t["out"] = w16(c.result);
  t["result"] = "valid";
  return t;
}
std::vector<std::pair<std::string, std::vector<FieldCase>>> field_groups() {
  std::vector<std::pair<std::string, std::vector<FieldCase>>> g;
  int id = 0;
  auto mk = [&](const std::string& op, uint64_t a, uint64_t b, uint64_t out, const std::string& comment, const std::string& src) {
    return FieldCase{++id, op, a, binary_op(op) ? b : 0, out, comment, field_flags(op, a, b, src)};
  };
  std::vector<FieldCase> kat, branch, sq, bnd, r128;
  for (auto& k : kFieldKats) kat.push_back(mk(k.op, k.a, k.b, k.out, std::string("spec 9.1: ") + k.comment, "known-answer"));
  for (auto& k : kBranchKats) branch.push_back(mk(k.op, k.a, k.b, k.exact, k.comment, "spec-derived"));
  branch.push_back(mk("add", 0xffffffffffffffffull, 0xffffffffffffffffull, R::add(~0ull, ~0ull),
                      "spec 8: (2^64-1) + (2^64-1): double overflow", ""));
  branch.push_back(mk("add", P, P, R::add(P, P), "spec 8: p + p: one overflow, raw output p (lazy 0)", ""));
  branch.push_back(mk("sbox", 1ull << 48, 0, R::sbox(1ull << 48), "spec 7: S-box of 2^48, where the lossy engine slips", ""));
  // Squaring carries (spec 7, 8): 2*a0*a1 around 2^64.
  for (uint64_t a : {0xffffffffffffffffull, 0xfffffffeffffffffull, 1ull << 63, 1ull << 48, 0xb504f334b504f334ull,
                     0xb504f333b504f333ull, 0x80000000ffffffffull, 0xffffffff80000000ull, 0xc0000000c0000000ull}) {
    sq.push_back(mk("sqr", a, 0, R::sqr(a), "squaring carry: a = 0x" + w16(a) + (bit65(a) ? " (2*a0*a1 >= 2^64)" : " (2*a0*a1 < 2^64)"), ""));
  }
  for (uint64_t a : {0xffffffffffffffffull, 0xfffffffeffffffffull, 0xb504f334b504f334ull, 0xc0000000c0000000ull})
    sq.push_back(mk("sbox", a, 0, R::sbox(a), "S-box through the squaring carry: a = 0x" + w16(a), ""));
  const size_t nc = sizeof kCatalogue / sizeof kCatalogue[0];
  for (const char* op : {"add", "mul"})
    for (size_t i = 0; i < nc; ++i)
      for (size_t j = i; j < nc; ++j)
        bnd.push_back(mk(op, kCatalogue[i].v, kCatalogue[j].v, ref_field(op, kCatalogue[i].v, kCatalogue[j].v),
                         std::string(op) + "(" + kCatalogue[i].name + ", " + kCatalogue[j].name + ")", "boundary"));
  for (size_t i = 0; i < nc; ++i)
    for (size_t j = 0; j < nc; ++j)
      bnd.push_back(mk("sub", kCatalogue[i].v, kCatalogue[j].v, R::sub(kCatalogue[i].v, kCatalogue[j].v),
                       std::string("sub(") + kCatalogue[i].name + ", " + kCatalogue[j].name + ")", "boundary"));
  for (const char* op : {"sqr", "neg", "canonical", "sbox"})
    for (size_t i = 0; i < nc; ++i)
      bnd.push_back(mk(op, kCatalogue[i].v, 0, ref_field(op, kCatalogue[i].v, 0), std::string(op) + "(" + kCatalogue[i].name + ")",
                       "boundary"));
  const CatValue his[] = {{0, "0"},          {1, "1"},   {28, "28"}, {EPS, "2^32-1"}, {1ull << 32, "2^32"}, {(1ull << 32) + 1, "2^32+1"},
                          {1ull << 63, "2^63"}, {P - 1, "p-1"}, {P, "p"}, {~0ull, "2^64-1"}};
  const CatValue los[] = {{0, "0"}, {1, "1"}, {EPS, "2^32-1"}, {P - 1, "p-1"}, {P, "p"}, {~0ull, "2^64-1"}};
  for (auto& h : his)
    for (auto& l : los)
      r128.push_back(mk("reduce128", l.v, h.v, R::reduce128(h.v, l.v),
                        std::string("reduce128: hi = ") + h.name + ", lo = " + l.name, "boundary"));
  g.push_back({"known-answer", kat});
  g.push_back({"reduction-branch", branch});
  g.push_back({"squaring-carry", sq});
  g.push_back({"boundary", bnd});
  g.push_back({"reduce128", r128});
  return g;
}
std::string generate_field() {
  return render_groups(field_groups(), field_json, "Goldilocks field (p = 2^64 - 2^32 + 1)", kFieldSchema,
                       "docs/specs/qpow.md sections 7-9.1; known answers: qp-poseidon src/goldilocks.rs tests (v3.0.2, 60f7f4c); "
                       "other outputs: the golden model reference/qpow",
                       field_notes());
}

// ---- permutation ----
const char* kPermSchema = "bitexact_qpow_permutation_v1";
json perm_notes() {
  json n;
  n["known-answer"] = note("BASIC", "Known answer from qp-poseidon src/goldilocks.rs / src/poseidon2.rs tests (spec 9.1, 9.2).");
  n["spec-derived"] = note("BASIC", "Known answer marked derived in the spec (recomputed independently there, not in an upstream file).");
  n["zero-state"] = note("EDGE_CASE", "All-zero input state.");
  n["lazy-input"] = note("REDUCTION", "Input lanes in [p, 2^64): lazy representatives that must be reduced.");
  n["accumulator-max"] = note("CARRY", "Every lane 2^64-1: linear-layer sums near 28 * 2^64, the top of the 96-bit accumulator.");
  n["random"] = note("BASIC", "Seeded random state (std::mt19937_64).");
  return n;
}
std::vector<std::string> perm_flags(const State& in, const std::string& src) {
  std::vector<std::string> f;
  if (!src.empty()) f.push_back(src);
  if (in == State{}) f.push_back("zero-state");
  if (std::any_of(in.begin(), in.end(), [](uint64_t v) { return v >= P; })) f.push_back("lazy-input");
  if (std::all_of(in.begin(), in.end(), [](uint64_t v) { return v == ~0ull; })) f.push_back("accumulator-max");
  return f;
}
std::vector<std::pair<std::string, std::vector<PermCase>>> perm_groups() {
  int id = 0;
  std::vector<PermCase> kat, gen;
  for (auto& k : perm_kats()) kat.push_back({++id, k.layer, k.in, k.out, k.comment, perm_flags(k.in, k.flag)});
  auto add = [&](const std::string& layer, const State& in, const std::string& comment, const std::string& src) {
    auto f = perm_flags(in, "");
    if (!src.empty()) f.insert(f.begin(), src);
    gen.push_back({++id, layer, in, ref_layer(layer, in), comment, f});
  };
  add("m4", seq_state(1), "M4 per chunk of (1..12)", "");
  State ones, pm1, lazy;
  ones.fill(~0ull);
  pm1.fill(P - 1);
  for (int i = 0; i < 12; ++i) lazy[i] = P + uint64_t(i);  // lazy p + i: canonical i (spec 8 non-canonical lanes)
  for (const char* layer : {"m4", "external", "internal", "permute"}) {
    add(layer, ones, std::string(layer) + ": every lane 2^64-1", "");
    add(layer, pm1, std::string(layer) + ": every lane p-1", "");
    add(layer, lazy, std::string(layer) + ": lane i = p + i (lazy for 0..11)", "");
  }
  std::mt19937_64 rng(kRandomSeed);
  for (int k = 0; k < 4; ++k) {
    State s;
    for (auto& w : s) w = rng();
    add(k == 0 ? "external" : k == 1 ? "internal" : "permute", s, "seeded random state " + std::to_string(k), "random");
  }
  for (int k = 0; k < 3; ++k) {
    State s;
    for (auto& w : s) w = rng() % P;
    add("permute", s, "seeded random canonical state " + std::to_string(k), "random");
  }
  return {{"known-answer", kat}, {"generated", gen}};
}
std::string generate_perm() {
  const auto to_json = [](const PermCase& c) {
    return json{{"tcId", c.id}, {"comment", c.comment}, {"flags", c.flags}, {"layer", c.layer}, {"in", word_array(c.in)},
                {"out", word_array(c.out)}, {"result", "valid"}};
  };
  return render_groups(perm_groups(), to_json, "Poseidon2-Goldilocks-12 (Quantus constants)", kPermSchema,
                       "docs/specs/qpow.md sections 2, 9.1, 9.2; known answers: qp-poseidon src/goldilocks.rs, src/poseidon2.rs tests "
                       "(v3.0.2, 60f7f4c); other outputs: the golden model reference/qpow. Words: 16 hex digits, big-endian numerals",
                       perm_notes());
}

// ---- hash_bytes ----
const char* kHashSchema = "bitexact_qpow_hash_bytes_v1";
json hash_notes() {
  json n;
  n["known-answer"] = note("BASIC", "hash_bytes from qp-poseidon src/lib.rs test_known_value_hashes (spec 9.3): the first 32 bytes of squeezeTwice; the last 32 are the golden model's.");
  n["empty"] = note("EDGE_CASE", "Empty input: the terminator felt alone.");
  n["block-boundary"] = note("EDGE_CASE", "The felts (chunks, terminator, finalisation 1) end exactly at a block boundary or spill one felt into a new block.");
  n["mining-shape"] = note("BASIC", "96 bytes, the mining input length (4 blocks).");
  return n;
}
std::vector<std::string> hash_flags(const std::vector<uint8_t>& d, bool kat) {
  std::vector<std::string> f;
  if (kat) f.push_back("known-answer");
  if (d.empty()) f.push_back("empty");
  const size_t total = d.size() / 4 + 2;
  if (total % 8 == 0 || total % 8 == 1) f.push_back("block-boundary");
  if (d.size() == 96) f.push_back("mining-shape");
  return f;
}
std::vector<std::pair<std::string, std::vector<ByteHashCase>>> hash_groups() {
  int id = 0;
  std::vector<ByteHashCase> kat, gen;
  for (auto& k : hash_kats()) {
    ByteHashCase c{++id, k.data, {}, std::string("spec 9.3: ") + k.name, hash_flags(k.data, true)};
    const auto lit = unhex_n<32>(k.hash);
    const auto full = R::hash_squeeze_twice(k.data);
    std::copy(lit.begin(), lit.end(), c.squeeze_twice.begin());
    std::copy(full.begin() + 32, full.end(), c.squeeze_twice.begin() + 32);
    kat.push_back(c);
  }
  auto add = [&](const std::vector<uint8_t>& d, const std::string& comment) {
    gen.push_back({++id, d, R::hash_squeeze_twice(d), comment, hash_flags(d, false)});
  };
  for (size_t n : {10, 11, 12, 13, 23, 24, 27, 28, 31, 33, 59, 60, 61, 63, 95, 96, 127, 128})
    add(counting(n), "bytes 0.." + std::to_string(n - 1));
  add(std::vector<uint8_t>(96, 0xff), "ff x96");
  add(zeros(96), "00 x96");
  return {{"known-answer", kat}, {"generated", gen}};
}
std::string generate_hash() {
  const auto to_json = [](const ByteHashCase& c) {
    return json{{"tcId", c.id}, {"comment", c.comment}, {"flags", c.flags}, {"msg", hexs(c.data.data(), c.data.size())},
                {"squeezeTwice", hexs(c.squeeze_twice)}, {"result", "valid"}};
  };
  return render_groups(hash_groups(), to_json, "qp-poseidon hash_squeeze_twice (Poseidon2 sponge, rate 8)", kHashSchema,
                       "docs/specs/qpow.md sections 4, 9.3; known answers: qp-poseidon src/lib.rs test_known_value_hashes (v3.0.2, 60f7f4c); "
                       "other bytes: the golden model reference/qpow",
                       hash_notes());
}

// ---- felt sponge ----
const char* kFeltSchema = "bitexact_qpow_felt_sponge_v1";
struct FeltKat {
  const char* op;
  std::vector<uint64_t> felts;
  std::array<uint8_t, 32> msg;
  const char* out;  // the spec's literal; nullptr: the reference's answer (or its rejection)
  bool spec;        // a literal of spec 9.3 (output or rejection): the known-answer flag
  const char* name;
};
// 9.3, qp-poseidon src/lib.rs test_hash_twice_vectors and the rehash_to_bytes cases.
std::vector<FeltKat> felt_kats() {
  std::array<uint8_t, 32> z{}, c{}, f{}, lp{}, lp1{};
  for (int i = 0; i < 32; ++i) c[size_t(i)] = uint8_t(i), f[size_t(i)] = 0xff;
  for (int k = 0; k < 8; ++k) lp[size_t(24 + k)] = uint8_t(P >> (8 * k)), lp1[size_t(24 + k)] = uint8_t((P - 1) >> (8 * k));
  return {
      {"hashTwice", {}, {}, "b8a2f205ad2e2682ab8af6e49946a597920a24d916ca1139b6fce113c207365b", true, "[]"},
      {"hashTwice", {0}, {}, "6e962ae00104d1c8907142439156035ad71242caab590a74ba8c9850df03ff11", true, "[0]"},
      {"hashTwice", {1}, {}, "50be997dba65a402610d93f8fe853b0974fc72e4605effd5603deb900667e497", true, "[1]"},
      {"hashTwice", {1, 2, 3, 4}, {}, "153624f84074a4503ea9139d64ad54da77849d83eb0e6a8e1f839bfe31c222b5", true, "[1..4]"},
      {"hashTwice", {1, 2, 3, 4, 5, 6, 7, 8}, {}, "958293c7f14ec2ef872955b510eee16f041217f37f8db0c0287fbe182afde6af", true, "[1..8]"},
      {"rehashToBytes", {}, z, "ca0aefbd2e87c9ecc4716b7db8e83937a45dfb06ea10e1d62a4c2f2784002290", true, "00 x32"},
      {"rehashToBytes", {}, c, "c0877470eb2fbfc7cc6f22ab70955509de54f3b89856d6a58399a7b7d9d26252", true, "bytes 0..31"},
      {"rehashToBytes", {}, f, nullptr, true, "ff x32"},         // rejected
      {"rehashToBytes", {}, lp, nullptr, false, "limb 3 = p"},   // rejected: p would alias 0
      {"rehashToBytes", {}, lp1, nullptr, false, "limb 3 = p - 1"},
  };
}
json felt_notes() {
  json n;
  n["known-answer"] = note("BASIC", "qp-poseidon src/lib.rs test_hash_twice_vectors and rehash_to_bytes (spec 9.3).");
  n["empty"] = note("EDGE_CASE", "No felts: the finalisation felt 1 alone.");
  n["block-boundary"] = note("EDGE_CASE", "The felts and the finalisation felt 1 end exactly at a block boundary (8 lanes) or spill one felt into a new block.");
  n["max-felt"] = note("EDGE_CASE", "Felts p - 1: the field add into the lanes reduces.");
  n["non-canonical-limb"] = note("INVALID_INPUT", "rehash_to_bytes input with a 64-bit limb >= p: rejected, never reduced (p would alias 0).");
  return n;
}
std::array<uint8_t, 32> le_bytes(const std::array<uint64_t, 4>& w) {
  std::array<uint8_t, 32> b;
  for (int j = 0; j < 4; ++j)
    for (int k = 0; k < 8; ++k) b[size_t(8 * j + k)] = uint8_t(w[size_t(j)] >> (8 * k));
  return b;
}
// The reference's answer for a case's inputs; valid = false when rehashToBytes rejects them.
std::array<uint8_t, 32> ref_felt(const std::string& op, const std::vector<uint64_t>& felts, const std::array<uint8_t, 32>& msg,
                                 bool& valid) {
  valid = true;
  if (op == "feltSponge") return le_bytes(R::felt_sponge(felts));
  if (op == "hashTwice") return R::hash_twice(felts);
  try {
    return R::rehash_to_bytes(msg);
  } catch (const std::invalid_argument&) {
    valid = false;
    return {};
  }
}
std::vector<std::string> felt_flags(const std::string& op, const std::vector<uint64_t>& felts, const std::array<uint8_t, 32>& msg, bool kat) {
  std::vector<std::string> f;
  if (kat) f.push_back("known-answer");
  if (op == "rehashToBytes") {
    bool valid;
    ref_felt(op, felts, msg, valid);
    if (!valid) f.push_back("non-canonical-limb");
    return f;
  }
  if (felts.empty()) f.push_back("empty");
  if ((felts.size() + 1) % 8 == 0 || (felts.size() + 1) % 8 == 1) f.push_back("block-boundary");
  if (!felts.empty() && std::all_of(felts.begin(), felts.end(), [](uint64_t x) { return x == P - 1; })) f.push_back("max-felt");
  return f;
}
std::vector<std::pair<std::string, std::vector<FeltSpongeCase>>> felt_groups() {
  int id = 0;
  std::vector<FeltSpongeCase> kat, gen;
  for (auto& k : felt_kats()) {
    FeltSpongeCase c{++id, k.op, k.felts, k.msg, {}, true, (k.spec ? "spec 9.3: " : "") + std::string(k.op) + "(" + k.name + ")",
                     felt_flags(k.op, k.felts, k.msg, k.spec)};
    c.out = ref_felt(c.op, c.felts, c.msg, c.valid);
    if (k.out) c.out = unhex_n<32>(k.out);  // the literal; spec_problems holds it against the reference
    (k.spec ? kat : gen).push_back(c);
  }
  auto add = [&](const std::string& op, const std::vector<uint64_t>& felts, const std::string& comment) {
    FeltSpongeCase c{++id, op, felts, {}, {}, true, comment, felt_flags(op, felts, {}, false)};
    c.out = ref_felt(op, felts, c.msg, c.valid);
    gen.push_back(c);
  };
  for (size_t n : {2, 3, 6, 7, 8, 9, 15, 16, 17, 24}) {
    std::vector<uint64_t> f(n);
    for (size_t i = 0; i < n; ++i) f[i] = i + 1;
    add("feltSponge", f, "felts 1.." + std::to_string(n));
  }
  add("feltSponge", std::vector<uint64_t>(7, P - 1), "felts (p - 1) x7");
  add("feltSponge", std::vector<uint64_t>(12, P - 1), "felts (p - 1) x12");
  add("hashTwice", std::vector<uint64_t>(8, P - 1), "felts (p - 1) x8");
  add("hashTwice", {EPS, P - 1, 1ull << 32, 0}, "felts EPS, p - 1, 2^32, 0");
  return {{"known-answer", kat}, {"generated", gen}};
}
json felt_json(const FeltSpongeCase& c) {
  json t = {{"tcId", c.id}, {"comment", c.comment}, {"flags", c.flags}, {"op", c.op}};
  if (c.op == "rehashToBytes") {
    t["msg"] = hexs(c.msg);
  } else {
    json a = json::array();
    for (uint64_t w : c.felts) a.push_back(w16(w));
    t["felts"] = a;
  }
  if (c.valid) t["out"] = hexs(c.out);
  t["result"] = c.valid ? "valid" : "invalid";
  return t;
}
std::string generate_felt() {
  return render_groups(felt_groups(), felt_json, "qp-poseidon felt sponge (Poseidon2 sponge, rate 8, felts absorbed directly)", kFeltSchema,
                       "docs/specs/qpow.md sections 4, 9.3; known answers: qp-poseidon src/lib.rs test_hash_twice_vectors and "
                       "rehash_to_bytes (v3.0.2, 60f7f4c); other outputs: the golden model reference/qpow. Felts: 16 hex digits, "
                       "big-endian numerals; out: 32 bytes, 4 canonical lanes little-endian",
                       felt_notes());
}

// ---- mining ----
const char* kMiningSchema = "bitexact_qpow_mining_v1";
json mining_notes() {
  json n;
  n["known-answer"] = note("BASIC", "Mining hash (and midstate) from qp-poseidon golden_vectors.rs, pow-core NONCE_HASH_KVS or engine-gpu gpu_golden.rs (spec 9.4).");
  n["spec-derived"] = note("BASIC", "Mining hash marked derived in the spec (recomputed independently there, not in an upstream file).");
  n["midstate"] = note("SHORTCUT", "The state after pi1, pi2 (header, nonce bits 511..256) is given: a midstate shortcut must reproduce it.");
  n["nonce-zero"] = note("EDGE_CASE", "Nonce 0: the hash is defined, the chain rejects the nonce (validity.json).");
  n["nonce-max"] = note("EDGE_CASE", "Nonce 2^512-1: a batch must not wrap to 0.");
  n["carry-2^32"] = note("CARRY", "Nonce at 2^32-1, 2^32, 2^32+1: x6 and x7 (B2 lanes 6, 7) change together; the prestate must apply column 6.");
  n["carry-2^64"] = note("CARRY", "Nonce at 2^64-1, 2^64, 2^64+1: B2 lane 5 changes, the low-64 prestate is invalid across it.");
  n["carry-2^128"] = note("CARRY", "Nonce at 2^128-1, 2^128, 2^128+1: the carry reaches B2 lane 3.");
  n["carry-2^224"] = note("CARRY", "Nonce at 2^224-1, 2^224, 2^224+1: the carry reaches B2 lane 0.");
  n["carry-2^256"] = note("CARRY", "Nonce at 2^256-1, 2^256, 2^256+1: B1 changes, the midstate is invalid across it.");
  n["high-half"] = note("BASIC", "Nonce >= 2^256: B1 (nonce bits 511..256) is not zero.");
  n["chain-input"] = note("BASIC", "The chain's test input (header 01 x32, nonce bytes 01 x64).");
  return n;
}
std::vector<std::string> mining_flags(const Int& n) {
  std::vector<std::string> f;
  if (n == 0) f.push_back("nonce-zero");
  if (n == R::kU512Max) f.push_back("nonce-max");
  for (int k : {32, 64, 128, 224, 256}) {
    const Int d = n - pow2(k);
    if (d >= -1 && d <= 1) f.push_back("carry-2^" + std::to_string(k));
  }
  if (n >= pow2(256)) f.push_back("high-half");
  if (n == int_be(nonce_01x64())) f.push_back("chain-input");
  return f;
}
std::vector<std::pair<std::string, std::vector<MiningCase>>> mining_groups() {
  std::vector<MiningCase> kat, gen;
  auto find = [&](const Header& h, const B64& nb) -> MiningCase* {
    for (auto* v : {&kat, &gen})
      for (auto& c : *v)
        if (c.header == h && c.nonce_be == nb) return &c;
    return nullptr;
  };
  for (auto& k : mining_kats()) {
    const B64 nb = be_of(k.nonce);
    MiningCase* c = find(k.header, nb);
    if (!c) {
      kat.push_back({0, k.header, nb, {}, false, {}, k.comment, {k.flag}});
      c = &kat.back();
      for (auto& f : mining_flags(k.nonce)) add_flag(c->flags, f);
    } else {
      c->comment += "; " + k.comment;
      add_flag(c->flags, k.flag);
    }
    if (k.hash) c->hash = unhex_n<64>(k.hash);
    if (k.mid) {
      c->has_midstate = true;
      c->midstate = words(k.mid, 16);
    }
  }
  for (auto& c : kat)
    if (c.has_midstate) add_flag(c.flags, "midstate");
  // Generated: carry-straddling nonces for two headers, each with the reference's midstate.
  std::vector<Int> nonces = {0, 1};
  for (int k : {32, 64, 128, 224, 256})
    for (int d : {-1, 0, 1}) nonces.push_back(pow2(k) + d);
  nonces.push_back(R::kU512Max);
  for (const Header& h : {rep_header(0), seq_header()}) {
    for (const Int& n : nonces) {
      const B64 nb = be_of(n);
      MiningCase* c = find(h, nb);
      if (!c) {
        std::string nn = n < pow2(64) ? std::string(n < 10 ? int_str(n) : hex_int(n)) : hex_int(n);
        for (int k : {32, 64, 128, 224, 256, 512})
          for (int d : {-1, 0, 1})
            if (n == pow2(k) + d) nn = "2^" + std::to_string(k) + (d < 0 ? "-1" : d > 0 ? "+1" : "");
        gen.push_back({0, h, nb, R::mining_hash_bytes(h, n), false, {}, header_name(h) + ", nonce " + nn, mining_flags(n)});
        c = &gen.back();
      }
      if (!c->has_midstate) {
        c->has_midstate = true;
        c->midstate = R::midstate(h, n);
        add_flag(c->flags, "midstate");
      }
    }
  }
  int id = 0;
  for (auto& c : kat) c.id = ++id;
  for (auto& c : gen) c.id = ++id;
  return {{"known-answer", kat}, {"generated", gen}};
}
std::string generate_mining() {
  const auto to_json = [](const MiningCase& c) {
    json t = {{"tcId", c.id}, {"comment", c.comment}, {"flags", c.flags}, {"header", hexs(c.header)}, {"nonce", hexs(c.nonce_be)},
              {"hash", hexs(c.hash)}};
    if (c.has_midstate) t["midstate"] = word_array(c.midstate);
    t["result"] = "valid";
    return t;
  };
  return render_groups(mining_groups(), to_json, "qpow mining hash (qpow-math get_nonce_hash)", kMiningSchema,
                       "docs/specs/qpow.md sections 4, 6, 9.4, 9.5; known answers: qp-poseidon tests/golden_vectors.rs (d181804), "
                       "quantus-miner pow-core NONCE_HASH_KVS (be8ee1e8), engine-gpu gpu_golden.rs (039aec5); "
                       "other outputs: the golden model reference/qpow. nonce: 64 bytes big-endian (the seal); "
                       "hash: 64 bytes, a big-endian U512; midstate: 12 words, 16 hex digits each",
                       mining_notes());
}

// ---- validity ----
const char* kValiditySchema = "bitexact_qpow_validity_v1";
json validity_notes() {
  json n;
  n["known-answer"] = note("BASIC", "A validity case stated by the sources (chain qpow-math tests, pow-core and engine-cuda tests; spec 9.5).");
  n["spec-derived"] = note("BASIC", "A validity case marked derived in the spec (nonce 705, difficulties 1104 / 1105).");
  n["difficulty-zero"] = note("EDGE_CASE", "Difficulty 0: always invalid (no target; the file's target is 0).");
  n["difficulty-one"] = note("EDGE_CASE", "Difficulty 1: target U512::MAX.");
  n["difficulty-max"] = note("EDGE_CASE", "Difficulty U512::MAX: target 1, valid only for hash 0.");
  n["hash-equals-target"] = note("COMPARISON", "hash = target: invalid (strict <; chain test_boundary_hash_equal_to_target_is_invalid).");
  n["target-hash-minus-1"] = note("COMPARISON", "target = hash - 1: invalid.");
  n["target-hash-plus-1"] = note("COMPARISON", "target = hash + 1: valid (the smallest valid target).");
  n["tie-64"] = note("EARLY_EXIT", "Target and hash share their top 64 bits: an early reject must fall through to the full comparison.");
  n["tie-256"] = note("EARLY_EXIT", "Target and hash share their top 256 bits: a 256-bit comparison (the CUDA engine's) cannot decide.");
  n["nonce-zero"] = note("EDGE_CASE", "Nonce 0: the hash may meet the target, the chain rejects the nonce (chainAccepts false).");
  n["nonce-max"] = note("EDGE_CASE", "Nonce 2^512-1.");
  return n;
}
Int case_hash(const Header& h, const Int& n) {
  const std::string s = spec_hash(h, n);
  return s.empty() ? R::mining_hash(h, n) : int_hex(s);
}
std::vector<std::string> validity_flags(const std::string& src, const Int& n, const Int& hash, const Int& target, const std::string& diff) {
  std::vector<std::string> f;
  if (!src.empty()) f.push_back(src);
  if (diff == "0") f.push_back("difficulty-zero");
  if (diff == "1") f.push_back("difficulty-one");
  if (!diff.empty() && Int(diff) == R::kU512Max) f.push_back("difficulty-max");
  if (diff != "0") {
    if (target == hash) f.push_back("hash-equals-target");
    if (target + 1 == hash) f.push_back("target-hash-minus-1");
    if (target == hash + 1) f.push_back("target-hash-plus-1");
    if ((target >> 448) == (hash >> 448)) f.push_back("tie-64");
    if ((target >> 256) == (hash >> 256)) f.push_back("tie-256");
  }
  if (n == 0) f.push_back("nonce-zero");
  if (n == R::kU512Max) f.push_back("nonce-max");
  return f;
}
std::vector<std::pair<std::string, std::vector<ValidityCase>>> validity_groups() {
  int id = 0;
  std::vector<ValidityCase> kat, der, gen;
  auto by_target = [&](std::vector<ValidityCase>& out, const std::string& src, const Header& h, const Int& n, const Int& target,
                       const std::string& comment) {
    const Int hash = case_hash(h, n);
    const bool valid = R::hash_meets_target(hash, target);
    out.push_back({++id, h, be_of(n), be_of(target), "", valid, valid && n != 0, comment, validity_flags(src, n, hash, target, "")});
  };
  auto by_difficulty = [&](std::vector<ValidityCase>& out, const std::string& src, const Header& h, const Int& n, const Int& d,
                           const std::string& comment) {
    const Int hash = case_hash(h, n);
    const Int target = d == 0 ? Int(0) : R::target_of(d);
    const bool valid = d != 0 && R::hash_meets_target(hash, target);
    out.push_back({++id, h, be_of(n), be_of(target), int_str(d), valid, valid && n != 0, comment,
                   validity_flags(src, n, hash, target, int_str(d))});
  };
  const Header h01 = rep_header(1);
  const Int n01 = int_be(nonce_01x64());
  const std::string chain = "spec 9.5 (chain qpow-math tests): header 01 x32, nonce bytes 01 x64, ";
  by_difficulty(kat, "known-answer", h01, n01, 1, chain + "difficulty 1 accepts");
  by_difficulty(kat, "known-answer", h01, n01, R::kU512Max, chain + "difficulty U512::MAX rejects");
  by_difficulty(kat, "known-answer", h01, n01, 0, chain + "difficulty 0 is invalid");
  by_target(kat, "known-answer", h01, n01, case_hash(h01, n01), chain + "hash = target is invalid");
  struct Kv {
    Header h;
    Int n;
    const char* name;
  };
  const Kv kvs[] = {{rep_header(0), 0, "KV1"},
                    {rep_header(1), 1, "KV2"},
                    {seq_header(), int_hex("1234567890abcdef"), "KV3"},
                    {rep_header(0xff), u64max(), "KV4"},
                    {rep_header(7), kv5_nonce(), "KV5"}};
  for (auto& kv : kvs) {
    const Int hash = case_hash(kv.h, kv.n);
    const std::string c = std::string("spec 9.5 (pow-core / engine-cuda tests): NONCE_HASH_KVS ") + kv.name + ", target ";
    by_target(kat, "known-answer", kv.h, kv.n, hash - 1, c + "hash-1 rejects");
    by_target(kat, "known-answer", kv.h, kv.n, hash, c + "hash rejects");
    by_target(kat, "known-answer", kv.h, kv.n, hash + 1, c + "hash+1 accepts");
  }
  const Header h00 = rep_header(0);
  by_difficulty(der, "spec-derived", h00, 705, 1104, "spec 9.5 derived: 00 x32, nonce 705 (achieved difficulty 1104), difficulty 1104 valid");
  by_difficulty(der, "spec-derived", h00, 705, 1105, "spec 9.5 derived: 00 x32, nonce 705, difficulty 1105 invalid");
  // Generated ties (spec 6.4, 8).
  for (auto& [h, n, name] : std::vector<std::tuple<Header, Int, std::string>>{{h00, 705, "00 x32, nonce 705"},
                                                                              {seq_header(), int_hex("1234567890abcdef"), "KV3"}}) {
    const Int hash = case_hash(h, n);
    const Int top64 = (hash >> 448) << 448, top256 = (hash >> 256) << 256;
    by_target(gen, "", h, n, top64, name + ": target H64 << 448 (tie on the top 64 bits, invalid)");
    by_target(gen, "", h, n, top64 + pow2(448) - 1, name + ": target (H64 << 448) + 2^448 - 1 (tie on the top 64 bits, valid)");
    by_target(gen, "", h, n, top256, name + ": target = the hash's top 256 bits, low 256 zero (invalid)");
    by_target(gen, "", h, n, top256 + pow2(256) - 1, name + ": target = the hash's top 256 bits, low 256 ones (valid)");
  }
  by_difficulty(gen, "", h00, 0, 1, "00 x32, nonce 0, difficulty 1: the hash meets the target, the chain rejects nonce 0");
  by_difficulty(gen, "", seq_header(), R::kU512Max, 1, "000102..1f, nonce 2^512-1, difficulty 1");
  by_difficulty(gen, "", h00, 705, 1, "00 x32, nonce 705, difficulty 1");
  return {{"known-answer", kat}, {"spec-derived", der}, {"generated", gen}};
}
std::string generate_validity() {
  const auto to_json = [](const ValidityCase& c) {
    json t = {{"tcId", c.id}, {"comment", c.comment}, {"flags", c.flags}, {"header", hexs(c.header)}, {"nonce", hexs(c.nonce_be)}};
    if (!c.difficulty.empty()) t["difficulty"] = c.difficulty;
    t["target"] = hexs(c.target);
    t["chainAccepts"] = c.chain_accepts;
    t["result"] = c.valid ? "valid" : "invalid";
    return t;
  };
  return render_groups(validity_groups(), to_json, "qpow validity (hash < target, strict)", kValiditySchema,
                       "docs/specs/qpow.md sections 5, 6.4, 8, 9.5; cases stated by chain qpow-math, pow-core and engine-cuda tests; "
                       "verdicts: the golden model reference/qpow. result: hash < target (difficulty: target = floor(MAX / "
                       "difficulty), difficulty 0 invalid); chainAccepts: result valid and nonce != 0 (the pallet)",
                       validity_notes());
}

// =====================================================================================================
// Loading
// =====================================================================================================
uint64_t get_word(const json& v, const std::string& what) {
  if (!v.is_string()) throw InputError(what + " must be a string of 16 hex digits");
  const auto b = bx::vectors::io::file_hex(v.get<std::string>(), 8, what);
  uint64_t w = 0;
  for (uint8_t x : b) w = w << 8 | x;
  return w;
}
State get_state(const json& t, const std::string& k, const std::string& where) {
  const json& a = t[k];
  if (!a.is_array() || a.size() != 12) throw InputError(where + ": field '" + k + "' must be an array of 12 words");
  State s;
  for (int i = 0; i < 12; ++i) s[i] = get_word(a[i], where + ": field '" + k + "'[" + std::to_string(i) + "]");
  return s;
}
template <size_t N>
std::array<uint8_t, N> get_bytes(const json& t, const std::string& k, const std::string& where) {
  const auto v = bx::vectors::io::file_hex(get_str(t, k, where), N, where + ": field '" + k + "'");
  std::array<uint8_t, N> a;
  std::copy(v.begin(), v.end(), a.begin());
  return a;
}
void expect_result(const json& t, const std::string& where, const char* want) {
  if (get_str(t, "result", where) != want) throw InputError(where + ": field 'result': expected '" + std::string(want) + "'");
}

// Iterates the tests of a document: f(test, id, where, flags).
template <class F>
size_t each_test(const std::string& file, const std::string& text, const char* schema, F&& f) {
  const json top = parse_json(file, text);
  check_header(top, file, schema, {"source"});
  return for_each_test(top, file, {"type"}, [&](const json& g, const json& t, const std::string& where, int id) {
    if (!g["type"].is_string()) throw InputError(file + ": testGroups: field 'type' must be a string");
    f(t, id, where, top["notes"]);
  });
}

}  // namespace

std::vector<FieldCase> load_field_cases(const std::string& text) {
  std::vector<FieldCase> out;
  each_test(kFieldPath, text, kFieldSchema, [&](const json& t, int id, const std::string& where, const json& notes) {
    FieldCase c;
    c.id = id;
    if (!t.contains("op") || !t["op"].is_string()) throw InputError(where + ": missing field 'op'");
    c.op = t["op"].get<std::string>();
    if (!kVectorOps.count(c.op)) throw InputError(where + ": field 'op': unknown op '" + c.op + "'");
    if (c.op == "reduce128") require_keys(t, {"tcId", "comment", "flags", "op", "x", "out", "result"}, {}, where);
    else if (binary_op(c.op)) require_keys(t, {"tcId", "comment", "flags", "op", "a", "b", "out", "result"}, {}, where);
    else require_keys(t, {"tcId", "comment", "flags", "op", "a", "out", "result"}, {}, where);
    c.comment = get_str(t, "comment", where);
    c.flags = get_flags(t, notes, where);
    if (c.op == "reduce128") {
      if (!t["x"].is_string() || t["x"].get<std::string>().size() != 32)
        throw InputError(where + ": field 'x' must be 32 hex digits");
      const std::string x = t["x"].get<std::string>();
      c.b = get_word(json(x.substr(0, 16)), where + ": field 'x'");
      c.a = get_word(json(x.substr(16)), where + ": field 'x'");
    } else {
      c.a = get_word(t["a"], where + ": field 'a'");
      if (binary_op(c.op)) c.b = get_word(t["b"], where + ": field 'b'");
    }
    c.result = get_word(t["out"], where + ": field 'out'");
    if (c.result >= P) throw InputError(where + ": field 'out' is not canonical (>= p)");
    expect_result(t, where, "valid");
    out.push_back(std::move(c));
  });
  return out;
}

std::vector<PermCase> load_perm_cases(const std::string& text) {
  std::vector<PermCase> out;
  each_test(kPermPath, text, kPermSchema, [&](const json& t, int id, const std::string& where, const json& notes) {
    require_keys(t, {"tcId", "comment", "flags", "layer", "in", "out", "result"}, {}, where);
    PermCase c;
    c.id = id;
    c.layer = get_str(t, "layer", where);
    if (!kLayers.count(c.layer)) throw InputError(where + ": field 'layer': unknown layer '" + c.layer + "'");
    c.comment = get_str(t, "comment", where);
    c.flags = get_flags(t, notes, where);
    c.in = get_state(t, "in", where);
    c.out = get_state(t, "out", where);
    for (uint64_t w : c.out)
      if (w >= P) throw InputError(where + ": field 'out' has a word >= p (outputs are canonical)");
    expect_result(t, where, "valid");
    out.push_back(std::move(c));
  });
  return out;
}

std::vector<ByteHashCase> load_byte_hash_cases(const std::string& text) {
  std::vector<ByteHashCase> out;
  each_test(kHashPath, text, kHashSchema, [&](const json& t, int id, const std::string& where, const json& notes) {
    require_keys(t, {"tcId", "comment", "flags", "msg", "squeezeTwice", "result"}, {}, where);
    ByteHashCase c;
    c.id = id;
    c.comment = get_str(t, "comment", where);
    c.flags = get_flags(t, notes, where);
    const std::string m = get_str(t, "msg", where);
    if (m.size() % 2) throw InputError(where + ": field 'msg': odd number of hex digits");
    c.data = bx::vectors::io::file_hex(m, m.size() / 2, where + ": field 'msg'");
    c.squeeze_twice = get_bytes<64>(t, "squeezeTwice", where);
    expect_result(t, where, "valid");
    out.push_back(std::move(c));
  });
  return out;
}

std::vector<FeltSpongeCase> load_felt_sponge_cases(const std::string& text) {
  std::vector<FeltSpongeCase> out;
  each_test(kFeltPath, text, kFeltSchema, [&](const json& t, int id, const std::string& where, const json& notes) {
    if (!t.contains("op") || !t["op"].is_string()) throw InputError(where + ": field 'op' must be a string");
    FeltSpongeCase c;
    c.id = id;
    c.op = t["op"].get<std::string>();
    const std::string r = t.contains("result") && t["result"].is_string() ? t["result"].get<std::string>() : "";
    c.valid = r == "valid";
    if (c.op == "rehashToBytes") {
      require_keys(t, {"tcId", "comment", "flags", "op", "msg", "result"}, {"out"}, where);
      c.msg = get_bytes<32>(t, "msg", where);
      if (r != "valid" && r != "invalid") throw InputError(where + ": field 'result': expected 'valid' or 'invalid'");
    } else if (c.op == "feltSponge" || c.op == "hashTwice") {
      require_keys(t, {"tcId", "comment", "flags", "op", "felts", "out", "result"}, {}, where);
      if (!t["felts"].is_array()) throw InputError(where + ": field 'felts' must be an array of words");
      for (size_t i = 0; i < t["felts"].size(); ++i)
        c.felts.push_back(get_word(t["felts"][i], where + ": field 'felts'[" + std::to_string(i) + "]"));
      for (size_t i = 0; i < c.felts.size(); ++i)
        if (c.felts[i] >= P) throw InputError(where + ": field 'felts'[" + std::to_string(i) + "]: not a field element (>= p)");
      expect_result(t, where, "valid");
    } else {
      throw InputError(where + ": field 'op': unknown op '" + c.op + "' (feltSponge, hashTwice, rehashToBytes)");
    }
    if (c.valid != t.contains("out")) throw InputError(where + ": field 'out': " + (c.valid ? "missing (result valid)" : "present on an invalid case"));
    if (c.valid) c.out = get_bytes<32>(t, "out", where);
    c.comment = get_str(t, "comment", where);
    c.flags = get_flags(t, notes, where);
    out.push_back(std::move(c));
  });
  return out;
}

std::vector<MiningCase> load_mining_cases(const std::string& text) {
  std::vector<MiningCase> out;
  each_test(kMiningPath, text, kMiningSchema, [&](const json& t, int id, const std::string& where, const json& notes) {
    require_keys(t, {"tcId", "comment", "flags", "header", "nonce", "hash", "result"}, {"midstate"}, where);
    MiningCase c;
    c.id = id;
    c.comment = get_str(t, "comment", where);
    c.flags = get_flags(t, notes, where);
    c.header = get_bytes<32>(t, "header", where);
    c.nonce_be = get_bytes<64>(t, "nonce", where);
    c.hash = get_bytes<64>(t, "hash", where);
    if (t.contains("midstate")) {
      c.has_midstate = true;
      c.midstate = get_state(t, "midstate", where);
    }
    expect_result(t, where, "valid");
    out.push_back(std::move(c));
  });
  return out;
}

std::vector<ValidityCase> load_validity_cases(const std::string& text) {
  std::vector<ValidityCase> out;
  each_test(kValidityPath, text, kValiditySchema, [&](const json& t, int id, const std::string& where, const json& notes) {
    require_keys(t, {"tcId", "comment", "flags", "header", "nonce", "target", "chainAccepts", "result"}, {"difficulty"}, where);
    ValidityCase c;
    c.id = id;
    c.comment = get_str(t, "comment", where);
    c.flags = get_flags(t, notes, where);
    c.header = get_bytes<32>(t, "header", where);
    c.nonce_be = get_bytes<64>(t, "nonce", where);
    c.target = get_bytes<64>(t, "target", where);
    if (t.contains("difficulty")) {
      c.difficulty = get_str(t, "difficulty", where);
      const std::string& d = c.difficulty;
      if (d.empty() || d.size() > 155 || !std::all_of(d.begin(), d.end(), [](char x) { return x >= '0' && x <= '9'; }) ||
          (d.size() > 1 && d[0] == '0'))
        throw InputError(where + ": field 'difficulty': expected a decimal integer without leading zeros, got '" + d + "'");
      if (Int(d) > R::kU512Max) throw InputError(where + ": field 'difficulty': above U512::MAX");
    }
    if (!t["chainAccepts"].is_boolean()) throw InputError(where + ": field 'chainAccepts' must be true or false");
    c.chain_accepts = t["chainAccepts"].get<bool>();
    const std::string r = get_str(t, "result", where);
    if (r != "valid" && r != "invalid") throw InputError(where + ": field 'result': expected 'valid' or 'invalid'");
    c.valid = r == "valid";
    out.push_back(std::move(c));
  });
  return out;
}

const std::vector<FieldCase>& embedded_field_cases() {
  static const auto v = load_field_cases(embedded_file(kFieldPath));
  return v;
}
const std::vector<PermCase>& embedded_perm_cases() {
  static const auto v = load_perm_cases(embedded_file(kPermPath));
  return v;
}
const std::vector<ByteHashCase>& embedded_byte_hash_cases() {
  static const auto v = load_byte_hash_cases(embedded_file(kHashPath));
  return v;
}
const std::vector<FeltSpongeCase>& embedded_felt_sponge_cases() {
  static const auto v = load_felt_sponge_cases(embedded_file(kFeltPath));
  return v;
}
const std::vector<MiningCase>& embedded_mining_cases() {
  static const auto v = load_mining_cases(embedded_file(kMiningPath));
  return v;
}
const std::vector<ValidityCase>& embedded_validity_cases() {
  static const auto v = load_validity_cases(embedded_file(kValidityPath));
  return v;
}

std::vector<std::string> vector_files() { return {kFieldPath, kPermPath, kHashPath, kFeltPath, kMiningPath, kValidityPath}; }

std::map<std::string, std::string> generate_vectors() {
  return {{kFieldPath, generate_field()},
          {kPermPath, generate_perm()},
          {kHashPath, generate_hash()},
          {kFeltPath, generate_felt()},
          {kMiningPath, generate_mining()},
          {kValidityPath, generate_validity()}};
}

// =====================================================================================================
// Checking
// =====================================================================================================
namespace {

std::string state_hex(const State& s) {
  std::string r;
  for (int i = 0; i < 12; ++i) r += (i ? " " : "") + w16(s[i]);
  return r;
}

// Every literal known answer of the generator against the reference (and the classifier's raw values
// against the spec's). One line per disagreement, naming the spec section.
std::vector<std::string> spec_problems() {
  std::vector<std::string> p;
  auto bad = [&](const std::string& where, const std::string& spec, const std::string& ref) {
    p.push_back((where.rfind("spec ", 0) == 0 ? "" : "spec ") + where + ": the spec says " + spec + ", the reference computes " + ref);
  };
  for (auto& k : kFieldKats) {
    const uint64_t r = ref_field(k.op, k.a, k.b);
    if (r != k.out) bad(std::string("9.1 ") + k.comment, w16(k.out), w16(r));
  }
  for (auto& k : kBranchKats) {
    const uint64_t r = ref_field(k.op, k.a, k.b);
    if (r != k.exact) bad(std::string("7/8 ") + k.comment, w16(k.exact), w16(r));
    const Cls c = cls_reduce(u128(k.a) * k.b);
    if (k.raw && c.raw != k.raw) bad(std::string("8 raw output, ") + k.comment, w16(k.raw), "(goldilocks.rs model) " + w16(c.raw));
    if (k.raw && R::canonical(k.raw) != r) bad(std::string("8 canonical(raw), ") + k.comment, w16(R::canonical(k.raw)), w16(r));
    if (k.lossy && c.lossy != k.lossy) bad(std::string("7 lossy value, ") + k.comment, w16(k.lossy), "(be8ee1e8 model) " + w16(c.lossy));
  }
  if (!bit65(0xfffffffeffffffffull)) p.push_back("spec 7: 2*a0*a1 of 0xfffffffeffffffff should reach 2^65's bit");
  for (auto& k : perm_kats()) {
    const State r = ref_layer(k.layer, k.in);
    if (r != k.out) bad(std::string("9.1/9.2 ") + k.comment, state_hex(k.out), state_hex(r));
  }
  {
    const State sb = words(kZeroSbox, 10);
    State r;
    for (int i = 0; i < 12; ++i) r[i] = R::sbox(R::constants().initial[0][i]);
    if (r != sb) bad("9.1 zero state: S-box(RC_init[0])", state_hex(sb), state_hex(r));
  }
  for (auto& k : hash_kats()) {
    const auto r = R::hash_bytes(k.data);
    if (hexs(r) != k.hash) bad(std::string("9.3 hash_bytes(") + k.name + ")", k.hash, hexs(r));
  }
  for (auto& k : felt_kats()) {
    bool valid;
    const auto r = ref_felt(k.op, k.felts, k.msg, valid);
    if (k.out && (!valid || hexs(r) != k.out)) bad(std::string("9.3 ") + k.op + "(" + k.name + ")", k.out, valid ? hexs(r) : "a rejection");
    if (k.spec && !k.out && valid) bad(std::string("9.3 ") + k.op + "(" + k.name + ")", "a rejection", hexs(r));
  }
  for (auto& k : mining_kats()) {
    if (k.hash) {
      const auto r = R::mining_hash_bytes(k.header, k.nonce);
      if (hexs(r) != k.hash) bad(k.comment + " hash", k.hash, hexs(r));
    }
    if (k.mid) {
      const State r = R::midstate(k.header, k.nonce);
      if (r != words(k.mid, 16)) bad(k.comment, state_hex(words(k.mid, 16)), state_hex(r));
    }
  }
  {
    const auto c = R::absorbed_c(rep_header(0), 0);
    const State want = words(std::string(kC0to3) + " 0 0 0 0 0 0 0 0", 16);
    for (int j = 0; j < 4; ++j)
      if (c[j] != want[j]) bad("9.4(d) c" + std::to_string(j) + " after pi4 (00 x32, nonce 0)", w16(want[j]), w16(c[j]));
    if (__builtin_bswap64(c[0]) != 0x8e64e3d8e0f38f88ull) bad("9.4(d) bswap64(c0)", "8e64e3d8e0f38f88", w16(__builtin_bswap64(c[0])));
    const State pre = R::prestate_low64(rep_header(0), 0);
    if (pre != words(kPrestate00, 16)) bad("9.4(d) prestate (00 x32, nonce 0)", kPrestate00, state_hex(pre));
  }
  {
    const Header h01 = rep_header(1);
    const Int n01 = int_be(nonce_01x64());
    if (!R::is_valid_nonce(h01, n01, 1)) bad("9.5 difficulty 1 accepts 01 x32 / 01 x64", "valid", "invalid");
    if (R::is_valid_nonce(h01, n01, R::kU512Max)) bad("9.5 difficulty MAX rejects 01 x32 / 01 x64", "invalid", "valid");
    if (R::is_valid_nonce(h01, n01, 0)) bad("9.5 difficulty 0", "invalid", "valid");
    const Int h705 = R::mining_hash(rep_header(0), 705);
    if (R::achieved_difficulty(h705) != 1104) bad("9.5 achieved difficulty of nonce 705", "1104", int_str(R::achieved_difficulty(h705)));
    if (R::target_of(1104) != int_hex(kTarget1104)) bad("9.5 target of difficulty 1104", kTarget1104, hexs(be_of(R::target_of(1104))));
    if (R::target_of(1105) != int_hex(kTarget1105)) bad("9.5 target of difficulty 1105", kTarget1105, hexs(be_of(R::target_of(1105))));
    if (!R::is_valid_nonce(rep_header(0), 705, 1104)) bad("9.5 nonce 705, difficulty 1104", "valid", "invalid");
    if (R::is_valid_nonce(rep_header(0), 705, 1105)) bad("9.5 nonce 705, difficulty 1105", "invalid", "valid");
  }
  return p;
}

// The flags a case must carry: its source flags (known answer, derived, boundary, random: not
// recomputable) and every class recomputed from its inputs. Order-insensitive.
std::vector<std::string> expect_flags(const std::vector<std::string>& have, std::vector<std::string> classes) {
  for (const char* src : {"known-answer", "spec-derived", "boundary", "random"})
    if (std::find(have.begin(), have.end(), src) != have.end()) add_flag(classes, src);
  return classes;
}
std::string flags_problem(const std::vector<std::string>& have, const std::vector<std::string>& want) {
  const std::set<std::string> h(have.begin(), have.end()), w(want.begin(), want.end());
  if (h == w && h.size() == have.size()) return "";
  std::string a, b;
  for (auto& x : have) a += (a.empty() ? "" : ",") + x;
  for (auto& x : w) b += (b.empty() ? "" : ",") + x;
  return "flags [" + a + "] but the inputs give [" + b + "]";
}

}  // namespace

std::vector<std::string> check_vectors(const std::string& root) {
  std::vector<std::string> problems = spec_problems();
  const auto fresh = generate_vectors();
  for (const std::string& rel : vector_files()) {
    std::string text;
    if (!read_repo_file(root, rel, text, problems)) continue;
    auto fail = [&](int id, const std::string& what) { problems.push_back(rel + ": tcId " + std::to_string(id) + ": " + what); };
    try {
      if (rel == kFieldPath) {
        for (auto& c : load_field_cases(text)) {
          const uint64_t r = ref_field(c.op, c.a, c.b);
          if (r != c.result) fail(c.id, c.op + ": out " + w16(c.result) + " but the reference computes " + w16(r));
          if (auto f = flags_problem(c.flags, expect_flags(c.flags, field_flags(c.op, c.a, c.b, ""))); !f.empty()) fail(c.id, f);
        }
      } else if (rel == kPermPath) {
        for (auto& c : load_perm_cases(text)) {
          const State r = ref_layer(c.layer, c.in);
          if (r != c.out) fail(c.id, c.layer + ": out " + state_hex(c.out) + " but the reference computes " + state_hex(r));
          if (auto f = flags_problem(c.flags, expect_flags(c.flags, perm_flags(c.in, ""))); !f.empty()) fail(c.id, f);
        }
      } else if (rel == kHashPath) {
        const auto kats = hash_kats();
        for (auto& c : load_byte_hash_cases(text)) {
          const auto r = R::hash_squeeze_twice(c.data);
          if (r != c.squeeze_twice) fail(c.id, "squeezeTwice " + hexs(c.squeeze_twice) + " but the reference computes " + hexs(r));
          const bool kat = std::any_of(kats.begin(), kats.end(), [&](const HashKat& k) { return k.data == c.data; });
          if (auto f = flags_problem(c.flags, hash_flags(c.data, kat)); !f.empty()) fail(c.id, f);
          for (auto& k : kats)
            if (k.data == c.data && hexs(c.squeeze_twice.data(), 32) != k.hash)
              fail(c.id, std::string("the first 32 bytes differ from spec 9.3 hash_bytes(") + k.name + ") = " + k.hash);
        }
      } else if (rel == kFeltPath) {
        const auto kats = felt_kats();
        for (auto& c : load_felt_sponge_cases(text)) {
          bool valid;
          const auto r = ref_felt(c.op, c.felts, c.msg, valid);
          if (valid != c.valid) fail(c.id, c.op + ": result '" + (c.valid ? "valid" : "invalid") + "' but the reference " + (valid ? "accepts" : "rejects") + " the input");
          else if (valid && r != c.out) fail(c.id, c.op + ": out " + hexs(c.out) + " but the reference computes " + hexs(r));
          const auto k = std::find_if(kats.begin(), kats.end(), [&](const FeltKat& k) {
            return k.spec && k.op == c.op && k.felts == c.felts && (c.op != "rehashToBytes" || k.msg == c.msg);
          });
          if (auto f = flags_problem(c.flags, felt_flags(c.op, c.felts, c.msg, k != kats.end())); !f.empty()) fail(c.id, f);
          if (k != kats.end() && k->out && (!c.valid || hexs(c.out) != k->out))
            fail(c.id, std::string("differs from spec 9.3 ") + k->op + "(" + k->name + ") = " + k->out);
        }
      } else if (rel == kMiningPath) {
        const auto kats = mining_kats();
        for (auto& c : load_mining_cases(text)) {
          const Int n = int_be(c.nonce_be);
          const auto r = R::mining_hash_bytes(c.header, n);
          if (r != c.hash) fail(c.id, "hash " + hexs(c.hash) + " but the reference computes " + hexs(r));
          if (c.has_midstate && R::midstate(c.header, n) != c.midstate)
            fail(c.id, "midstate " + state_hex(c.midstate) + " but the reference computes " + state_hex(R::midstate(c.header, n)));
          auto mf = mining_flags(n);
          if (c.has_midstate) mf.push_back("midstate");
          if (auto f = flags_problem(c.flags, expect_flags(c.flags, mf)); !f.empty()) fail(c.id, f);
          for (auto& k : kats) {
            if (k.header != c.header || k.nonce != n) continue;
            if (k.hash && hexs(c.hash) != k.hash) fail(c.id, "hash differs from " + k.comment + ": " + k.hash);
            if (k.mid && (!c.has_midstate || c.midstate != words(k.mid, 16)))
              fail(c.id, "midstate differs from " + k.comment + ": " + k.mid);
          }
        }
      } else if (rel == kValidityPath) {
        for (auto& c : load_validity_cases(text)) {
          const Int n = int_be(c.nonce_be), target = int_be(c.target);
          const Int hash = R::mining_hash(c.header, n);
          bool valid;
          if (c.difficulty.empty()) {
            valid = R::hash_meets_target(hash, target);
          } else {
            const Int d(c.difficulty);
            const Int want = d == 0 ? Int(0) : R::target_of(d);
            if (target != want) fail(c.id, "target is not floor(MAX / difficulty) (0 for difficulty 0): " + hexs(be_of(want)));
            valid = R::is_valid_nonce(c.header, n, d);
          }
          if (valid != c.valid) fail(c.id, std::string("result '") + (c.valid ? "valid" : "invalid") + "' but the reference says " + (valid ? "valid" : "invalid"));
          if (auto f = flags_problem(c.flags, expect_flags(c.flags, validity_flags("", n, hash, target, c.difficulty))); !f.empty())
            fail(c.id, f);
          const bool chain = valid && n != 0;
          if (chain != c.chain_accepts) fail(c.id, std::string("chainAccepts ") + (c.chain_accepts ? "true" : "false") + " but the reference says " + (chain ? "true" : "false"));
        }
      }
    } catch (const InputError& e) {
      problems.push_back(bx::vectors::io::malformed(e.what()));
    } catch (const std::exception& e) {
      problems.push_back(rel + ": " + e.what());
    }
    if (auto st = stale_line(rel, text, fresh.at(rel), "qpow"); !st.empty()) problems.push_back(st);
  }
  return problems;
}

}  // namespace bx::qpow
