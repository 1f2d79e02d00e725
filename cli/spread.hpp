// Several GPUs in one run: `verify` and `bench` on more than one GPU start one child process of this
// binary per GPU (`--device g`), so a GPU that faults cannot take the others' work down with it and each
// child owns its CUDA context. verify gives child g the part g of G of this run's range (`--shard
// PLAN,g/G`) and merges their result documents (cli/run_result.hpp) into this run's own; a child that
// exits abnormally or writes no result is an error naming its GPU and the range it held, and the merge
// then reports that range as a gap. bench runs the same bench on every GPU at once and prints each one.
#pragma once
#include <string>

#include "cli/family.hpp"

namespace bx {

// --device of verify and bench: "" (every GPU, else the CPU), "all" (the same), "gpu" (every GPU, at least
// one), "cpu", or a GPU index. Unlike selftest's "all", the CPU does not join GPUs: a GPU-sized range
// would take it days.
DeviceSelection run_devices(const std::string& device_flag);

int spread_verify(int argc, char** argv, const std::string& family, const RunContext& ctx);
int spread_bench(int argc, char** argv, const RunContext& ctx);

}  // namespace bx
