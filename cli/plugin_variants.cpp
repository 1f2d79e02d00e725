#include "cli/plugin_variants.hpp"

namespace bx {

std::vector<VariantInfo> plugin_variants(const std::string& family, const std::vector<VariantInfo>& builtins,
                                         const std::function<std::string(const suite::PluginImpl&)>& ops) {
  std::vector<VariantInfo> out;
  for (const auto& p : suite::plugin_impls()) {
    if (suite::family_name(p.family) != family) continue;
    VariantInfo vi;
    vi.name = family + "/" + p.name;
    for (auto& b : builtins)
      if (b.name == vi.name) throw InputError("plugin " + p.path + ": implementation '" + p.name + "' has the name of a built-in variant");
    vi.origin = p.where_from();
    vi.contract = p.contract_text();
    vi.backend = "plugin";
    vi.cpu = p.place == BX_PLACE_HOST;
    vi.gpu = p.place == BX_PLACE_DEVICE;
    vi.description = ops ? ops(p) : "";
    for (auto& pre : p.preconditions) vi.description += (vi.description.empty() ? "" : "; ") + std::string("precondition: ") + pre;
    out.push_back(vi);
  }
  return out;
}

}  // namespace bx
