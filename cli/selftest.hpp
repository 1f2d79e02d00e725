// `bitexact selftest`: every family's selftest over the selected places, one shared table per family
// (variant, where, each check's passes/total, verdict). Exit 0 only if every row and host check passed
// and something ran.
#pragma once
#include <string>

#include "cli/family.hpp"

namespace bx {

struct SelftestCommand {
  SelftestOptions opt;
  std::string family;        // empty: every family
  std::string variant_glob;  // empty: every variant; "md5z/q9-*", "*ptx*", or a glob of the part after '/'
  bool json = false;
};
int run_selftest(const SelftestCommand& cmd);
// The variant filter of a glob (fnmatch on the full name, or on the part after the family's '/').
bool variant_matches(const std::string& glob, const std::string& variant);

}  // namespace bx
