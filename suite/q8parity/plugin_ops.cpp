#include "suite/q8parity/plugin_ops.hpp"

#include <cmath>
#include <stdexcept>

#include "suite/call_site.hpp"
#include "suite/hex.hpp"

namespace bx::suite::q8parity {

PluginQ8 adapt(const PluginImpl& p, int device) {
  const std::string who = "plugin " + p.path + ": implementation '" + p.name + "'";
  const bx_q8parity_ops ops = read_ops<bx_q8parity_ops>(p, sizeof(bx_q8parity_ops), "q8parity");
  const bx_q8parity_ops* t = &ops;
  require_place(p.place, device, who, "q8parity");
  if (p.contract != BX_CONTRACT_BIT_EXACT && p.contract != BX_CONTRACT_CHARACTERISED)
    throw InputError(who + ": q8parity plugin implementations are bit-exact (the canonical order) or characterised (an NMSE bound)");
  if (t->reserved != 0) throw InputError(who + ": q8parity ops field 'reserved' must be 0");
  const bool characterised = p.contract == BX_CONTRACT_CHARACTERISED;
  if (characterised && !(t->nmse_bound > 0 && t->nmse_bound < 1))
    throw InputError(who + ": a characterised q8parity implementation states nmse_bound in (0, 1), got " + std::to_string(t->nmse_bound));
  if (!characterised && t->nmse_bound != 0) throw InputError(who + ": a bit-exact q8parity implementation states nmse_bound 0");
  if (!t->matvec && !t->rmsnorm) throw InputError(who + ": provides no operation");
  PluginQ8 q;
  q.characterised = characterised;
  q.nmse_bound = t->nmse_bound;
  void* ctx = p.impl->ctx;
  const std::string tag = "plugin " + p.library + " '" + p.name + "'";
  if (auto fn = t->matvec)
    q.matvec = [=](const std::vector<uint8_t>& w, const std::vector<float>& x, uint64_t rows, uint64_t k, uint32_t ntok, double* seconds) {
      std::vector<float> y(size_t(ntok) * rows);
      on_site(device, [&](auto& site) {
        const uint8_t* wb = site.in(w.data(), w.size(), "w");
        auto* xb = reinterpret_cast<const float*>(site.in(x.data(), 4 * x.size(), "x"));
        auto* yb = reinterpret_cast<float*>(site.out(4 * y.size(), "y"));
        const double s = site.run(tag, "matvec", [&](void* stream) { return fn(ctx, wb, xb, rows, k, ntok, yb, stream); });
        if (seconds) *seconds += s;
        site.get(y.data(), reinterpret_cast<const uint8_t*>(yb), 4 * y.size());
      });
      return y;
    };
  if (auto fn = t->rmsnorm)
    q.rmsnorm = [=](const std::vector<float>& x, const std::vector<float>& w, uint64_t n, uint64_t nrows, uint64_t w_period, float eps) {
      std::vector<float> y(x.size());
      on_site(device, [&](auto& site) {
        auto* xb = reinterpret_cast<const float*>(site.in(x.data(), 4 * x.size(), "x"));
        auto* wb = w.empty() ? nullptr : reinterpret_cast<const float*>(site.in(w.data(), 4 * w.size(), "w"));
        auto* yb = reinterpret_cast<float*>(site.out(4 * y.size(), "y"));
        site.run(tag, "rmsnorm", [&](void* stream) { return fn(ctx, xb, wb, n, nrows, w_period, eps, yb, stream); });
        site.get(y.data(), reinterpret_cast<const uint8_t*>(yb), 4 * y.size());
      });
      return y;
    };
  return q;
}

}  // namespace bx::suite::q8parity
