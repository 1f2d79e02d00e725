// `bitexact cases export` and `bitexact cases judge`: offline case files (suite/cases.hpp) for every family
// that offers cases (Family::cases), judged against the family's oracle reference.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace bx {

struct CasesCommand {
  CLI::App* exp = nullptr;
  CLI::App* judge = nullptr;
  std::string family, tier = "quick", out, expected_out;
  uint64_t seed = 1;
  std::vector<std::string> ops;
  std::string prompt, response, expected_in;
  bool parsed() const;
  int run(int argc, char** argv) const;
};
// Registers `cases export` and `cases judge` on `app`, their options bound to `c` (which must outlive parsing).
void add_cases_command(CLI::App& app, CasesCommand& c);

}  // namespace bx
