#include "suite/ecvrf/plugin_ops.hpp"

#include <algorithm>
#include <stdexcept>

#include "suite/call_site.hpp"
#include "suite/hex.hpp"

namespace bx::suite::ecvrf {

std::string decode_status_name(int32_t status) {
  switch (status) {
    case BX_ECVRF_DECODE_VALID: return "valid";
    case BX_ECVRF_DECODE_Y_NOT_BELOW_P: return "y_not_below_p";
    case BX_ECVRF_DECODE_NOT_SQUARE: return "not_square";
    case BX_ECVRF_DECODE_X_ZERO_SIGN_SET: return "x_zero_sign_set";
  }
  return "status " + std::to_string(status);
}

PluginEcvrf adapt(const PluginImpl& p, int device) {
  const std::string who = "plugin " + p.path + ": implementation '" + p.name + "'";
  const bx_ecvrf_ops ops = read_ops<bx_ecvrf_ops>(p, sizeof(bx_ecvrf_ops), "ecvrf");
  const bx_ecvrf_ops* t = &ops;
  require_place(p.place, device, who, "ecvrf");
  if (p.contract != BX_CONTRACT_BIT_EXACT) throw InputError(who + ": ecvrf plugin implementations are judged bit-exact only");
  if (t->search_preconditions != 0) throw InputError(who + ": search_preconditions has undefined bits (ecvrf defines none)");
  if (!t->decode && !t->add && !t->scalar_mult && !t->proof_to_hash && !t->vrf_beta && !t->search)
    throw InputError(who + ": provides no operation");
  PluginEcvrf e;
  void* ctx = p.impl->ctx;
  const std::string tag = "plugin " + p.library + " '" + p.name + "'";
  if (auto fn = t->decode)
    e.decode = [=](const std::vector<B32>& in) {
      const size_t n = in.size();
      std::vector<int32_t> st(n);
      std::vector<B32> canon(n);
      on_site(device, [&](auto& site) {
        const uint8_t* i = site.in(in.data(), 32 * n, "in");
        auto* s = reinterpret_cast<int32_t*>(site.out(4 * n, "status"));
        uint8_t* o = site.out(32 * n, "out");
        site.run(tag, "decode", [&](void* stream) { return fn(ctx, i, n, s, o, stream); });
        site.get(st.data(), reinterpret_cast<const uint8_t*>(s), 4 * n);
        site.get(canon.data(), o, 32 * n);
      });
      std::vector<Decoded> out(n);
      for (size_t k = 0; k < n; ++k) out[k] = {st[k], canon[k]};
      return out;
    };
  // Two 32-byte operands per item -> one 32-byte answer (add, scalar_mult).
  auto binary = [=](const char* name, auto fn) {
    return [=](const std::vector<B32>& a, const std::vector<B32>& b) {
      const size_t n = a.size();
      std::vector<B32> out(n);
      on_site(device, [&](auto& site) {
        const uint8_t* x = site.in(a.data(), 32 * n, "a");
        const uint8_t* y = site.in(b.data(), 32 * n, "b");
        uint8_t* o = site.out(32 * n, "out");
        site.run(tag, name, [&](void* stream) { return fn(ctx, x, y, n, o, stream); });
        site.get(out.data(), o, 32 * n);
      });
      return out;
    };
  };
  if (t->add) e.add = binary("add", t->add);
  if (t->scalar_mult) e.scalar_mult = binary("scalar_mult", t->scalar_mult);
  if (auto fn = t->proof_to_hash)
    e.proof_to_hash = [=](const std::vector<B32>& gamma) {
      const size_t n = gamma.size();
      std::vector<B64> out(n);
      on_site(device, [&](auto& site) {
        const uint8_t* g = site.in(gamma.data(), 32 * n, "gamma");
        uint8_t* o = site.out(64 * n, "beta");
        site.run(tag, "proof_to_hash", [&](void* stream) { return fn(ctx, g, n, o, stream); });
        site.get(out.data(), o, 64 * n);
      });
      return out;
    };
  if (auto fn = t->vrf_beta)
    e.vrf_beta = [=](const B32& pk, const B32& x, const std::vector<std::vector<uint8_t>>& alphas) {
      const size_t n = alphas.size();
      const uint32_t len = n ? uint32_t(alphas[0].size()) : 0;
      std::vector<uint8_t> flat;
      for (const auto& a : alphas) {
        if (a.size() != len) throw std::logic_error("ecvrf vrf_beta: alphas of one call share their length");
        flat.insert(flat.end(), a.begin(), a.end());
      }
      flat.push_back(0);  // a non-empty buffer also for empty alphas
      std::vector<int32_t> ctr(n);
      std::vector<B64> beta(n);
      on_site(device, [&](auto& site) {
        const uint8_t* k = site.in(pk.data(), 32, "pk");
        const uint8_t* s = site.in(x.data(), 32, "x");
        const uint8_t* a = site.in(flat.data(), flat.size(), "alphas");
        auto* c = reinterpret_cast<int32_t*>(site.out(4 * n, "ctr"));
        uint8_t* b = site.out(64 * n, "beta");
        site.run(tag, "vrf_beta", [&](void* stream) { return fn(ctx, k, s, a, len, n, c, b, stream); });
        site.get(ctr.data(), reinterpret_cast<const uint8_t*>(c), 4 * n);
        site.get(beta.data(), b, 64 * n);
      });
      std::vector<Beta> out(n);
      for (size_t i = 0; i < n; ++i) out[i] = {ctr[i], beta[i]};
      return out;
    };
  if (auto fn = t->search)
    e.search = [=](const B32& pk, const B32& x, const B32& header, uint64_t lo, uint64_t count, uint64_t target, uint64_t capacity) {
      SearchAnswer ans;
      uint64_t cap = std::max<uint64_t>(capacity, 1);
      for (;;) {
        uint64_t found = 0;
        std::vector<bx_ecvrf_hit> hits;
        on_site(device, [&](auto& site) {
          const uint8_t* k = site.in(pk.data(), 32, "pk");
          const uint8_t* s = site.in(x.data(), 32, "x");
          const uint8_t* h = site.in(header.data(), 32, "header");
          auto* o = reinterpret_cast<bx_ecvrf_hit*>(site.out(sizeof(bx_ecvrf_hit) * cap, "hits"));
          auto* f = reinterpret_cast<uint64_t*>(site.out(8, "found"));
          ans.seconds += site.run(tag, "search", [&](void* stream) { return fn(ctx, k, s, h, lo, count, target, o, cap, f, stream); });
          site.get(&found, reinterpret_cast<const uint8_t*>(f), 8);
          hits.resize(std::min(found, cap));
          site.get(hits.data(), reinterpret_cast<const uint8_t*>(o), sizeof(bx_ecvrf_hit) * hits.size());
        });
        if (found > cap) {
          if (found > count) {
            ans.contract_breaches.push_back("search reported " + std::to_string(found) + " hits in a request of " + std::to_string(count) + " nonces");
            return ans;
          }
          cap = found;
          continue;
        }
        for (const bx_ecvrf_hit& h : hits) {
          if (h.nonce - lo >= count)
            ans.contract_breaches.push_back("search reported nonce " + std::to_string(h.nonce) + " outside [" + std::to_string(lo) + ", +" +
                                            std::to_string(count) + ")");
          ans.hits.push_back({h.nonce, h.score});
        }
        return ans;
      }
    };
  return e;
}

}  // namespace bx::suite::ecvrf
