// The ecvrf engine's shared parts (host.hpp).
#include "suite/ecvrf/host.hpp"

#include <algorithm>
#include <thread>

#include "gpu/ecvrf/tai.hpp"

namespace bx::ecvrf_family {
namespace {

template <class F, class S>
int attempt_of(uint8_t beta[64], const uint8_t pk[32], const uint8_t* alpha, int alpha_len, const Bytes32& scalar) {
  ecvrf::EcvrfTrace t{};
  ecvrf::ecvrf_beta_alpha<F, S>(beta, pk, alpha, alpha_len, S::recode(scalar), &t);
  return t.ctr;
}

}  // namespace

Bytes32 bytes_of(const ref::Int& v) {
  const auto b = ref::to_le_bytes(v, 32);
  Bytes32 out;
  std::copy(b.begin(), b.end(), out.begin());
  return out;
}

std::vector<HostAttempt> host_attempts() {
  std::vector<HostAttempt> v;
  for_each_host_variant([&]<class F, class S>() { v.push_back({host_variant_name<F, S>(), &attempt_of<F, S>}); });
  return v;
}

std::vector<Hit> host_search(const HostAttempt& a, const Job& job, uint64_t lo, uint64_t n, uint64_t target) {
  const unsigned nt = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::vector<Hit>> part(nt);
  std::vector<std::thread> th;
  for (unsigned t = 0; t < nt; ++t)
    th.emplace_back([&, t] {
      for (uint64_t i = t; i < n; i += nt) {
        const auto alpha = G::job_alpha(job.header, lo + i);
        uint8_t beta[64];
        if (a.run(beta, job.pk.data(), alpha.data(), int(alpha.size()), job.x) < 0) continue;
        Bytes64 b;
        std::copy(beta, beta + 64, b.begin());
        if (G::score(b) < target) part[t].push_back({lo + i, G::score(b)});
      }
    });
  for (auto& x : th) x.join();
  std::vector<Hit> all;
  for (auto& p : part) all.insert(all.end(), p.begin(), p.end());
  std::sort(all.begin(), all.end(), [](const Hit& x, const Hit& y) { return x.nonce < y.nonce; });
  return all;
}

}  // namespace bx::ecvrf_family
