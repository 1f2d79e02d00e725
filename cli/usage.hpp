// The command synopsis, generated from the command line's own definition (every subcommand, every
// option), so README's "Commands" block cannot drift from --help: the CTest readme_usage compares them
// and `ci/usage` rewrites the block.
#pragma once
#include <string>

namespace CLI {
class App;
}

namespace bx {
// One line per (sub)command: "bitexact PATH [--flag] [--opt TYPE] POSITIONAL...", wrapped at `width`
// with continuation lines indented; subcommands follow their parent.
std::string usage_synopsis(const CLI::App& app, size_t width = 112);
}  // namespace bx
