// SASS instruction count on the common path of each md5z search kernel, from `cuobjdump -sass` of this
// executable (when cuobjdump is on PATH): the shortest instruction path through the kernel's main loop,
// from the loop head to its back-edge. A rejected group of candidates (early exit, no hit) takes that path,
// so over `candidates` (the variant's lanes: 1, or 2 for q9-v3) it is the per-candidate instruction count of
// nearly every candidate.
#pragma once
#include <map>
#include <string>

namespace bx::md5z {
struct SassPath {
  int total = 0;  // instructions on the common path
  int alu = 0;    // of which integer-ALU pipe (IADD3, LOP3, SHF, LEA, ISETP, PRMT, SEL, FLO, MOV, ...)
  int fma = 0;    // of which FMA pipe (IMAD*, IMUL, VIADD)
  int candidates = 1;  // the candidates one pass of the loop handles (the variant's lanes)
};
// md5::Variant as int -> the common path; empty when cuobjdump is unavailable.
std::map<int, SassPath> sass_common_paths();
// The same analysis over the SASS text of one function (exposed for tests).
SassPath sass_loop_shortest_path(const std::string& function_sass);
}  // namespace bx::md5z
