// Host-compiler probe for the 9x29 column product (gpu/field25519/fe29.hpp, Fe29::mul / sqr).
// Exit status 0: the columns are right at the flags this was built with; 1: miscompiled.
//
// Reproduces: GCC 12.2 -O3 wrong code. After jump threading, the column loop holds two copies of the
// index j = k - 2: one on the path k <= 8 (range [-2, 6]) and one on the path k >= 10 (range [8, 14]).
// FRE before SLP (fre4) value-numbers them as one name and uses the range of the k >= 10 copy, so in the
// k <= 8 copy the load a[j] takes the value stored to a[8]; columns 2..8 come out wrong.
// -fdisable-tree-fre4 or -O2 avoid it; g++ 11 and clang 14 at -O3 compile it right.
// The trigger is the shape of fe29 squaring a freshly computed element: a local operand whose stores
// FRE can see (here a = x + y, i.e. add then sqr), read through the guarded index j = k - i.
//
// Invariant checked: for the 17 columns c_k = sum_{i+j=k} a_i a_j of the square of
// A(X) = sum_i a_i X^i, C(X) = A(X)^2 in Z[X], hence sum_k c_k t^k == (sum_i a_i t^i)^2 mod 2^64 for
// every integer t; checked at t = 1, -1, 3. No second implementation of the product is trusted.
// Inputs come from a volatile seed (argv[1] overrides it), so nothing is constant-folded.
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace {

struct fe {
  uint32_t v[9];
};

// Fe29::add followed by Fe29::sqr's column loop (mul(a, a) with a local a), as in fe29.hpp.
[[gnu::noinline]] void add_then_sqr_columns(uint64_t c[17], const fe& x, const fe& y) {
  fe a;
  for (int i = 0; i < 9; ++i) a.v[i] = x.v[i] + y.v[i];
  for (int k = 0; k < 17; ++k) {
    uint64_t acc = 0;
    for (int i = 0; i < 9; ++i) {
      int j = k - i;
      if (j >= 0 && j < 9) acc = uint64_t(a.v[i]) * a.v[j] + acc;
    }
    c[k] = acc;
  }
}

// Left-to-right (Horner) evaluation mod 2^64 of n coefficients at t.
template <class T>
[[gnu::noinline]] uint64_t eval(const T* p, int n, uint64_t t) {
  uint64_t s = 0;
  for (int i = n - 1; i >= 0; --i) s = s * t + p[i];
  return s;
}

volatile uint32_t g_seed = 0x2545f491u;

}  // namespace

int main(int argc, char** argv) {
  uint32_t s = argc > 1 ? uint32_t(std::strtoul(argv[1], nullptr, 0)) : g_seed;
  fe x, y;
  for (int i = 0; i < 9; ++i) {  // tight 29-bit limbs, so every a_i <= 2^30 as for a lazy add
    s = s * 1664525u + 1013904223u;
    x.v[i] = s >> 3;
    s = s * 1664525u + 1013904223u;
    y.v[i] = s >> 3;
  }
  uint64_t c[17];
  add_then_sqr_columns(c, x, y);
  uint32_t a[9];
  for (int i = 0; i < 9; ++i) a[i] = x.v[i] + y.v[i];
  const uint64_t ts[3] = {1, ~uint64_t(0), 3};
  for (uint64_t t : ts) {
    const uint64_t at = eval(a, 9, t);
    if (eval(c, 17, t) != at * at) {
      std::printf("gcc_fre4_probe: 9x29 column product miscompiled (C(t) != A(t)^2 at t=%lld)\n",
                  (long long)t);
      return 1;
    }
  }
  std::printf("gcc_fre4_probe: 9x29 column product correct\n");
  return 0;
}
