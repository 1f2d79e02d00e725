// Every CUDA runtime call and launch goes through BX_CUDA / BX_CUDA_LAUNCH: a failure becomes a
// bx::CudaError naming the call, file and line and the runtime's message (never a silent wrong answer).
#pragma once
#include <cuda_runtime.h>
#include <stdexcept>
#include <string>

namespace bx {
struct CudaError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
inline void cuda_check(cudaError_t e, const char* what, const char* file, int line) {
  if (e != cudaSuccess)
    throw CudaError(std::string("CUDA error: ") + what + " failed at " + file + ":" + std::to_string(line) + ": " +
                    cudaGetErrorString(e));
}
}  // namespace bx

#define BX_CUDA(call) ::bx::cuda_check((call), #call, __FILE__, __LINE__)
// After a <<<...>>> launch: the launch error, then the kernel's own completion.
#define BX_CUDA_LAUNCH(what)                                          \
  do {                                                                \
    ::bx::cuda_check(cudaGetLastError(), what, __FILE__, __LINE__);   \
    ::bx::cuda_check(cudaDeviceSynchronize(), what, __FILE__, __LINE__); \
  } while (0)
