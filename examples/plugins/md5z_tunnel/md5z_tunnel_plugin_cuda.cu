// The md5z tunnel miner of md5z_tunnel_plugin.c on the GPU: the same MD5 steps, the same state layout
// (Q[k] at q[k + 3]), the same per-candidate work (steps 8, 9 and 12 run backwards for m8, m9, m12, then
// steps 24..60, an early exit on h0, then steps 61..63), in one thread per message, candidate or index.
//
// How bitexact reaches it: `--plugin md5z_tunnel_cuda.so` loads the library and calls bx_plugin_entry_v1
// for the table. The implementation says BX_PLACE_DEVICE, so bitexact runs it on every selected GPU: each
// operation gets device buffers (cudaMalloc'd on the card that is current during the call) and the
// cudaStream_t to launch on, passed as void*; bitexact synchronises the stream after the call. prepare is
// host code on every place and gets host pointers. Every CUDA call is checked; any failure returns 1.
//
// MD5Z_BUG=1 plants the C example's first bug here too (the range end held in 32 bits), the negative
// control of the device path.
//
// The host part of each operation reads the few bytes it needs (the 52-byte base, or the job) back from
// the device and precomputes the job there; the kernels take the job by value, so search and search_job
// run the same kernel on the same state layout.
#include <bitexact/plugin.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#ifndef MD5Z_BUG
#define MD5Z_BUG 0
#endif
#ifndef MD5Z_PLUGIN_NAME
#define MD5Z_PLUGIN_NAME "tunnel-cuda"
#endif

