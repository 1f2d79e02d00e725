// The q8parity vector files (vectors/q8parity/matvec.json, rmsnorm.json): generation, strict parsing, the
// embedded copies.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "suite/q8parity/inputs.hpp"

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

// Both files (relative to the repository root); path -> exact file text; one line per problem (empty: OK).
std::vector<std::string> vector_files();
std::map<std::string, std::string> generate_vectors();
std::vector<std::string> check_vectors(const std::string& root);

}  // namespace bx::q8parity
