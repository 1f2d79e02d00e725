// qpow implementations from plugins (--plugin), as Impl rows beside the built-in variants: the search
// through suite/qpow/plugin_ops.hpp (split where the plugin's preconditions require), the hash, the field
// ops and the permutation where provided.
#include <chrono>
#include <cstdio>

#include "cli/qpow/qpow.hpp"
#include "suite/qpow/plugin_ops.hpp"

namespace bx::qpow {

namespace {
using Search = std::function<std::vector<uint64_t>(const SearchRequest&, double* seconds)>;
Header header_of(const SearchRequest& rq) {
  Header h;
  std::copy(rq.header, rq.header + 32, h.begin());
  return h;
}
Int target_of_words(const uint64_t t[8]) {
  Hash8 w;
  std::copy(t, t + 8, w.begin());
  return from_words(w);
}
}  // namespace

std::vector<Impl> plugin_impls(const DeviceSelection& sel) {
  std::vector<Impl> out;
  for (const auto& [p, dev] : suite::plugin_places("qpow", sel.cpu, sel.gpus, [](const suite::PluginImpl& p) { suite::qpow::adapt(p); })) {
    const suite::qpow::PluginQpow q = suite::qpow::adapt(p, dev);
    Impl im;
    im.variant = Variant(0);
    im.where = dev < 0 ? "cpu" : "gpu" + std::to_string(dev);
    im.device = dev;
    im.name = "qpow/" + p.name;
    im.plugin_path = p.path;
    im.plugin_mul = q.gl_mul;
    im.plugin_add = q.gl_add;
    im.plugin_permute = q.permute;
    if (q.hash)
      im.hashes = [q](const Header& h, const std::vector<U512>& nonces) {
        std::vector<Int> ns;
        for (const U512& n : nonces) ns.push_back(from_u512(n));
        std::vector<Hash8> out;
        for (const auto& b : q.hash(h, ns)) out.push_back(to_words(suite::qpow::from_be64(b.data())));
        return out;
      };
    if (q.search_job) {  // the job-level form: the search where the plugin has no other, else a row beside it
      const std::string label = im.label();
      Search job = [q, label](const SearchRequest& rq, double* seconds) {
        const auto t0 = std::chrono::steady_clock::now();
        const auto a = q.search_job(header_of(rq), from_u512(rq.lo), rq.count, target_of_words(rq.target), 4096);
        if (seconds) *seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        for (const auto& b : a.contract_breaches) std::fprintf(stderr, "FAIL %s: %s\n", label.c_str(), b.c_str());
        auto offsets = a.offsets;
        if (!a.contract_breaches.empty()) offsets.push_back(~uint64_t(0));
        return offsets;
      };
      (q.search ? im.plugin_search_job : im.search) = job;
    }
    im.plugin_prepare = q.prepare ? [q](const Header& h, const Int& nonce) { return q.prepare(h, nonce); }
                                  : std::function<bx_qpow_job(const Header&, const Int&)>{};
    if (q.search) {
      const std::string label = im.label();
      auto run = [q, label](const SearchRequest& rq, uint64_t capacity, bool unsplit, unsigned* reruns) {
        const auto a = q.search(header_of(rq), from_u512(rq.lo), rq.count, target_of_words(rq.target), capacity, unsplit);
        for (const auto& b : a.contract_breaches) std::fprintf(stderr, "FAIL %s: %s\n", label.c_str(), b.c_str());
        if (reruns) *reruns = a.reruns;
        auto offsets = a.offsets;
        // A breach of the search contract is a failure wherever the list is judged: an offset no range holds.
        if (!a.contract_breaches.empty()) offsets.push_back(~uint64_t(0));
        return offsets;
      };
      im.search = [run](const SearchRequest& rq, double* seconds) {
        const auto t0 = std::chrono::steady_clock::now();
        auto hits = run(rq, 4096, false, nullptr);
        if (seconds) *seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        return hits;
      };
      im.search_capped = [run](const SearchRequest& rq, size_t capacity, unsigned* reruns) { return run(rq, capacity, false, reruns); };
      if (q.within_2_64) im.search_unsplit = [run](const SearchRequest& rq) { return run(rq, 4096, true, nullptr); };
    }
    out.push_back(std::move(im));
  }
  return out;
}

}  // namespace bx::qpow
