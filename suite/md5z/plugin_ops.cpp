#include "suite/md5z/plugin_ops.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "reference/md5z/md5z_ref.hpp"
#include "suite/call_site.hpp"
#include "suite/hex.hpp"

namespace bx::suite::md5z {

bx_md5z_job reference_job(const Base& base) {
  const auto j = ref::md5z::tunnel_job(base);
  bx_md5z_job out;
  std::copy(j.m, j.m + 16, out.m);
  std::copy(j.q, j.q + 28, out.q);
  return out;
}

PluginMd5z adapt(const PluginImpl& p, int device) {
  const std::string who = "plugin " + p.path + ": implementation '" + p.name + "'";
  const bx_md5z_ops ops = read_ops<bx_md5z_ops>(p, sizeof(bx_md5z_ops), "md5z");
  const bx_md5z_ops* t = &ops;
  require_place(p.place, device, who, "md5z");
  if (p.contract != BX_CONTRACT_BIT_EXACT) throw InputError(who + ": md5z plugin implementations are judged bit-exact only");
  if (t->search_preconditions != 0) throw InputError(who + ": search_preconditions has undefined bits (md5z defines none)");
  if (!t->md5 && !t->candidate_digests && !t->search && !t->search_job && !t->prepare) throw InputError(who + ": provides no operation");
  PluginMd5z q;
  void* ctx = p.impl->ctx;
  const std::string tag = "plugin " + p.library + " '" + p.name + "'";
  if (auto fn = t->md5)
    q.md5 = [=](const std::vector<std::vector<uint8_t>>& msgs) {
      std::vector<uint8_t> data;
      std::vector<uint64_t> offsets = {0};
      for (const auto& m : msgs) {
        data.insert(data.end(), m.begin(), m.end());
        offsets.push_back(data.size());
      }
      data.push_back(0);  // a non-empty buffer also when every message is empty
      std::vector<Digest> out(msgs.size());
      on_site(device, [&](auto& site) {
        const uint8_t* d = site.in(data.data(), data.size(), "data");
        auto* o = reinterpret_cast<const uint64_t*>(site.in(offsets.data(), 8 * offsets.size(), "offsets"));
        uint8_t* g = site.out(16 * msgs.size(), "digests");
        site.run(tag, "md5", [&](void* stream) { return fn(ctx, d, o, msgs.size(), g, stream); });
        site.get(out.data(), g, 16 * msgs.size());
      });
      return out;
    };
  if (auto fn = t->candidate_digests)
    q.candidate_digests = [=](const Base& base, const std::vector<uint32_t>& idx) {
      std::vector<Digest> out(idx.size());
      on_site(device, [&](auto& site) {
        const uint8_t* b = site.in(base.data(), 52, "base");
        auto* i = reinterpret_cast<const uint32_t*>(site.in(idx.data(), 4 * idx.size(), "indices"));
        uint8_t* g = site.out(16 * idx.size(), "digests");
        site.run(tag, "candidate_digests", [&](void* stream) { return fn(ctx, b, i, idx.size(), g, stream); });
        site.get(out.data(), g, 16 * idx.size());
      });
      return out;
    };
  // One search form: `first` is what the plugin reads (the base's 52 bytes, or a bx_md5z_job), `call`
  // calls it; the hit buffer grows until the plugin's count fits.
  auto searcher = [=](const char* op, auto call, auto input_of) {
    return [=](const Base& base, uint64_t lo, uint64_t hi, uint32_t threshold, uint64_t capacity) {
      SearchAnswer ans;
      const auto input = input_of(base);
      uint64_t cap = std::max<uint64_t>(capacity, 1);
      for (;;) {
        uint64_t found = 0;
        std::vector<bx_md5z_hit> hits;
        on_site(device, [&](auto& site) {
          const uint8_t* in = site.in(&input, sizeof input, "input");
          auto* h = reinterpret_cast<bx_md5z_hit*>(site.out(sizeof(bx_md5z_hit) * cap, "hits"));
          auto* f = reinterpret_cast<uint64_t*>(site.out(8, "found"));
          site.run(tag, op, [&](void* stream) { return call(in, lo, hi, threshold, h, cap, f, stream); });
          site.get(&found, reinterpret_cast<const uint8_t*>(f), 8);
          hits.resize(std::min(found, cap));
          site.get(hits.data(), reinterpret_cast<const uint8_t*>(h), sizeof(bx_md5z_hit) * hits.size());
        });
        if (found > cap) {
          if (found > hi - lo) {
            ans.contract_breaches.push_back(std::string(op) + " reported " + std::to_string(found) + " hits in a request of " +
                                            std::to_string(hi - lo) + " indices");
            return ans;
          }
          cap = found;
          continue;
        }
        for (const bx_md5z_hit& h : hits) {
          if (h.index < lo || h.index >= hi)
            ans.contract_breaches.push_back(std::string(op) + " reported index " + std::to_string(h.index) + " outside [" +
                                            std::to_string(lo) + ", " + std::to_string(hi) + ")");
          ans.hits.push_back({h.index, h.zeros});
        }
        return ans;
      }
    };
  };
  if (auto fn = t->search)
    q.search = searcher(
        "search",
        [=](const uint8_t* in, uint64_t lo, uint64_t hi, uint32_t T, bx_md5z_hit* h, uint64_t cap, uint64_t* f, void* stream) {
          return fn(ctx, in, lo, hi, T, h, cap, f, stream);
        },
        [](const Base& base) { return base; });
  if (auto fn = t->search_job)
    q.search_job = searcher(
        "search_job",
        [=](const uint8_t* in, uint64_t lo, uint64_t hi, uint32_t T, bx_md5z_hit* h, uint64_t cap, uint64_t* f, void* stream) {
          return fn(ctx, reinterpret_cast<const bx_md5z_job*>(in), lo, hi, T, h, cap, f, stream);
        },
        [](const Base& base) { return reference_job(base); });
  if (auto fn = t->prepare)
    q.prepare = [=](const Base& base) {
      bx_md5z_job job;
      on_site(-1, [&](auto& site) {  // precomputation is host code on both places
        const uint8_t* b = site.in(base.data(), 52, "base");
        uint8_t* j = site.out(sizeof job, "job");
        site.run(tag, "prepare", [&](void*) { return fn(ctx, b, reinterpret_cast<bx_md5z_job*>(j)); });
        site.get(&job, j, sizeof job);
      });
      return job;
    };
  return q;
}

}  // namespace bx::suite::md5z
