// qpow launchers: the batch loop of a search (plan, hit buffer with overflow re-run, device sort), the
// per-nonce hash kernels, device field arithmetic and the lossy engine's characterisation kernels.
#include "gpu/kernels/qpow_search.cuh"

namespace bx::kern {
namespace {

using qpow::U512;

bool tu_call(Variant v, const QpowTuCall& c) { return qpow_tu_main(v, c) || qpow_tu_matrix(v, c); }
void tu_select(int dev) {
  qpow_select(dev);
  qpow_tu_select_main(dev);
  qpow_tu_select_matrix(dev);
}
void require_gpu_variant(Variant v) {
  if (!qpow_on_gpu(v))
    throw std::invalid_argument(std::string("qpow/") + qpow::row(v).name +
                                " has no GPU kernel in this build (configure with -DBX_QPOW_KERNELS=all)");
}

// Expected hits of a batch: count * target / 2^512 from the target's top word.
double expected_hits(const uint64_t target[8], uint64_t count) {
  return double(count) * (double(target[0]) + 1.0) / 18446744073709551616.0;
}

// BX_QPOW_KERNELS=one (the gate without a GPU) instantiates the field and permutation kernels once, for
// gl2x32<ptx>; the other layouts are then reported as absent.
template <class F>
decltype(auto) with_field_layout(QpowFieldLayout l, F&& f) {
  switch (l) {
#if !defined(BX_QPOW_KERNELS_ONE)
    case QpowFieldLayout::gl64:
    case QpowFieldLayout::gl64_branchfree:
      return f.template operator()<gl::gl64>();
    case QpowFieldLayout::gl2x32_portable:
      return f.template operator()<gl::gl2x32<carry::portable>>();
    case QpowFieldLayout::lossy_ptx:
      return f.template operator()<gl::gl2x32_lossy<carry::ptx>>();
    case QpowFieldLayout::lossy_model:
      return f.template operator()<gl::gl2x32_lossy<carry::portable>>();
#endif
    case QpowFieldLayout::gl2x32_ptx:
      return f.template operator()<gl::gl2x32<carry::ptx>>();
    default:
      break;
  }
  throw std::invalid_argument("qpow field kernels: this layout is not in this build (BX_QPOW_KERNELS=one)");
}

template <class L>
__global__ void k_qpow_field(QpowFieldOp op, bool branchfree, const uint64_t* a, const uint64_t* b, size_t n,
                             uint64_t* out) {
  const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= n) return;
  const uint64_t x = a[t], y = b[t];
  uint64_t r = 0;
  switch (op) {
    case QpowFieldOp::add: r = L::add(x, y); break;
    case QpowFieldOp::sub: r = L::sub(x, y); break;
    case QpowFieldOp::mul: r = L::mul(x, y); break;
    case QpowFieldOp::sqr: r = L::sqr(x); break;
    case QpowFieldOp::neg: r = L::neg(x); break;
    case QpowFieldOp::canonical: r = gl::canonical(x); break;
    case QpowFieldOp::reduce128:  // x = low word, y = high word
      if constexpr (std::is_same_v<L, gl::gl64>)
        r = branchfree ? L::reduce128_branchfree(x, y) : L::reduce128(x, y);
      else
        r = L::reduce128(x, y);
      break;
    case QpowFieldOp::sbox: r = qpow::Permutation<L, false>::sbox(x); break;
    case QpowFieldOp::hash_word: r = qpow::hash_word(x); break;
    case QpowFieldOp::fused: r = L::mul_add_reduce(x, c_p2.diag[9], gl::Acc96{y, 12}); break;
    case QpowFieldOp::acc_reduce: r = L::acc_reduce(gl::Acc96{x, uint32_t(y)}); break;
  }
  out[t] = r;
}

template <class L, bool kFolded>
__global__ void k_qpow_permute(uint64_t* states, size_t n) {
  const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= n) return;
  uint64_t s[12];
  for (int i = 0; i < 12; ++i) s[i] = states[12 * t + i];
  qpow::Permutation<L, kFolded>::permute(s, c_p2);
  for (int i = 0; i < 12; ++i) states[12 * t + i] = s[i];
}

