// SASS instruction count on the common path of each md5z search kernel, from `cuobjdump -sass` of this
// executable (when cuobjdump is on PATH): the shortest instruction path through the kernel's main loop,
// from the loop head to its back-edge. A rejected candidate (early exit, no hit) takes that path, so it is
// the per-candidate instruction count of nearly every candidate.
#pragma once
#include <map>
#include <string>

namespace bx::md5z {
// md5::Variant as int -> instructions on the common path; empty when cuobjdump is unavailable.
std::map<int, int> sass_common_paths();
// The same analysis over the SASS text of one function (exposed for tests).
int sass_loop_shortest_path(const std::string& function_sass);
}  // namespace bx::md5z
