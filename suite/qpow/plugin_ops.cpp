#include "suite/qpow/plugin_ops.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "suite/hex.hpp"
#include "reference/qpow/qpow_ref.hpp"
#include "suite/call_site.hpp"

namespace bx::suite::qpow {

namespace {

const Int kTwo64 = Int(1) << 64, kTwo512 = Int(1) << 512;

template <class Fn>
std::function<std::vector<uint64_t>(const std::vector<uint64_t>&, const std::vector<uint64_t>&)> binary_op(const std::string& tag,
                                                                                                         const char* name, Fn fn, void* ctx,
                                                                                                         int device) {
  if (!fn) return {};
  return [=](const std::vector<uint64_t>& a, const std::vector<uint64_t>& b) {
    const size_t n = a.size();
    std::vector<uint64_t> out(n);
    on_site(device, [&](auto& site) {
      auto* ia = reinterpret_cast<const uint64_t*>(site.in(a.data(), 8 * n, "a"));
      auto* ib = reinterpret_cast<const uint64_t*>(site.in(b.data(), 8 * n, "b"));
      auto* o = reinterpret_cast<uint64_t*>(site.out(8 * n, "out"));
      site.run(tag, name, [&](void* stream) { return fn(ctx, ia, ib, n, o, stream); });
      site.get(out.data(), reinterpret_cast<const uint8_t*>(o), 8 * n);
    });
    return out;
  };
}

}  // namespace

Bytes64 be64(const Int& v) { return ref::qpow::nonce_be_bytes(v); }  // the seal's encoding: one definition
Int from_be64(const uint8_t* p) {
  Int v = 0;
  for (int i = 0; i < 64; ++i) v = (v << 8) | p[i];
  return v;
}

namespace {

// One search form over [lo, lo + count): the range split where the form needs it (the 2^512 wrap always;
// each multiple of 2^64 with split_2_64), each request re-run with a larger hit buffer until the plugin's
// count fits. call(site, base, n, offsets, capacity, found) runs one request on the site.
template <class Call>
SearchAnswer search_split(int device, const char* op, bool split_2_64, const Int& lo, uint64_t count, uint64_t capacity, bool unsplit,
                          Call&& call) {
  SearchAnswer ans;
  uint64_t done = 0;
  while (done < count) {
    const Int base = (lo + done) % kTwo512;
    uint64_t n = count - done;
    const Int to_wrap = kTwo512 - base, to_carry = kTwo64 - base % kTwo64;
    if (!unsplit && to_wrap < Int(n)) n = uint64_t(to_wrap);
    if (!unsplit && split_2_64 && to_carry < Int(n)) n = uint64_t(to_carry);
    uint64_t cap = std::max<uint64_t>(capacity, 1);
    for (;;) {
      uint64_t found = 0;
      std::vector<uint64_t> offs;
      on_site(device, [&](auto& site) {
        auto* o = reinterpret_cast<uint64_t*>(site.out(8 * cap, "offsets"));
        auto* f = reinterpret_cast<uint64_t*>(site.out(8, "found"));
        call(site, base, n, o, cap, f);
        site.get(&found, reinterpret_cast<const uint8_t*>(f), 8);
        offs.resize(std::min(found, cap));
        site.get(offs.data(), reinterpret_cast<const uint8_t*>(o), 8 * offs.size());
      });
      if (found > cap) {
        if (found > n) {
          ans.contract_breaches.push_back(std::string(op) + " reported " + std::to_string(found) + " hits in a request of " + std::to_string(n) + " nonces");
          break;
        }
        cap = found;
        ++ans.reruns;
        continue;
      }
      for (uint64_t off : offs) {
        if (off >= n) ans.contract_breaches.push_back(std::string(op) + " reported offset " + std::to_string(off) + " in a request of " + std::to_string(n));
        ans.offsets.push_back(done + off);
      }
      break;
    }
    done += n;
  }
  return ans;
}

}  // namespace

bx_qpow_job reference_job(const std::array<uint8_t, 32>& header, const Int& lo, const Int& target) {
  bx_qpow_job j{};
  std::copy(header.begin(), header.end(), j.header);
  const Bytes64 l = be64(lo), t = be64(target);
  std::copy(l.begin(), l.end(), j.lo);
  std::copy(t.begin(), t.end(), j.target);
  const auto mid = ref::qpow::midstate(header, lo), pre = ref::qpow::prestate_low64(header, lo);
  std::copy(mid.begin(), mid.end(), j.midstate);
  std::copy(pre.begin(), pre.end(), j.prestate);
  return j;
}

PluginQpow adapt(const PluginImpl& p, int device) {
  const std::string who = "plugin " + p.path + ": implementation '" + p.name + "'";
  // ABI 1.0's table ended after search: search_job and prepare read as not provided from such a plugin.
  const bx_qpow_ops ops = read_ops<bx_qpow_ops>(p, offsetof(bx_qpow_ops, search_job), "qpow");
  const bx_qpow_ops* t = &ops;
  require_place(p.place, device, who, "qpow");
  if (p.contract != BX_CONTRACT_BIT_EXACT) throw InputError(who + ": qpow plugin implementations are judged bit-exact only");
  if (t->search_preconditions & ~BX_QPOW_SEARCH_WITHIN_2_64) throw InputError(who + ": search_preconditions has undefined bits");
  if (!t->gl_mul && !t->gl_add && !t->permute && !t->hash && !t->search && !t->search_job && !t->prepare)
    throw InputError(who + ": provides no operation");
  PluginQpow q;
  q.within_2_64 = t->search_preconditions & BX_QPOW_SEARCH_WITHIN_2_64;
  void* ctx = p.impl->ctx;
  const std::string tag = "plugin " + p.library + " '" + p.name + "'";
  q.gl_mul = binary_op(tag, "gl_mul", t->gl_mul, ctx, device);
  q.gl_add = binary_op(tag, "gl_add", t->gl_add, ctx, device);
  if (auto fn = t->permute)
    q.permute = [=](const std::vector<uint64_t>& in) {
      const size_t n = in.size() / 12;
      std::vector<uint64_t> out(in.size());
      on_site(device, [&](auto& site) {
        auto* i = reinterpret_cast<const uint64_t*>(site.in(in.data(), 8 * in.size(), "in"));
        auto* o = reinterpret_cast<uint64_t*>(site.out(8 * in.size(), "out"));
        site.run(tag, "permute", [&](void* stream) { return fn(ctx, i, n, o, stream); });
        site.get(out.data(), reinterpret_cast<const uint8_t*>(o), 8 * in.size());
      });
      return out;
    };
  if (auto fn = t->hash)
    q.hash = [=](const std::array<uint8_t, 32>& header, const std::vector<Int>& nonces) {
      const size_t n = nonces.size();
      std::vector<uint8_t> flat(64 * n);
      for (size_t i = 0; i < n; ++i) {
        const Bytes64 b = be64(nonces[i]);
        std::copy(b.begin(), b.end(), flat.begin() + 64 * i);
      }
      std::vector<Bytes64> out(n);
      on_site(device, [&](auto& site) {
        const uint8_t* h = site.in(header.data(), 32, "header");
        const uint8_t* in = site.in(flat.data(), flat.size(), "nonces");
        uint8_t* o = site.out(64 * n, "out");
        site.run(tag, "hash", [&](void* stream) { return fn(ctx, h, in, n, o, stream); });
        site.get(out.data(), o, 64 * n);
      });
      return out;
    };
  if (auto fn = t->search)
    q.search = [=, split = q.within_2_64](const std::array<uint8_t, 32>& header, const Int& lo, uint64_t count, const Int& target,
                                          uint64_t capacity, bool unsplit) {
      const Bytes64 tb = be64(target);
      return search_split(device, "search", split, lo, count, capacity, unsplit,
                          [&](auto& site, const Int& base, uint64_t n, uint64_t* o, uint64_t cap, uint64_t* f) {
                            const Bytes64 lb = be64(base);
                            const uint8_t* h = site.in(header.data(), 32, "header");
                            const uint8_t* l = site.in(lb.data(), 64, "lo");
                            const uint8_t* tg = site.in(tb.data(), 64, "target");
                            site.run(tag, "search", [&](void* stream) { return fn(ctx, h, l, n, tg, o, cap, f, stream); });
                          });
    };
  if (auto fn = t->search_job)
    q.search_job = [=](const std::array<uint8_t, 32>& header, const Int& lo, uint64_t count, const Int& target, uint64_t capacity) {
      return search_split(device, "search_job", true, lo, count, capacity, false,
                          [&](auto& site, const Int& base, uint64_t n, uint64_t* o, uint64_t cap, uint64_t* f) {
                            const bx_qpow_job job = reference_job(header, base, target);
                            const auto* j = reinterpret_cast<const bx_qpow_job*>(site.in(&job, sizeof job, "job"));
                            site.run(tag, "search_job", [&](void* stream) { return fn(ctx, j, n, o, cap, f, stream); });
                          });
    };
  if (auto fn = t->prepare)
    q.prepare = [=](const std::array<uint8_t, 32>& header, const Int& lo) {
      bx_qpow_job job = reference_job(header, lo, 0);
      std::fill(std::begin(job.midstate), std::end(job.midstate), 0);
      std::fill(std::begin(job.prestate), std::end(job.prestate), 0);
      on_site(-1, [&](auto& site) {  // precomputation is host code on both places
        uint8_t* j = site.out(sizeof job, "job");
        std::memcpy(j, &job, sizeof job);
        site.run(tag, "prepare", [&](void*) { return fn(ctx, reinterpret_cast<bx_qpow_job*>(j)); });
        site.get(&job, j, sizeof job);
      });
      return job;
    };
  return q;
}

}  // namespace bx::suite::qpow
