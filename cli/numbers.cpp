// Number arguments of the CLI (see numbers.hpp).
#include "cli/numbers.hpp"

#include <algorithm>
#include <cctype>

namespace bx {
namespace {
bool all_hex(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isxdigit(c) != 0; });
}
}  // namespace

ref::Int parse_number(const std::string& s, const std::string& what) {
  auto bad = [&] { return InputError(what + ": expected a decimal, 0x-hex or 2^K[+N|-N] number, got '" + s + "'"); };
  if (s.empty()) throw bad();
  if (s.rfind("2^", 0) == 0) {
    size_t k = 2;
    while (k < s.size() && std::isdigit((unsigned char)s[k])) ++k;
    if (k == 2 || k - 2 > 4) throw bad();
    const int e = std::stoi(s.substr(2, k - 2));
    if (e > 512) throw InputError(what + ": 2^" + std::to_string(e) + " is beyond 2^512");
    ref::Int v = ref::Int(1) << e;
    if (k < s.size()) {
      if (s[k] != '+' && s[k] != '-') throw bad();
      const ref::Int d = parse_number(s.substr(k + 1), what);
      if (s[k] == '+')
        v += d;
      else
        v -= d;
    }
    return v;
  }
  if (s.rfind("0x", 0) == 0 || s.rfind("0X", 0) == 0) {
    const std::string h = s.substr(2);
    if (!all_hex(h) || h.size() > 256) throw bad();
    ref::Int v;
    for (char c : h) v = v * 16 + (std::isdigit((unsigned char)c) ? c - '0' : std::tolower((unsigned char)c) - 'a' + 10);
    return v;
  }
  if (!std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c) != 0; }) || s.size() > 200) throw bad();
  if (s.size() > 1 && s[0] == '0') throw InputError(what + ": a decimal number has no leading zero, got '" + s + "'");
  ref::Int v;  // digit by digit (cpp_int's string constructor would read a leading 0 as octal)
  for (char c : s) v = v * 10 + (c - '0');
  return v;
}
uint64_t parse_u64(const std::string& s, const std::string& what) {
  const ref::Int v = parse_number(s, what);
  if (v < 0 || v > ref::Int(~uint64_t(0))) throw InputError(what + ": " + s + " does not fit 64 bits");
  return v.convert_to<uint64_t>();
}

}  // namespace bx
