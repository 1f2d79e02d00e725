// libFuzzer target: the ecvrf per-item code (gpu/ecvrf, host build) on every layout against the golden
// model (reference/ecvrf). Input: [1 byte: op][payload]
//   op % 3 == 0  strict decode of 32 bytes: every layout's verdict (reason, or the canonical re-encoding)
//                equals the golden decoder's;
//   op % 3 == 1  a point program: a decodable 32-byte point P, then bytes b (at most 24): b % 5 = 0 adds P,
//                1 doubles, 2 negates, 3 adds H (RFC 9381 Example 16's), 4 subtracts H (a negated cached
//                operand); every layout's encoding after every step equals the golden model's;
//   op % 3 == 2  ECVRF proof-to-hash: [32 bytes: sk][alpha: the rest, at most 75 bytes]; every layout's
//                beta (4-bit window, x mod L) equals the golden model's, ctr included.
// On a difference: the operation, the inputs and every implementation's answer, then abort.
#include "fuzz/fuzz_hex.hpp"
#include <array>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "gpu/ecvrf/tai.hpp"
#include "gpu/field25519/layouts.hpp"
#include "reference/ecvrf/vrf.hpp"

namespace G = bx::ref::ecvrf;
namespace E = bx::ecvrf;
namespace F25 = bx::f25519;

