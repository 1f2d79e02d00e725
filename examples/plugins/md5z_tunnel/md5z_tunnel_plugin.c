/* An md5z tunnel miner as a plugin, written the way a miner author writes one in plain C: MD5 with the
 * state held as one array of step outputs, the base's steps 0..23 precomputed once per base, then per
 * candidate three backward steps (m8, m9, m12) and steps 24..60 with an early exit on h0 before the
 * last three steps. It provides every md5z operation of the contract: MD5 of messages, candidate digests,
 * the search on a base (with its own precomputation), the search on bitexact's job-level form, and the
 * precomputation itself (which bitexact compares with its reference's).
 * MD5Z_BUG plants one realistic bug (the negative controls):
 *   1  the range end is held in 32 bits: a range ending at 2^32 ends at 0, and its hits are lost
 *   2  the cheap early exit (reject when the low byte of h0 is not 0) is taken at threshold 1 too, where
 *      it rejects digests with exactly one leading zero digit
 *   3  the precomputation pads with the length in bytes (52) instead of bits (416): its own search is wrong,
 *      while the job-level search on bitexact's state is right — the report tells the two apart */
#include <bitexact/plugin.h>
#include <string.h>

#ifndef MD5Z_BUG
#define MD5Z_BUG 0
#endif
#ifndef MD5Z_PLUGIN_NAME
#define MD5Z_PLUGIN_NAME "tunnel-c"
#endif

static const uint32_t K[64] = {
    0xd76aa478u, 0xe8c7b756u, 0x242070dbu, 0xc1bdceeeu, 0xf57c0fafu, 0x4787c62au,
    0xa8304613u, 0xfd469501u, 0x698098d8u, 0x8b44f7afu, 0xffff5bb1u, 0x895cd7beu,
    0x6b901122u, 0xfd987193u, 0xa679438eu, 0x49b40821u, 0xf61e2562u, 0xc040b340u,
    0x265e5a51u, 0xe9b6c7aau, 0xd62f105du, 0x02441453u, 0xd8a1e681u, 0xe7d3fbc8u,
    0x21e1cde6u, 0xc33707d6u, 0xf4d50d87u, 0x455a14edu, 0xa9e3e905u, 0xfcefa3f8u,
    0x676f02d9u, 0x8d2a4c8au, 0xfffa3942u, 0x8771f681u, 0x6d9d6122u, 0xfde5380cu,
    0xa4beea44u, 0x4bdecfa9u, 0xf6bb4b60u, 0xbebfbc70u, 0x289b7ec6u, 0xeaa127fau,
    0xd4ef3085u, 0x04881d05u, 0xd9d4d039u, 0xe6db99e5u, 0x1fa27cf8u, 0xc4ac5665u,
    0xf4292244u, 0x432aff97u, 0xab9423a7u, 0xfc93a039u, 0x655b59c3u, 0x8f0ccc92u,
    0xffeff47du, 0x85845dd1u, 0x6fa87e4fu, 0xfe2ce6e0u, 0xa3014314u, 0x4e0811a1u,
    0xf7537e82u, 0xbd3af235u, 0x2ad7d2bbu, 0xeb86d391u,
};
static const int ROT[4][4] = {{7, 12, 17, 22}, {5, 9, 14, 20}, {4, 11, 16, 23}, {6, 10, 15, 21}};
static const uint32_t IV[4] = {0x67452301u, 0xefcdab89u, 0x98badcfeu, 0x10325476u};

static uint32_t rotl(uint32_t x, int s) { return (x << s) | (x >> (32 - s)); }
static uint32_t rotr(uint32_t x, int s) { return (x >> s) | (x << (32 - s)); }
static int rot_of(int t) { return ROT[t / 16][t % 4]; }
static int word_of(int t) {
  return t < 16 ? t : t < 32 ? (5 * t + 1) % 16 : t < 48 ? (3 * t + 5) % 16 : (7 * t) % 16;
}
static uint32_t fn(int t, uint32_t x, uint32_t y, uint32_t z) {
  if (t < 16) return (x & y) | (~x & z);
  if (t < 32) return (x & z) | (y & ~z);
  if (t < 48) return x ^ y ^ z;
  return y ^ (x | ~z);
}

