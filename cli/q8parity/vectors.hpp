// The q8parity vector file (vectors/q8parity/matvec.json): generation, strict parsing, the embedded copy.
#pragma once
#include <string>
#include <vector>

#include "cli/q8parity/q8parity.hpp"

namespace bx::q8parity {

struct MatvecVector {
  int id = 0;
  std::string comment;
  MatvecInput in;
  std::vector<float> y;  // the expected outputs (ntok * rows)
};
std::string generate_matvec_text();
// Every test of the file text; InputError naming the file, the tcId and the field on any problem.
std::vector<MatvecVector> parse_matvec(const std::string& file, const std::string& text);
std::vector<MatvecVector> load_embedded_matvec();

}  // namespace bx::q8parity
