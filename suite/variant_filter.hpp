// The one variant filter of every command (--variant on selftest, verify and bench of every family): a
// glob is matched (fnmatch) against the full name ("qpow/gl64", "ecvrf/fe32-ptx/w4/fused") or, when it has
// no '/', against the part after the family's '/'; "all" selects every variant. An exact name is a glob
// without wildcards, so "gl64", "qpow/gl64" and "gl64*" all work the same way in every family.
#pragma once
#include <string>
#include <vector>

namespace bx::suite {

bool variant_matches(const std::string& glob, const std::string& variant);
// Whether any glob selects the variant (an empty list selects every variant).
bool variant_wanted(const std::vector<std::string>& globs, const std::string& variant);
// The indices of `names` that the globs select, in the order of `names`. A glob that selects none of them
// is an InputError: "--variant: no <family> variant matches '<glob>' (see `bitexact list`)".
std::vector<size_t> select_variants(const std::vector<std::string>& globs, const std::vector<std::string>& names,
                                    const std::string& family);

}  // namespace bx::suite
