// The q8parity variants: one row each. Kernels, host runs, selftest, verify, bench, the oracle and `list`
// iterate over kVariants, so a variant is a row here plus, for a new kind of code, its per-item function
// (q8_matvec.hpp, q8_rmsnorm.hpp, q8_gr.hpp) and its case in the kernel dispatch.
//
// Contracts: matvec and rmsnorm variants are bit-exact against the CPU reference (the same IEEE operations
// in the same order). The gr read's epilogues call expf, so its variants are bitwise equal to the plain gr
// variant of the same place (GPU or CPU) and within NMSE 1e-7 of the float64 reference; their parts
// without transcendental functions (xn, the two matvec pre-activations) are bit-exact. The negative
// control sums in another order on purpose and must be reported as different.
#pragma once
#include <string_view>
#include <cstddef>

namespace bx::q8 {

enum class Op { matvec, rmsnorm, gr };

struct VariantRow {
  const char* name;
  Op op;
  int nr;         // matvec: rows per thread (1 or 2)
  bool packed;    // matvec: codes kept as 8 words and widened per token (else 32 floats per row)
  bool unrolled;  // matvec: token loop unrolled at compile time (ntok a template argument) or rolled
  bool negative;  // matvec: the negative control (a warp tree inside a row)
  bool hoisted;   // rmsnorm: weight branch hoisted, pointers pre-offset; gr: -
  bool fused;     // gr: one kernel per token (norm, down, up, mean) instead of five launches
  const char* contract;
  const char* shortcuts;
  const char* description;
};

inline constexpr const char* kBitExact = "bit-exact";
inline constexpr const char* kBetweenVariants = "between-variants,nmse<=1e-7";
inline constexpr const char* kMustDiffer = "negative-control";

// Rows per thread group (NR in the Metal decoder kernels); matvec kernels stage K in chunks of this many blocks.
inline constexpr VariantRow kVariants[] = {
    {"q8parity/matvec/nr1/unpacked/unrolled", Op::matvec, 1, false, true, false, false, false, kBitExact, "",
     "one row per thread, codes widened once per block, token loop unrolled (ntok 1..8 compiled)"},
    {"q8parity/matvec/nr1/unpacked/rolled", Op::matvec, 1, false, false, false, false, false, kBitExact, "rolled-tokens",
     "one row per thread, token loop rolled (accumulators indexed at run time)"},
    {"q8parity/matvec/nr1/packed/unrolled", Op::matvec, 1, true, true, false, false, false, kBitExact, "packed",
     "one row per thread, codes kept as char4 words and widened per token"},
    {"q8parity/matvec/nr1/packed/rolled", Op::matvec, 1, true, false, false, false, false, kBitExact, "packed,rolled-tokens",
     "packed codes, token loop rolled"},
    {"q8parity/matvec/nr2/unpacked/unrolled", Op::matvec, 2, false, true, false, false, false, kBitExact, "nr2",
     "two rows per thread (x read once for both), codes widened once"},
    {"q8parity/matvec/nr2/unpacked/rolled", Op::matvec, 2, false, false, false, false, false, kBitExact, "nr2,rolled-tokens",
     "two rows per thread, token loop rolled"},
    {"q8parity/matvec/nr2/packed/unrolled", Op::matvec, 2, true, true, false, false, false, kBitExact, "nr2,packed",
     "two rows per thread, packed codes (a Metal decoder's aGrdUnit<Q8_0, 2>)"},
    {"q8parity/matvec/nr2/packed/rolled", Op::matvec, 2, true, false, false, false, false, kBitExact, "nr2,packed,rolled-tokens",
     "two rows per thread, packed codes, token loop rolled"},
    {"q8parity/matvec/negative-control", Op::matvec, 1, false, false, true, false, false, kMustDiffer, "warp-tree",
     "a warp per row, lane l sums code l of every block, then an xor tree: another order, must differ"},
    {"q8parity/rmsnorm/plain", Op::rmsnorm, 0, false, false, false, false, false, kBitExact, "",
     "a warp per row, index and weight branch per element"},
    {"q8parity/rmsnorm/hoisted", Op::rmsnorm, 0, false, false, false, true, false, kBitExact, "hoisted,pre-offset",
     "weight branch hoisted out of the loop, pointers pre-offset by the lane, strides unrolled by four"},
    {"q8parity/gr/plain", Op::gr, 0, false, false, false, false, false, kBetweenVariants, "",
     "hyper-connection read as five launches: gr_norm, gr_down (matvec), its silu, gr_up (matvec), gate mean"},
    {"q8parity/gr/fused", Op::gr, 0, false, false, false, false, true, kBetweenVariants, "fused",
     "the whole read in one launch, a block per token (norm, down, up and mean behind block barriers)"},
};
inline constexpr size_t kVariantCount = sizeof(kVariants) / sizeof(kVariants[0]);

// Rows that other code names: the canonical matvec (nr1, unpacked, unrolled: one thread, one row, the
// order as written), the plain rmsnorm, and the plain gr read (the reference of the other gr variants
// where the contract is between variants).
inline constexpr size_t kMatvecCanonical = 0, kRmsPlain = 9, kGrPlain = 11;
static_assert(kVariants[kMatvecCanonical].op == Op::matvec && kVariants[kMatvecCanonical].nr == 1 &&
              !kVariants[kMatvecCanonical].packed && kVariants[kMatvecCanonical].unrolled);
static_assert(kVariants[kRmsPlain].op == Op::rmsnorm && !kVariants[kRmsPlain].hoisted);
static_assert(kVariants[kGrPlain].op == Op::gr && !kVariants[kGrPlain].fused);
// The negative-control flag and the must-differ contract name the same rows (kernels read the one, the
// judges the other).
constexpr bool negative_rows_agree() {
  for (const auto& v : kVariants)
    if (v.negative != (std::string_view(v.contract) == std::string_view(kMustDiffer))) return false;
  return true;
}
static_assert(negative_rows_agree(), "a row's negative flag and its contract disagree");

}  // namespace bx::q8
