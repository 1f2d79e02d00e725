// Nonce-range searches: the batch plan every searcher (host threads, GPU launches) shares, and the host
// search over it. A range is [lo, lo + n) of U512 nonces (mod 2^512, n < 2^64); a hit is reported as its
// offset from lo, every valid nonce exactly once, sorted. Nonce 0 is never reported: the chain rejects it
// before hashing (its hash is still defined; the oracle answers for it).
#pragma once
#include <algorithm>
#include <thread>
#include <vector>

#include "gpu/qpow/variants.hpp"

namespace bx::qpow {

struct Batch {
  U512 base;        // first nonce
  uint64_t offset;  // of base from lo
  uint64_t count;
};

// 2^k - (x mod 2^k) for the low k bits of x (k = 64 or 256), as min(that, cap).
inline uint64_t until_carry(const U512& x, int words, uint64_t cap) {
  // The distance is 2^(32 words) - low; it is below 2^64 only when words 2..words-1 are all ones.
  for (int i = 2; i < words; ++i)
    if (x.limb[i] != 0xffffffffu) return cap;
  const uint64_t low = u512_low64(x);
  if (low == 0) return cap;  // a full 2^(32 words) block ahead (>= 2^64 >= cap)
  const uint64_t d = 0 - low;   // 2^64 - low
  return d < cap ? d : cap;
}

// Batches of at most max_batch nonces that never cross what the shortcuts cannot cross: a 2^64 carry
// (kPrestate), a 2^256 carry (kMidstate), and the 2^512 wrap (always; nonce 0 is skipped).
inline std::vector<Batch> plan_batches(const U512& lo, uint64_t n, unsigned shortcuts, uint64_t max_batch) {
  std::vector<Batch> out;
  if (max_batch == 0) return out;  // nothing can be planned (callers reject it)
  uint64_t done = 0;
  while (done < n) {
    const U512 base = u512_add(lo, done);
    uint64_t c = std::min(n - done, max_batch);
    if ((shortcuts & kPrestate) && !BX_FAULT(qpow_prestate_across_2p64)) c = until_carry(base, 2, c);
    if ((shortcuts & kMidstate) && !BX_FAULT(qpow_midstate_across_2p256)) c = until_carry(base, 8, c);
    c = until_carry(base, 16, c);  // the wrap 2^512 - 1 -> 0
    bool zero = true;
    for (int i = 0; i < 16; ++i) zero &= base.limb[i] == 0;
    if (zero) {  // nonce 0: skipped
      done += 1;
      continue;
    }
    out.push_back({base, done, c});
    done += c;
  }
  return out;
}

// The job of one batch: the header felts, the target words and, for the shortcut paths, the midstate
// and prestate of the batch, computed with the variant's own exact arithmetic (its host build; ptx
// variants use their portable twin, which tests prove equal canonically).
template <class HostCode>
inline MinerJob make_job(const uint8_t header[32], const uint64_t target[8], const U512& base, unsigned shortcuts,
                         const P2Constants& K = kQuantusP2) {
  MinerJob job{};
  for (int i = 0; i < 8; ++i)
    job.header[i] = uint32_t(header[4 * i]) | uint32_t(header[4 * i + 1]) << 8 | uint32_t(header[4 * i + 2]) << 16 |
                    uint32_t(header[4 * i + 3]) << 24;
  for (int i = 0; i < 8; ++i) job.target[i] = target[i];
  job.base = base;
  if (shortcuts & kMidstate) {
    HostCode::midstate(job.header, base, job.mid, K);
    if (shortcuts & kPrestate) HostCode::prestate(job.mid, base, job.pre, K);
  }
  return job;
}

// The portable twin of a variant's code (what computes its batch jobs on the host).
template <class Code>
struct HostTwin {
  using type = Code;
};
template <unsigned S>
struct HostTwin<Miner<gl::gl2x32<carry::ptx>, S>> {
  using type = Miner<gl::gl2x32<carry::portable>, S>;
};
// The lossy engine's host precomputes its prestate exactly (pow-core, canonical arithmetic): so do both
// lossy variants, the device engine and its host model alike.
template <class B, unsigned S>
struct HostTwin<Miner<gl::gl2x32_lossy<B>, S>> {
  using type = Miner<gl::gl64, S>;
};
template <class Code>
struct JobMaker {
  static MinerJob make(const uint8_t header[32], const uint64_t target[8], const U512& base, unsigned s) {
    return make_job<typename HostTwin<Code>::type>(header, target, base, s);
  }
};
template <class L>
struct JobMaker<PlainHash<L>> {
  static MinerJob make(const uint8_t header[32], const uint64_t target[8], const U512& base, unsigned) {
    return make_job<Miner<L, 0>>(header, target, base, 0);
  }
};

struct SearchRequest {
  uint8_t header[32];
  U512 lo;
  uint64_t count;
  uint64_t target[8];  // most significant word first
};

// Host search with `threads` threads (0: hardware concurrency); the variant must have a host build.
inline std::vector<uint64_t> host_search(Variant v, const SearchRequest& rq, unsigned threads = 0) {
  const unsigned s = row(v).shortcuts;
  std::vector<Batch> batches = plan_batches(rq.lo, rq.count, s, uint64_t(1) << 16);
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::vector<uint64_t>> found(threads);
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      with_variant(v, [&]<class Code>() {
        for (size_t b = t; b < batches.size(); b += threads) {
          const MinerJob job = JobMaker<Code>::make(rq.header, rq.target, batches[b].base, s);
          for (uint64_t i = 0; i < batches[b].count; ++i)
            if (Code::valid(job, u512_add(job.base, i), kQuantusP2)) found[t].push_back(batches[b].offset + i);
        }
        return 0;
      });
    });
  for (auto& th : pool) th.join();
  std::vector<uint64_t> hits;
  for (auto& f : found) hits.insert(hits.end(), f.begin(), f.end());
  std::sort(hits.begin(), hits.end());
  return hits;
}

}  // namespace bx::qpow
