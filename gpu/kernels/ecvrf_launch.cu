// ecvrf host entry points: the variant registry (each ecvrf_*.cu adds its share of the matrix), slices
// with a hit buffer that re-runs on overflow, betas of nonce ranges and of general alphas, and the
// on-device beta comparison of two variants.
#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>

#include "gpu/kernels/ecvrf_pipeline.cuh"

namespace bx::kern {

void ecvrf_runners_layouts_wide(std::vector<EcvrfRunner>& out);
void ecvrf_runners_layouts_narrow(std::vector<EcvrfRunner>& out);
void ecvrf_runners_fe32_fused(std::vector<EcvrfRunner>& out);
void ecvrf_runners_fe32_compact(std::vector<EcvrfRunner>& out);
void ecvrf_runners_fe51s(std::vector<EcvrfRunner>& out);

namespace {

const std::vector<EcvrfRunner>& runners() {
  static const std::vector<EcvrfRunner> all = [] {
    std::vector<EcvrfRunner> v;
    ecvrf_runners_layouts_wide(v);
    ecvrf_runners_layouts_narrow(v);
    ecvrf_runners_fe32_fused(v);
    ecvrf_runners_fe32_compact(v);
    ecvrf_runners_fe51s(v);
    return v;
  }();
  return all;
}

const EcvrfRunner& runner_of(const std::string& name) {
  for (const EcvrfRunner& r : runners())
    if (r.info.name == name) return r;
  throw std::invalid_argument("ecvrf: no GPU variant '" + name + "' in this build");
}

EcvrfItems miner_items(const EcvrfJob& job, uint64_t lo) {
  EcvrfItems it{};
  ecvrf::h2c_block_miner(it.base, job.pk.data(), job.header.data(), 0);
  it.lo = lo;
  it.blocks = nullptr;
  return it;
}

// Device outputs of one slice: hit slots, counters (hit count, no_beta), optional betas.
struct SliceBuffers {
  std::unique_ptr<DevBuf<unsigned long long>> hits;
  size_t cap = 0;
  DevBuf<unsigned> counters{2};
  EcvrfOutputs outputs(uint64_t target, uint8_t* betas = nullptr, uint8_t* valid = nullptr) {
    return {target, hits ? hits->p : nullptr, unsigned(cap), counters.p, betas, valid, counters.p + 1};
  }
  void reserve(size_t c) {
    cap = c;
    hits = std::make_unique<DevBuf<unsigned long long>>(2 * std::max<size_t>(c, 1));
  }
};

// betas and valid (device) of [lo, lo + n) through runner r; scratch sized for n.
void betas_on_device(const EcvrfRunner& r, const EcvrfJob& job, uint64_t lo, uint32_t n, int passes, uint8_t* dbetas,
                     uint8_t* dvalid, EcvrfScratch& scratch) {
  SliceBuffers b;
  BX_CUDA(cudaMemset(b.counters.p, 0, 2 * sizeof(unsigned)));
  BX_CUDA(cudaMemset(dvalid, 0, n));
  EcvrfSliceStats st;
  r.run(miner_items(job, lo), n, b.outputs(0, dbetas, dvalid), scratch, passes, st);
  BX_CUDA(cudaDeviceSynchronize());
}

__global__ void k_compare_betas(const uint8_t* a, const uint8_t* va, const uint8_t* b, const uint8_t* vb, uint32_t n,
                                unsigned long long* first, unsigned keep, unsigned long long* count) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  bool differ = va[i] != vb[i];
  if (!va[i] || differ) {  // no beta on either side: nothing else to compare (the bytes were never written)
    if (differ) {
      const unsigned long long slot = atomicAdd(count, 1ull);
      if (slot < keep) first[slot] = i;
    }
    return;
  }
  const uint4* pa = reinterpret_cast<const uint4*>(a + 64 * size_t(i));
  const uint4* pb = reinterpret_cast<const uint4*>(b + 64 * size_t(i));
  for (int j = 0; j < 4; ++j) {
    const uint4 x = pa[j], y = pb[j];
    differ |= x.x != y.x || x.y != y.y || x.z != y.z || x.w != y.w;
  }
  if (differ) {
    const unsigned long long slot = atomicAdd(count, 1ull);
    if (slot < keep) first[slot] = i;
  }
}

}  // namespace

