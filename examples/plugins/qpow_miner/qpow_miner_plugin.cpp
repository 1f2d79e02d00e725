// A miner-style qpow search as a plugin: bitexact's own gl64 miner code (the installed headers, as an
// outside author reuses them) with its shortcuts — midstate, prestate (nonce bits 64..511 folded in once per
// request), early reject — behind the C contract. The prestate is why the search states the precondition
// BX_QPOW_SEARCH_WITHIN_2_64: bitexact then never asks for a range that crosses a multiple of 2^64.
// QPOW_BUG plants one realistic bug (the negative controls):
//   1  the precondition is not declared, yet the prestate of the request's first nonce serves the whole range
//   2  the loop runs over the low 64 bits as x < lo + count: a range ending exactly at 2^64 wraps its end
//      to 0 and loses every hit
#include <bitexact/plugin.h>

#include "qpow_miner_common.h"

#ifndef QPOW_BUG
#define QPOW_BUG 0
#endif
#ifndef QPOW_PLUGIN_NAME
#define QPOW_PLUGIN_NAME "gl64-miner"
#endif

namespace {
using namespace bx::qpow;
using Code = Miner<bx::gl::gl64, kLadder>;  // midstate, prestate, early reject, folded rounds

bool is_zero(const U512& n) {
  for (uint32_t l : n.limb)
    if (l) return false;
  return true;
}

int search(void*, const uint8_t header[32], const uint8_t lo[64], uint64_t count, const uint8_t target[64], uint64_t* offsets,
           uint64_t capacity, uint64_t* found, void*) {
  uint64_t t[8];
  qpow_miner::words_from_be(target, t);
  const U512 base = qpow_miner::nonce_from_be(lo);
  const MinerJob job = make_job<Code>(header, t, base, kLadder);  // midstate + prestate, once per request
  uint64_t n = 0;
  auto report = [&](uint64_t off) {
    if (n < capacity) offsets[n] = off;
    ++n;
  };
#if QPOW_BUG == 2
  const uint64_t low = u512_low64(base);
  for (uint64_t x = low; x < low + count; ++x) {
    const U512 nonce = u512_add(base, x - low);
    if (!is_zero(nonce) && Code::valid(job, nonce, kQuantusP2)) report(x - low);
  }
#else
  for (uint64_t i = 0; i < count; ++i) {
    const U512 nonce = u512_add(base, i);
    if (!is_zero(nonce) && Code::valid(job, nonce, kQuantusP2)) report(i);
  }
#endif
  *found = n;
  return 0;
}

int hash(void*, const uint8_t header[32], const uint8_t* nonces, size_t n, uint8_t* out, void*) {
  const uint64_t no_target[8] = {};
  for (size_t i = 0; i < n; ++i) {
    const U512 nonce = qpow_miner::nonce_from_be(nonces + 64 * i);
    const MinerJob job = make_job<Miner<bx::gl::gl64, 0>>(header, no_target, nonce, 0);
    uint64_t h[8];
    Miner<bx::gl::gl64, 0>::hash(job, nonce, h, kQuantusP2);
    for (int j = 0; j < 8; ++j)
      for (int k = 0; k < 8; ++k) out[64 * i + 8 * j + k] = uint8_t(h[j] >> (56 - 8 * k));
  }
  return 0;
}

int gl_mul(void*, const uint64_t* a, const uint64_t* b, size_t n, uint64_t* out, void*) {
  for (size_t i = 0; i < n; ++i) out[i] = bx::gl::canonical(bx::gl::gl64::mul(a[i], b[i]));
  return 0;
}
int gl_add(void*, const uint64_t* a, const uint64_t* b, size_t n, uint64_t* out, void*) {
  for (size_t i = 0; i < n; ++i) out[i] = bx::gl::canonical(bx::gl::gl64::add(a[i], b[i]));
  return 0;
}
int permute(void*, const uint64_t* in, size_t n, uint64_t* out, void*) {
  for (size_t i = 0; i < n; ++i) {
    uint64_t s[12];
    for (int k = 0; k < 12; ++k) s[k] = in[12 * i + k];
    Permutation<bx::gl::gl64, false>::permute(s, kQuantusP2);
    for (int k = 0; k < 12; ++k) out[12 * i + k] = bx::gl::canonical(s[k]);
  }
  return 0;
}

const bx_qpow_ops ops = {.struct_size = sizeof(bx_qpow_ops),
                         .search_preconditions = QPOW_BUG == 1 ? 0u : BX_QPOW_SEARCH_WITHIN_2_64,
                         .gl_mul = gl_mul, .gl_add = gl_add, .permute = permute, .hash = hash, .search = search};
}  // namespace

extern "C" BX_PLUGIN_EXPORT const bx_plugin* bx_plugin_entry_v1(void) {
  return qpow_miner::one_implementation("qpow-miner-example", QPOW_PLUGIN_NAME, BX_PLACE_HOST, ops);
}
