// qpow CLI plumbing: strict parsing, big-integer <-> limb conversions, the implementation registry and
// the reference's verdicts on all cores.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cctype>
#include <thread>

#include "cli/qpow/qpow.hpp"
#include "suite/variant_filter.hpp"
#include "cli/numbers.hpp"
#if defined(BX_HAVE_CUDA)
#include "gpu/kernels/qpow_kernels.hpp"
#endif

namespace bx::qpow {
namespace {

const Int kTwo512 = Int(1) << 512;

bool all_hex(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isxdigit(c) != 0; });
}
Int from_be(const std::vector<uint8_t>& b) {
  Int v;
  for (uint8_t x : b) v = (v << 8) | x;
  return v;
}

}  // namespace

Header parse_header(const std::string& hex, const std::string& what) {
  const auto b = from_hex(hex, 32, what);
  Header h;
  std::copy(b.begin(), b.end(), h.begin());
  return h;
}
Int parse_nonce(const std::string& s, const std::string& what) {
  Int v;
  if (s.size() == 128 && all_hex(s))
    v = from_be(from_hex(s, 64, what));
  else
    v = parse_number(s, what);
  if (v < 0 || v >= kTwo512) throw InputError(what + ": a nonce must be in [0, 2^512)");
  return v;
}
Int parse_difficulty(const std::string& s, const std::string& what) {
  const Int d = parse_number(s, what);
  if (d == 0) throw InputError(what + ": difficulty 0 is invalid (no nonce meets it)");
  if (d < 0 || d >= kTwo512) throw InputError(what + ": a difficulty must be in [1, 2^512)");
  return d;
}
Int parse_target(const std::string& hex, const std::string& what) { return from_be(from_hex(hex, 64, what)); }
std::pair<Int, uint64_t> parse_nonce_range(const std::string& s) {
  const size_t c = s.rfind(':');
  if (c == std::string::npos) throw InputError("--nonces: expected LO:COUNT, got '" + s + "'");
  const Int lo = parse_nonce(s.substr(0, c), "--nonces LO");
  const Int n = parse_number(s.substr(c + 1), "--nonces COUNT");
  if (n < 1 || n >= (Int(1) << 64)) throw InputError("--nonces: COUNT must be 1..2^64-1");
  return {lo, uint64_t(n)};
}

U512 to_u512(const Int& v) {
  U512 r{};
  Int x = v;
  for (int i = 0; i < 16; ++i) {
    r.limb[i] = uint32_t(x & 0xffffffffu);
    x >>= 32;
  }
  return r;
}
Int from_u512(const U512& v) {
  Int r;
  for (int i = 15; i >= 0; --i) r = (r << 32) | v.limb[i];
  return r;
}
Hash8 to_words(const Int& v) {
  Hash8 w;
  Int x = v;
  for (int j = 7; j >= 0; --j) {
    w[j] = uint64_t(x & Int(~uint64_t(0)));
    x >>= 64;
  }
  return w;
}
Int from_words(const Hash8& w) {
  Int r;
  for (uint64_t x : w) r = (r << 64) | x;
  return r;
}
std::string words_hex(const Hash8& w) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (uint64_t x : w)
    for (int k = 60; k >= 0; k -= 4) s += d[(x >> k) & 15];
  return s;
}
std::string u512_hex(const Int& v) { return words_hex(to_words(v)); }

std::string variant_label(Variant v) { return std::string("qpow/") + row(v).name; }
std::vector<Variant> parse_variants(const std::vector<std::string>& names) {
  std::vector<std::string> all;
  for (int k = 0; k < kVariantCount; ++k) all.push_back(variant_label(Variant(k)));
  std::vector<Variant> out;
  for (size_t k : suite::select_variants(names, all, "qpow")) out.push_back(Variant(k));
  return out;
}

