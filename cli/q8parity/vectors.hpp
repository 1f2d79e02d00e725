// The q8parity vector files (vectors/q8parity/matvec.json, rmsnorm.json): generation, strict parsing, the
// embedded copies.
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

struct RmsnormVector {
  int id = 0;
  std::string comment;
  NormInput in;
  std::vector<float> y;
};
std::string generate_rmsnorm_text();
std::vector<RmsnormVector> parse_rmsnorm(const std::string& file, const std::string& text);
std::vector<RmsnormVector> load_embedded_rmsnorm();

}  // namespace bx::q8parity
