// Crafted jobs that make the deferred final borrow (kDeferBorrow, gl2x32.hpp) happen, and the exact
// answer for each: what proves the shortcut's recomputation on every place. Random nonces take the
// borrow about once in 2^55, so no search over real headers ever exercises it.
//
// Job k: a real job for `header` at base 2^64 (k + 1) (low 64 bits 0, so the nonce injection adds
// nothing and π3 starts from the prestate as given), with prestate lane k mod 12 set to 2^48: the first
// S-box squares it to 2^96, whose reduction borrows past 2^64. The other lanes keep their real values.
#pragma once
#include <vector>

#include "gpu/qpow/search.hpp"

namespace bx::qpow {

template <class Code>
std::vector<MinerJob> deferred_borrow_jobs(const uint8_t header[32], int count) {
  std::vector<MinerJob> jobs;
  const uint64_t zero[8] = {};
  for (int k = 0; k < count; ++k) {
    U512 base{};
    base.limb[2] = uint32_t(k + 1);
    MinerJob job = JobMaker<Code>::make(header, zero, base, Code::kShortcuts);
    job.pre[k % 12] = uint64_t(1) << 48;
    jobs.push_back(job);
  }
  return jobs;
}

// The exact hash of job.base from the job's own (crafted) state: the same shortcut path on gl64, which
// has no deferred borrow.
template <class Code>
void exact_job_hash(const MinerJob& job, uint64_t h[8]) {
  Miner<gl::gl64, Code::kShortcuts & ~kDeferBorrow>::hash(job, job.base, h, kQuantusP2);
}

// Does π3 on job's prestate take the deferred borrow (what makes the job a test of the recomputation)?
template <class Code>
bool takes_deferred_borrow(const MinerJob& job) {
  uint64_t s[12];
  for (int i = 0; i < 12; ++i) s[i] = job.pre[i];
  uint32_t borrows = 0;
  Permutation<gl::gl2x32<carry::portable>, (Code::kShortcuts & kFolded) != 0, true>::rounds_to_last_sbox(
      s, kQuantusP2, true, &borrows);
  return borrows != 0;
}

}  // namespace bx::qpow
