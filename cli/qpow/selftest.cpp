// qpow selftest: every variant on every place, against the exact reference (exact variants) or against
// the host model of the same lossy arithmetic (the lossy engine, characterised). Each check names the
// bug class it catches; the first failures print the inputs and both answers.
#include <cstdio>
#include <type_traits>

#include "cli/qpow/qpow.hpp"
#include "suite/qpow/plugin_ops.hpp"
#include "suite/qpow/vectors.hpp"
#if defined(BX_HAVE_CUDA)
#include "gpu/kernels/qpow_kernels.hpp"
#endif

namespace bx::qpow {
namespace R = ref::qpow;

namespace {

// A linear layer of the permutation file ("m4" per chunk, "external" M_E, "internal" M_I) through
// layout L's own layer code, canonical.
template <class L>
std::array<uint64_t, 12> layout_layer(const std::string& layer, const std::array<uint64_t, 12>& in) {
  using P = Permutation<L, false>;
  std::array<uint64_t, 12> s = in;
  if (layer == "m4") {
    for (int c = 0; c < 3; ++c) {
      gl::Acc96 y[4];
      P::m4(in.data() + 4 * c, y);
      for (int k = 0; k < 4; ++k) s[size_t(4 * c + k)] = L::acc_reduce(y[k]);
    }
  } else if (layer == "external") {
    P::external_linear(s.data());
  } else {
    P::internal_linear(s.data(), kQuantusP2);
  }
  for (auto& x : s) x = gl::canonical(x);
  return s;
}

// The felt-sponge file's answer for a valid case through layout L's sponge (4 canonical lanes, LE bytes).
template <class L>
std::array<uint8_t, 32> layout_felt_sponge(const FeltSpongeCase& c) {
  uint64_t w[4];
  if (c.op == "rehashToBytes") {
    uint64_t f[4] = {};
    for (int j = 0; j < 4; ++j)
      for (int k = 7; k >= 0; --k) f[j] = f[j] << 8 | c.msg[size_t(8 * j + k)];
    Sponge<L>::felt_sponge(f, 4, w, kQuantusP2);
  } else if (c.op == "hashTwice") {
    Sponge<L>::hash_twice(c.felts.data(), uint32_t(c.felts.size()), w, kQuantusP2);
  } else {
    Sponge<L>::felt_sponge(c.felts.data(), uint32_t(c.felts.size()), w, kQuantusP2);
  }
  std::array<uint8_t, 32> out;
  Sponge<L>::lanes_to_bytes(w, out.data());
  return out;
}

std::string hex64(uint64_t v) {
  char b[20];
  std::snprintf(b, sizeof b, "%016llx", (unsigned long long)v);
  return b;
}

// The §8 operand catalogue (lazy representatives >= p included).
std::vector<uint64_t> corners() {
  const uint64_t P = gl::P, E = gl::EPS;
  return {0, 1, 2, P - 2, P - 1, P, P + 1, P + 2, ~0ull - 1, ~0ull, E - 1, E, E + 1, uint64_t(1) << 32, (uint64_t(1) << 32) + 1,
          uint64_t(1) << 48, uint64_t(1) << 63, 2 * E, (uint64_t(1) << 32) * E, 0xfffffffeffffffffull,
          0x8000000080000000ull, 0x00000000ffffffffull * 0x10001ull, 0xfffffffe00000001ull};
}

// kFused: the internal layer's fused product a*d + acc with the largest diagonal entry d_9 and the largest
// accumulator the layer builds (high word 12: eleven lanes, lane 0 and a folded constant), the bound its
// precondition rests on. kAcc: a linear layer's accumulator (high word b mod 2^32) reduced.
enum Op { kAdd, kSub, kMul, kSqr, kNeg, kSbox, kReduce, kCanon, kFused, kAcc, kOps };
const char* op_name(int op) {
  static const char* n[] = {"add", "sub", "mul", "sqr", "neg", "sbox", "reduce128", "canonical", "fused", "acc_reduce"};
  return n[op];
}
constexpr uint32_t kFusedAccHi = 12;
constexpr int kFusedDiag = 9;  // 0xf3faac6faee378ae, the largest d_i
uint64_t ref_op(int op, uint64_t a, uint64_t b) {
  switch (op) {
    case kAdd: return R::add(a, b);
    case kSub: return R::sub(a, b);
    case kMul: return R::mul(a, b);
    case kSqr: return R::sqr(a);
    case kNeg: return R::neg(a);
    case kSbox: return R::sbox(a);
    case kCanon: return R::canonical(a);
    case kFused: return R::add(R::mul(a, kQuantusP2.diag[kFusedDiag]), R::reduce128(kFusedAccHi, b));
    case kAcc: return R::reduce128(uint32_t(b), a);
    default: return R::reduce128(b, a);  // a = low word, b = high word
  }
}
template <class L>
uint64_t host_op(int op, uint64_t a, uint64_t b) {
  switch (op) {
    case kAdd: return L::add(a, b);
    case kSub: return L::sub(a, b);
    case kMul: return L::mul(a, b);
    case kSqr: return L::sqr(a);
    case kNeg: return L::neg(a);
    case kSbox: return Permutation<L, false>::sbox(a);
    case kCanon: return gl::canonical(a);
    case kFused: return L::mul_add_reduce(a, kQuantusP2.diag[kFusedDiag], Acc96{b, kFusedAccHi});
    case kAcc: return L::acc_reduce(Acc96{a, uint32_t(b)});
    default: return L::reduce128(a, b);
  }
}

// Is got - want (mod p) one of the lossy engine's documented error terms (+EPS, +2^32, -EPS, or none)?
bool documented_deviation(uint64_t got, uint64_t want) {
  const uint64_t d = R::sub(got, want);
  return d == 0 || d == gl::EPS || d == (uint64_t(1) << 32) || d == gl::P - gl::EPS;
}

struct OperandSet {
  std::vector<uint64_t> a, b;
};
OperandSet operands(uint64_t seed, bool full) {
  OperandSet s;
  const auto c = corners();
  for (uint64_t x : c)
    for (uint64_t y : c) s.a.push_back(x), s.b.push_back(y);
  uint64_t r = seed;
  auto next = [&] {
    r += 0x9e3779b97f4a7c15ull;
    uint64_t z = r;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  };
  for (int k = 0; k < (full ? 20000 : 1000); ++k) s.a.push_back(next()), s.b.push_back(next());
  return s;
}

#if defined(BX_HAVE_CUDA)
kern::QpowFieldLayout field_layout_of(Variant v) {
  const auto& r = row(v);
  if (r.lossy) return std::string(r.backend) == "ptx" ? kern::QpowFieldLayout::lossy_ptx : kern::QpowFieldLayout::lossy_model;
  if (std::string(r.layout) == "gl64") return kern::QpowFieldLayout::gl64;
  return std::string(r.backend) == "ptx" ? kern::QpowFieldLayout::gl2x32_ptx : kern::QpowFieldLayout::gl2x32_portable;
}
kern::QpowFieldOp kern_op(int op) {
  static const kern::QpowFieldOp m[] = {kern::QpowFieldOp::add, kern::QpowFieldOp::sub, kern::QpowFieldOp::mul,
                                        kern::QpowFieldOp::sqr, kern::QpowFieldOp::neg, kern::QpowFieldOp::sbox,
                                        kern::QpowFieldOp::reduce128, kern::QpowFieldOp::canonical,
                                        kern::QpowFieldOp::fused, kern::QpowFieldOp::acc_reduce};
  return m[op];
}
#endif

// The lossy host model's answer (what a lossy device row must equal bit for bit).
uint64_t model_op(int op, uint64_t a, uint64_t b) { return host_op<gl::gl2x32_lossy<carry::portable>>(op, a, b); }

// Results of every op over the operand set on one implementation's place; a plugin's ops it does not
// provide stay empty (its checks then say "not provided").
std::vector<std::vector<uint64_t>> field_results(const Impl& im, const OperandSet& s) {
  std::vector<std::vector<uint64_t>> out(kOps);
  if (!im.builtin()) {  // the contract's inputs are canonical: the corners P, P + 1, ... go in as 0, 1, ...
    std::vector<uint64_t> a, b;
    for (size_t i = 0; i < s.a.size(); ++i) a.push_back(gl::canonical(s.a[i])), b.push_back(gl::canonical(s.b[i]));
    if (im.plugin_mul) out[kMul] = im.plugin_mul(a, b);
    if (im.plugin_add) out[kAdd] = im.plugin_add(a, b);
    return out;
  }
  for (int op = 0; op < kOps; ++op) {
    if (im.device < 0) {
      with_variant(im.variant, [&]<class Code>() {
        for (size_t i = 0; i < s.a.size(); ++i) out[op].push_back(host_op<typename Code::Layout>(op, s.a[i], s.b[i]));
        return 0;
      });
    }
#if defined(BX_HAVE_CUDA)
    else {
      out[op] = kern::qpow_field_eval(im.device, field_layout_of(im.variant), kern_op(op), s.a, s.b);
    }
#endif
  }
  return out;
}

// An op a check needs from this implementation: every op for bitexact's own variants; mul and add for a
// plugin (the contract has no slot for the others: they are not asked for, so not "not provided" either).
bool in_contract(const Impl& im, int op) { return im.builtin() || op == kMul || op == kAdd; }

std::vector<uint64_t> hash_words_of(const Impl& im, const std::vector<uint64_t>& lanes) {
  std::vector<uint64_t> out;
  if (im.device < 0) {
    for (uint64_t x : lanes) out.push_back(hash_word(x));
  }
#if defined(BX_HAVE_CUDA)
  else {
    out = kern::qpow_field_eval(im.device, field_layout_of(im.variant), kern::QpowFieldOp::hash_word, lanes, lanes);
  }
#endif
  return out;
}

struct CarryCase {
  Header h;
  Int nonce;
};
int op_index(const std::string& op) {
  for (int k = 0; k < kOps; ++k)
    if (op == op_name(k)) return k;
  throw InputError("qpow vectors: unknown field op '" + op + "'");
}
Int be_int(const uint8_t* p, size_t n) {
  Int v;
  for (size_t i = 0; i < n; ++i) v = (v << 8) | p[i];
  return v;
}

}  // namespace

SelftestReport selftest(const SelftestOptions& opt) {
  SelftestReport rep;
  rep.host_checks = {{"kernel constants == reference constants"}};
  {
    TallyCheck c{rep.host_checks[0]};
    const auto& K = R::constants();
    for (int r = 0; r < 4; ++r)
      for (int i = 0; i < 12; ++i) {
        c.check(kQuantusP2.initial[r][i] == K.initial[r][i], "RC_init[" + std::to_string(r) + "][" + std::to_string(i) + "]");
        c.check(kQuantusP2.terminal[r][i] == K.terminal[r][i], "RC_term[" + std::to_string(r) + "][" + std::to_string(i) + "]");
      }
    for (int r = 0; r < 22; ++r) c.check(kQuantusP2.internal[r] == K.internal[r], "RC_int[" + std::to_string(r) + "]");
    for (int i = 0; i < 12; ++i) c.check(kQuantusP2.diag[i] == K.diag[i], "diag[" + std::to_string(i) + "]");
  }

  const OperandSet ops = operands(opt.seed, opt.full);
  std::vector<std::vector<uint64_t>> want(kOps), model(kOps);
  for (int op = 0; op < kOps; ++op)
    for (size_t i = 0; i < ops.a.size(); ++i) {
      want[op].push_back(ref_op(op, ops.a[i], ops.b[i]));
      model[op].push_back(model_op(op, ops.a[i], ops.b[i]));
    }

  // Mining cases: fixed headers, nonces at every carry (2^32, 2^64, 2^128, 2^224, 2^256, 2^512 - 1 -> 0).
  Header h0{}, h1{}, h2{};
  for (int i = 0; i < 32; ++i) h1[i] = uint8_t(i), h2[i] = uint8_t(0xa5 ^ (opt.seed >> (i % 8)) ^ i);
  std::vector<CarryCase> cases;
  const Int one = 1;
  for (const Header& h : {h0, h1, h2})
    for (Int n : std::vector<Int>{Int(0), Int(1), Int(123), (one << 32) - 1, one << 32, (one << 64) - 1, one << 64, (one << 128) + 5,
                  (one << 224) - 1, (one << 256) - 1, one << 256, (one << 512) - 1, (Int(0xdeadbeefcafeull) << 300) | 0x1234567890abcdefull})
      cases.push_back({h, n});
  std::vector<Int> want_hash(cases.size());
  for (size_t i = 0; i < cases.size(); ++i) want_hash[i] = reference_hashes(cases[i].h, {cases[i].nonce})[0];

  // Search windows straddling each carry, target ~ 1/4 of all hashes (prestate, midstate and wrap splits).
  struct Window {
    Int lo;
    uint64_t n;
  };
  const std::vector<Window> windows = {{(one << 32) - 24, 48}, {(one << 64) - 24, 48}, {(one << 256) - 24, 48}, {(one << 512) - 24, 48}};
  const Int target = (one << 510) + (one << 400);
  std::vector<std::vector<uint64_t>> window_want;
  for (const auto& w : windows) window_want.push_back(reference_hits(h1, w.lo, w.n, target));
  const auto window_request = [&](size_t k) { return search_request(h1, windows[k].lo, windows[k].n, target); };

  // Tie targets around one hash: top word equal with every pattern of the next words.
  const Int tie_nonce = 705;
  const Int tie_hash = reference_hashes(h0, {tie_nonce})[0];
  const Hash8 H = to_words(tie_hash);
  std::vector<std::pair<Int, bool>> ties;  // target, valid
  ties.push_back({tie_hash, false});       // hash = target: invalid (strict)
  ties.push_back({tie_hash + 1, true});
  ties.push_back({tie_hash - 1, false});
  for (int k = 1; k < 8; ++k) {
    Hash8 t = H;
    for (int j = k + 1; j < 8; ++j) t[j] = 0;
    if (t[k] != ~0ull) {  // words k.. above the hash's: valid
      Hash8 u = t;
      u[k] += 1;
      ties.push_back({from_words(u), true});
    }
    if (t[k] != 0) {
      Hash8 u = t;
      u[k] -= 1;
      for (int j = k + 1; j < 8; ++j) u[j] = ~0ull;
      ties.push_back({from_words(u), false});
    }
  }
  ties.push_back({from_words({H[0], 0, 0, 0, 0, 0, 0, 0}), false});                              // (H64 << 448): invalid tie
  ties.push_back({from_words({H[0], ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull}), true});  // + 2^448 - 1: valid tie

  // Forced lazy lanes: hash_word(c + p) must equal hash_word(c) = bswap64(c).
  std::vector<uint64_t> lazy, lazy_want;
  for (uint64_t c : std::vector<uint64_t>{0, 1, 5, 0x12345678, gl::EPS - 1}) {
    lazy.push_back(c + gl::P), lazy_want.push_back(__builtin_bswap64(c));
    lazy.push_back(c), lazy_want.push_back(__builtin_bswap64(c));
  }

  // The embedded vector files: field cases as one operand set, mining and validity cases, permutations.
  const auto& fcases = embedded_field_cases();
  OperandSet vops;
  for (const auto& c : fcases) vops.a.push_back(c.a), vops.b.push_back(c.b);
  const auto& mcases = embedded_mining_cases();
  const auto& vcases = embedded_validity_cases();
  std::vector<const PermCase*> pcases;
  for (const auto& c : embedded_perm_cases())
    if (c.layer == "permute") pcases.push_back(&c);
  {  // the byte sponge on both host layouts, once
    rep.host_checks.push_back({"vectors: byte hashes (gl64, gl2x32 sponge)"});
    TallyCheck c{rep.host_checks.back()};
    for (const auto& b : embedded_byte_hash_cases()) {
      uint8_t x[64], y[64];
      Sponge<gl::gl64>::hash_squeeze_twice(b.data.data(), uint32_t(b.data.size()), x, kQuantusP2);
      Sponge<gl::gl2x32<carry::portable>>::hash_squeeze_twice(b.data.data(), uint32_t(b.data.size()), y, kQuantusP2);
      c.check(std::equal(x, x + 64, b.squeeze_twice.begin()) && std::equal(y, y + 64, b.squeeze_twice.begin()),
              "hash_bytes tcId " + std::to_string(b.id) + "\n" + hexdump_diff(b.squeeze_twice.data(), x, 64));
    }
  }

  {  // the felt sponge (hash_twice, rehash_to_bytes) on both host layouts, once; a rejected
     // rehash_to_bytes input (a limb >= p) is the caller's check, the reference's in `vectors check`
    rep.host_checks.push_back({"vectors: felt sponge (gl64, gl2x32 sponge)"});
    TallyCheck c{rep.host_checks.back()};
    for (const auto& f : embedded_felt_sponge_cases()) {
      if (!f.valid) continue;
      const auto x = layout_felt_sponge<gl::gl64>(f), y = layout_felt_sponge<gl::gl2x32<carry::portable>>(f);
      c.check(x == f.out && y == f.out, "felt_sponge tcId " + std::to_string(f.id) + " (" + f.op + ")\n" +
                                            hexdump_diff(f.out.data(), x == f.out ? y.data() : x.data(), 32));
    }
  }
  {  // the linear layers' known answers and generated states on both host layouts, once
    rep.host_checks.push_back({"vectors: layers M4, M_E, M_I (gl64, gl2x32)"});
    TallyCheck c{rep.host_checks.back()};
    for (const auto& pc : embedded_perm_cases()) {
      if (pc.layer == "permute") continue;
      const auto x = layout_layer<gl::gl64>(pc.layer, pc.in), y = layout_layer<gl::gl2x32<carry::portable>>(pc.layer, pc.in);
      c.check(x == pc.out && y == pc.out, "permutation tcId " + std::to_string(pc.id) + " (" + pc.layer + "): gl64 " +
                                              (x == pc.out ? "equal" : "differs") + ", gl2x32 " + (y == pc.out ? "equal" : "differs"));
    }
  }

  std::vector<Variant> vs;
  for (int k = 0; k < kVariantCount; ++k)
    if (opt.wants(variant_label(Variant(k)))) vs.push_back(Variant(k));
#if defined(BX_HAVE_CUDA)
  if (!opt.devices.gpus.empty()) {
    std::string missing;
    for (Variant v : vs)
      if (!kern::qpow_on_gpu(v)) missing += " " + variant_label(v);
    if (!missing.empty()) rep.notes.push_back("GPU kernels NOT in this build (configure with -DBX_QPOW_KERNELS=all):" + missing);
  }
#else
  if (!opt.devices.gpus.empty()) rep.notes.push_back("this build has no CUDA kernels: qpow GPU variants NOT run");
#endif
  // One search form against the tie targets on nonce 705: valid exactly where the reference says so.
  const auto tie_checks = [&](const std::function<std::vector<uint64_t>(const SearchRequest&, double*)>& search, const std::string& who,
                              TallyCheck& c) {
    for (const auto& [t, valid] : ties) {
      const auto got_hits = search(search_request(h0, tie_nonce, 1, t), nullptr);
      c.check(got_hits.size() == (valid ? 1u : 0u), who + " nonce 705 vs target " + words_hex(to_words(t)) + ": " +
                                                        (got_hits.empty() ? "rejected" : "accepted") + ", reference " +
                                                        (valid ? "valid" : "invalid"));
    }
  };
  std::vector<Impl> all = impls(vs, opt.devices);
  for (Impl& im : plugin_impls(opt.devices))
    if (opt.wants(im.name)) all.push_back(std::move(im));
  for (const Impl& im : all) {
    SelftestRow rowr{im.name, im.where, {}};
    rowr.checks.reserve(12);  // TallyCheck keeps a reference into checks: no reallocation while a row is filled
    const bool lossy = im.lossy;
    // What a check needs and a plugin does not provide: counted as such, never as a pass.
    const auto lacks = [&](const char* what) { rowr.checks.back().lacks(what); };
    const auto got = field_results(im, ops);
    if (!lossy) {
      rowr.checks.push_back({"field ops vs reference (§8 corners, lazy, random)"});
      TallyCheck c{rowr.checks.back()};
      for (int op = 0; op < kOps; ++op)
        if (got[op].empty()) {
          if (in_contract(im, op)) lacks(op_name(op));
        } else for (size_t i = 0; i < ops.a.size(); ++i)
          c.check(gl::canonical(got[op][i]) == want[op][i], im.label() + " " + op_name(op) + "(" + hex64(ops.a[i]) + ", " +
                                                               hex64(ops.b[i]) + ") = " + hex64(got[op][i]) + ", reference " + hex64(want[op][i]));
    } else {
      // On a GPU the device arithmetic must equal the host model bit for bit (on the CPU the row is the
      // model itself); everywhere its deviations from exact arithmetic must be documented terms.
      const bool on_gpu = im.device >= 0;
      if (on_gpu) rowr.checks.push_back({"lossy ops == host model (raw)"});
      Tally unused;
      TallyCheck c{on_gpu ? rowr.checks.back() : unused};
      rowr.checks.push_back({"deviations are documented terms"});
      TallyCheck d{rowr.checks.back()};
      for (int op = 0; op < kOps; ++op)
        for (size_t i = 0; i < ops.a.size(); ++i) {
          if (on_gpu)
            c.check(got[op][i] == model[op][i], im.label() + " " + op_name(op) + "(" + hex64(ops.a[i]) + ", " + hex64(ops.b[i]) +
                                                    ") = " + hex64(got[op][i]) + ", model " + hex64(model[op][i]));
          if (op == kAdd || op == kMul || op == kSqr || op == kReduce)
            d.check(documented_deviation(got[op][i], want[op][i]),
                    im.label() + " " + op_name(op) + "(" + hex64(ops.a[i]) + ", " + hex64(ops.b[i]) + ") deviates by an undocumented term");
        }
    }
    if (im.builtin()) {  // an internal path of bitexact's own code (not part of the plugin contract)
      rowr.checks.push_back({"output path (lazy lanes)"});
      TallyCheck c{rowr.checks.back()};
      const auto w = hash_words_of(im, lazy);
      for (size_t i = 0; i < lazy.size(); ++i)
        c.check(w[i] == lazy_want[i], im.label() + " hash_word(" + hex64(lazy[i]) + ") = " + hex64(w[i]) + ", want " + hex64(lazy_want[i]));
    }
    if (!lossy || im.device >= 0) {
      // Exact rows: the reference's hash. Lossy rows on a GPU: the host model's hash, bit for bit (the CPU
      // model row has nothing independent to equal here; its deviations are checked op by op above).
      rowr.checks.push_back({lossy ? "mining hashes == host model" : "mining hashes at carries"});
      TallyCheck c{rowr.checks.back()};
      if (!im.hashes) lacks("hash");
      for (size_t i = 0; i < (im.hashes ? cases.size() : 0); ++i) {
        const U512 n = to_u512(cases[i].nonce);
        const Hash8 g = im.hashes(cases[i].h, {n})[0];
        Int w = want_hash[i];
        if (lossy) {
          Hash8 m;
          const uint64_t zero[8] = {};
          using Model = Miner<gl::gl2x32_lossy<carry::portable>, kLadder>;
          const MinerJob job = JobMaker<Model>::make(cases[i].h.data(), zero, n, kLadder);
          Model::hash(job, n, m.data(), kQuantusP2);
          w = from_words(m);
        }
        c.check(from_words(g) == w, im.label() + " hash(header " + to_hex(cases[i].h.data(), 32) + ", nonce " + u512_hex(cases[i].nonce) +
                                        ")\n  got  " + words_hex(g) + "\n  want " + u512_hex(w));
      }
    }
    if (!lossy) {
      rowr.checks.push_back({"vectors: field, permutation, mining, validity"});
      TallyCheck c{rowr.checks.back()};
      const auto vgot = field_results(im, vops);
      for (size_t i = 0; i < fcases.size(); ++i) {
        const int op = op_index(fcases[i].op);
        if (vgot[op].empty()) {
          if (in_contract(im, op)) lacks(op_name(op));
          continue;
        }
        c.check(gl::canonical(vgot[op][i]) == fcases[i].result, im.label() + " field tcId " + std::to_string(fcases[i].id) + " " +
                                                                  fcases[i].op + "(" + hex64(fcases[i].a) + ", " + hex64(fcases[i].b) +
                                                                  ") = " + hex64(vgot[op][i]) + ", want " + hex64(fcases[i].result));
      }
      std::vector<uint64_t> pin;
      for (const PermCase* pc : pcases) pin.insert(pin.end(), pc->in.begin(), pc->in.end());
      std::vector<uint64_t> pout = pin;
      if (!im.builtin()) {
        if (im.plugin_permute) pout = im.plugin_permute(pin);
        else lacks("permute");
      } else if (im.device < 0) {
        with_variant(im.variant, [&]<class Code>() {
          for (size_t k = 0; k < pcases.size(); ++k) Permutation<typename Code::Layout, false>::permute(pout.data() + 12 * k, kQuantusP2);
          return 0;
        });
      }
#if defined(BX_HAVE_CUDA)
      else {
        pout = kern::qpow_permute(im.device, field_layout_of(im.variant), false, pin);
      }
#endif
      for (size_t k = 0; k < (im.builtin() || im.plugin_permute ? pcases.size() : 0); ++k) {
        bool ok = true;
        for (int i = 0; i < 12; ++i) ok &= gl::canonical(pout[12 * k + i]) == pcases[k]->out[size_t(i)];
        c.check(ok, im.label() + " permutation tcId " + std::to_string(pcases[k]->id));
      }
      for (const auto& m : im.hashes ? mcases : std::remove_cvref_t<decltype(mcases)>{}) {
        const Int n = be_int(m.nonce_be.data(), 64);
        const Hash8 g = im.hashes(m.header, {to_u512(n)})[0];
        c.check(from_words(g) == be_int(m.hash.data(), 64), im.label() + " mining tcId " + std::to_string(m.id) + "\n  got  " +
                                                                words_hex(g) + "\n  want " + to_hex(m.hash.data(), 64));
      }
      if (!im.hashes) lacks("hash");
      if (!im.search) lacks("search");
      for (const auto& v : im.search ? vcases : std::remove_cvref_t<decltype(vcases)>{}) {
        const SearchRequest rq = search_request(v.header, be_int(v.nonce_be.data(), 64), 1, be_int(v.target.data(), 64));
        const bool got = !im.search(rq, nullptr).empty();  // a search never reports nonce 0: chain_accepts
        c.check(got == v.chain_accepts, im.label() + " validity tcId " + std::to_string(v.id) + ": " +
                                            (got ? "accepted" : "rejected") + ", want " + (v.chain_accepts ? "accepted" : "rejected"));
      }
    }
    if (!lossy && !im.search) {
      for (const char* name : {"search windows at carries", "ties on the top 64 bits, strict <"}) {
        rowr.checks.push_back({name});
        lacks("search");
      }
    }
    if (!lossy && im.search) {
      rowr.checks.push_back({"search windows at carries"});
      TallyCheck c{rowr.checks.back()};
      static const char* const carry[] = {"Carry2^32", "Carry2^64,Prestate", "Carry2^256,Midstate", "Wrap2^512,NonceZero"};
      const auto offsets = [](const std::vector<uint64_t>& v) {
        std::string s;
        for (uint64_t x : v) s += (s.empty() ? "" : " ") + std::to_string(x);
        return "{" + s + "}";
      };
      for (size_t k = 0; k < windows.size(); ++k) {
        const auto got_hits = im.search(window_request(k), nullptr);
        c.check(got_hits == window_want[k],
                im.label() + " search [" + u512_hex(windows[k].lo) + " + 0.." + std::to_string(windows[k].n) + "): " +
                    std::to_string(got_hits.size()) + " hits, reference " + std::to_string(window_want[k].size()) + " [SearchWindow," +
                    carry[k] + "]\n  got offsets  " + offsets(got_hits) + "\n  want offsets " + offsets(window_want[k]) +
                    "\n  reproduce: bitexact selftest --family qpow " + im.options());
      }
      rowr.checks.push_back({"ties on the top 64 bits, strict <"});
      TallyCheck d{rowr.checks.back()};
      tie_checks(im.search, im.label(), d);
      if (im.search_capped) {
        // The window across 2^32 (one batch, 12 hits) with a one-entry hit buffer: the batch overflows, is
        // counted and re-run; the hits must still be the reference's, each once.
        rowr.checks.push_back({"hit buffer overflow re-run"});
        TallyCheck c{rowr.checks.back()};
        unsigned reruns = 0;
        const auto got_hits = im.search_capped(window_request(0), 1, &reruns);
        c.check(got_hits == window_want[0] && reruns > 0,
                im.label() + " search [" + u512_hex(windows[0].lo) + " + 0.." + std::to_string(windows[0].n) + ") with a 1-entry hit buffer: " +
                    std::to_string(got_hits.size()) + " hits after " + std::to_string(reruns) + " re-run(s), reference " +
                    std::to_string(window_want[0].size()) + " (want equal hits and >= 1 re-run)");
      }
    }
    if (im.plugin_search_job) {
      // The job-level search beside the plugin's own: the same windows and ties, each request carrying
      // bitexact's midstate and prestate.
      rowr.checks.push_back({"job-level search (windows, ties)"});
      TallyCheck c{rowr.checks.back()};
      for (size_t k = 0; k < windows.size(); ++k) {
        const auto got_hits = im.plugin_search_job(window_request(k), nullptr);
        c.check(got_hits == window_want[k], im.label() + " search_job [" + u512_hex(windows[k].lo) + " + 0.." + std::to_string(windows[k].n) +
                                                "): " + std::to_string(got_hits.size()) + " hits, reference " +
                                                std::to_string(window_want[k].size()) + " [SearchWindow,JobLevel]");
      }
      tie_checks(im.plugin_search_job, im.label() + " search_job", c);
    }
    if (!im.builtin()) {
      // The plugin's own precomputation against the reference's, lane by lane, at every window's first nonce
      // (bits 511..64 next to each carry) and at nonces with every high word set, for three headers.
      rowr.checks.push_back({"prepare (midstate, prestate)"});
      if (!im.plugin_prepare) lacks("prepare");
      TallyCheck c{rowr.checks.back()};
      std::vector<Int> nonces;
      for (const auto& w : windows) nonces.push_back(w.lo), nonces.push_back((w.lo + w.n) % (Int(1) << 512));
      nonces.push_back((Int(1) << 512) - 1);
      nonces.push_back(Int(705));
      for (const Header& h : {h0, h1, h2})
        for (const Int& n : im.plugin_prepare ? nonces : std::vector<Int>{}) {
          const bx_qpow_job got = im.plugin_prepare(h, n);
          const bx_qpow_job want = suite::qpow::reference_job(h, n, 0);
          std::string diff;
          for (int i = 0; i < 12 && diff.empty(); ++i)
            if (got.midstate[i] != want.midstate[i]) diff = "midstate lane " + std::to_string(i) + " = " + hex64(got.midstate[i]) + ", reference " + hex64(want.midstate[i]);
          for (int i = 0; i < 12 && diff.empty(); ++i)
            if (got.prestate[i] != want.prestate[i]) diff = "prestate lane " + std::to_string(i) + " = " + hex64(got.prestate[i]) + ", reference " + hex64(want.prestate[i]);
          c.check(diff.empty(), im.label() + " prepare of header " + to_hex(h.data(), 32) + ", nonce " + u512_hex(n) + ": " + diff +
                                    "\n  reproduce: bitexact selftest --family qpow " + im.options());
        }
    }
    if (im.search_unsplit) {
      // Outside the declared precondition: the window across 2^64 in one request. Reported, never failed.
      const auto got_hits = im.search_unsplit(window_request(1));
      rep.notes.push_back(im.label() + ": search across the 2^64 carry in one request (outside its declared precondition): " +
                          (got_hits == window_want[1] ? "equal to the reference"
                                                      : std::to_string(got_hits.size()) + " hits, reference " + std::to_string(window_want[1].size())) +
                          " (not a failure)");
    }
    if (!lossy && im.builtin() && (row(im.variant).shortcuts & kDeferBorrow)) {
      // Crafted prestates whose π3 takes the deferred borrow: the hash (full 512 bits) and the search
      // kernel's verdicts on targets hash + 1 (valid) and hash (invalid) must be the exact path's.
      rowr.checks.push_back({"deferred borrow: crafted prestates recomputed exactly"});
      TallyCheck c{rowr.checks.back()};
      const DeferredBorrowResult r = deferred_borrow_check(im, h2);
      for (const std::string& m : r.mismatches) c.check(false, m);
      for (size_t k = r.mismatches.size(); k < r.checks; ++k) c.check(true, "");
    }
    rep.rows.push_back(rowr);
  }
  return rep;
}

}  // namespace bx::qpow