namespace {

// ---- MD5 steps, shared by the host precomputation and the kernels ------------------------------------
// Loops over steps are fully unrolled in the kernels, so every t below is a compile-time constant there:
// the tables fold into immediates and q[], m[] live in registers.

__host__ __device__ __forceinline__ constexpr uint32_t k_of(int t) {
  constexpr uint32_t k[64] = {
      0xd76aa478u, 0xe8c7b756u, 0x242070dbu, 0xc1bdceeeu, 0xf57c0fafu, 0x4787c62au, 0xa8304613u, 0xfd469501u,
      0x698098d8u, 0x8b44f7afu, 0xffff5bb1u, 0x895cd7beu, 0x6b901122u, 0xfd987193u, 0xa679438eu, 0x49b40821u,
      0xf61e2562u, 0xc040b340u, 0x265e5a51u, 0xe9b6c7aau, 0xd62f105du, 0x02441453u, 0xd8a1e681u, 0xe7d3fbc8u,
      0x21e1cde6u, 0xc33707d6u, 0xf4d50d87u, 0x455a14edu, 0xa9e3e905u, 0xfcefa3f8u, 0x676f02d9u, 0x8d2a4c8au,
      0xfffa3942u, 0x8771f681u, 0x6d9d6122u, 0xfde5380cu, 0xa4beea44u, 0x4bdecfa9u, 0xf6bb4b60u, 0xbebfbc70u,
      0x289b7ec6u, 0xeaa127fau, 0xd4ef3085u, 0x04881d05u, 0xd9d4d039u, 0xe6db99e5u, 0x1fa27cf8u, 0xc4ac5665u,
      0xf4292244u, 0x432aff97u, 0xab9423a7u, 0xfc93a039u, 0x655b59c3u, 0x8f0ccc92u, 0xffeff47du, 0x85845dd1u,
      0x6fa87e4fu, 0xfe2ce6e0u, 0xa3014314u, 0x4e0811a1u, 0xf7537e82u, 0xbd3af235u, 0x2ad7d2bbu, 0xeb86d391u,
  };
  return k[t];
}
__host__ __device__ __forceinline__ constexpr int rot_of(int t) {
  constexpr int r[16] = {7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21};
  return r[(t / 16) * 4 + t % 4];
}
__host__ __device__ __forceinline__ constexpr int word_of(int t) {
  return t < 16 ? t : t < 32 ? (5 * t + 1) % 16 : t < 48 ? (3 * t + 5) % 16 : (7 * t) % 16;
}
constexpr uint32_t IV0 = 0x67452301u, IV1 = 0xefcdab89u, IV2 = 0x98badcfeu, IV3 = 0x10325476u;

__host__ __device__ __forceinline__ uint32_t rotl(uint32_t x, int s) { return (x << s) | (x >> (32 - s)); }  // 0 < s < 32
__host__ __device__ __forceinline__ uint32_t rotr(uint32_t x, int s) { return (x >> s) | (x << (32 - s)); }
__host__ __device__ __forceinline__ uint32_t fn(int t, uint32_t x, uint32_t y, uint32_t z) {
  if (t < 16) return (x & y) | (~x & z);
  if (t < 32) return (x & z) | (y & ~z);
  if (t < 48) return x ^ y ^ z;
  return y ^ (x | ~z);
}

// Q[k] lives at q[k + 3], k = -3..64: step t reads q[t .. t + 3] and writes q[t + 4].
__host__ __device__ __forceinline__ void step(uint32_t* q, int t, uint32_t w) {
  q[t + 4] = q[t + 3] + rotl(q[t] + fn(t, q[t + 3], q[t + 2], q[t + 1]) + k_of(t) + w, rot_of(t));
}
__host__ __device__ __forceinline__ uint32_t back(const uint32_t* q, int t) {  // the word step t consumed
  return rotr(q[t + 4] - q[t + 3], rot_of(t)) - q[t] - fn(t, q[t + 3], q[t + 2], q[t + 1]) - k_of(t);
}

__device__ __forceinline__ void compress(uint32_t h[4], const uint32_t m[16]) {
  uint32_t q[68];
  q[0] = h[0], q[1] = h[3], q[2] = h[2], q[3] = h[1];
#pragma unroll
  for (int t = 0; t < 64; ++t) step(q, t, m[word_of(t)]);
  h[0] += q[64], h[3] += q[65], h[2] += q[66], h[1] += q[67];
}

// ---- host precomputation ------------------------------------------------------------------------------

uint32_t le32(const uint8_t* p) { return p[0] | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24; }

// Steps 0..23 of a base, once (host pointers: the contract makes precomputation host code).
int prepare(void*, const uint8_t base[52], bx_md5z_job* job) {
  for (int k = 0; k < 13; ++k) job->m[k] = le32(base + 4 * k);
  job->m[13] = 0x80;
  job->m[14] = 52 * 8;
  job->m[15] = 0;
  uint32_t q[68];
  q[0] = IV0, q[1] = IV3, q[2] = IV2, q[3] = IV1;
  for (int t = 0; t < 24; ++t) step(q, t, job->m[word_of(t)]);
  for (int k = 0; k < 28; ++k) job->q[k] = q[k];
  job->q[12] = 0;
  return 0;
}

// ---- candidates on the device ---------------------------------------------------------------------------

// Leading zero hex digits of one digest word printed little-endian (0..8): byte-swapped, the printed
// digits are the word's nibbles from the top.
__device__ __forceinline__ uint32_t digits_of(uint32_t h) { return h == 0 ? 8u : uint32_t(__clz(__byte_perm(h, 0, 0x0123))) / 4; }

// Zero count of the digest printed as h0 h1 h2 h3 (0..32).
__device__ __forceinline__ uint32_t zeros_of(const uint32_t h[4]) {
  uint32_t z = 0;
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    const uint32_t d = digits_of(h[k]);
    z += d;
    if (d < 8) break;
  }
  return z;
}

// Candidate `index` of a job. threshold 0: every step, h filled, returns true. threshold > 0: after step
// 60 h0 is final and holds the first 8 printed digits, so a candidate whose h0 alone has fewer than
// min(threshold, 8) zero digits cannot reach the threshold and is rejected (false) before steps 61..63.
__device__ __forceinline__ bool candidate(const bx_md5z_job& job, uint32_t index, uint32_t threshold, uint32_t h[4]) {
  uint32_t q[68], m[16];
#pragma unroll
  for (int k = 0; k < 28; ++k) q[k] = job.q[k];
#pragma unroll
  for (int k = 0; k < 16; ++k) m[k] = job.m[k];
  q[12] = index;  // Q[9]
  m[8] = back(q, 8);
  m[9] = back(q, 9);
  m[12] = back(q, 12);
#pragma unroll
  for (int t = 24; t < 61; ++t) step(q, t, m[word_of(t)]);
  h[0] = IV0 + q[64];
  if (threshold > 0 && digits_of(h[0]) < min(threshold, 8u)) return false;
#pragma unroll
  for (int t = 61; t < 64; ++t) step(q, t, m[word_of(t)]);
  h[3] = IV3 + q[65], h[2] = IV2 + q[66], h[1] = IV1 + q[67];
  return true;
}

