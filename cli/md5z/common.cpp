#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <thread>

#include "cli/md5z/md5z.hpp"
#include "suite/variant_filter.hpp"
#include "cli/numbers.hpp"
#if defined(BX_HAVE_CUDA)
#include "gpu/kernels/md5z_kernels.hpp"
#endif

namespace bx::md5z {

Message parse_base(const std::string& hex, const std::string& what) {
  auto v = from_hex(hex, 52, what);
  Message m;
  std::copy(v.begin(), v.end(), m.begin());
  prepare(m, what);
  return m;
}


std::pair<uint64_t, uint64_t> parse_range(const std::string& s) {
  const auto c = s.find(':');
  if (c == std::string::npos) throw InputError("--range: expected LO:HI, got '" + s + "'");
  const uint64_t lo = parse_in_range(s.substr(0, c), "--range LO", 0, md5::kIndexEnd).convert_to<uint64_t>();
  const uint64_t hi = parse_in_range(s.substr(c + 1), "--range HI", 0, md5::kIndexEnd).convert_to<uint64_t>();
  if (hi > md5::kIndexEnd) throw InputError("--range: HI must be <= 2^32 (indices are 32-bit), got " + s);
  if (lo >= hi) throw InputError("--range: LO must be below HI, got " + s);
  return {lo, hi};
}

std::vector<uint64_t> reference_hits(const Message& base, uint64_t lo, uint64_t hi, int threshold) {
  std::vector<uint64_t> v;
  for (auto h : ref::md5z::search(base, lo, hi, threshold)) v.push_back(md5::pack_hit(h.index, h.zeros));
  return v;
}

double cpu_seconds(const VerifyOptions& o) {
  // Every selected variant and the reference walk every candidate on the host, one base per thread.
  constexpr double kCpuCandidatesPerSecond = 1e7;  // one implementation on one core (measured: 1.2e7, -O1 build)
  const double work = double(o.bases.size()) * double(o.hi - o.lo) * double(o.variants.size() + 1);
  return work / kCpuCandidatesPerSecond / std::max(1u, std::thread::hardware_concurrency());
}

int check_threshold(long long t) {
  if (t < 1 || t > 32) throw InputError("--threshold: must be 1..32 leading zero hex digits, got " + std::to_string(t));
  return int(t);
}

std::vector<md5::Variant> parse_variants(const std::vector<std::string>& names) {
  const auto vs = md5::all_variants();
  std::vector<std::string> all;
  for (auto v : vs) all.push_back(md5::variant_name(v));
  // plain is verify's oracle, always run: selecting it (by name or by "all") adds no second row
  std::vector<md5::Variant> out;
  for (size_t k : suite::select_variants(names, all, "md5z"))
    if (vs[k] != md5::kPlain) out.push_back(vs[k]);
  return out;
}

namespace {
template <class V>
std::vector<uint64_t> host_search_parallel(const md5::TunnelBase& tb, uint64_t lo, uint64_t hi, int T) {
  // Fixed chunks of 2^16 indices (so the partition, and every chunk end, is the same on every machine),
  // taken round-robin by one worker per core; hits concatenated in chunk order stay in index order.
  constexpr uint64_t kChunk = uint64_t(1) << 16;
  const size_t chunks = size_t((hi - lo + kChunk - 1) / kChunk);
  const unsigned nt = unsigned(std::min<size_t>(std::max(1u, std::thread::hardware_concurrency()), chunks));
  std::vector<std::vector<uint64_t>> parts(chunks);
  std::vector<std::thread> th;
  for (unsigned w = 0; w < nt; ++w)
    th.emplace_back([&, w] {
      for (size_t k = w; k < chunks; k += nt) {
        // Fault: each chunk after the first starts one index early, so chunk ends are searched twice.
        const uint64_t from = lo + k * kChunk - (k > 0 && BX_FAULT(md5z_host_chunk_overlap) ? 1 : 0);
        parts[k] = md5::host_search<V>(tb, from, std::min(hi, lo + (k + 1) * kChunk), T);
      }
    });
  for (auto& t : th) t.join();
  std::vector<uint64_t> all;
  for (auto& p : parts) all.insert(all.end(), p.begin(), p.end());
  return all;
}
}  // namespace

Impl make_impl(md5::Variant v, bool gpu, int dev) {
  Impl im;
  im.variant = v;
  im.name = md5::variant_name(v);
  im.where = gpu ? "gpu" + std::to_string(dev) : "cpu";
  im.device = gpu ? dev : -1;
  if (!gpu) {
    im.search = [v](const md5::TunnelBase& tb, uint64_t lo, uint64_t hi, int T, double* secs) {
      const auto t0 = std::chrono::steady_clock::now();
      auto r = md5::with_variant(v, [&](auto c) { return host_search_parallel<decltype(c)>(tb, lo, hi, T); });
      if (secs) *secs += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      return r;
    };
    im.digests = [v](const md5::TunnelBase& tb, const std::vector<uint32_t>& idx) {
      std::vector<std::array<uint32_t, 4>> out(idx.size());
      md5::with_variant(v, [&](auto c) {
        for (size_t k = 0; k < idx.size(); ++k) md5::candidate_digest<decltype(c)>(tb, idx[k], 1, out[k].data());
      });
      return out;
    };
  } else {
#if defined(BX_HAVE_CUDA)
    im.search = [v, dev](const md5::TunnelBase& tb, uint64_t lo, uint64_t hi, int T, double* secs) {
      kern::Md5zSearchStats st;
      auto r = kern::md5z_search(dev, v, tb, lo, hi, T, &st);
      if (secs) *secs += st.kernel_seconds;
      return r;
    };
    im.digests = [v, dev](const md5::TunnelBase& tb, const std::vector<uint32_t>& idx) {
      return kern::md5z_digests(dev, v, tb, idx);
    };
#endif
  }
  return im;
}

std::vector<Impl> impls(const std::vector<md5::Variant>& variants, const DeviceSelection& sel) {
  std::vector<Impl> out;
  for (auto v : variants) {
    if (sel.cpu) out.push_back(make_impl(v, false, -1));
    for (int g : sel.gpus) out.push_back(make_impl(v, true, g));
  }
  return out;
}

}  // namespace bx::md5z
