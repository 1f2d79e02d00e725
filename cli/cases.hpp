// `bitexact cases export` and `bitexact cases judge`: offline case files (suite/cases.hpp) for every family
// that offers cases (Family::cases), judged against the family's oracle reference.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "suite/cases.hpp"

namespace CLI {
class App;
}

namespace bx {

class Family;
// The family's oracle with no implementation selected: request -> the reference's answer (its "ref").
std::function<suite::cases::json(const suite::cases::json& request)> reference_of(const Family& f);
// The first wrong cases (id, operation, flags, request, both answers or what two lists differ by) and
// every refusal, one block each: the report every way in shares.
void print_verdict_details(const suite::cases::Verdict& v);

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
