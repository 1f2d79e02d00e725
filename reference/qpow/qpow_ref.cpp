#include "reference/qpow/qpow_ref.hpp"

#include <openssl/evp.h>
#include <sodium.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <cstdio>
#include <nlohmann/json.hpp>

namespace bx::ref::qpow {

const Int kU512Max = (Int(1) << 512) - 1;

namespace {

// ---- exact field ------------------------------------------------------------------------------------
// All field values pass through this PrimeField: an exact cpp_int result reduced by % p. Operands are
// < 2^64 and products < 2^128, so cpp_int stays in its inline storage (no heap allocation).
const PrimeField& F() {
  static const PrimeField f{Int(kP)};
  return f;
}
// v is a reduced field value, so it fits.
uint64_t u64(const Int& v) { return static_cast<uint64_t>(v); }
Int I(uint64_t v) { return Int(v); }

std::string hex64(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%016llx", static_cast<unsigned long long>(v));
  return b;
}
std::string hex_bytes(const uint8_t* p, size_t n) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < n; ++i) {
    s += d[p[i] >> 4];
    s += d[p[i] & 15];
  }
  return s;
}

uint32_t u32_le(const uint8_t* p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}
void put_le64(uint64_t v, uint8_t* out) {
  for (int j = 0; j < 8; ++j) out[j] = uint8_t(v >> (8 * j));
}

// ---- constants parsing ------------------------------------------------------------------------------
using json = nlohmann::json;

[[noreturn]] void fail(const std::string& what) { throw std::runtime_error("qpow constants: " + what); }

// "0x" followed by 1..16 hex digits (either case); any other form is "bad hex".
uint64_t parse_hex(const json& v, const std::string& where) {
  if (!v.is_string()) fail(where + ": expected a hex string, got " + v.dump());
  const std::string& s = v.get_ref<const std::string&>();
  if (s.size() < 3 || s.size() > 18 || s[0] != '0' || s[1] != 'x') fail(where + ": bad hex \"" + s + "\"");
  uint64_t r = 0;
  for (size_t i = 2; i < s.size(); ++i) {
    const char c = s[i];
    int d;
    if (c >= '0' && c <= '9') d = c - '0';
    else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
    else fail(where + ": bad hex \"" + s + "\"");
    r = r << 4 | uint64_t(d);
  }
  return r;
}
uint64_t parse_felt(const json& v, const std::string& where) {
  const uint64_t r = parse_hex(v, where);
  if (r >= kP) fail(where + ": value " + hex64(r) + " is not below p = " + hex64(kP));
  return r;
}
const json& member(const json& doc, const char* key) {
  auto it = doc.find(key);
  if (it == doc.end()) fail(std::string("missing field \"") + key + "\"");
  return *it;
}
const json& array_of(const json& v, size_t n, const std::string& where) {
  if (!v.is_array()) fail(where + ": expected an array, got " + v.dump());
  if (v.size() != n) fail(where + " has " + std::to_string(v.size()) + " entries, expected " + std::to_string(n));
  return v;
}
template <size_t N>
std::array<uint64_t, N> felt_row(const json& v, const std::string& where) {
  array_of(v, N, where);
  std::array<uint64_t, N> r;
  for (size_t i = 0; i < N; ++i) r[i] = parse_felt(v[i], where + "[" + std::to_string(i) + "]");
  return r;
}
template <size_t R, size_t N>
std::array<std::array<uint64_t, N>, R> felt_table(const json& v, const std::string& where) {
  array_of(v, R, where);
  std::array<std::array<uint64_t, N>, R> t;
  for (size_t r = 0; r < R; ++r) t[r] = felt_row<N>(v[r], where + "[" + std::to_string(r) + "]");
  return t;
}

constexpr std::array<std::array<uint64_t, 4>, 4> kSpecM4{{{2, 3, 1, 1}, {1, 2, 3, 1}, {1, 1, 2, 3}, {3, 1, 1, 2}}};

// ---- permutation ------------------------------------------------------------------------------------
// y = M4 applied to each chunk, exact integers (each y < 7 * 2^64), not reduced.
std::array<Int, 12> m4_exact(const State& s) {
  const auto& M = constants().m4;
  std::array<Int, 12> y;
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 4; ++r) {
      Int acc = 0;
      for (int k = 0; k < 4; ++k) acc += I(s[4 * c + k]) * M[r][k];
      y[4 * c + r] = std::move(acc);
    }
  return y;
}

enum class Entry { kStart, kFirstSbox };

