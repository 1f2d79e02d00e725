// `bitexact vectors find-hits`: searches bases make_base(100), make_base(101), ... on a GPU (q9-v1, whose
// every hit is then re-hashed with OpenSSL) for one hit with each zero count 2..max_zeros, and renders
// vectors/md5z/hits.json. Run once; the file is then frozen and checked by `bitexact vectors check`.
#include <cstdio>

#include "cli/md5z/md5z.hpp"
#include "suite/md5z/vectors.hpp"
#if defined(BX_HAVE_CUDA)
#include "gpu/kernels/md5z_kernels.hpp"
#endif

namespace bx::md5z {

std::string find_hits(int dev, int max_zeros) {
#if defined(BX_HAVE_CUDA)
  std::vector<CandidateTest> found(size_t(max_zeros + 1));
  std::vector<bool> have(size_t(max_zeros + 1), false);
  auto missing_min = [&] {
    for (int k = 2; k <= max_zeros; ++k)
      if (!have[size_t(k)]) return k;
    return 0;
  };
  for (uint64_t seed = 100; missing_min() && seed < 100 + 65536; ++seed) {
    const int need = missing_min();
    const auto base = ref::md5z::make_base(seed);
    const auto tb = prepare(base, "base");
    // Low counts are frequent: a short range suffices; from 7 zeros on, whole bases.
    const uint64_t hi = need <= 6 ? (uint64_t(1) << 28) : md5::kIndexEnd;
    for (uint64_t h : kern::md5z_search(dev, md5::variant_of<md5::Q9V1>(), tb, 0, hi, need)) {
      const int z = md5::hit_zeros(h);
      if (z > max_zeros || have[size_t(z)]) continue;
      have[size_t(z)] = true;
      std::vector<std::string> flags = {"FrozenHit", "ExactThreshold"};
      if (z >= 8) flags.push_back("H0Zero");
      found[size_t(z)] = {0, std::to_string(z) + " leading zeros, found by GPU search of make_base(" + std::to_string(seed) + ")",
                          flags, seed, base, md5::hit_index(h), {}, "", z};
      std::fprintf(stderr, "found %d zeros: seed %llu index %u\n", z, (unsigned long long)seed, md5::hit_index(h));
    }
  }
  if (missing_min()) throw std::runtime_error("find-hits: no hit with " + std::to_string(missing_min()) + " zeros found");
  return render_hits({found.begin() + 2, found.end()});
#else
  (void)dev;
  (void)max_zeros;
  throw InputError("vectors find-hits needs a build with CUDA kernels and a GPU");
#endif
}

}  // namespace bx::md5z
