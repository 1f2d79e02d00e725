// Host-side interface to the q8parity kernels (plain C++: callable from g++-compiled code). Every function
// selects the device, checks every CUDA call and throws bx::CudaError or std::invalid_argument. Outputs a
// kernel does not write keep the poison value the caller gives (so a dropped row is visible).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gpu/kernels/device.hpp"
#include "gpu/q8parity/host_run.hpp"

namespace bx::kern {

// A matvec problem resident on one device: weights (Q8_0 rows, padded for the staged loads), activations
// and outputs, so that bench rounds time only kernels.
class Q8MatvecOnDevice {
 public:
  Q8MatvecOnDevice(int dev, const uint8_t* weights, size_t rows, size_t k, const float* x, int ntok);
  ~Q8MatvecOnDevice();
  Q8MatvecOnDevice(const Q8MatvecOnDevice&) = delete;
  Q8MatvecOnDevice& operator=(const Q8MatvecOnDevice&) = delete;
  // Matvec variant v (an index into q8::kVariants) for the first `ntok` tokens of x (<= the ntok given),
  // `reps` launches back to back; seconds (if given) gets their total event time. Returns ntok * rows.
  std::vector<float> run(size_t v, int ntok, float poison, int reps = 1, double* seconds = nullptr);
  size_t weight_bytes() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> p_;
};
std::vector<float> q8_matvec_gpu(int dev, size_t v, const uint8_t* weights, size_t rows, size_t k, const float* x, int ntok,
                                 float poison);

// rmsnorm variant v over nrows rows of n (weights w + (row % w_period) * n, or none).
std::vector<float> q8_rmsnorm_gpu(int dev, size_t v, const float* x, const float* w, size_t n, size_t nrows,
                                  size_t w_period, float eps, float poison);

// The gr read, variant v (plain: five launches; fused: one), every intermediate read back.
q8::GrResult q8_gr_gpu(int dev, size_t v, const q8::GrProblem& p, float poison, double* seconds = nullptr);

// For the other q8parity launchers: matvec variant v on device pointers (weights padded by
// q8_weight_pad() bytes, zeroed), launched on the current device and stream, not synchronised.
void q8_matvec_launch(size_t v, const uint8_t* w, size_t rows, size_t k, const float* x, int ntok, float* y);
// Whether this build holds variant v's matvec kernel for ntok tokens (BX_Q8_KERNELS=one compiles the rolled
// token loop and ntok 1 only; rmsnorm, gr and the negative control are always built).
bool q8_matvec_compiled(size_t v, int ntok);
size_t q8_weight_pad();

// The build rules the orders depend on, probed by a kernel in each q8parity translation unit: "" when
// both were compiled without contraction (-fmad=false) and without flush-to-zero, else what is wrong.
std::string q8_device_build_problems(int dev);
std::string q8_matvec_build_probe(int dev);  // the matvec translation unit's part

// Device-to-device copy of `bytes` (cudaMemcpyAsync, best of `reps`): bytes read + written per second.
double q8_copy_bandwidth(int dev, size_t bytes, int reps = 5);

struct Q8KernelInfo {
  std::string kernel;
  int registers;
  size_t local_bytes;   // per-thread local memory (spills, run-time indexed arrays)
  size_t shared_bytes;  // static shared memory (the staged kernels add dynamic shared memory)
};
// The kernels of variant v (matvec: its ntok instantiation, 0 for the rolled one).
std::vector<Q8KernelInfo> q8_kernel_info(size_t v, int ntok);
std::vector<Q8KernelInfo> q8_norm_gr_kernel_info(size_t v);  // the rmsnorm and gr part of it

}  // namespace bx::kern