State run_permutation(State s, Entry entry, std::vector<State>* trace) {
  const Constants& C = constants();
  auto record = [&] {
    if (trace) trace->push_back(s);
  };
  if (entry == Entry::kStart) {
    s = external_linear(s);
    record();
  }
  for (int r = 0; r < 4; ++r) {
    const bool rc_already_added = (r == 0 && entry == Entry::kFirstSbox);
    for (int i = 0; i < 12; ++i) s[i] = sbox(rc_already_added ? s[i] : add(s[i], C.initial[r][i]));
    s = external_linear(s);
    record();
  }
  for (int r = 0; r < 22; ++r) {
    s[0] = sbox(add(s[0], C.internal[r]));
    s = internal_linear(s);
    record();
  }
  for (int r = 0; r < 4; ++r) {
    for (int i = 0; i < 12; ++i) s[i] = sbox(add(s[i], C.terminal[r][i]));
    s = external_linear(s);
    record();
  }
  return s;
}

// ---- sponge -----------------------------------------------------------------------------------------
// qp-poseidon Poseidon2State: felts are buffered; a full block of 8 is field-added into lanes 0..7 and
// the state permuted. Invariant: buffered() < 8 between calls; lanes are canonical after any permutation.
class Sponge {
 public:
  void absorb(uint64_t felt) {
    buf_[n_++] = felt;
    if (n_ == 8) {
      for (int i = 0; i < 8; ++i) s_[i] = add(s_[i], buf_[i]);
      s_ = permute(s_);
      n_ = 0;
    }
  }
  // n_chunks complete 4-byte chunks, each one felt u32_le (no terminator).
  void absorb_chunks(const uint8_t* p, size_t n_chunks) {
    for (size_t i = 0; i < n_chunks; ++i) absorb(u32_le(p + 4 * i));
  }
  // bytes_to_felts encoding: the chunks, then the terminator felt (leftover bytes, 0x01, zero padding).
  void absorb_bytes(const uint8_t* p, size_t len) {
    absorb_chunks(p, len / 4);
    uint8_t t[4] = {0, 0, 0, 0};
    const size_t r = len % 4;
    std::copy(p + 4 * (len / 4), p + len, t);
    t[r] = 0x01;
    absorb(u32_le(t));
  }
  // Felt 1, then zeros until the buffer is empty (a block boundary); at least one permutation.
  void finalize() {
    absorb(1);
    while (n_ != 0) absorb(0);
  }
  void permute_again() { s_ = permute(s_); }
  const State& state() const { return s_; }
  std::array<uint64_t, 4> digest() const { return {s_[0], s_[1], s_[2], s_[3]}; }
  void digest_bytes(uint8_t* out) const {
    for (int j = 0; j < 4; ++j) put_le64(canonical(s_[j]), out + 8 * j);
  }

 private:
  State s_{};
  std::array<uint64_t, 8> buf_{};
  size_t n_ = 0;
};

// ---- mining -----------------------------------------------------------------------------------------
std::array<uint8_t, 96> mining_input(const Header& h, const Int& nonce) {
  std::array<uint8_t, 96> in;
  const auto n = nonce_be_bytes(nonce);
  std::copy(h.begin(), h.end(), in.begin());
  std::copy(n.begin(), n.end(), in.begin() + 32);
  return in;
}
void require_u512(const Int& v, const char* what) {
  if (v < 0 || v > kU512Max) throw std::out_of_range(std::string(what) + " is outside [0, 2^512 - 1]");
}

}  // namespace

// ---- constants --------------------------------------------------------------------------------------
std::array<uint8_t, 32> constants_sha256(const Constants& c) {
  std::vector<uint8_t> msg;
  msg.reserve(1040);
  auto put = [&](uint64_t v) {
    uint8_t b[8];
    put_le64(v, b);
    msg.insert(msg.end(), b, b + 8);
  };
  for (const auto& row : c.initial)
    for (uint64_t v : row) put(v);
  for (const auto& row : c.terminal)
    for (uint64_t v : row) put(v);
  for (uint64_t v : c.internal) put(v);
  for (uint64_t v : c.diag) put(v);
  std::array<uint8_t, 32> d;
  unsigned int len = 0;
  if (EVP_Digest(msg.data(), msg.size(), d.data(), &len, EVP_sha256(), nullptr) != 1 || len != 32)
    throw std::runtime_error("qpow constants: OpenSSL SHA-256 failed");
  return d;
}

