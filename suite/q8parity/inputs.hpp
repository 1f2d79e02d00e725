// q8parity's problem inputs: seeded random and the spec's special values (docs/specs/q8parity.md), the CPU
// reference of each op, and float32 vectors as bytes and hex (the vector files, the oracle).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "gpu/q8parity/host_run.hpp"
#include "reference/q8parity/q8_ref.hpp"

namespace bx::q8parity {

namespace R = ref::q8;

// Inputs. `special`: codes -128 and 127 among uniform codes, scales +-0, subnormal, largest finite, +-inf
// and NaN among ordinary ones, activations with subnormals and signed zeros (docs/specs/q8parity.md).
struct MatvecInput {
  size_t rows = 0, k = 0;
  int ntok = 1;
  std::vector<uint8_t> w;  // rows * k / 32 blocks
  std::vector<float> x;    // ntok * k
};
MatvecInput random_matvec(uint64_t seed, size_t rows, size_t k, int ntok, bool special);
// The same weights, the first `ntok` tokens only.
MatvecInput first_tokens(const MatvecInput& in, int ntok);

struct NormInput {
  size_t n = 0, nrows = 1, w_period = 1;
  bool has_w = true;
  float eps = 1e-6f;
  std::vector<float> x, w;  // nrows * n; w_period * n (when has_w)
};
NormInput random_norm(uint64_t seed, size_t n, size_t nrows, bool has_w, bool special);
R::GrInputs random_gr(uint64_t seed, const R::GrShape& shape, int ntok);
q8::GrProblem problem_of(const R::GrInputs& in);

// The CPU reference of each op (the canonical order; the gr read in float32 with the host's expf).
std::vector<float> reference_matvec(const MatvecInput& in);
std::vector<float> reference_rmsnorm(const NormInput& in);

std::vector<uint8_t> to_bytes(const std::vector<float>& v);  // little-endian
std::string floats_hex(const std::vector<float>& v);         // to_bytes as hex
// One float from 8 hex digits of its bit pattern ("358637bd" is 1e-6); InputError naming `what`.
float float_of_hex8(const std::string& hex, const std::string& what);
std::vector<float> floats_of(const std::vector<uint8_t>& bytes, const std::string& what);  // a multiple of 4

}  // namespace bx::q8parity
