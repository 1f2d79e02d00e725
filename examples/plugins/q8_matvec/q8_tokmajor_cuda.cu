// A Q8_0 matvec kernel for several tokens, in the canonical order (bit-exact), shaped for 8 tokens: the
// experiment behind the q8parity page's "what limits the matvec at 8 tokens". bitexact's own kernels read
// one activation from shared memory per fma; here each activation read (four tokens in one 128-bit load)
// feeds kRows rows, so shared-memory traffic per fma falls by kRows.
//
// Shape: persistent blocks, one per SM, kWarps warps each. A block stages all of x in shared memory once, as
// [block][i][token] with a padded block stride (lanes read distinct 16-byte bank groups); a warp owns kRows
// consecutive rows at a time and walks K in chunks of 32 Q8_0 blocks, lane l taking block 32 c + l of each of
// its rows (the rows' chunk bytes staged in the warp's own buffer by coalesced 16-bit loads). Lane l forms the
// block sums s[r][t] = fma chain over i = 0..31; the warp then transposes them through shared memory so that
// lane j = r * ntok + t folds acc = fma(d_b, s_b, acc) over the chunk's blocks in block order. Shapes whose x
// does not fit in shared memory take a plain kernel (one thread per row and token, the order as written).
// Built for a card run only (EXCLUDE_FROM_ALL): ci/gpu-limits benches it beside bitexact's kernels.
#include <bitexact/plugin.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace {

constexpr int kRows = 4;    // rows per warp; kRows * ntok <= 32 (one folding lane per row and token)
constexpr int kWarps = 16;  // warps per block
constexpr int kMaxTok = 8;
constexpr int kChunkBlocks = 32;            // Q8_0 blocks per chunk: one per lane
constexpr int kChunkBytes = 34 * kChunkBlocks;  // 1088 bytes of one row
constexpr int kFoldStride = 33;             // floats per folding row (odd: the transpose is conflict-free)

__host__ __device__ constexpr int x_block_stride(int ntok) { return 32 * ntok + 4; }  // floats per Q8_0 block of x
// A warp's region: the rows' chunk bytes, then (once the codes are in registers) the transpose in place.
constexpr size_t kStageBytes = size_t(kRows) * kChunkBytes;
constexpr size_t kFoldBytes = size_t(32 * kFoldStride + kRows * kFoldStride) * sizeof(float);
__host__ __device__ constexpr size_t warp_bytes() {
  return ((kStageBytes > kFoldBytes ? kStageBytes : kFoldBytes) + 15) / 16 * 16;
}

__device__ float fp16_bits_to_float(uint32_t h) {  // exact: every fp16 value is a float
  const uint32_t sign = (h >> 15) << 31, exp = (h >> 10) & 31, man = h & 1023;
  if (exp == 31) return __uint_as_float(sign | 0x7f800000u | (man << 13));
  if (exp == 0) return __uint_as_float(__float_as_uint(__uint2float_rn(man) * 0x1p-24f) | sign);
  return __uint_as_float(sign | ((exp + 112) << 23) | (man << 13));
}
__device__ float code(uint32_t word, int k) { return float(int8_t(uint8_t(word >> (8 * k)))); }

