// The family registry. The list itself is BX_FAMILIES in CMakeLists.txt; CMake writes it into
// bx_families.inc as BX_FAMILY(name) entries, and each family defines bx_family_<name>() in cli/<name>/.
#include <algorithm>

#include "cli/family.hpp"
#include "suite/hex.hpp"
#include "gpu/core/fault.hpp"

#define BX_FAMILY(name) const bx::Family& bx_family_##name();
#include "bx_families.inc"
#undef BX_FAMILY

namespace bx {

bool SelftestRow::ok() const {
  // Every check that ran passed, and at least one ran; a check not provided at all is listed, never passed.
  bool ran = false;
  for (const Tally& t : checks) {
    if (t.wholly_not_provided()) continue;
    if (!t.ok()) return false;
    ran = true;
  }
  return ran;
}

const std::vector<const Family*>& families() {
  static const std::vector<const Family*> list = {
#define BX_FAMILY(name) &bx_family_##name(),
#include "bx_families.inc"
#undef BX_FAMILY
  };
  return list;
}

const Family& family(const std::string& name) {
  return static_cast<const Family&>(vectors::owner(vector_owners(), name));  // every owner there is a Family
}

const vectors::Owners& vector_owners() {
  static const vectors::Owners list(families().begin(), families().end());
  return list;
}

std::vector<FaultInfo> all_faults() {
  std::vector<FaultInfo> v;
#define BX_FAULT_INFO(fam, n, where, desc) v.push_back({#fam, #n, #where, desc});
  BX_FAULT_LIST(BX_FAULT_INFO)
#undef BX_FAULT_INFO
  return v;
}

std::vector<FaultInfo> Family::faults() const {
  std::vector<FaultInfo> v;
  for (auto& f : all_faults())
    if (f.family == name()) v.push_back(f);
  return v;
}

bool zoo_build() {
#if defined(BX_ZOO)
  return true;
#else
  return false;
#endif
}

}  // namespace bx