BX_HD uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// counts: slips, +EPS, +2^32, -EPS, other.
// structured: operands u 2^48, w 2^48 (u, w 16-bit random): the product is uw 2^96 with zero low words,
// the final borrow fires whenever uw > 0 (the counter's self-check: it must see those slips).
__global__ void k_lossy_mul_slips(uint64_t seed, uint64_t per_thread, bool structured, unsigned long long* counts) {
  using Lossy = gl::gl2x32_lossy<carry::ptx>;
  const uint64_t t = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  unsigned long long local[5] = {0, 0, 0, 0, 0};
  for (uint64_t k = 0; k < per_thread; ++k) {
    const uint64_t ctr = 2 * (t * per_thread + k);
    uint64_t a = splitmix64(seed + ctr), b = splitmix64(seed + ctr + 1);
    if (structured) a = a >> 48 << 48, b = b >> 48 << 48;
    const uint64_t got = gl::canonical(Lossy::mul(a, b)), want = gl::canonical(gl::gl64::mul(a, b));
    if (got != want) {
      ++local[0];
      const uint64_t d = gl::canonical(gl::gl64::sub(got, want));
      if (d == gl::EPS) ++local[1];
      else if (d == (uint64_t(1) << 32)) ++local[2];
      else if (d == gl::P - gl::EPS) ++local[3];
      else ++local[4];
    }
  }
  for (int i = 0; i < 5; ++i)
    if (local[i]) atomicAdd(counts + i, local[i]);
}

// Top 256 bits (c0..c3 after π4) of nonce lo + off by the lossy engine and by exact gl64, from the same
// exactly computed prestate (the engine's host precomputes it in canonical arithmetic).
__global__ void __launch_bounds__(kQpowThreads) k_lossy_nonce_slips(const MinerJob job,
                                                                    uint64_t count, unsigned long long* first,
                                                                    unsigned keep, unsigned long long* slips) {
  using Lossy = qpow::Miner<gl::gl2x32_lossy<carry::ptx>, qpow::kLadder>;
  using Exact = qpow::Miner<gl::gl64, qpow::kLadder>;
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t off = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; off < count; off += stride) {
    const U512 n = qpow::u512_add(job.base, off);
    uint64_t a[12], b[12];
    Lossy::after_pi3(job, n, a, c_p2);
    Exact::after_pi3(job, n, b, c_p2);
    a[0] = gl::gl2x32_lossy<carry::ptx>::add(a[0], 1);
    a[1] = gl::gl2x32_lossy<carry::ptx>::add(a[1], 1);
    b[0] = gl::gl64::add(b[0], 1);
    b[1] = gl::gl64::add(b[1], 1);
    Lossy::Perm::permute(a, c_p2);
    Exact::Perm::permute(b, c_p2);
    bool differ = false;
    for (int j = 0; j < 4; ++j) differ |= gl::canonical(a[j]) != gl::canonical(b[j]);
    if (differ) {
      const unsigned long long slot = atomicAdd(slips, 1ull);
      if (slot < keep) first[slot] = off;
    }
  }
}

}  // namespace

bool qpow_on_gpu(Variant v) { return tu_call(v, {QpowWhat::has}); }

std::vector<uint64_t> qpow_search(int dev, Variant v, const qpow::SearchRequest& rq, QpowSearchStats* stats,
                                  size_t initial_capacity, uint64_t max_batch) {
  require_gpu_variant(v);
  if (max_batch == 0) throw std::invalid_argument("qpow_search: max_batch must be >= 1");
  tu_select(dev);
  const unsigned s = qpow::row(v).shortcuts;
  const std::vector<qpow::Batch> batches = qpow::plan_batches(rq.lo, rq.count, s, max_batch);
  size_t cap = initial_capacity ? initial_capacity
                                : size_t(std::min<double>(2.0 * expected_hits(rq.target, std::min(rq.count, max_batch)) + 4096,
                                                          double(1u << 28)));
  DevBuf<unsigned long long> dcount(1);
  auto dhits = std::make_unique<DevBuf<unsigned long long>>(cap);
  std::vector<uint64_t> all;
  const unsigned blocks = unsigned(device_sm_count(dev)) * 8;
  EventTimer timer;
  QpowSearchStats st;
  constexpr unsigned long long kMaxHits = 1ull << 30;  // 8 GiB of offsets: beyond it the target is too easy
  for (const qpow::Batch& b : batches) {
    const MinerJob job = qpow::with_variant(v, [&]<class Code>() {
      return qpow::JobMaker<Code>::make(rq.header, rq.target, b.base, s);
    });
    for (;;) {
      BX_CUDA(cudaMemset(dcount.p, 0, sizeof(unsigned long long)));
      const SearchLaunch a{job, b.count, dhits->p, cap, dcount.p, blocks};
      timer.start();
      tu_call(v, {QpowWhat::search, &a});
      timer.stop();
      BX_CUDA_LAUNCH("k_qpow_search");
      st.kernel_seconds += timer.seconds();
      ++st.launches;
      unsigned long long count = 0;
      dcount.get(&count, 1);
      if (count > kMaxHits)
        throw std::invalid_argument("qpow_search: " + std::to_string(count) + " hits in one batch (more than 2^30): the target is too easy for this range");
      if (count <= cap || BX_FAULT(qpow_hit_overflow_truncated)) {
        count = std::min<unsigned long long>(count, cap);
        if (count) {
          thrust::device_ptr<unsigned long long> p0(dhits->p);
          thrust::sort(p0, p0 + count);
          BX_CUDA_LAUNCH("thrust::sort (qpow hits)");
          std::vector<uint64_t> h(count);
          BX_CUDA(cudaMemcpy(h.data(), dhits->p, count * sizeof(uint64_t), cudaMemcpyDeviceToHost));
          for (uint64_t o : h) all.push_back(b.offset + o);
        }
        break;
      }
      // Overflow: every hit was counted, only `cap` kept. Re-run the batch with room for all.
      cap = std::min<unsigned long long>(count + count / 8 + 1024, kMaxHits);
      dhits = std::make_unique<DevBuf<unsigned long long>>(cap);
      ++st.reruns;
    }
    st.nonces += b.count;
    ++st.batches;
  }
  if (stats) *stats = st;
  return all;
}