template <int NTOK>
__global__ void __launch_bounds__(kWarps * 32, 1) k_tokmajor(const uint8_t* __restrict__ w, const float* __restrict__ x,
                                                             uint64_t rows, uint64_t k, float* __restrict__ y) {
  extern __shared__ __align__(16) uint8_t smem[];
  const uint64_t nb = k / 32, row_bytes = nb * 34;
  float* xs = reinterpret_cast<float*>(smem);
  const size_t xs_bytes = (nb * x_block_stride(NTOK) * sizeof(float) + 15) / 16 * 16;
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  uint8_t* wbuf = smem + xs_bytes + size_t(warp) * warp_bytes();
  float* fold_s = reinterpret_cast<float*>(wbuf);  // [pair][block of the chunk], over the staged bytes
  float* fold_d = fold_s + 32 * kFoldStride;                             // [row][block of the chunk]

  // x, all tokens, into [block][i][token].
  for (uint64_t e = threadIdx.x; e < uint64_t(NTOK) * k; e += blockDim.x) {
    const uint64_t t = e / k, j = e % k;
    xs[(j / 32) * x_block_stride(NTOK) + (j % 32) * NTOK + t] = x[e];
  }
  __syncthreads();

  const int pr = lane / NTOK, pt = lane % NTOK;  // the (row, token) this lane folds, for lane < kRows * NTOK
  const uint64_t groups = (rows + kRows - 1) / kRows;
  for (uint64_t g = uint64_t(blockIdx.x) * kWarps + warp; g < groups; g += uint64_t(gridDim.x) * kWarps) {
    const uint64_t r0 = g * kRows;
    float acc = 0.0f;
    for (uint64_t c0 = 0; c0 < nb; c0 += kChunkBlocks) {
      const int nbc = int(nb - c0 < kChunkBlocks ? nb - c0 : kChunkBlocks);
      // The rows' chunk bytes into the warp's buffer, 16 bits at a time (every block starts 2-aligned).
      for (int r = 0; r < kRows; ++r) {
        const uint64_t row = r0 + r;
        const uint16_t* src = reinterpret_cast<const uint16_t*>(w + row * row_bytes + c0 * 34);
        uint16_t* dst = reinterpret_cast<uint16_t*>(wbuf + r * kChunkBytes);
        for (int h = lane; h < nbc * 17; h += 32) dst[h] = row < rows ? src[h] : uint16_t(0);
      }
      __syncwarp();
      float s[kRows][NTOK];
      float d[kRows];
#pragma unroll
      for (int r = 0; r < kRows; ++r) {
        d[r] = 0.0f;
#pragma unroll
        for (int t = 0; t < NTOK; ++t) s[r][t] = 0.0f;
      }
      uint32_t q[kRows][8];  // this lane's block of each row: 32 codes, four to a word
      if (lane < nbc) {
#pragma unroll
        for (int r = 0; r < kRows; ++r) {
          const uint8_t* blk = wbuf + r * kChunkBytes + 34 * lane;
          const uint16_t* h = reinterpret_cast<const uint16_t*>(blk);
          d[r] = fp16_bits_to_float(h[0]);
#pragma unroll
          for (int j = 0; j < 8; ++j) q[r][j] = uint32_t(h[1 + 2 * j]) | uint32_t(h[2 + 2 * j]) << 16;
        }
      }
      __syncwarp();  // every lane holds its codes: the region takes the transpose next
      if (lane < nbc) {
        const float* xb = xs + (c0 + lane) * x_block_stride(NTOK);
#pragma unroll
        for (int i = 0; i < 32; ++i) {
          float xv[NTOK];
          if constexpr (NTOK % 4 == 0) {
#pragma unroll
            for (int t = 0; t < NTOK; t += 4) {
              const float4 v = *reinterpret_cast<const float4*>(xb + i * NTOK + t);
              xv[t] = v.x, xv[t + 1] = v.y, xv[t + 2] = v.z, xv[t + 3] = v.w;
            }
          } else {
#pragma unroll
            for (int t = 0; t < NTOK; ++t) xv[t] = xb[i * NTOK + t];
          }
#pragma unroll
          for (int r = 0; r < kRows; ++r) {
            const float qf = code(q[r][i / 4], i % 4);
#pragma unroll
            for (int t = 0; t < NTOK; ++t) s[r][t] = __fmaf_rn(qf, xv[t], s[r][t]);
          }
        }
      }
      // Transpose: lane (block) b's s[r][t] to the folding lane r * NTOK + t, its d[r] beside them.
#pragma unroll
      for (int r = 0; r < kRows; ++r) {
        fold_d[r * kFoldStride + lane] = d[r];
#pragma unroll
        for (int t = 0; t < NTOK; ++t) fold_s[(r * NTOK + t) * kFoldStride + lane] = s[r][t];
      }
      __syncwarp();
      if (lane < kRows * NTOK)
        for (int b = 0; b < nbc; ++b) acc = __fmaf_rn(fold_d[pr * kFoldStride + b], fold_s[lane * kFoldStride + b], acc);
      __syncwarp();
    }
    if (lane < kRows * NTOK && r0 + pr < rows) y[uint64_t(pt) * rows + r0 + pr] = acc;
  }
}

