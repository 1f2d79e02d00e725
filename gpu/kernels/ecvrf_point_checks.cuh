// The selftest's point checks of one layout F (and scalar strategies Ss) on the device: thin kernels over
// gpu/ecvrf/{codec,batch_invert,scalar}.hpp, each item's answer as canonical bytes (see
// ecvrf_point_checks in ecvrf_kernels.hpp). Included by ecvrf_pipeline.cuh: every variant's launcher
// runs the point code its pipeline is built from.
#pragma once
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "gpu/ecvrf/batch_invert.hpp"
#include "gpu/ecvrf/codec.hpp"
#include "gpu/ecvrf/scalar.hpp"
#include "gpu/field25519/fe_ops.hpp"
#include "gpu/kernels/cuda_util.cuh"
#include "gpu/kernels/ecvrf_kernels.hpp"

namespace bx::kern {
namespace {

constexpr unsigned kPointThreads = 64;
constexpr uint8_t kPointRejected = 0xff;  // every byte of an answer whose input point the card rejected

__device__ __forceinline__ void copy32(uint8_t* d, const uint8_t* s) {
  for (int j = 0; j < 32; ++j) d[j] = s[j];
}

// The start-up constants (1, d, 2d, sqrt(-1), 1*1) as layout F derives them from small integers in
// registers (f25519::fe_derive_constants), canonical bytes: the pipeline's own derivation, not field25519's.
template <class F>
__global__ void k_ecvrf_derive_constants(uint8_t* out) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  uint8_t r[f25519::kDerivedConstants][32];
  f25519::fe_derive_constants<F>(r);
  for (int c = 0; c < f25519::kDerivedConstants; ++c) copy32(out + 32 * c, r[c]);
}

// status[i] = ge_decode of in[i]; out[i] = its encoding when valid (zero bytes otherwise); tai[i] = TAI's
// verdict on in[i] as a candidate: bit 0 candidate_to_h (8P, identity test), bit 1 candidate_to_p (the
// cofactor-folded pipelines' small-order test by y).
template <class F>
__global__ void __launch_bounds__(kPointThreads)
    k_ecvrf_decode(const uint8_t* in, uint32_t n, uint8_t* status, uint8_t* out, uint8_t* tai) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint8_t s[32], e[32] = {};
  copy32(s, in + 32 * size_t(i));
  ecvrf::ge_ext<F> P;
  const ecvrf::DecodeStatus st = ecvrf::ge_decode<F>(P, s);
  if (st == ecvrf::DecodeStatus::valid) ecvrf::ge_encode<F>(e, P);
  status[i] = uint8_t(st);
  ecvrf::ge_ext<F> H;
  tai[i] = uint8_t((ecvrf::candidate_to_h<F>(H, s) ? 1 : 0) | (ecvrf::candidate_to_p<F>(P, s) ? 2 : 0));
  copy32(out + 32 * size_t(i), e);
}

// out[i] = encoding of (X, Y, 1, XY) with X, Y read limb-wise from the bytes as given (x + p stays x + p).
template <class F>
__global__ void __launch_bounds__(kPointThreads) k_ecvrf_encode(const uint8_t* xy, uint32_t n, uint8_t* out) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint8_t xb[32], yb[32], e[32];
  copy32(xb, xy + 64 * size_t(i));
  copy32(yb, xy + 64 * size_t(i) + 32);
  ecvrf::ge_ext<F> P;
  F::from_bytes(P.X, xb);
  F::from_bytes(P.Y, yb);
  f25519::fe_set_small<F>(P.Z, 1);
  F::mul(P.T, P.X, P.Y);
  ecvrf::ge_encode<F>(e, P);
  copy32(out + 32 * size_t(i), e);
}

// Set i: in[i * K .. i * K + K) through fe_batch_invert<F, K>; out the canonical inverses. The host runs
// each set at the K of its size (1, 2, 4: the pipelines' widths; 8), shorter sets padded with 1 after their
// values (a zero stays where the set has it: first, middle or last).
template <class F, int K>
__global__ void __launch_bounds__(kPointThreads) k_ecvrf_invert(const uint8_t* in, uint32_t sets, uint8_t* out) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= sets) return;
  typename F::fe a[K], r[K];
  for (int j = 0; j < K; ++j) {
    uint8_t b[32];
    copy32(b, in + 32 * (size_t(i) * K + j));
    F::from_bytes(a[j], b);
  }
  ecvrf::fe_batch_invert<F, K>(r, a);
  for (int j = 0; j < K; ++j) {
    uint8_t b[32];
    F::to_bytes(b, r[j]);
    copy32(out + 32 * (size_t(i) * K + j), b);
  }
}