std::vector<std::array<uint64_t, 8>> qpow_hashes(int dev, Variant v, const uint8_t header[32],
                                                 const std::vector<U512>& nonces) {
  require_gpu_variant(v);
  const unsigned s = qpow::row(v).shortcuts;
  const uint64_t zero_target[8] = {};
  std::vector<MinerJob> jobs(nonces.size());
  qpow::with_variant(v, [&]<class Code>() {
    for (size_t i = 0; i < nonces.size(); ++i) jobs[i] = qpow::JobMaker<Code>::make(header, zero_target, nonces[i], s);
    return 0;
  });
  return qpow_job_hashes(dev, v, jobs);
}

std::vector<std::array<uint64_t, 8>> qpow_job_hashes(int dev, Variant v, const std::vector<MinerJob>& jobs) {
  require_gpu_variant(v);
  std::vector<std::array<uint64_t, 8>> out(jobs.size());
  if (jobs.empty()) return out;
  tu_select(dev);
  DevBuf<MinerJob> djobs(jobs.size());
  DevBuf<uint64_t> dout(8 * jobs.size());
  djobs.put(jobs.data(), jobs.size());
  QpowTuCall c{QpowWhat::hashes};
  c.jobs = djobs.p;
  c.n = jobs.size();
  c.out = dout.p;
  tu_call(v, c);
  BX_CUDA_LAUNCH("k_qpow_hashes");
  dout.get(out.data()->data(), 8 * out.size());
  return out;
}

std::vector<uint64_t> qpow_job_search(int dev, Variant v, const MinerJob& job, uint32_t count) {
  require_gpu_variant(v);
  tu_select(dev);
  DevBuf<unsigned long long> dcount(1), dhits(count ? count : 1);
  BX_CUDA(cudaMemset(dcount.p, 0, sizeof(unsigned long long)));
  const SearchLaunch a{job, count, dhits.p, count, dcount.p, unsigned(device_sm_count(dev))};
  tu_call(v, {QpowWhat::search, &a});
  BX_CUDA_LAUNCH("k_qpow_search");
  unsigned long long n = 0;
  dcount.get(&n, 1);
  std::vector<uint64_t> h(n);  // n <= count: each offset is tested once
  if (n) BX_CUDA(cudaMemcpy(h.data(), dhits.p, n * sizeof(uint64_t), cudaMemcpyDeviceToHost));
  std::sort(h.begin(), h.end());
  return h;
}

std::vector<uint64_t> qpow_field_eval(int dev, QpowFieldLayout layout, QpowFieldOp op, const std::vector<uint64_t>& a,
                                      const std::vector<uint64_t>& b) {
  if (a.size() != b.size()) throw std::invalid_argument("qpow_field_eval: a and b differ in length");
  std::vector<uint64_t> out(a.size());
  if (a.empty()) return out;
  tu_select(dev);
  DevBuf<uint64_t> da(a.size()), db(b.size()), dout(a.size());
  da.put(a.data(), a.size());
  db.put(b.data(), b.size());
  with_field_layout(layout, [&]<class L>() {
    k_qpow_field<L><<<blocks_for(a.size(), 128), 128>>>(op, layout == QpowFieldLayout::gl64_branchfree, da.p, db.p,
                                                        a.size(), dout.p);
    return 0;
  });
  BX_CUDA_LAUNCH("k_qpow_field");
  dout.get(out.data(), out.size());
  return out;
}