namespace {

struct Answer {
  std::string layout, value;
};
[[noreturn]] void report(const std::string& what, const std::string& input, const std::string& want,
                         const std::vector<Answer>& got) {
  std::fprintf(stderr, "ecvrf_diff: DIFFERENCE in %s\n  input  = %s\n  golden = %s\n", what.c_str(), input.c_str(),
               want.c_str());
  for (const Answer& a : got) std::fprintf(stderr, "  %-14s %s\n", a.layout.c_str(), a.value.c_str());
  std::abort();
}

std::string golden_decode(const uint8_t s[32]) {
  const G::Decoded d = G::decode(std::span<const uint8_t>(s, 32));
  if (const auto* p = std::get_if<G::Point>(&d)) {
    const auto e = G::encode(*p);
    return hex(e.data(), 32);
  }
  return std::string(G::name(std::get<G::DecodeError>(d)));
}

template <class F>
std::string layout_decode(const uint8_t s[32]) {
  E::ge_ext<F> P;
  const E::DecodeStatus st = E::ge_decode<F>(P, s);
  if (st != E::DecodeStatus::valid) return E::decode_status_name(st);
  uint8_t e[32];
  E::ge_encode<F>(e, P);
  return hex(e, 32);
}


void check_decode(const uint8_t s[32]) {
  const std::string want = golden_decode(s);
  std::vector<Answer> got;
  bool differ = false;
  F25::for_each_host_layout([&]<class F>() {
    got.push_back({F::name, layout_decode<F>(s)});
    differ |= got.back().value != want;
  });
  if (differ) report("strict decode", hex(s, 32), want, got);
}

template <class F>
std::vector<std::string> layout_program(const uint8_t p[32], const uint8_t h[32], const uint8_t* prog, size_t n) {
  E::ge_ext<F> P, H, Q;
  E::ge_decode<F>(P, p);
  E::ge_decode<F>(H, h);
  Q = P;
  E::ge_cached<F> pc, hc;
  E::ge_to_cached<F>(pc, P);
  E::ge_to_cached<F>(hc, H);
  std::vector<std::string> out;
  for (size_t i = 0; i < n; ++i) {
    switch (prog[i] % 5) {
      case 0: E::ge_add_cached<F>(Q, Q, pc); break;
      case 1: E::ge_dbl<F>(Q, Q); break;
      case 2: E::ge_neg<F>(Q, Q); break;
      case 3: E::ge_add_cached<F>(Q, Q, hc); break;
      default: E::ge_sub_cached<F>(Q, Q, hc); break;
    }
    uint8_t e[32];
    E::ge_encode<F>(e, Q);
    out.push_back(hex(e, 32) + (E::ge_t_consistent<F>(Q) ? "" : " (T*Z != X*Y)"));
  }
  return out;
}

void check_program(const uint8_t p[32], const uint8_t* prog, size_t n) {
  const G::Decoded d = G::decode(std::span<const uint8_t>(p, 32));
  if (!std::holds_alternative<G::Point>(d)) return;  // only points run programs (decode is op 0)
  static const auto h16 = [] {  // a fixed point of the order-L subgroup: H of RFC 9381 Example 16
    const uint8_t s[32] = {0x9d, 0x61, 0xb1, 0x9d, 0xef, 0xfd, 0x5a, 0x60, 0xba, 0x84, 0x4a, 0xf4, 0x92, 0xec, 0x2c, 0xc4,
                           0x44, 0x49, 0xc5, 0x69, 0x7b, 0x32, 0x69, 0x19, 0x70, 0x3b, 0xac, 0x03, 0x1c, 0xae, 0x7f, 0x60};
    return *G::vrf_trace(std::span<const uint8_t>(s, 32), {}).tai.h;
  }();
  const auto h_enc = G::encode(h16);
  G::Point P = std::get<G::Point>(d), Q = P;
  std::vector<std::string> want;
  for (size_t i = 0; i < n; ++i) {
    switch (prog[i] % 5) {
      case 0: Q = G::add(Q, P); break;
      case 1: Q = G::add(Q, Q); break;
      case 2: Q = G::neg(Q); break;
      case 3: Q = G::add(Q, h16); break;
      default: Q = G::add(Q, G::neg(h16)); break;
    }
    const auto e = G::encode(Q);
    want.push_back(hex(e.data(), 32));
  }
  F25::for_each_host_layout([&]<class F>() {
    const auto got = layout_program<F>(p, h_enc.data(), prog, n);
    for (size_t i = 0; i < n; ++i)
      if (got[i] != want[i])
        report("point program step " + std::to_string(i) + " (op " + std::to_string(prog[i] % 5) + ")",
               hex(p, 32) + " program " + hex(prog, n), want[i], {{F::name, got[i]}});
  });
}

void check_alpha(const uint8_t sk[32], const uint8_t* alpha, size_t n) {
  const G::VrfKey key = G::vrf_key(std::span<const uint8_t>(sk, 32));
  const G::VrfTrace t = G::vrf_trace(key, std::span<const uint8_t>(alpha, n));
  const std::string want = t.beta ? std::to_string(*t.tai.ctr) + " " + hex(t.beta->data(), 64) : "none";
  std::array<uint8_t, 32> xl{};
  const auto b = bx::ref::to_le_bytes(key.x_mod_l, 32);
  std::copy(b.begin(), b.end(), xl.begin());
  const auto digits = E::Window4::recode(xl);
  std::vector<Answer> got;
  bool differ = false;
  F25::for_each_host_layout([&]<class F>() {
    uint8_t beta[64];
    E::EcvrfTrace tr{};
    const bool has = E::ecvrf_beta_alpha<F, E::Window4>(beta, key.pk.data(), alpha, int(n), digits, &tr);
    got.push_back({F::name, has ? std::to_string(tr.ctr) + " " + hex(beta, 64) : "none"});
    differ |= got.back().value != want;
  });
  if (differ) report("ECVRF proof-to-hash", "sk " + hex(sk, 32) + " alpha " + hex(alpha, n), want, got);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const uint8_t op = data[0] % 3;
  data += 1, size -= 1;
  if (op == 0 && size >= 32) check_decode(data);
  if (op == 1 && size >= 32) check_program(data, data + 32, std::min<size_t>(size - 32, 24));
  if (op == 2 && size >= 32 && size - 32 <= 75) check_alpha(data, data + 32, size - 32);
  return 0;
}