// Pair i = (P, Q); out[i] = the encodings of
// ge_add(P, Q), P + cached Q, P - cached Q (the negate flag), P + ge_neg_cached(cached Q), ge_dbl(P); all
// kPointRejected bytes when the card's decoder rejects P or Q.
template <class F>
__global__ void __launch_bounds__(kPointThreads) k_ecvrf_add(const uint8_t* pq, uint32_t n, uint8_t* out) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint8_t pb[32], qb[32], e[32];
  copy32(pb, pq + 64 * size_t(i));
  copy32(qb, pq + 64 * size_t(i) + 32);
  ecvrf::ge_ext<F> P, Q, R;
  uint8_t* o = out + 32 * kEcvrfPointAddForms * size_t(i);
  if (ecvrf::ge_decode<F>(P, pb) != ecvrf::DecodeStatus::valid || ecvrf::ge_decode<F>(Q, qb) != ecvrf::DecodeStatus::valid) {
    for (int j = 0; j < 32 * kEcvrfPointAddForms; ++j) o[j] = kPointRejected;
    return;
  }
  ecvrf::ge_cached<F> c, nc;
  ecvrf::ge_to_cached<F>(c, Q);
  ecvrf::ge_neg_cached<F>(nc, c);
  ecvrf::ge_add<F>(R, P, Q);
  ecvrf::ge_encode<F>(e, R);
  copy32(o, e);
  ecvrf::ge_add_cached<F>(R, P, c);
  ecvrf::ge_encode<F>(e, R);
  copy32(o + 32, e);
  ecvrf::ge_add_cached_opt<F>(R, P, c, true, true);
  ecvrf::ge_encode<F>(e, R);
  copy32(o + 64, e);
  ecvrf::ge_add_cached<F>(R, P, nc);
  ecvrf::ge_encode<F>(e, R);
  copy32(o + 96, e);
  ecvrf::ge_dbl<F>(R, P);
  ecvrf::ge_encode<F>(e, R);
  copy32(o + 128, e);
}

// out[i] = encode(k_i H), H decoded from h (kPointRejected bytes when the card's decoder rejects h).
template <class F, class S>
__global__ void __launch_bounds__(kPointThreads)
    k_ecvrf_scalar(EcvrfBytes32 h, const typename S::digits* k, uint32_t n, uint8_t* out) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint8_t hb[32], e[32];
  for (int j = 0; j < 32; ++j) hb[j] = h[j];
  ecvrf::ge_ext<F> H, R;
  if (ecvrf::ge_decode<F>(H, hb) != ecvrf::DecodeStatus::valid) {
    for (int j = 0; j < 32; ++j) out[32 * size_t(i) + j] = kPointRejected;
    return;
  }
  S::template mul<F>(R, H, k[i]);
  ecvrf::ge_encode<F>(e, R);
  copy32(out + 32 * size_t(i), e);
}

template <class... Ss>
struct strategy_list {};
template <class... Ss>
std::vector<std::string> strategy_tags(strategy_list<Ss...>) {
  return {Ss::tag...};
}

std::vector<uint8_t> flat32(const std::vector<EcvrfBytes32>& v) {
  std::vector<uint8_t> f(32 * v.size());
  for (size_t i = 0; i < v.size(); ++i) std::copy(v[i].begin(), v[i].end(), f.begin() + 32 * i);
  return f;
}
std::vector<EcvrfBytes32> unflat32(const std::vector<uint8_t>& f) {
  std::vector<EcvrfBytes32> v(f.size() / 32);
  for (size_t i = 0; i < v.size(); ++i) std::copy(f.begin() + 32 * i, f.begin() + 32 * (i + 1), v[i].begin());
  return v;
}
std::vector<uint8_t> flat64(const std::vector<std::pair<EcvrfBytes32, EcvrfBytes32>>& v) {
  std::vector<uint8_t> f(64 * v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    std::copy(v[i].first.begin(), v[i].first.end(), f.begin() + 64 * i);
    std::copy(v[i].second.begin(), v[i].second.end(), f.begin() + 64 * i + 32);
  }
  return f;
}
// Runs kernel(args..., n) over n items (n >= 1) and returns the 32-byte answers of the out buffer.
template <class Launch>
std::vector<uint8_t> run_items(uint32_t n, size_t out_bytes, Launch&& launch, const char* what) {
  DevBuf<uint8_t> out(out_bytes);
  launch(out.p, blocks_for(n, kPointThreads));
  BX_CUDA_LAUNCH(what);
  std::vector<uint8_t> h(out_bytes);
  out.get(h.data(), out_bytes);
  return h;
}

template <class F, class S>
std::vector<EcvrfBytes32> scalar_products(const EcvrfPointInputs& in) {
  using D = typename S::digits;
  std::vector<D> digits;
  for (const EcvrfBytes32& k : in.scalars) digits.push_back(S::recode(k));  // throws unless they reconstruct k
  const uint32_t n = uint32_t(digits.size());
  if (n == 0) return {};
  DevBuf<D> dk(n);
  dk.put(digits.data(), n);
  return unflat32(run_items(
      n, 32 * size_t(n),
      [&](uint8_t* out, unsigned blocks) { k_ecvrf_scalar<F, S><<<blocks, kPointThreads>>>(in.h_point, dk.p, n, out); },
      "k_ecvrf_scalar"));
}

