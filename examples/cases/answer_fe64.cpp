// An offline responder: answers a field25519 prompt of `bitexact cases export` with fe64 (the arithmetic of
// examples/plugins/field25519_fe64, four saturated 64-bit words), as a program on a machine without
// bitexact would (a rig, a Mac, a CI job of another repository): read the prompt, run each request through
// the implementation, write one answer per case id in the shape of the oracle's "ref". Then
//   bitexact cases judge prompt.json response.json
// says which case is wrong, with its flags and both answers.
//   answer_fe64 PROMPT [--drop ID] [--extra ID] > response.json   (--drop/--extra: for the judge's tests)
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

extern "C" {
#include "../plugins/field25519_fe64/fe64_ops.h"
}

namespace {

using json = nlohmann::ordered_json;

void from_hex(const std::string& h, uint8_t out[32]) {
  if (h.size() != 64) throw std::runtime_error("operand is not 64 hex digits: " + h);
  for (int i = 0; i < 32; ++i) out[i] = uint8_t(std::stoul(h.substr(2 * i, 2), nullptr, 16));
}
std::string to_hex(const uint8_t in[32]) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (int i = 0; i < 32; ++i) s += d[in[i] >> 4], s += d[in[i] & 15];
  return s;
}

const char* const kOps[] = {"add", "sub", "neg", "mul", "sqr", "mul_small", "invert", "pow22523", "sqrt_ratio", "canonical"};

json answer(const json& request) {
  const std::string op = request.at("op").get<std::string>();
  uint32_t code = BX_F25519_OP_COUNT;
  for (uint32_t k = 0; k < BX_F25519_OP_COUNT; ++k)
    if (op == std::string("fe25519.") + kOps[k]) code = k;
  if (code == BX_F25519_OP_COUNT) throw std::runtime_error("operation not provided: " + op);
  uint8_t a[32], b[32] = {0}, out[32];
  from_hex(request.at("a").get<std::string>(), a);
  if (request.contains("b")) from_hex(request["b"].get<std::string>(), b);
  fe64 x, y, r;
  fe64_decode(&x, a), fe64_decode(&y, b);
  const uint8_t flag = fe64_apply(code, &r, &x, &y);
  fe64_encode(out, &r);
  if (code == BX_F25519_SQRT_RATIO) return {{"was_square", flag != 0}, {"root", to_hex(out)}};
  return to_hex(out);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: answer_fe64 PROMPT [--drop ID] [--extra ID]\n");
    return 2;
  }
  long long drop = -1, extra = -1;
  for (int i = 2; i + 1 < argc; i += 2) {
    if (std::string(argv[i]) == "--drop") drop = std::atoll(argv[i + 1]);
    if (std::string(argv[i]) == "--extra") extra = std::atoll(argv[i + 1]);
  }
  try {
    std::ifstream f(argv[1]);
    const json prompt = json::parse(f);
    json answers = json::array();
    for (const json& c : prompt.at("cases")) {
      if (c.at("id").get<long long>() == drop) continue;
      answers.push_back({{"id", c["id"]}, {"answer", answer(c.at("request"))}});
    }
    if (extra >= 0) answers.push_back({{"id", extra}, {"answer", "00"}});
    const json response = {{"bitexact_cases", 1}, {"kind", "response"}, {"family", prompt.at("family")}, {"answers", answers}};
    std::cout << response.dump(1) << "\n";
  } catch (const std::exception& e) {
    std::fprintf(stderr, "answer_fe64: %s\n", e.what());
    return 1;
  }
  return 0;
}
