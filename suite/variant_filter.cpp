#include "suite/variant_filter.hpp"

#include <fnmatch.h>

#include "suite/hex.hpp"

namespace bx::suite {

bool variant_matches(const std::string& glob, const std::string& variant) {
  if (glob.empty() || glob == "all") return true;
  if (fnmatch(glob.c_str(), variant.c_str(), 0) == 0) return true;
  const auto slash = variant.find('/');
  return glob.find('/') == std::string::npos && slash != std::string::npos && fnmatch(glob.c_str(), variant.c_str() + slash + 1, 0) == 0;
}

bool variant_wanted(const std::vector<std::string>& globs, const std::string& variant) {
  if (globs.empty()) return true;
  for (const auto& g : globs)
    if (variant_matches(g, variant)) return true;
  return false;
}

std::vector<size_t> select_variants(const std::vector<std::string>& globs, const std::vector<std::string>& names,
                                    const std::string& family) {
  for (const auto& g : globs) {
    bool any = false;
    for (const auto& n : names) any = any || variant_matches(g, n);
    if (!any) throw InputError("--variant: no " + family + " variant matches '" + g + "' (see `bitexact list`)");
  }
  std::vector<size_t> out;
  for (size_t i = 0; i < names.size(); ++i)
    if (variant_wanted(globs, names[i])) out.push_back(i);
  return out;
}

}  // namespace bx::suite
