// Host-side interface shared by every family's launchers (plain C++: callable from g++-compiled code):
// device queries and the issue-ceiling microbenchmarks that bench rates are set against.
#pragma once
#include <string>

namespace bx::kern {

int device_count();  // 0 when no CUDA device or runtime is usable; never throws
std::string device_name(int dev);
int device_sm_count(int dev);

// Issue ceilings measured by independent chains of one instruction (8 x 8 per iteration, so the rate is
// the pipe's issue limit, not latency). Return instructions/s.
double imad_ceiling(int dev);  // 32-bit multiply-add (FMA pipe)
double ialu_ceiling(int dev);  // LOP3 (integer ALU pipe)
double dfma_ceiling(int dev);  // fma.rz.f64 (FP64 pipe: fe51s forms its products there)
double mul64x64_ceiling(int dev);  // full 64x64 -> 128-bit products (mul.lo.u64 + mul.hi.u64 pairs)

}  // namespace bx::kern