Constants parse_constants(const std::string& json_text) {
  json doc;
  try {
    doc = json::parse(json_text);
  } catch (const json::exception& e) {
    fail(std::string("malformed JSON: ") + e.what());
  }
  if (!doc.is_object()) fail("the document is not a JSON object");
  const uint64_t modulus = parse_hex(member(doc, "modulus"), "modulus");
  if (modulus != kP) fail("modulus is " + hex64(modulus) + ", expected p = " + hex64(kP));
  Constants c;
  c.initial = felt_table<4, 12>(member(doc, "initial_external"), "initial_external");
  c.terminal = felt_table<4, 12>(member(doc, "terminal_external"), "terminal_external");
  c.internal = felt_row<22>(member(doc, "internal"), "internal");
  c.diag = felt_row<12>(member(doc, "internal_diagonal"), "internal_diagonal");
  c.m4 = felt_table<4, 4>(member(doc, "external_m4"), "external_m4");
  // The checksum does not cover M4; pin it to the spec's rows so a wrong matrix cannot pass silently.
  if (c.m4 != kSpecM4) fail("external_m4 is not the Quantus M4 [2 3 1 1] [1 2 3 1] [1 1 2 3] [3 1 1 2]");
  const json& sha = member(doc, "sha256");
  if (!sha.is_string()) fail("sha256: expected a hex string, got " + sha.dump());
  std::string want = sha.get<std::string>();
  std::transform(want.begin(), want.end(), want.begin(), [](unsigned char ch) { return char(std::tolower(ch)); });
  const auto digest = constants_sha256(c);
  const std::string got = hex_bytes(digest.data(), digest.size());
  if (want != got) fail("sha256 field \"" + sha.get<std::string>() + "\" does not match the recomputed checksum " + got);
  if (got != kConstantsSha256)
    fail("checksum " + got + " is not the spec's " + std::string(kConstantsSha256) + " (constants altered)");
  return c;
}

const Constants& constants() {
  static const Constants c = parse_constants(std::string(embedded_constants_json()));
  return c;
}

// ---- regeneration -----------------------------------------------------------------------------------
std::array<uint32_t, 8> pcg32_seed_words(uint64_t state) {
  constexpr uint64_t kMul = 6364136223846793005ull, kInc = 11634580027462260723ull;
  std::array<uint32_t, 8> w;
  for (auto& x : w) {
    state = state * kMul + kInc;  // mod 2^64 (unsigned wrap is the definition)
    const uint32_t xorshifted = uint32_t(((state >> 18) ^ state) >> 27);
    x = std::rotr(xorshifted, int(state >> 59));
  }
  return w;
}

std::vector<uint32_t> chacha20_words(const std::array<uint32_t, 8>& key, uint64_t first_block, size_t n_words) {
  static const int init = sodium_init();  // thread-safe once; < 0 is failure, 0/1 success
  if (init < 0) throw std::runtime_error("qpow: sodium_init failed");
  uint8_t k[crypto_stream_chacha20_KEYBYTES];
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 4; ++j) k[4 * i + j] = uint8_t(key[i] >> (8 * j));
  const uint8_t nonce[crypto_stream_chacha20_NONCEBYTES] = {};  // rand_chacha stream 0
  std::vector<uint8_t> zeros(4 * n_words, 0), ks(4 * n_words);
  // xor_ic over zeros is the keystream starting at block first_block (the 64-bit counter, words 12..13).
  crypto_stream_chacha20_xor_ic(ks.data(), zeros.data(), ks.size(), nonce, first_block, k);
  std::vector<uint32_t> w(n_words);
  for (size_t i = 0; i < n_words; ++i) w[i] = u32_le(ks.data() + 4 * i);
  return w;
}

RoundConstants regenerate_round_constants() {
  const auto key = pcg32_seed_words(0x3141592653589793ull);
  std::vector<uint32_t> words;
  size_t pos = 0;
  uint64_t block = 0;
  auto next_word = [&] {
    if (pos == words.size()) {  // one ChaCha block (16 words) at a time, counter in order
      words = chacha20_words(key, block++, 16);
      pos = 0;
    }
    return words[pos++];
  };
  auto draw = [&] {
    for (;;) {
      const uint64_t lo = next_word();
      const uint64_t v = lo | uint64_t(next_word()) << 32;
      if (v < kP) return v;  // rejection sampling: Plonky3's Goldilocks Standard distribution
    }
  };
  RoundConstants rc;
  for (auto& row : rc.initial)
    for (auto& v : row) v = draw();
  for (auto& row : rc.terminal)
    for (auto& v : row) v = draw();
  for (auto& v : rc.internal) v = draw();
  return rc;
}

