// `bitexact list`: one table of every family's variants (tags, contract, where each runs here), the
// faults of the zoo (--faults) and the zoo's checks per family (--checks); --json for machines;
// --ctest-resources: a CTest resource specification of the GPUs found (ctest --resource-spec-file).
#pragma once

namespace bx {
struct ListCommand {
  bool json = false, faults = false, checks = false, sanitize = false, gpu_stage = false, ctest_resources = false;
};
int run_list(const ListCommand& cmd);
}  // namespace bx
