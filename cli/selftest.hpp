// `bitexact selftest`: every family's selftest over the selected places, one shared table per family
// (variant, where, each check's passes/total, verdict). Exit 0 only if every row and host check passed
// and something ran.
#pragma once
#include <string>

#include "cli/family.hpp"
#include "suite/variant_filter.hpp"

namespace bx {

struct SelftestCommand {
  SelftestOptions opt;
  std::string family;        // empty: every family
  std::string variant_glob;  // empty: every variant; "md5z/q9-*", "*ptx*", or a glob of the part after '/'
  bool json = false;
  bool plugins_only = false;  // only the loaded plugins' implementations (the embedded selftest's run)
};
int run_selftest(const SelftestCommand& cmd);
// The variant filter of every command (suite/variant_filter.hpp).
using suite::variant_matches;

}  // namespace bx
