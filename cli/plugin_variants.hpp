// A plugin implementation as a row of `bitexact list` and a name the variant filter sees: every family
// lists its loaded plugins through this one function, beside its built-in variants.
#pragma once
#include <string>
#include <vector>

#include "cli/family.hpp"
#include "suite/plugin.hpp"

namespace bx {

// The variants of every loaded plugin implementation of `family`, named "<family>/<name>", with `ops`
// describing what the implementation provides (family-specific, may be empty) and its preconditions.
// InputError when a name is a built-in variant's.
std::vector<VariantInfo> plugin_variants(const std::string& family, const std::vector<VariantInfo>& builtins,
                                         const std::function<std::string(const suite::PluginImpl&)>& ops);

}  // namespace bx
