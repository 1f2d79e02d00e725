// `--exec "COMMAND"` on selftest, verify and bench: the implementations a harness describes (any language,
// JSON lines over its stdin and stdout: suite/harness.hpp, docs/protocol.md) get the family's cases, the
// same ones `cases export` writes, and are judged against the reference with the cases report. Which cases:
//   selftest  the quick tier of each described implementation's family (--family: that family only);
//   verify F  the full tier of F (the vectors and seeded random cases, --exec-seed);
//   bench F   every provided operation's full-tier cases in interleaved timed rounds, judged every round.
// An operation of the family's cases that the implementation does not list reads "not provided"; a case
// whose precondition it does not accept is not asked (both counted in the table, never passes).
#pragma once
#include <cstdint>
#include <string>

namespace bx {

struct ExecOptions {
  std::string command;    // --exec; empty: no harness
  double timeout_s = 60;  // --exec-timeout: seconds one request may take
  uint64_t seed = 1;      // --exec-seed: the full tier's random cases
};

// selftest (tier "quick") or verify (tier "full"): every implementation of the harness, of `family` when not
// empty. Exit status: 0 when every implementation passed, 1 otherwise.
int run_exec_checks(const char* command_name, const ExecOptions& o, const std::string& family, const std::string& tier);
// bench: rounds of every implementation's provided operations (of `family` when not empty).
int run_exec_bench(const ExecOptions& o, const std::string& family, int rounds);

}  // namespace bx