std::vector<EcvrfDeviceVariant> ecvrf_device_variants() {
  std::vector<EcvrfDeviceVariant> v;
  for (const EcvrfRunner& r : runners()) v.push_back(r.info);
  return v;
}

std::vector<EcvrfHit> ecvrf_search(int dev, const std::string& variant, const EcvrfJob& job, uint64_t lo, uint64_t n,
                                   const EcvrfSearchOptions& opt, EcvrfSearchStats* stats) {
  if (n && n - 1 > ~lo) throw std::invalid_argument("ecvrf_search: lo + n must not exceed 2^64");
  if (opt.max_slice == 0 || opt.max_slice > (1u << 24)) throw std::invalid_argument("ecvrf_search: max_slice must be 1..2^24");
  const EcvrfRunner& r = runner_of(variant);
  select(dev);
  r.set_scalar(job.x);
  EcvrfScratch scratch;
  const uint32_t slice = uint32_t(std::min<uint64_t>(opt.max_slice, std::max<uint64_t>(n, 1)));
  r.alloc(scratch, slice);
  // Expected hits per slice: target / 2^64 of its nonces; room for twice that plus a margin.
  const double p = std::ldexp(double(opt.target), -64);
  SliceBuffers b;
  // At most one hit per nonce: a capacity above the slice is never needed (and must fit the kernel's 32 bits).
  b.reserve(std::min<size_t>(slice, opt.initial_capacity ? opt.initial_capacity : size_t(2.0 * p * slice + 1024)));
  std::vector<EcvrfHit> all;
  EcvrfSearchStats st;
  EventTimer timer;
  for (uint64_t done = 0; done < n;) {
    const uint32_t len = uint32_t(std::min<uint64_t>(slice, n - done));
    const uint64_t at = lo + done;
    for (;;) {
      BX_CUDA(cudaMemset(b.counters.p, 0, 2 * sizeof(unsigned)));
      EcvrfSliceStats ss;
      timer.start();
      r.run(miner_items(job, at), len, b.outputs(opt.target), scratch, opt.passes, ss);
      timer.stop();
      BX_CUDA(cudaDeviceSynchronize());
      st.kernel_seconds += timer.seconds();
      ++st.launches;
      unsigned c[2];
      b.counters.get(c, 2);
      if (c[0] <= b.cap) {
        std::vector<unsigned long long> h(2 * size_t(c[0]));
        if (c[0]) BX_CUDA(cudaMemcpy(h.data(), b.hits->p, h.size() * sizeof(h[0]), cudaMemcpyDeviceToHost));
        for (size_t j = 0; j < c[0]; ++j) all.push_back({h[2 * j], h[2 * j + 1]});
        st.no_beta += c[1];
        st.finished_in_last_pass += ss.finished_in_last_pass;
        break;
      }
      // Overflow: every hit was counted but only cap kept. Re-run the slice with room for all.
      b.reserve(std::min<size_t>(slice, size_t(c[0]) + c[0] / 8 + 1024));
      ++st.reruns;
    }
    st.attempts += len;
    done += len;
  }
  std::sort(all.begin(), all.end(), [](const EcvrfHit& x, const EcvrfHit& y) { return x.nonce < y.nonce; });
  if (stats) *stats = st;
  return all;
}

void ecvrf_betas(int dev, const std::string& variant, const EcvrfJob& job, uint64_t lo, uint32_t n, int passes,
                 uint8_t* betas, uint8_t* valid) {
  if (n == 0) return;
  if (n > (1u << 22)) throw std::invalid_argument("ecvrf_betas: at most 2^22 nonces per call");
  if (n - 1 > ~lo) throw std::invalid_argument("ecvrf_betas: lo + n must not exceed 2^64");
  const EcvrfRunner& r = runner_of(variant);
  select(dev);
  r.set_scalar(job.x);
  EcvrfScratch scratch;
  r.alloc(scratch, n);
  DevBuf<uint8_t> db(64 * size_t(n)), dv(n);
  betas_on_device(r, job, lo, n, passes, db.p, dv.p, scratch);
  db.get(betas, 64 * size_t(n));
  dv.get(valid, n);
}

