// A miner-style qpow search as a plugin: bitexact's own gl64 miner code (the installed headers, as an
// outside author reuses them) with its shortcuts — midstate, prestate (nonce bits 64..511 folded in once per
// request), early reject — behind the C contract, split as a miner is: the host precomputation (prepare) and
// the kernel side on a job (search_job); search is the two together. The prestate is why the search states the precondition
// BX_QPOW_SEARCH_WITHIN_2_64: bitexact then never asks for a range that crosses a multiple of 2^64.
// QPOW_BUG plants one realistic bug (the negative controls):
//   1  the precondition is not declared, yet the prestate of the request's first nonce serves the whole range
//   2  the loop runs over the low 64 bits as x < lo + count: a range ending exactly at 2^64 wraps its end
//      to 0 and loses every hit
//   3  the precomputation reads the header's words big-endian: its own search is wrong, while the
//      job-level search on bitexact's midstate and prestate is right (the report tells the two apart)
#include <bitexact/plugin.h>

#include <cstring>

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

// The miner's host precomputation: midstate and prestate of the request's first nonce (canonical lanes).
int prepare(void*, bx_qpow_job* job) {
  uint8_t header[32];
  for (int i = 0; i < 32; ++i) header[i] = job->header[QPOW_BUG == 3 ? (i & ~3) + 3 - (i & 3) : i];
  const uint64_t no_target[8] = {};
  const MinerJob mj = make_job<Code>(header, no_target, qpow_miner::nonce_from_be(job->lo), kLadder);
  for (int i = 0; i < 12; ++i) job->midstate[i] = bx::gl::canonical(mj.mid[i]), job->prestate[i] = bx::gl::canonical(mj.pre[i]);
  return 0;
}

// The kernel side: every valid nonce of [job.lo, job.lo + count) from the job's state.
int search_job(void*, const bx_qpow_job* job, uint64_t count, uint64_t* offsets, uint64_t capacity, uint64_t* found, void*) {
  MinerJob mj{};
  for (int i = 0; i < 8; ++i)
    mj.header[i] = uint32_t(job->header[4 * i]) | uint32_t(job->header[4 * i + 1]) << 8 | uint32_t(job->header[4 * i + 2]) << 16 |
                   uint32_t(job->header[4 * i + 3]) << 24;
  for (int i = 0; i < 12; ++i) mj.mid[i] = job->midstate[i], mj.pre[i] = job->prestate[i];
  mj.base = qpow_miner::nonce_from_be(job->lo);
  qpow_miner::words_from_be(job->target, mj.target);
  uint64_t n = 0;
  auto report = [&](uint64_t off) {
    if (n < capacity) offsets[n] = off;
    ++n;
  };
#if QPOW_BUG == 2
  const uint64_t low = u512_low64(mj.base);
  for (uint64_t x = low; x < low + count; ++x) {
    const U512 nonce = u512_add(mj.base, x - low);
    if (!is_zero(nonce) && Code::valid(mj, nonce, kQuantusP2)) report(x - low);
  }
#else
  for (uint64_t i = 0; i < count; ++i) {
    const U512 nonce = u512_add(mj.base, i);
    if (!is_zero(nonce) && Code::valid(mj, nonce, kQuantusP2)) report(i);
  }
#endif
  *found = n;
  return 0;
}

// The miner as a whole: its own precomputation, then the kernel side.
int search(void* ctx, const uint8_t header[32], const uint8_t lo[64], uint64_t count, const uint8_t target[64], uint64_t* offsets,
           uint64_t capacity, uint64_t* found, void* stream) {
  bx_qpow_job job{};
  std::memcpy(job.header, header, 32);
  std::memcpy(job.lo, lo, 64);
  std::memcpy(job.target, target, 64);
  prepare(ctx, &job);
  return search_job(ctx, &job, count, offsets, capacity, found, stream);
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
                         .gl_mul = gl_mul, .gl_add = gl_add, .permute = permute, .hash = hash, .search = search,
                         .search_job = search_job, .prepare = prepare};
}  // namespace

extern "C" BX_PLUGIN_EXPORT const bx_plugin* bx_plugin_entry_v1(void) {
  return qpow_miner::one_implementation("qpow-miner-example", QPOW_PLUGIN_NAME, BX_PLACE_HOST, ops);
}