// The sets of in.inversions whose size rounds up to K (K = 1, 2, 4, 8) through k_ecvrf_invert<F, K>.
template <class F, int K>
void invert_sets(const EcvrfPointInputs& in, EcvrfPointOutputs& r) {
  const auto width = [](size_t n) { return n <= 1 ? 1 : n <= 2 ? 2 : n <= 4 ? 4 : 8; };
  EcvrfBytes32 one{};
  one[0] = 1;
  std::vector<size_t> which;
  std::vector<EcvrfBytes32> padded;
  for (size_t i = 0; i < in.inversions.size(); ++i) {
    const auto& set = in.inversions[i];
    if (set.empty() || set.size() > 8) throw std::invalid_argument("ecvrf_point_checks: a batch-inversion set holds 1..8 values");
    if (width(set.size()) != K) continue;
    which.push_back(i);
    for (int j = 0; j < K; ++j) padded.push_back(size_t(j) < set.size() ? set[j] : one);
  }
  if (which.empty()) return;
  const uint32_t sets = uint32_t(which.size());
  const std::vector<uint8_t> f = flat32(padded);
  DevBuf<uint8_t> din(f.size());
  din.put(f.data(), f.size());
  const std::vector<EcvrfBytes32> all = unflat32(run_items(
      sets, f.size(), [&](uint8_t* out, unsigned blocks) { k_ecvrf_invert<F, K><<<blocks, kPointThreads>>>(din.p, sets, out); },
      "k_ecvrf_invert"));
  for (uint32_t s = 0; s < sets; ++s)
    r.inverses[which[s]].assign(all.begin() + size_t(s) * K, all.begin() + size_t(s) * K + in.inversions[which[s]].size());
}

// Every point check of layout F, scalars through each strategy of Ss.
template <class F, class... Ss>
EcvrfPointOutputs point_checks_of(const EcvrfPointInputs& in, strategy_list<Ss...>) {
  EcvrfPointOutputs r;
  r.constants = unflat32(run_items(
      1, 32 * size_t(f25519::kDerivedConstants),
      [&](uint8_t* out, unsigned) { k_ecvrf_derive_constants<F><<<1, 1>>>(out); }, "k_ecvrf_derive_constants"));
  if (const uint32_t n = uint32_t(in.decodes.size())) {
    const std::vector<uint8_t> s = flat32(in.decodes);
    DevBuf<uint8_t> ds(s.size()), dst(n), dtai(n);
    ds.put(s.data(), s.size());
    r.decoded = unflat32(run_items(
        n, 32 * size_t(n),
        [&](uint8_t* out, unsigned blocks) { k_ecvrf_decode<F><<<blocks, kPointThreads>>>(ds.p, n, dst.p, out, dtai.p); },
        "k_ecvrf_decode"));
    r.decode_status.resize(n);
    dst.get(r.decode_status.data(), n);
    r.tai_verdicts.resize(n);
    dtai.get(r.tai_verdicts.data(), n);
  }
  if (const uint32_t n = uint32_t(in.encodes.size())) {
    const std::vector<uint8_t> xy = flat64(in.encodes);
    DevBuf<uint8_t> dxy(xy.size());
    dxy.put(xy.data(), xy.size());
    r.encoded = unflat32(run_items(
        n, 32 * size_t(n), [&](uint8_t* out, unsigned blocks) { k_ecvrf_encode<F><<<blocks, kPointThreads>>>(dxy.p, n, out); },
        "k_ecvrf_encode"));
  }
  r.inverses.resize(in.inversions.size());
  invert_sets<F, 1>(in, r);
  invert_sets<F, 2>(in, r);
  invert_sets<F, 4>(in, r);
  invert_sets<F, 8>(in, r);
  if (const uint32_t n = uint32_t(in.adds.size())) {
    const std::vector<uint8_t> pq = flat64(in.adds);
    DevBuf<uint8_t> dpq(pq.size());
    dpq.put(pq.data(), pq.size());
    const std::vector<EcvrfBytes32> all = unflat32(run_items(
        n, 32 * size_t(kEcvrfPointAddForms) * n,
        [&](uint8_t* out, unsigned blocks) { k_ecvrf_add<F><<<blocks, kPointThreads>>>(dpq.p, n, out); }, "k_ecvrf_add"));
    for (uint32_t i = 0; i < n; ++i)
      r.sums.emplace_back(all.begin() + size_t(i) * kEcvrfPointAddForms, all.begin() + size_t(i + 1) * kEcvrfPointAddForms);
  }
  const auto strategy = [&]<class S>() {
    if (in.only_strategy.empty() || in.only_strategy == S::tag) r.scalar_products.emplace_back(S::tag, scalar_products<F, S>(in));
  };
  (strategy.template operator()<Ss>(), ...);
  return r;
}

}  // namespace
}  // namespace bx::kern