// Digests are written byte by byte: bitexact's buffers sit between guard bytes and need not be aligned.
__device__ __forceinline__ void put_digest(uint8_t* out, const uint32_t h[4]) {
#pragma unroll
  for (int k = 0; k < 16; ++k) out[k] = uint8_t(h[k / 4] >> (8 * (k % 4)));
}

// Byte `pos` of a message of `len` bytes padded to `padded` bytes (0x80, zeros, the bit length in 8 bytes).
__device__ __forceinline__ uint32_t padded_byte(const uint8_t* p, uint64_t len, uint64_t padded, uint64_t pos) {
  if (pos < len) return p[pos];
  if (pos == len) return 0x80;
  if (pos >= padded - 8) return uint8_t((len * 8) >> (8 * (pos - (padded - 8))));
  return 0;
}

constexpr unsigned kThreads = 256;

__global__ void __launch_bounds__(kThreads) k_md5(const uint8_t* data, const uint64_t* offsets, size_t n, uint8_t* digests) {
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    const uint8_t* p = data + offsets[i];
    const uint64_t len = offsets[i + 1] - offsets[i];
    const uint64_t padded = (len + 8) / 64 * 64 + 64;  // room for 0x80 and the 8 length bytes
    uint32_t h[4] = {IV0, IV1, IV2, IV3};
    for (uint64_t at = 0; at < padded; at += 64) {
      uint32_t m[16];
#pragma unroll
      for (int k = 0; k < 16; ++k) {
        uint32_t w = 0;
#pragma unroll
        for (int b = 0; b < 4; ++b) w |= padded_byte(p, len, padded, at + 4 * k + b) << (8 * b);
        m[k] = w;
      }
      compress(h, m);
    }
    put_digest(digests + 16 * i, h);
  }
}

__global__ void __launch_bounds__(kThreads) k_candidates(const bx_md5z_job job, const uint32_t* indices, size_t n, uint8_t* digests) {
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    uint32_t h[4];
    candidate(job, indices[i], 0, h);
    put_digest(digests + 16 * i, h);
  }
}

// One thread per index of [first, first + len): each hit takes the next slot of *count; the first `slots`
// are stored (in arrival order, not index order), and *count ends as the number of hits.
__global__ void __launch_bounds__(kThreads) k_search(const bx_md5z_job job, uint64_t first, uint32_t len, uint32_t threshold,
                                                     bx_md5z_hit* out, uint64_t slots, unsigned long long* count) {
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= len) return;
  const uint32_t index = uint32_t(first + t);  // first + t < hi <= 2^32
  uint32_t h[4];
  if (!candidate(job, index, threshold, h)) return;
  const uint32_t z = zeros_of(h);
  if (z < threshold) return;
  const unsigned long long slot = atomicAdd(count, 1ull);
  if (slot < slots) out[slot] = bx_md5z_hit{index, z};
}

// ---- host side of the operations ------------------------------------------------------------------------

bool ok(cudaError_t e) { return e == cudaSuccess; }
bool launched() { return ok(cudaGetLastError()); }
unsigned grid_of(size_t n) { return unsigned(std::min<size_t>((n + kThreads - 1) / kThreads, size_t(1) << 20)); }  // grid-stride beyond

// The base (52 bytes, device memory) read back and precomputed on the host.
int job_of_base(const uint8_t* base, bx_md5z_job& job, cudaStream_t stream) {
  uint8_t b[52];
  if (!ok(cudaMemcpyAsync(b, base, sizeof b, cudaMemcpyDeviceToHost, stream)) || !ok(cudaStreamSynchronize(stream))) return 1;
  return prepare(nullptr, b, &job);
}

