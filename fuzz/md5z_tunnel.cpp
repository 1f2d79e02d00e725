// libFuzzer target: the md5z tunnel code (gpu/md5, host build) against OpenSSL and the reference.
// Input: [52 bytes: a claimed base][8 bytes: seed][1 byte: threshold][4-byte indices...]
//   - the claimed base: the reference checker and tunnel_prepare must agree on whether it is a base, and a
//     non-base must be rejected (never searched); a real base is used like a generated one;
//   - the seed gives make_base(seed); for every index and every variant, the per-candidate code's zero
//     count (no early exit) equals OpenSSL's, m8/m9/m12 equal the reference message, and with the early
//     exit for the threshold a hit (OpenSSL zeros >= T) is never rejected.
// On a difference: the operation, the inputs and every implementation's answer, then abort.
#include "fuzz/fuzz_hex.hpp"
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "gpu/md5z/search.hpp"
#include "reference/md5z/md5z_ref.hpp"

namespace R = bx::ref::md5z;
namespace M = bx::md5;

namespace {
[[noreturn]] void report(const char* what, const R::Message& base, uint32_t index, int T, const int* got, int ref) {
  std::fprintf(stderr, "md5z_tunnel: DIFFERENCE in %s\n  base  = %s\n  index = %u  threshold = %d\n  OpenSSL zeros = %d\n", what,
               hex(base.data(), 52).c_str(), index, T, ref);
  for (auto v : M::all_variants()) std::fprintf(stderr, "  %-12s %d\n", M::variant_name(v), got[int(v)]);
  std::abort();
}

void check_base(const R::Message& base, const uint8_t* idx, size_t n_idx, int T) {
  uint32_t w[16];
  M::message_words(base.data(), w);
  M::TunnelBase tb;
  if (!M::tunnel_prepare(w, tb)) std::abort();
  R::CandidateHasher h(base);
  const uint32_t mask = M::early_exit_mask(T);
  uint32_t prev = 0;  // the previous index (a variant with several lanes runs it beside the current one)
  int prev_ref = -1;
  for (size_t k = 0; k < n_idx; ++k) {
    uint32_t i;
    std::memcpy(&i, idx + 4 * k, 4);
    const auto msg = h.message(i);
    const int ref = R::zeros(h.digest(i));
    if (k == 0) prev = i, prev_ref = ref;
    uint32_t m8, m9, m12, mw[16];
    M::candidate_words(tb, i, m8, m9, m12);
    M::message_words(msg.data(), mw);
    int got[M::kVariantCount], early[M::kVariantCount];
    for (auto v : M::all_variants())
      M::with_variant(v, [&](auto c) {
        using V = decltype(c);
        if constexpr (V::lanes > 1) {  // lane 0 on i, the others on the previous index: no lane may see another's state
          uint32_t lanes[V::lanes];
          int z[V::lanes], ze[V::lanes];
          for (int l = 0; l < V::lanes; ++l) lanes[l] = l == 0 ? i : prev;
          M::tunnel_zeros_lanes<V, V::lanes>(tb, lanes, 0, 1, z);
          M::tunnel_zeros_lanes<V, V::lanes>(tb, lanes, mask, 1, ze);
          got[int(v)] = z[0], early[int(v)] = ze[0];
          for (int l = 1; l < V::lanes; ++l)
            if (z[l] != prev_ref || (prev_ref >= T && ze[l] != prev_ref) || (prev_ref < T && ze[l] >= T)) {
              std::fprintf(stderr, "md5z_tunnel: DIFFERENCE in %s lane %d (index %u beside index %u in lane 0)\n  base  = %s\n"
                           "  zeros = %d (with the early exit for T = %d: %d), OpenSSL zeros = %d\n", V::name, l, prev, i,
                           hex(base.data(), 52).c_str(), z[l], T, ze[l], prev_ref);
              std::abort();
            }
        } else {
          got[int(v)] = M::candidate_zeros<V>(tb, i, 0, 1);       // no early exit
          early[int(v)] = M::candidate_zeros<V>(tb, i, mask, 1);  // early exit for T
        }
      });
    if (m8 != mw[8] || m9 != mw[9] || m12 != mw[12]) report("candidate words m8/m9/m12", base, i, T, got, ref);
    for (int g : got)
      if (g != ref) report("zero count (no early exit)", base, i, T, got, ref);
    for (int g : early)
      if ((ref >= T && g != ref) || (ref < T && g >= T)) report("early exit", base, i, T, early, ref);
    prev = i, prev_ref = ref;
  }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 61) return 0;
  R::Message claimed;
  std::memcpy(claimed.data(), data, 52);
  uint64_t seed;
  std::memcpy(&seed, data + 52, 8);
  const int T = data[60] % 33;
  const uint8_t* idx = data + 61;
  const size_t n_idx = std::min<size_t>((size - 61) / 4, 64);
  uint32_t w[16];
  M::message_words(claimed.data(), w);
  M::TunnelBase tb;
  const bool ref_ok = R::base_problem(claimed).empty(), tunnel_ok = M::tunnel_prepare(w, tb);
  if (ref_ok != tunnel_ok) {
    std::fprintf(stderr, "md5z_tunnel: base check differs: reference %d, tunnel %d\n  bytes = %s\n", ref_ok, tunnel_ok,
                 hex(claimed.data(), 52).c_str());
    std::abort();
  }
  if (!ref_ok) {
    bool threw = false;
    try {
      R::candidate(claimed, 0);
    } catch (const R::NotABase&) {
      threw = true;
    }
    if (!threw) std::abort();
  } else {
    check_base(claimed, idx, n_idx, T);
  }
  check_base(R::make_base(seed), idx, n_idx, T);
  return 0;
}
