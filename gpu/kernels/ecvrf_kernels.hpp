// Host-side interface to the ecvrf kernels (plain C++: callable from g++-compiled code). Every function
// selects the device, checks every CUDA call and throws bx::CudaError or std::invalid_argument.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gpu/kernels/device.hpp"

namespace bx::kern {

// One compiled pipeline: "ecvrf/fe32-ptx/w4/compact/k2" = layout-backend, scalar strategy (da, w4, wnaf5,
// jt), pipeline (fused: every step per attempt in one kernel; compact: hash-to-curve passes that queue
// the failed candidates, then a scalar-multiplication pass over the found points), points per inversion.
struct EcvrfDeviceVariant {
  std::string name, layout, backend, strategy, pipeline;
  int k;
  std::vector<std::string> point_strategies;  bool folded;  // the cofactor folded (8 (t P), t = 8x mod L); false: the spec's steps (the oracle)  // the strategies its point checks run (ecvrf_point_checks)
};
// The variants compiled into this build, in a fixed order (BX_ECVRF_KERNELS: all; one: each kernel template
// once; best: one plus the fe51s pipelines).
std::vector<EcvrfDeviceVariant> ecvrf_device_variants();

// A search job (spec 9): the secret scalar as given (x or x mod L: the same Gamma), pk = x B encoded,
// alpha = header || LE64(nonce).
struct EcvrfJob {
  std::array<uint8_t, 32> x, pk, header;
};
struct EcvrfHit {
  uint64_t nonce, score;
};
struct EcvrfSearchOptions {
  uint64_t target = 0;          // hit iff score < target
  size_t initial_capacity = 0;  // hit buffer entries (0: from the target); an overflowing slice is re-run
  uint32_t max_slice = 1u << 22;  // nonces per launch (smaller only to test slice ends)
  int passes = 12;              // compact: single-try passes before the last, which finishes every item
};
struct EcvrfSearchStats {
  double kernel_seconds = 0;  // event time of the slices (re-runs included)
  uint64_t attempts = 0;
  unsigned launches = 0, reruns = 0;
  uint64_t finished_in_last_pass = 0;  // compact: items that reached the last pass (which runs to ctr 255)
  uint64_t no_beta = 0;                // no ctr <= 255 gave a point (never seen; reported, never a hit)
};
// Every hit of [lo, lo + n) (lo + n <= 2^64), in nonce order, each once.
std::vector<EcvrfHit> ecvrf_search(int dev, const std::string& variant, const EcvrfJob& job, uint64_t lo, uint64_t n,
                                   const EcvrfSearchOptions& opt, EcvrfSearchStats* stats = nullptr);

// beta (64 bytes) of every nonce of [lo, lo + n) along the variant's own path (n <= 2^22); valid[i] = 0
// where no beta exists.
void ecvrf_betas(int dev, const std::string& variant, const EcvrfJob& job, uint64_t lo, uint32_t n, int passes,
                 uint8_t* betas, uint8_t* valid);
// beta of general alphas (each at most 75 bytes: one SHA-512 block), e.g. RFC 9381's examples.
void ecvrf_betas_alpha(int dev, const std::string& variant, const std::array<uint8_t, 32>& x,
                       const std::array<uint8_t, 32>& pk, const std::vector<std::vector<uint8_t>>& alphas,
                       uint8_t* betas, uint8_t* valid);

// Bulk cross-check on the device: the betas of variants a and b over [lo, lo + n) compared in device
// memory (compacted pipelines at `passes`). Returns the number of nonces whose beta (or validity) differs,
// and up to `keep` of their offsets per slice (the first to be found, in offset order).
struct EcvrfBetaDiff {
  uint64_t compared = 0, differing = 0;
  std::vector<uint64_t> first;
  double kernel_seconds = 0;
};
EcvrfBetaDiff ecvrf_compare_betas(int dev, const std::string& a, const std::string& b, const EcvrfJob& job,
                                  uint64_t lo, uint64_t n, int passes = 12, size_t keep = 16);

// The point code of a compiled pipeline's layout and strategy on the device (the selftest's points column,
// verify --vectors, the oracle's GPU point answers), canonical bytes out:
//   constants    always: the layout's start-up constants (f25519::fe_derive_constants: 1, d, 2d,
//                sqrt(-1), 1*1) derived on the card by the pipeline's layout code;
//   decodes      strict decode of each string, then its encoding (status DecodeStatus, 0 = valid), and
//                TAI's verdict on it as a candidate (bit 0 candidate_to_h, bit 1 candidate_to_p);
//   encodes      X held as given (e.g. x + p, non-canonical), Y, Z = 1, T = XY, then the encoding;
//   inversions   sets of 1..8 values through fe_batch_invert<F, K> at K = 1, 2, 4 or 8 (the set's size
//                rounded up; the pipelines run K = 1, 2, 4), padded with 1 after the set's values;
//   adds         pairs (P, Q) -> kEcvrfPointAddForms encodings: general P + Q, P + cached Q, P - cached Q
//                (negate flag), P + negated cached Q, 2P (ge_dbl); 0xff bytes if the card rejects P or Q;
//   scalars      encode(k H) for each scalar k with H decoded from h_point (0xff bytes if the card rejects
//                it), for the pipeline's strategy (in a BX_ECVRF_KERNELS=one build, the compacted
//                pipeline's layout runs every strategy, so that each strategy's device code is checked
//                once), keyed by strategy tag.
using EcvrfBytes32 = std::array<uint8_t, 32>;
struct EcvrfPointInputs {
  std::vector<EcvrfBytes32> decodes;
  std::vector<std::pair<EcvrfBytes32, EcvrfBytes32>> encodes;  // X bytes, Y bytes
  std::vector<std::vector<EcvrfBytes32>> inversions;
  std::vector<std::pair<EcvrfBytes32, EcvrfBytes32>> adds;
  EcvrfBytes32 h_point{};
  std::vector<EcvrfBytes32> scalars;
  std::string only_strategy;  // non-empty: scalars through this strategy tag only (if the variant has it)
};
constexpr int kEcvrfPointAddForms = 5;
struct EcvrfPointOutputs {
  std::vector<EcvrfBytes32> constants;  // f25519::kDerivedConstants
  std::vector<uint8_t> decode_status;
  std::vector<uint8_t> tai_verdicts;  // per decode: bit 0 candidate_to_h, bit 1 candidate_to_p
  std::vector<EcvrfBytes32> decoded, encoded;
  std::vector<std::vector<EcvrfBytes32>> inverses;
  std::vector<std::vector<EcvrfBytes32>> sums;  // kEcvrfPointAddForms per pair
  std::vector<std::pair<std::string, std::vector<EcvrfBytes32>>> scalar_products;  // strategy tag, k H per scalar
};
// Throws std::logic_error when a strategy's host recoding of a scalar fails (it must reconstruct k; a
// Joye-Tunstall scalar must be below 2^255), std::invalid_argument on a malformed set, bx::CudaError.
EcvrfPointOutputs ecvrf_point_checks(int dev, const std::string& variant, const EcvrfPointInputs& in);

struct EcvrfKernelInfo {
  std::string kernel;
  int registers;
  size_t local_bytes;  // per-thread local memory (spills, local arrays)
};
std::vector<EcvrfKernelInfo> ecvrf_kernel_info(const std::string& variant);

}  // namespace bx::kern