std::vector<uint64_t> qpow_permute(int dev, QpowFieldLayout layout, bool folded, const std::vector<uint64_t>& states) {
  if (states.size() % 12) throw std::invalid_argument("qpow_permute: states must be 12 lanes each");
  std::vector<uint64_t> out(states);
  if (states.empty()) return out;
  tu_select(dev);
  DevBuf<uint64_t> ds(states.size());
  ds.put(states.data(), states.size());
  const size_t n = states.size() / 12;
  with_field_layout(layout, [&]<class L>() {  // both foldings in every build (selftest: unfolded; oracle: both)
    if (folded)
      k_qpow_permute<L, true><<<blocks_for(n, 64), 64>>>(ds.p, n);
    else
      k_qpow_permute<L, false><<<blocks_for(n, 64), 64>>>(ds.p, n);
    return 0;
  });
  BX_CUDA_LAUNCH("k_qpow_permute");
  ds.get(out.data(), out.size());
  return out;
}

QpowMulSlips qpow_lossy_mul_slips(int dev, uint64_t seed, uint64_t multiplies, bool structured) {
  tu_select(dev);
  const unsigned blocks = unsigned(device_sm_count(dev)) * 16, threads = 256;
  const uint64_t per_thread = (multiplies + uint64_t(blocks) * threads - 1) / (uint64_t(blocks) * threads);
  DevBuf<unsigned long long> dc(5);
  BX_CUDA(cudaMemset(dc.p, 0, 5 * sizeof(unsigned long long)));
  EventTimer timer;
  timer.start();
  k_lossy_mul_slips<<<blocks, threads>>>(seed, per_thread, structured, dc.p);
  timer.stop();
  BX_CUDA_LAUNCH("k_lossy_mul_slips");
  unsigned long long c[5];
  dc.get(c, 5);
  QpowMulSlips r;
  r.multiplies = per_thread * blocks * threads;
  r.slips = c[0];
  r.plus_eps = c[1];
  r.plus_2p32 = c[2];
  r.minus_eps = c[3];
  r.other = c[4];
  r.kernel_seconds = timer.seconds();
  return r;
}

QpowNonceSlips qpow_lossy_nonce_slips(int dev, const uint8_t header[32], const U512& lo, uint64_t count, size_t keep) {
  tu_select(dev);
  QpowNonceSlips r;
  const uint64_t zero_target[8] = {};
  DevBuf<unsigned long long> dfirst(keep ? keep : 1), dslips(1);
  const unsigned blocks = unsigned(device_sm_count(dev)) * 8;
  EventTimer timer;
  for (const qpow::Batch& b : qpow::plan_batches(lo, count, qpow::kLadder, uint64_t(1) << 32)) {
    const MinerJob job = qpow::make_job<qpow::Miner<gl::gl64, qpow::kLadder>>(header, zero_target, b.base, qpow::kLadder);
    BX_CUDA(cudaMemset(dslips.p, 0, sizeof(unsigned long long)));
    timer.start();
    k_lossy_nonce_slips<<<blocks, kQpowThreads>>>(job, b.count, dfirst.p, unsigned(keep), dslips.p);
    timer.stop();
    BX_CUDA_LAUNCH("k_lossy_nonce_slips");
    r.kernel_seconds += timer.seconds();
    unsigned long long n = 0;
    dslips.get(&n, 1);
    std::vector<unsigned long long> f(std::min<size_t>(n, keep));
    if (!f.empty()) dfirst.get(f.data(), f.size());
    std::sort(f.begin(), f.end());
    for (auto o : f)
      if (r.first.size() < keep) r.first.push_back(b.offset + o);
    r.slips += n;
    r.nonces += b.count;
  }
  return r;
}

QpowKernelInfo qpow_kernel_info(Variant v) {
  require_gpu_variant(v);
  QpowKernelInfo info{};
  QpowTuCall c{QpowWhat::info};
  c.info = &info;
  tu_call(v, c);
  return info;
}

}  // namespace bx::kern
