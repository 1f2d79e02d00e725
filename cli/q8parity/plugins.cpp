// q8parity implementations from plugins (--plugin): their operations on the family's inputs, for the
// selftest's rows (the same cases and vectors as the built-in variants) and verify's.
#include "cli/q8parity/q8parity.hpp"

namespace bx::q8parity {

std::vector<PluginEntry> plugin_impls(const DeviceSelection& sel) {
  std::vector<PluginEntry> out;
  for (const auto& [p, dev] : suite::plugin_places("q8parity", sel.cpu, sel.gpus, [](const suite::PluginImpl& p) { suite::q8parity::adapt(p); }))
    out.push_back({{"q8parity/" + p.name, suite::Implementation::place_of(dev), dev, p.path}, suite::q8parity::adapt(p, dev)});
  return out;
}

std::vector<float> plugin_matvec(const PluginEntry& im, const MatvecInput& in, double* seconds) {
  return im.ops.matvec(in.w, in.x, in.rows, in.k, uint32_t(in.ntok), seconds);
}

std::vector<float> plugin_rmsnorm(const PluginEntry& im, const NormInput& in) {
  return im.ops.rmsnorm(in.x, in.has_w ? in.w : std::vector<float>{}, in.n, in.nrows, in.w_period, in.eps);
}

}  // namespace bx::q8parity
