// Host-side interface to the field25519 kernels (plain C++: callable from g++-compiled code).
// Implementations are named "<layout>/<backend>", e.g. "fe32/ptx". Every function selects the device,
// checks every CUDA call and throws bx::CudaError (cuda_check.hpp) or std::invalid_argument.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>
#include "gpu/field25519/layouts.hpp"

#include "gpu/kernels/device.hpp"

namespace bx::kern {

std::vector<std::string> fe_device_impls();  // layout/backend names with per-implementation kernels in this build

// One op per item on 32-byte operands (bits 0..254 read); canonical bytes out; flags[i] = sqrt_ratio's
// was_square (1 for other ops).
void fe_eval_bytes(int dev, const std::string& impl, f25519::Op op, const uint8_t* a, const uint8_t* b,
                   size_t n, uint8_t* out, uint8_t* flags);
// carry::ptx::split52, the FP64 product split of fe51s, on the device for each pair (a[i], b[i]) with
// a, b in [-2^52, 2^52) and |a b| < 2^103: hi = floor(a b / 2^52) and lo = a b mod 2^52, biases removed (the
// tests compare it with carry::portable's 128-bit product).
void split52_on_device(int dev, const int64_t* a, const int64_t* b, size_t n, uint64_t* hi, uint64_t* lo);
// The start-up derivation (f25519::fe_derive_constants) in one device thread: out[kDerivedConstants][32].
void fe_derive_constants_on(int dev, const std::string& impl, uint8_t* out);
void x25519_batch(int dev, const std::string& impl, const uint8_t* scalar, const uint8_t* u, size_t n,
                  uint8_t* out);

// Limb-level evaluation (inputs as given, any representation within the op's contract): output limbs
// and canonical bytes. Op::canonical returns the input limbs unchanged and their canonical bytes.
// (The typed entry point forwards to one untyped launcher, so no instantiation list is needed.)
// flags (optional): sqrt_ratio's was_square per item.
void fe_eval_limbs_of(int dev, const std::string& impl, f25519::Op op, const void* a, const void* b, size_t n, void* out,
                      uint8_t* bytes, uint8_t* flags);
template <class F>
void fe_eval_limbs(int dev, f25519::Op op, const typename F::fe* a, const typename F::fe* b, size_t n,
                   typename F::fe* out, uint8_t* bytes, uint8_t* flags = nullptr) {
  fe_eval_limbs_of(dev, std::string(F::name) + "/" + F::backend::name, op, a, b, n, out, bytes, flags);
}

// Bulk cross-check on the device: draws [first, first+count) of operand(seed, ...), runs the bulk program
// on every implementation, records disagreements (all of them counted, the first few kept) and a sample
// (one draw in 2^sample_shift) of the first implementation's outputs for the host to judge.
struct BulkDisagreement {
  uint64_t index;
  uint32_t mismatch_mask;  // bit i: implementation i differs from implementation 0
};
struct BulkSample {
  uint64_t index;
  uint8_t out[4][32];
};
struct BulkResult {
  uint64_t draws = 0, disagreements = 0;
  std::vector<BulkDisagreement> first_disagreements;
  std::vector<BulkSample> samples;
  double seconds = 0;
};
BulkResult fe_bulk(int dev, uint64_t seed, uint64_t first, uint64_t count, int sample_shift);
// The bulk program through an outside implementation's canonical-bytes ops, on device buffers and `stream`:
// operands drawn on the device, `op` called seven times per chunk (timed: BulkResult::seconds), the four
// outputs compared on the device with fe51/portable's program; mismatch_mask bit i: output i differs.
using OutsideBytesOp = std::function<void(f25519::Op op, const uint8_t* a, const uint8_t* b, size_t n, uint8_t* out, uint8_t* flags,
                                          void* stream)>;
BulkResult fe_bulk_outside(int dev, const OutsideBytesOp& op, void* stream, uint64_t seed, uint64_t first, uint64_t count);
// The implementations the bulk kernel runs, in mismatch_mask bit order: every layout x backend whatever
// BX_FIELD25519_KERNELS says (implementation 0 is the row the others are compared with).
std::vector<std::string> fe_bulk_impls();

// Bench: `threads` dependent chains of `iters` ops (x = x*y or x = x^2) from drawn start values
// draw_operand(seed, chain, 0/1), each writing canonical x to `out` (threads x 32 bytes, for parity); `lanes`
// chains per GPU thread, interleaved (1, or 2 for the kernels of this build's BX_FIELD25519_KERNELS set).
struct BenchRun {
  double seconds;
  int registers;
  size_t local_bytes;  // per-thread local memory (spills and local arrays)
};
BenchRun fe_bench(int dev, const std::string& impl, f25519::Op op, uint64_t seed, size_t threads, int iters,
                  std::vector<uint8_t>& out, int lanes = 1);

}  // namespace bx::kern
