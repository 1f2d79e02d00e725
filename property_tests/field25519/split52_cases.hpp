// Operand pairs for the split52 contract (carry backends, used by fe51s): a, b in [-2^52, 2^52) with
// |a b| < 2^103. The catalogue walks the edges of both preconditions and of the split itself (the edge list's
// cross products give lo = 0 and lo = 2^52 - 1, hi = -1; each edge's largest partner gives products at
// +-(2^103 - small)), then seeded random pairs: half at every magnitude, half with both operands of 50 to
// 52 bits (products of 2^100 to 2^103, where the first DFMA's sum nears the ends of [4, 8)).
#pragma once
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace bx::test {

inline bool split52_admissible(int64_t a, int64_t b) {
  const __int128 p = (__int128)a * b, lim = (__int128)1 << 103;
  const int64_t lo = -(int64_t(1) << 52), hi = int64_t(1) << 52;
  return a >= lo && a < hi && b >= lo && b < hi && p < lim && p > -lim;
}

inline std::vector<std::pair<int64_t, int64_t>> split52_cases(uint64_t seed, size_t random_pairs) {
  constexpr int64_t k52 = int64_t(1) << 52, k51 = int64_t(1) << 51, k50 = int64_t(1) << 50;
  const int64_t loose = k51 + (1 << 14);  // fe51s's loose bound
  const int64_t edges[] = {0, 1, -1, 2, -2, 3, 19, 38, 121665, (1 << 17), k50, -k50, k50 + (1 << 13), -(k50 + (1 << 13)),
                           k51 - 1, k51, -k51, loose, -loose, k52 - 1, -k52, -(k52 - 1), (int64_t(1) << 26) + 1,
                           (int64_t(1) << 26) - 1, int64_t(0x5555555555555), -int64_t(0xaaaaaaaaaaaaa)};
  std::vector<std::pair<int64_t, int64_t>> out;
  for (int64_t a : edges)
    for (int64_t b : edges)
      if (split52_admissible(a, b)) out.emplace_back(a, b);
  // The largest admissible partner of each edge, both signs: products just under 2^103 in magnitude.
  for (int64_t a : edges) {
    if (a == 0) continue;
    const __int128 lim = ((__int128)1 << 103) - 1;
    const __int128 m = lim / (a < 0 ? -(__int128)a : (__int128)a);
    const int64_t b = m >= k52 ? k52 - 1 : int64_t(m);
    for (int64_t s : {b, -b})
      if (split52_admissible(a, s)) out.emplace_back(a, s);
  }
  // Products next to 2^52 = 2^26 * 2^26: lo = 2^26 or 2^52 - 2^26 and hi = 0, 1 (either sign).
  for (int64_t d : {int64_t(-1), int64_t(0), int64_t(1)})
    for (int64_t s : {int64_t(1), int64_t(-1)}) out.emplace_back(s * ((int64_t(1) << 26) + d), int64_t(1) << 26);
  std::mt19937_64 rng(seed);
  for (size_t i = 0; i < random_pairs; ++i) {
    const bool large = i & 1;
    const int bits_a = large ? 50 + int(rng() % 3) : int(rng() % 53), bits_b = large ? 50 + int(rng() % 3) : int(rng() % 53);
    int64_t a = int64_t(rng() & ((uint64_t(1) << bits_a) - 1)), b = int64_t(rng() & ((uint64_t(1) << bits_b) - 1));
    if (rng() & 1) a = -a;
    if (rng() & 1) b = -b;
    if (split52_admissible(a, b)) out.emplace_back(a, b);
  }
  return out;
}

}  // namespace bx::test