/* Q[k] lives at q[k + 3], k = -3..64. */
static void step(uint32_t* q, int t, uint32_t w) {
  q[t + 4] = q[t + 3] + rotl(q[t] + fn(t, q[t + 3], q[t + 2], q[t + 1]) + K[t] + w, rot_of(t));
}
static uint32_t back(const uint32_t* q, int t) { /* the word step t consumed */
  return rotr(q[t + 4] - q[t + 3], rot_of(t)) - q[t] - fn(t, q[t + 3], q[t + 2], q[t + 1]) - K[t];
}
static uint32_t le32(const uint8_t* p) { return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static void put_le32(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = (uint8_t)(v >> (8 * i));
}

static void compress(uint32_t h[4], const uint32_t m[16]) {
  uint32_t q[68];
  q[0] = h[0], q[1] = h[3], q[2] = h[2], q[3] = h[1];
  for (int t = 0; t < 64; ++t) step(q, t, m[word_of(t)]);
  h[0] += q[64], h[3] += q[65], h[2] += q[66], h[1] += q[67];
}

static int md5(void* ctx, const uint8_t* data, const uint64_t* offsets, size_t n, uint8_t* digests, void* stream) {
  (void)ctx, (void)stream;
  for (size_t i = 0; i < n; ++i) {
    const uint8_t* p = data + offsets[i];
    const uint64_t len = offsets[i + 1] - offsets[i];
    uint32_t h[4] = {IV[0], IV[1], IV[2], IV[3]}, m[16];
    uint64_t done = 0;
    for (; len - done >= 64; done += 64) {
      for (int k = 0; k < 16; ++k) m[k] = le32(p + done + 4 * k);
      compress(h, m);
    }
    uint8_t tail[128] = {0};
    const uint64_t rest = len - done;
    memcpy(tail, p + done, rest);
    tail[rest] = 0x80;
    const size_t blocks = rest < 56 ? 1 : 2;
    for (int b = 0; b < 8; ++b) tail[64 * blocks - 8 + b] = (uint8_t)((len * 8) >> (8 * b));
    for (size_t b = 0; b < blocks; ++b) {
      for (int k = 0; k < 16; ++k) m[k] = le32(tail + 64 * b + 4 * k);
      compress(h, m);
    }
    for (int k = 0; k < 4; ++k) put_le32(digests + 16 * i + 4 * k, h[k]);
  }
  return 0;
}

/* Steps 0..23 of a base, once. */
static int prepare(void* ctx, const uint8_t base[52], bx_md5z_job* job) {
  (void)ctx;
  for (int k = 0; k < 13; ++k) job->m[k] = le32(base + 4 * k);
  job->m[13] = 0x80;
#if MD5Z_BUG == 3
  job->m[14] = 52;
#else
  job->m[14] = 52 * 8;
#endif
  job->m[15] = 0;
  uint32_t q[68];
  q[0] = IV[0], q[1] = IV[3], q[2] = IV[2], q[3] = IV[1];
  for (int t = 0; t < 24; ++t) step(q, t, job->m[word_of(t)]);
  memcpy(job->q, q, sizeof job->q);
  job->q[12] = 0;
  return 0;
}

/* Leading zero hex digits of a digest printed as h0 h1 h2 h3, each little-endian. */
static uint32_t zeros_of(const uint32_t h[4]) {
  uint32_t z = 0;
  for (int k = 0; k < 4; ++k)
    for (int b = 0; b < 4; ++b) {
      const uint8_t byte = (uint8_t)(h[k] >> (8 * b));
      if (byte >> 4) return z;
      ++z;
      if (byte & 15) return z;
      ++z;
    }
  return z;
}

/* Candidate i of a job: its Q and words from step 24 on. Returns 0 when the early exit rejects it
 * (threshold > 0), else 1 with h filled. */
static int candidate(const bx_md5z_job* job, uint32_t i, uint32_t threshold, uint32_t h[4]) {
  uint32_t q[68], m[16];
  memcpy(q, job->q, sizeof job->q);
  memcpy(m, job->m, sizeof m);
  q[12] = i;
  m[8] = back(q, 8);
  m[9] = back(q, 9);
  m[12] = back(q, 12);
  for (int t = 24; t < 61; ++t) step(q, t, m[word_of(t)]);
  h[0] = IV[0] + q[64];
  if (threshold > 0) {
    const uint32_t cap = threshold < 8 ? threshold : 8;
    uint32_t h0[4] = {h[0], 1, 1, 1};
#if MD5Z_BUG == 2
    if (threshold >= 1 && (h[0] & 0xff) != 0) return 0;
#else
    if (threshold >= 2 && (h[0] & 0xff) != 0) return 0;  /* cheap form: the first two digits are the low byte */
#endif
    if (zeros_of(h0) < cap) return 0;
  }
  for (int t = 61; t < 64; ++t) step(q, t, m[word_of(t)]);
  h[3] = IV[3] + q[65], h[2] = IV[2] + q[66], h[1] = IV[1] + q[67];
  return 1;
}

static int candidate_digests(void* ctx, const uint8_t base[52], const uint32_t* indices, size_t n, uint8_t* digests, void* stream) {
  (void)stream;
  bx_md5z_job job;
  prepare(ctx, base, &job);
  for (size_t i = 0; i < n; ++i) {
    uint32_t h[4];
    candidate(&job, indices[i], 0, h);
    for (int k = 0; k < 4; ++k) put_le32(digests + 16 * i + 4 * k, h[k]);
  }
  return 0;
}

static int search_job(void* ctx, const bx_md5z_job* job, uint64_t lo, uint64_t hi, uint32_t threshold, bx_md5z_hit* hits,
                      uint64_t capacity, uint64_t* found, void* stream) {
  (void)ctx, (void)stream;
  uint64_t n = 0;
#if MD5Z_BUG == 1
  for (uint32_t i = (uint32_t)lo; i < (uint32_t)hi; ++i) {
#else
  for (uint64_t i = lo; i < hi; ++i) {
#endif
    uint32_t h[4];
    if (!candidate(job, (uint32_t)i, threshold, h)) continue;
    const uint32_t z = zeros_of(h);
    if (z < threshold) continue;
    if (n < capacity) hits[n].index = (uint32_t)i, hits[n].zeros = z;
    ++n;
  }
  *found = n;
  return 0;
}

static int search(void* ctx, const uint8_t base[52], uint64_t lo, uint64_t hi, uint32_t threshold, bx_md5z_hit* hits,
                  uint64_t capacity, uint64_t* found, void* stream) {
  bx_md5z_job job;
  prepare(ctx, base, &job);
  return search_job(ctx, &job, lo, hi, threshold, hits, capacity, found, stream);
}

static const bx_md5z_ops kOps = {sizeof(bx_md5z_ops), 0, md5, candidate_digests, search, search_job, prepare};
static const char* const kPreconditions[] = {"bases only (bitexact never sends a non-base)", NULL};
static const bx_impl kImpls[] = {{sizeof(bx_impl), MD5Z_PLUGIN_NAME, BX_FAMILY_MD5Z, BX_PLACE_HOST, BX_CONTRACT_BIT_EXACT, NULL,
                                  kPreconditions, NULL, &kOps}};
static const bx_plugin kPlugin = {BX_PLUGIN_ABI_VERSION, "md5z-tunnel-example", 1, kImpls};

BX_PLUGIN_EXPORT const bx_plugin* bx_plugin_entry_v1(void) { return &kPlugin; }
