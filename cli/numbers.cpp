// Number arguments of the CLI (see numbers.hpp).
#include "cli/numbers.hpp"

#include <algorithm>
#include <cctype>
#include <optional>
#include <regex>

namespace bx {
namespace {
bool all_hex(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isxdigit(c) != 0; });
}

// "1e10", "2.5e9", "1E+6": an exact integer, or nullopt when s is not in this notation.
std::optional<ref::Int> scientific(const std::string& s, const std::string& what) {
  static const std::regex form(R"(([0-9]+)(\.([0-9]+))?[eE]\+?([0-9]{1,6}))");
  std::smatch m;
  if (!std::regex_match(s, m, form)) return std::nullopt;
  const std::string digits = m[1].str() + m[3].str();
  const long exp = std::stol(m[4]) - long(m[3].length());
  if (exp > 4000) throw InputError(what + ": " + s + " is out of range");
  ref::Int v;
  for (char c : digits) v = v * 10 + (c - '0');
  if (exp >= 0) return v * boost::multiprecision::pow(ref::Int(10), unsigned(exp));
  const ref::Int div = boost::multiprecision::pow(ref::Int(10), unsigned(-exp));
  if (v % div != 0) throw InputError(what + ": " + s + " is not a whole number");
  return v / div;
}
}  // namespace

namespace {
// depth: how many 2^K terms may still follow ("2^64-2^31" has two; a longer chain is refused, so no input
// recurses deeply). Every form is at most 300 characters (2^512 has 155 digits) before any regex reads it.
ref::Int parse_term(const std::string& s, const std::string& what, int depth) {
  const std::string shown = s.size() > 40 ? s.substr(0, 40) + "..." : s;
  auto bad = [&] {
    return InputError(what + ": expected a whole number (decimal, 0x-hex, 2^K[+N|-N] or 1e10), got '" + shown + "'");
  };
  if (s.empty()) throw bad();
  if (s.size() > 300) throw InputError(what + ": '" + shown + "' (" + std::to_string(s.size()) + " characters) is out of range");
  if (auto v = scientific(s, what)) return *v;
  if (s.rfind("2^", 0) == 0) {
    size_t k = 2;
    while (k < s.size() && std::isdigit((unsigned char)s[k])) ++k;
    if (k == 2) throw bad();
    if (k - 2 > 4) throw InputError(what + ": " + s.substr(0, k) + " is out of range (beyond 2^512)");
    const int e = std::stoi(s.substr(2, k - 2));
    if (e > 512) throw InputError(what + ": 2^" + std::to_string(e) + " is out of range (beyond 2^512)");
    ref::Int v = ref::Int(1) << e;
    if (k < s.size()) {
      if (s[k] != '+' && s[k] != '-') throw bad();
      if (depth == 0) throw bad();
      const ref::Int d = parse_term(s.substr(k + 1), what, depth - 1);
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
  if (!std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c) != 0; })) throw bad();
  if (s.size() > 200) throw InputError(what + ": '" + shown + "' (" + std::to_string(s.size()) + " digits) is out of range");
  if (s.size() > 1 && s[0] == '0') throw InputError(what + ": a decimal number has no leading zero, got '" + s + "'");
  ref::Int v;  // digit by digit (cpp_int's string constructor would read a leading 0 as octal)
  for (char c : s) v = v * 10 + (c - '0');
  return v;
}
}  // namespace

ref::Int parse_number(const std::string& s, const std::string& what) { return parse_term(s, what, 1); }
uint64_t parse_u64(const std::string& s, const std::string& what) {
  const ref::Int v = parse_number(s, what);
  if (v < 0 || v > ref::Int(~uint64_t(0))) throw InputError(what + ": " + s + " is out of range (it does not fit 64 bits)");
  return v.convert_to<uint64_t>();
}

ref::Int parse_in_range(const std::string& s, const std::string& what, const ref::Int& lo, const ref::Int& hi) {
  const ref::Int v = parse_number(s, what);
  if (v < lo || v > hi) {
    const auto show = [](const ref::Int& x) {
      return x == ref::Int(~uint64_t(0)) ? std::string("2^64-1") : x.str();
    };
    throw InputError(what + ": " + s + " is out of range [" + show(lo) + ", " + show(hi) + "]");
  }
  return v;
}

}  // namespace bx