void ecvrf_betas_alpha(int dev, const std::string& variant, const std::array<uint8_t, 32>& x,
                       const std::array<uint8_t, 32>& pk, const std::vector<std::vector<uint8_t>>& alphas,
                       uint8_t* betas, uint8_t* valid) {
  if (alphas.empty()) return;
  std::vector<ecvrf::H2cBlock> blocks(alphas.size());
  for (size_t i = 0; i < alphas.size(); ++i) {
    if (alphas[i].size() > 75) throw std::invalid_argument("ecvrf_betas_alpha: alpha longer than 75 bytes");
    ecvrf::h2c_block_alpha(blocks[i], pk.data(), alphas[i].data(), int(alphas[i].size()));
  }
  const EcvrfRunner& r = runner_of(variant);
  select(dev);
  r.set_scalar(x);
  const uint32_t n = uint32_t(alphas.size());
  EcvrfScratch scratch;
  r.alloc(scratch, n);
  DevBuf<ecvrf::H2cBlock> dblocks(n);
  dblocks.put(blocks.data(), n);
  DevBuf<uint8_t> db(64 * size_t(n)), dv(n);
  SliceBuffers b;
  BX_CUDA(cudaMemset(b.counters.p, 0, 2 * sizeof(unsigned)));
  BX_CUDA(cudaMemset(dv.p, 0, n));
  EcvrfItems it{};
  it.blocks = dblocks.p;
  EcvrfSliceStats st;
  r.run(it, n, b.outputs(0, db.p, dv.p), scratch, 12, st);
  BX_CUDA(cudaDeviceSynchronize());
  db.get(betas, 64 * size_t(n));
  dv.get(valid, n);
}

EcvrfBetaDiff ecvrf_compare_betas(int dev, const std::string& a, const std::string& b, const EcvrfJob& job,
                                  uint64_t lo, uint64_t n, int passes, size_t keep) {
  if (n && n - 1 > ~lo) throw std::invalid_argument("ecvrf_compare_betas: lo + n must not exceed 2^64");
  const EcvrfRunner& ra = runner_of(a);
  const EcvrfRunner& rb = runner_of(b);
  select(dev);
  const uint32_t slice = uint32_t(std::min<uint64_t>(uint64_t(1) << 22, std::max<uint64_t>(n, 1)));
  EcvrfScratch sa, sb;
  ra.alloc(sa, slice);
  rb.alloc(sb, slice);
  DevBuf<uint8_t> ba(64 * size_t(slice)), va(slice), bb(64 * size_t(slice)), vb(slice);
  DevBuf<unsigned long long> dfirst(std::max<size_t>(keep, 1)), dcount(1);
  EcvrfBetaDiff d;
  EventTimer timer;
  for (uint64_t done = 0; done < n;) {
    const uint32_t len = uint32_t(std::min<uint64_t>(slice, n - done));
    timer.start();
    ra.set_scalar(job.x);  // each translation unit holds its own copy of the digits
    betas_on_device(ra, job, lo + done, len, passes, ba.p, va.p, sa);
    rb.set_scalar(job.x);
    betas_on_device(rb, job, lo + done, len, passes, bb.p, vb.p, sb);
    BX_CUDA(cudaMemset(dcount.p, 0, sizeof(unsigned long long)));
    k_compare_betas<<<blocks_for(len, 256), 256>>>(ba.p, va.p, bb.p, vb.p, len, dfirst.p, unsigned(keep), dcount.p);
    BX_CUDA_LAUNCH("k_compare_betas");
    timer.stop();
    BX_CUDA(cudaDeviceSynchronize());
    d.kernel_seconds += timer.seconds();
    unsigned long long c = 0;
    dcount.get(&c, 1);
    if (c && d.first.size() < keep) {
      std::vector<unsigned long long> f(std::min<size_t>(c, keep));
      dfirst.get(f.data(), f.size());
      std::sort(f.begin(), f.end());
      for (unsigned long long i : f)
        if (d.first.size() < keep) d.first.push_back(done + i);
    }
    d.differing += c;
    d.compared += len;
    done += len;
  }
  return d;
}

EcvrfPointOutputs ecvrf_point_checks(int dev, const std::string& variant, const EcvrfPointInputs& in) {
  const EcvrfRunner& r = runner_of(variant);
  select(dev);
  return r.point_checks(in);
}

std::vector<EcvrfKernelInfo> ecvrf_kernel_info(const std::string& variant) {
  return runner_of(variant).kernels();
}

}  // namespace bx::kern