// ---- field ------------------------------------------------------------------------------------------
uint64_t add(uint64_t a, uint64_t b) { return u64(F().add(I(a), I(b))); }
uint64_t sub(uint64_t a, uint64_t b) { return u64(F().sub(I(a), I(b))); }
uint64_t mul(uint64_t a, uint64_t b) { return u64(F().mul(I(a), I(b))); }
uint64_t sqr(uint64_t a) { return u64(F().sqr(I(a))); }
uint64_t neg(uint64_t a) { return u64(F().neg(I(a))); }
uint64_t canonical(uint64_t a) { return u64(F().reduce(I(a))); }
uint64_t sbox(uint64_t a) {
  const PrimeField& f = F();
  const Int x = f.reduce(I(a));
  const Int x2 = f.sqr(x);
  const Int x3 = f.mul(x2, x);
  const Int x4 = f.sqr(x2);
  return u64(f.mul(x3, x4));
}
uint64_t reduce128(uint64_t hi, uint64_t lo) { return u64(F().reduce((I(hi) << 64) + lo)); }
uint64_t halve(uint64_t a) {
  static const Int inv2 = F().inv(Int(2));
  return u64(F().mul(I(a), inv2));
}
uint64_t inverse(uint64_t a) { return u64(F().inv(I(a))); }

// ---- permutation ------------------------------------------------------------------------------------
State m4_layer(const State& s) {
  const auto y = m4_exact(s);
  State out;
  for (int i = 0; i < 12; ++i) out[i] = u64(F().reduce(y[i]));
  return out;
}

State external_linear(const State& s) {
  const auto y = m4_exact(s);
  std::array<Int, 4> S;
  for (int k = 0; k < 4; ++k) S[k] = y[k] + y[k + 4] + y[k + 8];
  State out;
  for (int i = 0; i < 12; ++i) out[i] = u64(F().reduce(y[i] + S[i % 4]));  // exact: < 28 * 2^64
  return out;
}

State internal_linear(const State& s) {
  const auto& d = constants().diag;
  Int sum = 0;
  for (uint64_t v : s) sum += v;
  State out;
  for (int i = 0; i < 12; ++i) out[i] = u64(F().reduce(sum + I(d[i]) * s[i]));
  return out;
}

State permute(const State& s) { return run_permutation(s, Entry::kStart, nullptr); }

std::vector<State> permute_trace(const State& s) {
  std::vector<State> t;
  t.reserve(31);
  run_permutation(s, Entry::kStart, &t);
  return t;
}

State permute_from_first_sbox(const State& s) { return run_permutation(s, Entry::kFirstSbox, nullptr); }

// ---- sponge -----------------------------------------------------------------------------------------
std::vector<uint64_t> bytes_to_felts(const std::vector<uint8_t>& x) {
  std::vector<uint64_t> f;
  f.reserve(x.size() / 4 + 1);
  for (size_t i = 0; i + 4 <= x.size(); i += 4) f.push_back(u32_le(x.data() + i));
  uint8_t t[4] = {0, 0, 0, 0};
  const size_t full = x.size() / 4 * 4;
  std::copy(x.begin() + full, x.end(), t);
  t[x.size() - full] = 0x01;
  f.push_back(u32_le(t));
  return f;
}

std::array<uint64_t, 4> felt_sponge(const std::vector<uint64_t>& felts) {
  Sponge sp;
  for (uint64_t v : felts) sp.absorb(v);
  sp.finalize();
  return sp.digest();
}

std::array<uint64_t, 8> felt_sponge_squeeze_twice(const std::vector<uint64_t>& felts) {
  Sponge sp;
  for (uint64_t v : felts) sp.absorb(v);
  sp.finalize();
  const auto a = sp.digest();
  sp.permute_again();
  const auto b = sp.digest();
  return {a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3]};
}

std::array<uint8_t, 32> hash_bytes(const std::vector<uint8_t>& x) {
  Sponge sp;
  sp.absorb_bytes(x.data(), x.size());
  sp.finalize();
  std::array<uint8_t, 32> out;
  sp.digest_bytes(out.data());
  return out;
}

std::array<uint8_t, 64> hash_squeeze_twice(const std::vector<uint8_t>& x) {
  Sponge sp;
  sp.absorb_bytes(x.data(), x.size());
  sp.finalize();
  std::array<uint8_t, 64> out;
  sp.digest_bytes(out.data());
  sp.permute_again();
  sp.digest_bytes(out.data() + 32);
  return out;
}

std::array<uint8_t, 32> hash_twice(const std::vector<uint64_t>& felts) {
  const auto inner = felt_sponge(felts);
  const auto outer = felt_sponge(std::vector<uint64_t>(inner.begin(), inner.end()));
  std::array<uint8_t, 32> out;
  for (int j = 0; j < 4; ++j) put_le64(outer[j], out.data() + 8 * j);
  return out;
}