// Any shape: one thread per (row, token), the canonical order as written.
__global__ void k_plain(const uint8_t* __restrict__ w, const float* __restrict__ x, uint64_t rows, uint64_t k, uint32_t ntok,
                        float* __restrict__ y) {
  const uint64_t id = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (id >= rows * ntok) return;
  const uint64_t r = id % rows, t = id / rows, nb = k / 32;
  float acc = 0.0f;
  for (uint64_t b = 0; b < nb; ++b) {
    const uint8_t* blk = w + (r * nb + b) * 34;
    float s = 0.0f;
    for (int i = 0; i < 32; ++i) s = __fmaf_rn(float(int8_t(blk[2 + i])), x[t * k + 32 * b + i], s);
    acc = __fmaf_rn(fp16_bits_to_float(uint32_t(blk[0]) | uint32_t(blk[1]) << 8), s, acc);
  }
  y[t * rows + r] = acc;
}

template <int NTOK>
int launch_tokmajor(const uint8_t* w, const float* x, uint64_t rows, uint64_t k, float* y, cudaStream_t stream, bool* taken) {
  const uint64_t nb = k / 32;
  const size_t bytes = (nb * x_block_stride(NTOK) * sizeof(float) + 15) / 16 * 16 + kWarps * warp_bytes();
  int dev = 0, sms = 0, max_smem = 0;
  if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&max_smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess)
    return 1;
  *taken = bytes <= size_t(max_smem) && NTOK * kRows <= 32;
  if (!*taken) return 0;
  if (cudaFuncSetAttribute(k_tokmajor<NTOK>, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)) != cudaSuccess) return 1;
  k_tokmajor<NTOK><<<sms, kWarps * 32, bytes, stream>>>(w, x, rows, k, y);
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}

int matvec(void*, const uint8_t* w, const float* x, uint64_t rows, uint64_t k, uint32_t ntok, float* y, void* stream_ptr) {
  const cudaStream_t stream = cudaStream_t(stream_ptr);
  if (k == 0 || k % 32 || ntok < 1 || ntok > kMaxTok) return 1;
  if (rows == 0) return 0;
  bool taken = false;
  int rc = 0;
  switch (ntok) {
    case 1: rc = launch_tokmajor<1>(w, x, rows, k, y, stream, &taken); break;
    case 2: rc = launch_tokmajor<2>(w, x, rows, k, y, stream, &taken); break;
    case 3: rc = launch_tokmajor<3>(w, x, rows, k, y, stream, &taken); break;
    case 4: rc = launch_tokmajor<4>(w, x, rows, k, y, stream, &taken); break;
    case 5: rc = launch_tokmajor<5>(w, x, rows, k, y, stream, &taken); break;
    case 6: rc = launch_tokmajor<6>(w, x, rows, k, y, stream, &taken); break;
    case 7: rc = launch_tokmajor<7>(w, x, rows, k, y, stream, &taken); break;
    case 8: rc = launch_tokmajor<8>(w, x, rows, k, y, stream, &taken); break;
  }
  if (rc) return rc;
  if (!taken) {
    const uint64_t n = rows * ntok;
    k_plain<<<unsigned((n + 127) / 128), 128, 0, stream>>>(w, x, rows, k, ntok, y);
    if (cudaGetLastError() != cudaSuccess) return 1;
  }
  return cudaStreamSynchronize(stream) == cudaSuccess ? 0 : 1;
}

const bx_q8parity_ops kOps = {sizeof(bx_q8parity_ops), 0, 0.0, matvec, nullptr};
const bx_impl kImpl = {sizeof(bx_impl), "q8-cuda-tokmajor", BX_FAMILY_Q8PARITY, BX_PLACE_DEVICE, BX_CONTRACT_BIT_EXACT,
                       nullptr, nullptr, nullptr, &kOps};
const bx_plugin kPlugin = {BX_PLUGIN_ABI_VERSION, "q8-tokmajor-cuda", 1, &kImpl};

}  // namespace

extern "C" BX_PLUGIN_EXPORT const bx_plugin* bx_plugin_entry_v1(void) { return &kPlugin; }
