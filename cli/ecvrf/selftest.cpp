// ecvrf selftest: every layout x scalar strategy (the per-item pipeline of gpu/ecvrf, run on the CPU)
// against the golden model (reference/ecvrf): RFC 9381 Examples 16-18 end to end with x and x mod L
// (ctr, H, Gamma, 8 Gamma, beta), the spec 9 worked nonces and random nonces of the search job, the
// spec 2.3 decoder table and random strings through the strict decoder, encoding of coordinates held
// non-canonically (the parity class), batch inversion with zeros, and the strategy on the spec 3
// extremal scalars. Once on the host: SHA-512 of every length 0..300 with both schedules against OpenSSL.
// Every comparison is of canonical bytes (encodings, beta); a mismatch prints both in hex.
#include <array>
#include <string>
#include <vector>

#include "cli/ecvrf/ecvrf.hpp"
#include "cli/hex.hpp"
#include "gpu/ecvrf/batch_invert.hpp"
#include "gpu/ecvrf/tai.hpp"
#include "gpu/field25519/layouts.hpp"
#include "reference/ecvrf/vrf.hpp"

namespace bx::ecvrf_family {
namespace {

namespace G = ref::ecvrf;
using Int = ref::Int;
using Bytes64 = G::Bytes64;

Bytes32 bytes_of(const Int& v) {
  const auto b = ref::to_le_bytes(v, 32);
  Bytes32 out;
  std::copy(b.begin(), b.end(), out.begin());
  return out;
}

struct Example {
  const char* name;
  Bytes32 sk;
  std::vector<uint8_t> alpha;
};
std::vector<Example> rfc9381_examples() {
  return {{"Ex16", bytes32_from_hex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60", "sk"), {}},
          {"Ex17", bytes32_from_hex("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb", "sk"), {0x72}},
          {"Ex18", bytes32_from_hex("c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7", "sk"), {0xaf, 0x82}}};
}

// What the golden model says, computed once and shared by every row.
struct Golden {
  struct Run {
    std::string what;
    Bytes32 pk, scalar;
    std::vector<uint8_t> alpha;
    int ctr;
    Bytes32 h, gamma, gamma8;
    Bytes64 beta;
  };
  std::vector<Run> runs;  // RFC examples with x and x mod L, then job nonces (alpha = header || LE64)
  size_t rfc_runs = 0;
  struct Dec {
    Bytes32 s;
    std::string want;  // canonical re-encoding in hex, or the rejection reason
  };
  std::vector<Dec> decodes;
  struct Enc {
    Bytes32 x_bytes, y_bytes;  // X held as x + p (non-canonical), Y canonical, Z = 1
    Bytes32 want;
  };
  std::vector<Enc> encodes;
  std::vector<std::vector<Bytes32>> inversions;  // input sets; expected = single inversions
  Bytes32 h_point;                               // Ex16's H, the base of the scalar checks
  std::vector<std::pair<Bytes32, Bytes32>> scalar_mults;  // scalar, encode(scalar * H)
};

std::string decode_answer(const G::Decoded& d) {
  if (const auto* p = std::get_if<G::Point>(&d)) return to_hex(G::encode(*p));
  return std::string(G::name(std::get<G::DecodeError>(d)));
}

Golden make_golden(bool full, uint64_t seed) {
  Golden g;
  const auto add_run = [&](const std::string& what, const G::VrfKey& key, const Int& scalar, const std::vector<uint8_t>& alpha) {
    const G::VrfTrace t = G::vrf_trace(key, alpha);
    Golden::Run r{what, key.pk, bytes_of(scalar), alpha, t.tai.ctr ? int(*t.tai.ctr) : -1, {}, {}, {}, {}};
    if (t.tai.ctr) {
      r.h = G::encode(*t.tai.h), r.gamma = G::encode(*t.gamma), r.gamma8 = G::encode(*t.gamma8), r.beta = *t.beta;
    }
    g.runs.push_back(r);
  };
  for (const Example& e : rfc9381_examples()) {
    const G::VrfKey key = G::vrf_key(e.sk);
    add_run(std::string(e.name) + " x", key, key.x, e.alpha);
    add_run(std::string(e.name) + " x mod L", key, key.x_mod_l, e.alpha);
  }
  g.rfc_runs = g.runs.size();
  const G::VrfKey key16 = G::vrf_key(rfc9381_examples()[0].sk);
  const Bytes32 header{};
  std::vector<uint64_t> nonces = {0, 1, 0xffffffffull, 0x100000000ull, ~0ull};
  uint64_t z = seed;
  for (int i = 0; i < (full ? 64 : 4); ++i) {
    z += 0x9e3779b97f4a7c15ull;
    uint64_t v = z;
    v = (v ^ (v >> 30)) * 0xbf58476d1ce4e5b9ull;
    v = (v ^ (v >> 27)) * 0x94d049bb133111ebull;
    nonces.push_back(v ^ (v >> 31));
  }
  for (uint64_t n : nonces) {
    const auto alpha = G::job_alpha(header, n);
    add_run("job nonce " + std::to_string(n), key16, key16.x_mod_l, std::vector<uint8_t>(alpha.begin(), alpha.end()));
  }

  // Decoder table (spec 2.3): y = p + j for j = 0..18 with both signs, x = 0 with the sign set (y = +-1),
  // the torsion encodings, the spec 4.2 candidates, and seeded random strings.
  const Int p = ref::f25519::p();
  for (int j = 0; j < 19; ++j)
    for (int sign = 0; sign < 2; ++sign) {
      Bytes32 s = bytes_of(p + j);
      s[31] |= uint8_t(sign << 7);
      g.decodes.push_back({s, ""});
    }
  for (const char* hx : {"0100000000000000000000000000000000000000000000000000000000000080",
                         "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
                         "d924e111020a9ff4887bc9e56e9e5b80c2ceb93f861a2f56d8ee2c52fd255466",
                         "bde5e949af7cf4bc066450de29d9933d49ea8fa0ccb6b4eb51c7bd40f13d9b53",
                         "234d1b2b5084b2c5b322325d652fa081f277814e6c0b7201a1d1682b4b5f45f1",
                         "69dbad2aaff2ab565593ed5579ce0dab6797f6096c9a955cc413166d63d718f8"})
    g.decodes.push_back({bytes32_from_hex(hx, "decode case"), ""});
  for (const G::Point& t : G::torsion_points()) g.decodes.push_back({G::encode(t), ""});
  for (int i = 0; i < (full ? 512 : 48); ++i) {
    Bytes32 s;
    for (auto& b : s) {
      z = z * 6364136223846793005ull + 1442695040888963407ull;
      b = uint8_t(z >> 56);
    }
    g.decodes.push_back({s, ""});
  }
  for (auto& d : g.decodes) d.want = decode_answer(G::decode(d.s));

  // Encoding with X held as x + p (x = 0..18: the values p..2^255-1 fit the 255 bits from_bytes reads).
  for (int x = 0; x < 19; ++x) {
    const Int y = Int(1000003) * (x + 7);
    g.encodes.push_back({bytes_of(p + x), bytes_of(y), G::encode(G::Point{Int(x), y})});
  }

  // Batch inversion inputs (k = 1, 2, 4, 8): zeros first / middle / last, repeats, 1 and p - 1, p itself
  // (a non-canonical zero).
  const Bytes32 zero{}, one = bytes_of(1), pm1 = bytes_of(p - 1), praw = bytes_of(p), a = bytes_of(Int(123456789)),
                b = bytes_of(p - 987654321);
  g.inversions = {{a}, {zero}, {a, b}, {zero, a}, {a, zero}, {a, a, b, b}, {zero, a, b, one}, {a, b, zero, pm1},
                  {a, b, one, zero}, {praw, a, pm1, one}, {a, b, a, b, one, pm1, a, b}, {zero, a, b, zero, one, pm1, zero, a}};

  // The strategy on the extremal scalars (spec 3 and 6.1), all below 2^255 (every strategy's range), times H.
  const G::Point h16 = *G::vrf_trace(key16, {}).tai.h;
  g.h_point = G::encode(h16);
  const Int L = G::L(), t255 = Int(1) << 255;
  std::vector<Int> ks = {0, 1, 2, 7, 8, L - 1, L, L + 1, Int(1) << 252, (Int(1) << 253) - 1, Int(1) << 254, t255 - 8,
                         t255 - 1, t255 - 19};
  Int fives = 0;
  for (int i = 0; i < 32; ++i) fives = (fives << 8) | 0x55;
  ks.push_back(fives);
  for (const Example& e : rfc9381_examples()) {
    const G::VrfKey k = G::vrf_key(e.sk);
    ks.push_back(k.x);
    ks.push_back(k.x_mod_l);
  }
  for (const Int& k : ks) g.scalar_mults.push_back({bytes_of(k), G::encode(G::mul(k, h16))});
  return g;
}

void expect_bytes(TallyCheck& c, const uint8_t* want, const uint8_t* got, size_t n, const std::string& what) {
  const bool ok = std::equal(want, want + n, got);
  c.check(ok, ok ? what : what + "\n" + hexdump_diff(want, got, n));
}

template <class F, class S>
void run_rows_of(const Golden& g, const std::string& label, SelftestRow& row) {
  using fe = typename F::fe;
  TallyCheck rfc{row.checks[0]}, job{row.checks[1]}, dec{row.checks[2]}, enc{row.checks[3]}, inv{row.checks[4]},
      mul{row.checks[5]};
  // Any exception (a recoding that does not reconstruct its scalar throws) is a failed check, never a crash.
  const auto guarded = [&](TallyCheck& c, const std::string& what, auto&& body) {
    try {
      body();
    } catch (const std::exception& e) {
      c.check(false, "FAIL " + label + " " + what + ": " + e.what());
    }
  };
  for (size_t i = 0; i < g.runs.size(); ++i) {
    const Golden::Run& r = g.runs[i];
    TallyCheck& c = i < g.rfc_runs ? rfc : job;
    guarded(c, r.what, [&] {
      const typename S::digits x = S::recode(r.scalar);
      uint8_t beta[64];
      ecvrf::EcvrfTrace t{};
      const bool has = ecvrf::ecvrf_beta_alpha<F, S>(beta, r.pk.data(), r.alpha.data(), int(r.alpha.size()), x, &t);
      c.check(has == (r.ctr >= 0) && t.ctr == r.ctr,
              "FAIL " + label + " " + r.what + ": ctr " + std::to_string(t.ctr) + ", want " + std::to_string(r.ctr));
      if (!has || r.ctr < 0) return;
      const std::string at = "FAIL " + label + " " + r.what + ": ";
      expect_bytes(c, r.h.data(), t.h, 32, at + "H");
      expect_bytes(c, r.gamma.data(), t.gamma, 32, at + "Gamma");
      expect_bytes(c, r.gamma8.data(), t.gamma8, 32, at + "8 Gamma");
      expect_bytes(c, r.beta.data(), beta, 64, at + "beta");
    });
  }
  for (const auto& d : g.decodes) {
    ecvrf::ge_ext<F> P;
    const ecvrf::DecodeStatus st = ecvrf::ge_decode<F>(P, d.s.data());
    std::string got = ecvrf::decode_status_name(st);
    if (st == ecvrf::DecodeStatus::valid) {
      uint8_t e[32];
      ecvrf::ge_encode<F>(e, P);
      got = to_hex(e, 32);
    }
    dec.check(got == d.want, "FAIL " + label + " decode " + to_hex(d.s) + ": got " + got + ", want " + d.want);
  }
  for (const auto& e : g.encodes) {
    ecvrf::ge_ext<F> P;
    F::from_bytes(P.X, e.x_bytes.data());
    F::from_bytes(P.Y, e.y_bytes.data());
    f25519::fe_set_small<F>(P.Z, 1);
    F::mul(P.T, P.X, P.Y);
    uint8_t out[32];
    ecvrf::ge_encode<F>(out, P);
    expect_bytes(enc, e.want.data(), out, 32, "FAIL " + label + " encode with X = " + to_hex(e.x_bytes) + " (x + p)");
  }
  for (const auto& set : g.inversions) {
    fe in[8], out[8];
    for (size_t j = 0; j < set.size(); ++j) F::from_bytes(in[j], set[j].data());
    switch (set.size()) {
      case 1: ecvrf::fe_batch_invert<F, 1>(out, in); break;
      case 2: ecvrf::fe_batch_invert<F, 2>(out, in); break;
      case 4: ecvrf::fe_batch_invert<F, 4>(out, in); break;
      default: ecvrf::fe_batch_invert<F, 8>(out, in); break;
    }
    for (size_t j = 0; j < set.size(); ++j) {
      uint8_t got[32];
      F::to_bytes(got, out[j]);
      const Bytes32 want = bytes_of(ref::f25519::invert(ref::f25519::raw_value(set[j])));
      expect_bytes(inv, want.data(), got, 32,
                   "FAIL " + label + " batch inversion of " + std::to_string(set.size()) + ", item " + std::to_string(j));
    }
  }
  ecvrf::ge_ext<F> H;
  ecvrf::ge_decode<F>(H, g.h_point.data());
  for (const auto& [k, want] : g.scalar_mults)
    guarded(mul, "scalar " + to_hex(k), [&] {
      ecvrf::ge_ext<F> R;
      S::template mul<F>(R, H, S::recode(k));
      uint8_t got[32];
      ecvrf::ge_encode<F>(got, R);
      expect_bytes(mul, want.data(), got, 32, "FAIL " + label + " " + S::name + " scalar " + to_hex(k) + " times H");
    });
}

template <class F, class S>
int attempt_of(uint8_t beta[64], const uint8_t pk[32], const uint8_t* alpha, int alpha_len, const Bytes32& scalar) {
  ecvrf::EcvrfTrace t{};
  ecvrf::ecvrf_beta_alpha<F, S>(beta, pk, alpha, alpha_len, S::recode(scalar), &t);
  return t.ctr;
}

}  // namespace

std::vector<HostAttempt> host_attempts() {
  std::vector<HostAttempt> v;
  for_each_host_variant([&]<class F, class S>() { v.push_back({host_variant_name<F, S>(), &attempt_of<F, S>}); });
  return v;
}

SelftestReport selftest(const SelftestOptions& opt) {
  SelftestReport rep;
  if (!opt.devices.cpu) {
    rep.notes.push_back("ecvrf: CPU rows only in this build (the GPU kernels are not written yet)");
    return rep;
  }
  const Golden g = make_golden(opt.full, opt.seed);
  rep.notes.push_back("RFC 9381 Examples 16-18 (x and x mod L), " + std::to_string(g.runs.size() - g.rfc_runs) +
                      " job nonces, " + std::to_string(g.decodes.size()) + " decodes, " + std::to_string(g.encodes.size()) +
                      " non-canonical encodings, " + std::to_string(g.inversions.size()) + " batch inversions, " +
                      std::to_string(g.scalar_mults.size()) + " extremal scalars (seed " + std::to_string(opt.seed) + ")");
  // SHA-512 device code (both schedules) against OpenSSL, lengths 0..300 (111, 112, 239, 240 among them).
  Tally sha{"sha512 lengths 0..300 (rolling and 80-word schedules)"};
  TallyCheck sc{sha};
  std::vector<uint8_t> msg(300);
  for (size_t i = 0; i < msg.size(); ++i) msg[i] = uint8_t(i * 131 + 7);
  for (uint32_t len = 0; len <= 300; ++len) {
    const Bytes64 want = G::sha512(std::span<const uint8_t>(msg.data(), len));
    uint8_t a[64], b[64];
    ecvrf::sha512<true>(a, msg.data(), len);
    ecvrf::sha512<false>(b, msg.data(), len);
    expect_bytes(sc, want.data(), a, 64, "FAIL sha512 (rolling schedule) length " + std::to_string(len));
    expect_bytes(sc, want.data(), b, 64, "FAIL sha512 (80-word schedule) length " + std::to_string(len));
  }
  rep.host_checks.push_back(sha);
  for_each_host_variant([&]<class F, class S>() {
    const std::string v = host_variant_name<F, S>();
    if (!opt.wants(v)) return;
    SelftestRow row{v, "cpu", {{"rfc9381"}, {"job"}, {"decode"}, {"encode"}, {"batch-inv"}, {"scalars"}}};
    run_rows_of<F, S>(g, v + "@cpu", row);
    rep.rows.push_back(std::move(row));
  });
  return rep;
}

}  // namespace bx::ecvrf_family