std::array<uint8_t, 32> rehash_to_bytes(const std::array<uint8_t, 32>& x) {
  std::vector<uint64_t> felts(4);
  for (int j = 0; j < 4; ++j) {
    uint64_t v = 0;
    for (int k = 7; k >= 0; --k) v = v << 8 | x[8 * j + k];
    if (v >= kP) throw std::invalid_argument("rehash_to_bytes: limb " + std::to_string(j) + " = " + hex64(v) + " is not below p");
    felts[j] = v;
  }
  const auto h = felt_sponge(felts);
  std::array<uint8_t, 32> out;
  for (int j = 0; j < 4; ++j) put_le64(h[j], out.data() + 8 * j);
  return out;
}

// ---- mining -----------------------------------------------------------------------------------------
std::array<uint8_t, 64> nonce_be_bytes(const Int& nonce) {
  if (nonce < 0 || nonce > kU512Max) throw std::out_of_range("nonce is outside [0, 2^512 - 1]");
  const auto le = to_le_bytes(nonce, 64);
  std::array<uint8_t, 64> be;
  std::reverse_copy(le.begin(), le.end(), be.begin());
  return be;
}

std::array<uint8_t, 64> mining_hash_bytes(const Header& h, const Int& nonce) {
  const auto in = mining_input(h, nonce);
  Sponge sp;
  sp.absorb_bytes(in.data(), in.size());  // 24 chunks + terminator 1, then finalise: 4 blocks, pi1..pi4
  sp.finalize();
  std::array<uint8_t, 64> out;
  sp.digest_bytes(out.data());
  sp.permute_again();  // pi5
  sp.digest_bytes(out.data() + 32);
  return out;
}

Int mining_hash(const Header& h, const Int& nonce) {
  const auto b = mining_hash_bytes(h, nonce);
  Int r;
  boost::multiprecision::import_bits(r, b.begin(), b.end(), 8, /*msv_first=*/true);
  return r;
}

State midstate(const Header& h, const Int& nonce) {
  const auto in = mining_input(h, nonce);
  Sponge sp;
  sp.absorb_chunks(in.data(), 16);  // B0 (header) -> pi1, B1 (nonce bytes 0..31) -> pi2
  return sp.state();
}

State prestate_low64(const Header& h, const Int& nonce) {
  const auto in = mining_input(h, nonce);
  State t = midstate(h, nonce);
  for (int i = 0; i < 6; ++i) t[i] = add(t[i], u32_le(in.data() + 64 + 4 * i));  // B2 lanes 0..5
  t = external_linear(t);
  for (int i = 0; i < 12; ++i) t[i] = add(t[i], constants().initial[0][i]);
  return t;
}

std::array<uint64_t, 2> low64_lanes(const Int& nonce) {
  const auto be = nonce_be_bytes(nonce);
  return {u32_le(be.data() + 56), u32_le(be.data() + 60)};  // B2 lanes 6, 7
}

State me_column(int j) {
  if (j < 0 || j > 11) throw std::out_of_range("me_column: j must be in 0..11");
  const auto& M = constants().m4;
  State c;
  for (int i = 0; i < 12; ++i) c[i] = M[i % 4][j % 4] * (i / 4 == j / 4 ? 2 : 1);
  return c;
}

std::array<uint64_t, 4> absorbed_c(const Header& h, const Int& nonce) {
  const auto in = mining_input(h, nonce);
  Sponge sp;
  sp.absorb_bytes(in.data(), in.size());
  sp.finalize();
  return sp.digest();
}

Int target_of(const Int& difficulty) {
  require_u512(difficulty, "difficulty");
  if (difficulty == 0) throw std::invalid_argument("target_of: difficulty 0 has no target");
  return kU512Max / difficulty;
}

bool is_valid_nonce(const Header& h, const Int& nonce, const Int& difficulty) {
  require_u512(difficulty, "difficulty");
  if (difficulty == 0) return false;
  return hash_meets_target(mining_hash(h, nonce), target_of(difficulty));
}

bool hash_meets_target(const Int& hash, const Int& target) { return hash < target; }

bool chain_accepts(const Header& h, const Int& nonce, const Int& difficulty) {
  if (nonce == 0) return false;
  return is_valid_nonce(h, nonce, difficulty);
}

Int achieved_difficulty(const Int& hash) {
  require_u512(hash, "hash");
  if (hash == 0) return kU512Max;
  return kU512Max / hash;
}

}  // namespace bx::ref::qpow
