// An ECVRF miner's host code as a plugin: bitexact's own per-attempt pipeline (the installed headers, as
// an outside author reuses them) on the fe32 layout with the 4-bit window scalar multiplication, behind
// the C contract: the strict decoder, point addition, scalar multiplication, proof-to-hash, the VRF output
// of any alpha, and the miner's search (alpha = header || LE64(nonce), hit iff score < target).
// ECVRF_BUG plants one realistic bug (the negative controls):
//   1  the decoder's y >= p test reads bytes 0, 1, 30 and 31 only: a y that differs from p in an interior
//      byte alone (below p) is rejected as y >= p
//   2  the search keeps the nonce's high 32 bits fixed per request (a kernel that splits the nonce into two
//      words): past a 2^32 boundary it hashes the wrong nonces
//   3  the search reports score <= target: a nonce whose score equals the target is reported
#include <bitexact/plugin.h>

#include <cstring>
#include <exception>

#include "gpu/ecvrf/codec.hpp"
#include "gpu/ecvrf/scalar.hpp"
#include "gpu/ecvrf/tai.hpp"
#include "gpu/field25519/layouts.hpp"

#ifndef ECVRF_BUG
#define ECVRF_BUG 0
#endif
#ifndef ECVRF_PLUGIN_NAME
#define ECVRF_PLUGIN_NAME "fe32-w4-miner"
#endif

namespace {
namespace E = bx::ecvrf;
using F = bx::f25519::Fe32<bx::carry::portable>;
using S = E::Window4;
using Point = E::ge_ext<F>;

E::Scalar scalar_of(const uint8_t* b) {
  E::Scalar k;
  std::memcpy(k.data(), b, 32);
  return k;
}

// Every operation: exceptions (a scalar the recoding refuses) become an error return, never an unwinding
// through C.
template <class Body>
int guarded(Body&& body) {
  try {
    return body();
  } catch (const std::exception&) {
    return 1;
  }
}

E::DecodeStatus decode_one(Point& P, const uint8_t s[32]) {
#if ECVRF_BUG == 1
  const uint32_t ones = ((s[31] & 0x7fu) ^ 0x7fu) | (s[30] ^ 0xffu) | (s[1] ^ 0xffu);
  if (ones == 0 && s[0] >= 0xed) return E::DecodeStatus::y_not_below_p;
#endif
  return E::ge_decode<F>(P, s);
}

int decode(void*, const uint8_t* in, size_t n, int32_t* status, uint8_t* out, void*) {
  for (size_t i = 0; i < n; ++i) {
    Point P;
    const E::DecodeStatus st = decode_one(P, in + 32 * i);
    status[i] = int32_t(st);
    if (st == E::DecodeStatus::valid) E::ge_encode<F>(out + 32 * i, P);
  }
  return 0;
}

int add(void*, const uint8_t* p, const uint8_t* q, size_t n, uint8_t* out, void*) {
  for (size_t i = 0; i < n; ++i) {
    Point P, Q, R;
    if (E::ge_decode<F>(P, p + 32 * i) != E::DecodeStatus::valid || E::ge_decode<F>(Q, q + 32 * i) != E::DecodeStatus::valid) return 2;
    E::ge_add<F>(R, P, Q);
    E::ge_encode<F>(out + 32 * i, R);
  }
  return 0;
}

int scalar_mult(void*, const uint8_t* k, const uint8_t* p, size_t n, uint8_t* out, void*) {
  return guarded([&] {
    for (size_t i = 0; i < n; ++i) {
      Point P, R;
      if (E::ge_decode<F>(P, p + 32 * i) != E::DecodeStatus::valid) return 2;
      S::mul<F>(R, P, S::recode(scalar_of(k + 32 * i)));
      E::ge_encode<F>(out + 32 * i, R);
    }
    return 0;
  });
}

int proof_to_hash(void*, const uint8_t* gamma, size_t n, uint8_t* beta, void*) {
  for (size_t i = 0; i < n; ++i) {
    Point G;
    if (E::ge_decode<F>(G, gamma + 32 * i) != E::DecodeStatus::valid) return 2;
    E::proof_to_hash<F>(beta + 64 * i, G);
  }
  return 0;
}

int vrf_beta(void*, const uint8_t pk[32], const uint8_t x[32], const uint8_t* alphas, uint32_t alpha_len, size_t n, int32_t* ctr,
             uint8_t* beta, void*) {
  return guarded([&] {
    const S::digits digits = S::recode(scalar_of(x));
    for (size_t i = 0; i < n; ++i) {
      E::EcvrfTrace t{};
      E::ecvrf_beta_alpha<F, S>(beta + 64 * i, pk, alphas + size_t(alpha_len) * i, int(alpha_len), digits, &t);
      ctr[i] = t.ctr;
    }
    return 0;
  });
}

int search(void*, const uint8_t pk[32], const uint8_t x[32], const uint8_t header[32], uint64_t lo, uint64_t count, uint64_t target,
           bx_ecvrf_hit* hits, uint64_t capacity, uint64_t* found, void*) {
  return guarded([&] {
    const S::digits digits = S::recode(scalar_of(x));
    uint64_t n = 0;
    for (uint64_t i = 0; i < count; ++i) {
#if ECVRF_BUG == 2
      const uint64_t nonce = (lo & ~uint64_t(0xffffffff)) | uint32_t(lo + i);
#else
      const uint64_t nonce = lo + i;
#endif
      uint8_t beta[64];
      if (!E::ecvrf_attempt<F, S>(beta, pk, header, nonce, digits)) continue;
      const uint64_t score = E::beta_score(beta);
#if ECVRF_BUG == 3
      if (score > target) continue;
#else
      if (score >= target) continue;
#endif
      if (n < capacity) hits[n] = {nonce, score};
      ++n;
    }
    *found = n;
    return 0;
  });
}

const bx_ecvrf_ops kOps = {sizeof(bx_ecvrf_ops), 0, decode, add, scalar_mult, proof_to_hash, vrf_beta, search};
const bx_impl kImpl = {sizeof(bx_impl), ECVRF_PLUGIN_NAME, BX_FAMILY_ECVRF, BX_PLACE_HOST, BX_CONTRACT_BIT_EXACT, nullptr, nullptr, nullptr, &kOps};
const bx_plugin kPlugin = {BX_PLUGIN_ABI_VERSION, "ecvrf-miner-example", 1, &kImpl};

}  // namespace

extern "C" BX_PLUGIN_EXPORT const bx_plugin* bx_plugin_entry_v1(void) { return &kPlugin; }
