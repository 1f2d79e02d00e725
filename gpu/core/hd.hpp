// BX_HD: the one host/device macro. Per-item arithmetic lives in headers marked BX_HD so that
// property tests, fuzzers and sanitizers on the host run exactly the code the kernels run.
#pragma once
#include <cstdint>

#if defined(__CUDACC__)
#define BX_HD __host__ __device__ __forceinline__
#define BX_HD_NOINLINE __host__ __device__ __noinline__
#define BX_DEVICE __device__ __forceinline__
#else
#define BX_HD_NOINLINE inline
#define BX_HD inline
#define BX_DEVICE inline
#endif

// Loop unrolling hint for nvcc; nothing elsewhere (g++ and clang would warn or differ).
// BX_ROLLED keeps a loop rolled (code size: warps of a kernel larger than the instruction cache stall
// on instruction fetch).
#if defined(__CUDACC__)
#define BX_UNROLL _Pragma("unroll")
#define BX_ROLLED _Pragma("unroll 1")
#else
#define BX_UNROLL
#define BX_ROLLED
#endif

// True while compiling device code (the PTX backend exists only there).
#if defined(__CUDA_ARCH__)
#define BX_ON_DEVICE 1
#else
#define BX_ON_DEVICE 0
#endif

#include "gpu/core/fault.hpp"