std::vector<Impl> impls(const std::vector<Variant>& variants, const DeviceSelection& sel) {
  std::vector<Impl> out;
  for (Variant v : variants) {
    if (sel.cpu && row(v).host) {
      Impl im;  // the entry points are set below (search_capped stays empty on the CPU)
      im.variant = v, im.name = variant_label(v), im.where = "cpu", im.device = -1, im.lossy = row(v).lossy;
      im.search = [v](const SearchRequest& rq, double* secs) {
        const auto t0 = std::chrono::steady_clock::now();
        auto h = host_search(v, rq);
        if (secs) *secs += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        return h;
      };
      im.hashes = [v](const Header& h, const std::vector<U512>& ns) {
        std::vector<Hash8> out(ns.size());
        const uint64_t zero[8] = {};
        with_variant(v, [&]<class Code>() {
          for (size_t i = 0; i < ns.size(); ++i) {
            const MinerJob job = JobMaker<Code>::make(h.data(), zero, ns[i], row(v).shortcuts);
            Code::hash(job, ns[i], out[i].data(), kQuantusP2);
          }
          return 0;
        });
        return out;
      };
      im.job_hashes = [v](const std::vector<MinerJob>& jobs) {
        std::vector<Hash8> out(jobs.size());
        with_variant(v, [&]<class Code>() {
          for (size_t i = 0; i < jobs.size(); ++i) Code::hash(jobs[i], jobs[i].base, out[i].data(), kQuantusP2);
          return 0;
        });
        return out;
      };
      im.job_search = [v](const MinerJob& job, uint32_t count) {
        std::vector<uint64_t> hits;
        with_variant(v, [&]<class Code>() {
          for (uint32_t i = 0; i < count; ++i)
            if (Code::valid(job, u512_add(job.base, i), kQuantusP2)) hits.push_back(i);
          return 0;
        });
        return hits;
      };
      out.push_back(im);
    }
#if defined(BX_HAVE_CUDA)
    for (int dev : sel.gpus) {
      if (!kern::qpow_on_gpu(v)) continue;
      Impl im;
      im.variant = v, im.name = variant_label(v), im.where = "gpu" + std::to_string(dev), im.device = dev, im.lossy = row(v).lossy;
      im.search = [v, dev](const SearchRequest& rq, double* secs) {
        kern::QpowSearchStats st;
        auto h = kern::qpow_search(dev, v, rq, &st);
        if (secs) *secs += st.kernel_seconds;
        return h;
      };
      im.search_capped = [v, dev](const SearchRequest& rq, size_t capacity, unsigned* reruns) {
        kern::QpowSearchStats st;
        auto h = kern::qpow_search(dev, v, rq, &st, capacity);
        if (reruns) *reruns = st.reruns;
        return h;
      };
      im.hashes = [v, dev](const Header& h, const std::vector<U512>& ns) {
        std::vector<Hash8> out;
        for (auto& a : kern::qpow_hashes(dev, v, h.data(), ns)) out.push_back(a);
        return out;
      };
      im.job_hashes = [v, dev](const std::vector<MinerJob>& jobs) {
        std::vector<Hash8> out;
        for (auto& a : kern::qpow_job_hashes(dev, v, jobs)) out.push_back(a);
        return out;
      };
      im.job_search = [v, dev](const MinerJob& job, uint32_t count) { return kern::qpow_job_search(dev, v, job, count); };
      out.push_back(im);
    }
#endif
  }
  return out;
}

namespace {
template <class F>
void parallel_for(size_t n, F&& f) {
  const unsigned t = std::max(1u, std::min<unsigned>(std::thread::hardware_concurrency(), unsigned((n + 63) / 64)));
  std::atomic<size_t> next{0};
  std::vector<std::thread> pool;
  for (unsigned k = 0; k < t; ++k)
    pool.emplace_back([&] {
      for (size_t i; (i = next.fetch_add(1)) < n;) f(i);
    });
  for (auto& th : pool) th.join();
}
}  // namespace

SearchRequest search_request(const Header& h, const Int& lo, uint64_t count, const Int& target) {
  SearchRequest rq{};
  std::copy(h.begin(), h.end(), rq.header);
  rq.lo = to_u512(lo);
  rq.count = count;
  const Hash8 tw = to_words(target);
  std::copy(tw.begin(), tw.end(), rq.target);
  return rq;
}

std::vector<uint64_t> reference_hits(const Header& h, const Int& lo, uint64_t count, const Int& target) {
  std::vector<char> ok(count, 0);
  parallel_for(count, [&](size_t i) {
    const Int n = (lo + i) % kTwo512;
    if (n != 0) ok[i] = ref::qpow::hash_meets_target(ref::qpow::mining_hash(h, n), target);
  });
  std::vector<uint64_t> out;
  for (uint64_t i = 0; i < count; ++i)
    if (ok[i]) out.push_back(i);
  return out;
}
std::vector<Int> reference_hashes(const Header& h, const std::vector<Int>& nonces) {
  std::vector<Int> out(nonces.size());
  parallel_for(nonces.size(), [&](size_t i) { out[i] = ref::qpow::mining_hash(h, nonces[i]); });
  return out;
}

}  // namespace bx::qpow