int md5(void*, const uint8_t* data, const uint64_t* offsets, size_t n, uint8_t* digests, void* stream) {
  if (n == 0) return 0;
  k_md5<<<grid_of(n), kThreads, 0, cudaStream_t(stream)>>>(data, offsets, n, digests);
  return launched() ? 0 : 1;
}

int candidate_digests(void*, const uint8_t* base, const uint32_t* indices, size_t n, uint8_t* digests, void* stream_ptr) {
  const cudaStream_t stream = cudaStream_t(stream_ptr);
  bx_md5z_job job;
  if (job_of_base(base, job, stream)) return 1;
  if (n == 0) return 0;
  k_candidates<<<grid_of(n), kThreads, 0, stream>>>(job, indices, n, digests);
  return launched() ? 0 : 1;
}

// The search's device scratch: one allocation holding the hit counter and `slots` hits.
struct Scratch {
  void* mem = nullptr;
  unsigned long long* count = nullptr;
  bx_md5z_hit* hits = nullptr;
  uint64_t slots = 0;

  int allocate(uint64_t n) {
    if (!ok(cudaMalloc(&mem, sizeof(unsigned long long) + n * sizeof(bx_md5z_hit)))) {
      mem = nullptr;
      return 1;
    }
    count = static_cast<unsigned long long*>(mem);
    hits = reinterpret_cast<bx_md5z_hit*>(count + 1);
    slots = n;
    return 0;
  }
  int release() {
    void* m = mem;
    mem = nullptr;
    return m && !ok(cudaFree(m)) ? 1 : 0;
  }
  ~Scratch() { release(); }
};

// Indices per launch, and the most hits the scratch holds (8 bytes each: 64 MiB). A launch whose hits
// overflow the scratch (about 2^22 are expected at threshold 1, 2^18 at threshold 2) is run again in
// pieces of at most `slots` indices, which cannot overflow: one thread adds at most one hit.
constexpr uint64_t kChunk = uint64_t(1) << 26;
constexpr uint64_t kScratchSlots = uint64_t(1) << 23;

// Every hit of [first, first + len) into the scratch; count is their number.
int pass(const bx_md5z_job& job, uint64_t first, uint64_t len, uint32_t threshold, const Scratch& s, uint64_t& count,
         cudaStream_t stream) {
  unsigned long long c = 0;
  if (!ok(cudaMemsetAsync(s.count, 0, sizeof c, stream))) return 1;
  k_search<<<unsigned((len + kThreads - 1) / kThreads), kThreads, 0, stream>>>(job, first, uint32_t(len), threshold, s.hits, s.slots,
                                                                                 s.count);
  if (!launched() || !ok(cudaMemcpyAsync(&c, s.count, sizeof c, cudaMemcpyDeviceToHost, stream)) || !ok(cudaStreamSynchronize(stream)))
    return 1;
  count = c;
  return 0;
}

// Appends the `count` hits of the last pass (count <= slots) to `kept`, sorted, while kept holds fewer than
// `capacity`. The slots arrive in scheduling order, so each pass's hits are sorted here on the host (no
// device sort library needed); passes run over ascending, disjoint ranges, so the sorted runs concatenate
// into ascending order, and the first `capacity` of them are the contract's hits[0 .. capacity).
int collect(const Scratch& s, uint64_t count, uint64_t capacity, std::vector<bx_md5z_hit>& kept, cudaStream_t stream) {
  if (count == 0 || kept.size() >= capacity) return 0;
  const size_t at = kept.size();
  kept.resize(at + count);
  if (!ok(cudaMemcpyAsync(kept.data() + at, s.hits, count * sizeof(bx_md5z_hit), cudaMemcpyDeviceToHost, stream)) ||
      !ok(cudaStreamSynchronize(stream)))
    return 1;
  std::sort(kept.begin() + at, kept.end(), [](const bx_md5z_hit& a, const bx_md5z_hit& b) { return a.index < b.index; });
  if (kept.size() > capacity) kept.resize(capacity);
  return 0;
}

