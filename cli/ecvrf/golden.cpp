// The selftest's known answers from the golden model (see golden.hpp).
#include "cli/ecvrf/golden.hpp"
#include "suite/ecvrf/decode_edges.hpp"

#include <algorithm>
#include <variant>
#include <thread>

namespace bx::ecvrf_family {

using Int = ref::Int;

std::vector<Example> rfc9381_examples() {
  return {{"Ex16", bytes32_from_hex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60", "sk"), {}},
          {"Ex17", bytes32_from_hex("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb", "sk"), {0x72}},
          {"Ex18", bytes32_from_hex("c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7", "sk"), {0xaf, 0x82}}};
}

namespace {
std::string decode_answer(const G::Decoded& d) {
  if (const auto* p = std::get_if<G::Point>(&d)) return to_hex(G::encode(*p));
  return std::string(G::name(std::get<G::DecodeError>(d)));
}

}  // namespace

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
  // the torsion encodings, encodings next to each rejection rule in every byte position (decode_edges.hpp),
  // the spec 4.2 candidates, and seeded random strings.
  const Int p = ref::f25519::p();
  for (int j = 0; j < 19; ++j)
    for (int sign = 0; sign < 2; ++sign) {
      Bytes32 s = bytes_of(p + j);
      s[31] |= uint8_t(sign << 7);
      g.decodes.push_back({s, "", false});
    }
  for (const char* hx : {"0100000000000000000000000000000000000000000000000000000000000080",
                         "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
                         "d924e111020a9ff4887bc9e56e9e5b80c2ceb93f861a2f56d8ee2c52fd255466",
                         "bde5e949af7cf4bc066450de29d9933d49ea8fa0ccb6b4eb51c7bd40f13d9b53",
                         "234d1b2b5084b2c5b322325d652fa081f277814e6c0b7201a1d1682b4b5f45f1",
                         "69dbad2aaff2ab565593ed5579ce0dab6797f6096c9a955cc413166d63d718f8"})
    g.decodes.push_back({bytes32_from_hex(hx, "decode case"), "", false});
  for (const G::Point& t : G::torsion_points()) g.decodes.push_back({G::encode(t), "", false});
  for (const EdgeEncoding& e : decode_edge_encodings()) g.decodes.push_back({e.s, "", false});
  for (int i = 0; i < (full ? 512 : 48); ++i) {
    Bytes32 s;
    for (auto& b : s) {
      z = z * 6364136223846793005ull + 1442695040888963407ull;
      b = uint8_t(z >> 56);
    }
    g.decodes.push_back({s, "", false});
  }
  for (auto& d : g.decodes) {
    const G::Decoded p = G::decode(d.s);
    d.want = decode_answer(p);
    d.tai_point = std::holds_alternative<G::Point>(p) && !G::is_small_order(std::get<G::Point>(p));
  }

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
  for (const Int& k : ks) {
    g.scalar_mults.push_back({bytes_of(k), G::encode(G::mul(k, h16))});
    g.folded_scalars.push_back({bytes_of(k), bytes_of((8 * k) % L)});
  }

  // Point additions, pairwise over the 8 torsion points, H, 2H, (L-1) H = -H, L H (the identity: TAI's H is
  // cofactor-cleared) and H plus a torsion point: P = Q (the doubling case), Q = -P, torsion sums.
  std::vector<G::Point> pts(G::torsion_points().begin(), G::torsion_points().end());
  for (const Int& k : {Int(1), Int(2), Int(L - 1), L}) pts.push_back(G::mul(k, h16));
  pts.push_back(G::add(h16, G::torsion_points()[1]));
  for (const G::Point& P : pts)
    for (const G::Point& Q : pts)
      g.adds.push_back({G::encode(P), G::encode(Q), G::encode(G::add(P, Q)), G::encode(G::add(P, G::neg(Q))),
                        G::encode(G::dbl(P))});
  return g;
}

void expect_bytes(TallyCheck& c, const uint8_t* want, const uint8_t* got, size_t n, const std::string& what) {
  const bool ok = std::equal(want, want + n, got);
  c.check(ok, ok ? what : what + "\n" + hexdump_diff(want, got, n));
}

std::vector<std::optional<Bytes64>> golden_job_betas(const G::VrfKey& key, const Bytes32& header,
                                                     const std::vector<uint64_t>& nonces) {
  std::vector<std::optional<Bytes64>> out(nonces.size());
  const size_t workers = std::max<size_t>(1, std::min<size_t>(std::thread::hardware_concurrency(), nonces.size()));
  std::vector<std::thread> pool;
  for (size_t w = 0; w < workers; ++w)
    pool.emplace_back([&, w] {
      for (size_t i = w; i < nonces.size(); i += workers) {
        const auto alpha = G::job_alpha(header, nonces[i]);
        out[i] = G::vrf_trace(key, alpha).beta;
      }
    });
  for (auto& t : pool) t.join();
  return out;
}

}  // namespace bx::ecvrf_family
