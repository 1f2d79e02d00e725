// libFuzzer target: the strict GGUF reader (reference/q8parity/gguf.hpp) on arbitrary bytes. Every input
// either parses or raises one GgufError; it never reads out of bounds (ASan), overflows (UBSan) or hangs.
// A file that parses has each tensor read back through the accessor of its type, and a Q8_0 tensor's rows
// through the canonical matvec once (the bytes the reader hands out are the tensor's, sized by its shape).
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "reference/q8parity/gguf.hpp"
#include "reference/q8parity/q8_ref.hpp"

namespace G = bx::ref::gguf;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  G::File f;
  try {
    f = G::parse(std::vector<uint8_t>(data, data + size), "fuzz input");
  } catch (const G::GgufError&) {
    return 0;
  }
  for (const G::Tensor& t : f.tensors) {
    try {
      if (t.type == G::kQ8_0) {
        const G::Q8Matrix m = G::q8_matrix(f, t.name);
        if (m.blocks.size() != m.rows * (m.k / 32) * 34) {
          std::fprintf(stderr, "q8parity_gguf: tensor '%s': %zu bytes for %zu x %zu\n", t.name.c_str(), m.blocks.size(), m.rows, m.k);
          std::abort();
        }
        if (m.rows * m.k <= (1u << 16)) {
          const std::vector<float> x(m.k, 1.0f);
          (void)bx::ref::q8::matvec(m.blocks.data(), m.rows, m.k, x.data(), 1);
        }
      } else if (t.type == G::kF32 || t.type == G::kF16) {
        const G::Activations a = G::activations(f, t.name);
        if (a.x.size() != a.tokens * a.k) std::abort();
      }
    } catch (const G::GgufError&) {
    } catch (const std::invalid_argument&) {  // the reference's own shape checks
    }
  }
  return 0;
}