// The search over [lo, hi) on a host-held job. Bounds are 64-bit throughout: hi may be 2^32, which a
// 32-bit bound would wrap to 0 (losing the range's hits); only an index itself fits 32 bits.
int search_on(const bx_md5z_job& job, uint64_t lo, uint64_t hi, uint32_t threshold, bx_md5z_hit* hits, uint64_t capacity,
              uint64_t* found, cudaStream_t stream) {
  if (lo >= hi || hi > (uint64_t(1) << 32)) return 1;  // outside the contract
  Scratch s;
  if (s.allocate(std::min(hi - lo, kScratchSlots))) return 1;
  try {  // nothing may throw across the C ABI (the host vector may fail to grow)
    std::vector<bx_md5z_hit> kept;
    uint64_t total = 0;
    const uint64_t end = MD5Z_BUG == 1 ? uint32_t(hi) : hi;
    for (uint64_t first = lo; first < end;) {
      const uint64_t len = std::min(end - first, kChunk);
      uint64_t count = 0;
      if (pass(job, first, len, threshold, s, count, stream)) return 1;
      if (count <= s.slots) {
        total += count;
        if (collect(s, count, capacity, kept, stream)) return 1;
      } else {
        for (uint64_t sub = first; sub < first + len; sub += s.slots) {
          if (pass(job, sub, std::min(first + len - sub, s.slots), threshold, s, count, stream)) return 1;
          total += count;
          if (collect(s, count, capacity, kept, stream)) return 1;
        }
      }
      first += len;
    }
    // *found is the true count, hits the first min(found, capacity); both device memory.
    if ((!kept.empty() &&
         !ok(cudaMemcpyAsync(hits, kept.data(), kept.size() * sizeof(bx_md5z_hit), cudaMemcpyHostToDevice, stream))) ||
        !ok(cudaMemcpyAsync(found, &total, sizeof total, cudaMemcpyHostToDevice, stream)) || !ok(cudaStreamSynchronize(stream)))
      return 1;  // synchronised here: the host sources end with this function
  } catch (...) {
    return 1;
  }
  return s.release();
}

int search_job(void*, const bx_md5z_job* job, uint64_t lo, uint64_t hi, uint32_t threshold, bx_md5z_hit* hits, uint64_t capacity,
               uint64_t* found, void* stream_ptr) {
  const cudaStream_t stream = cudaStream_t(stream_ptr);
  bx_md5z_job j;
  if (!ok(cudaMemcpyAsync(&j, job, sizeof j, cudaMemcpyDeviceToHost, stream)) || !ok(cudaStreamSynchronize(stream))) return 1;
  return search_on(j, lo, hi, threshold, hits, capacity, found, stream);
}

int search(void*, const uint8_t* base, uint64_t lo, uint64_t hi, uint32_t threshold, bx_md5z_hit* hits, uint64_t capacity,
           uint64_t* found, void* stream_ptr) {
  const cudaStream_t stream = cudaStream_t(stream_ptr);
  bx_md5z_job job;
  if (job_of_base(base, job, stream)) return 1;
  return search_on(job, lo, hi, threshold, hits, capacity, found, stream);
}

const bx_md5z_ops ops = {sizeof(bx_md5z_ops), 0, md5, candidate_digests, search, search_job, prepare};
const char* const preconditions[] = {"bases only (bitexact never sends a non-base)", nullptr};
const bx_impl impls[] = {{sizeof(bx_impl), MD5Z_PLUGIN_NAME, BX_FAMILY_MD5Z, BX_PLACE_DEVICE, BX_CONTRACT_BIT_EXACT, nullptr,
                          preconditions, nullptr, &ops}};
const bx_plugin plugin = {BX_PLUGIN_ABI_VERSION, "md5z-tunnel-cuda-example", 1, impls};

}  // namespace

extern "C" BX_PLUGIN_EXPORT const bx_plugin* bx_plugin_entry_v1(void) { return &plugin; }
