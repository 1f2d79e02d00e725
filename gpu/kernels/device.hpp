// Host-side interface shared by every family's launchers (plain C++: callable from g++-compiled code):
// device queries and the issue-ceiling microbenchmarks that bench rates are set against.
#pragma once
#include <string>

namespace bx::kern {

int device_count();  // 0 when no CUDA device or runtime is usable; never throws
std::string device_name(int dev);
int device_sm_count(int dev);
std::string device_pci_bus_id(int dev);  // "0000:3B:00.0": how NVML finds the same card (its order may differ)
int cuda_driver_version();   // 13000 for CUDA 13.0; 0 when unknown
int cuda_runtime_version();

// Issue ceilings measured by independent chains of one instruction (8 x 8 per iteration, so the rate is
// the pipe's issue limit, not latency). Return instructions/s.
double imad_ceiling(int dev);  // 32-bit multiply-add (FMA pipe)
double ialu_ceiling(int dev);  // LOP3 (integer ALU pipe)
double dfma_ceiling(int dev);  // fma.rz.f64 (FP64 pipe: fe51s forms its products there)
double mul64x64_ceiling(int dev);  // full 64x64 -> 128-bit products (mul.lo.u64 + mul.hi.u64 pairs)

// Device memory for calls into outside code (plugins on a GPU, suite/call_site.hpp). Each selects the
// device and throws CudaError on failure; free never throws.
void* device_alloc(int dev, size_t bytes);
void device_free(int dev, void* p) noexcept;
void device_copy_in(int dev, void* dst, const void* src, size_t bytes);   // host -> device
void device_copy_out(int dev, void* dst, const void* src, size_t bytes);  // device -> host
void device_fill(int dev, void* p, int value, size_t bytes);
void* device_stream(int dev);              // bitexact's stream for outside calls on dev (created once)
void device_sync(int dev, void* stream);   // waits; throws CudaError with the first error the stream saw
void device_select(int dev);
void device_sync_all(int dev);             // every stream of dev (fills and copies before an outside call)

}  // namespace bx::kern
