// Number arguments of the CLI: decimal (no leading zero: never read as octal), 0x-hex, 2^K with an
// optional +N / -N (K <= 512), or an exact integer in scientific notation (1e10, 2.5e9). Anything else is
// an InputError naming the argument; a number that parses but does not fit is "out of range", never
// wrapped, truncated or clamped.
#pragma once
#include <CLI/CLI.hpp>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "suite/hex.hpp"
#include "reference/common/prime_field.hpp"

namespace bx {
ref::Int parse_number(const std::string& s, const std::string& what);
uint64_t parse_u64(const std::string& s, const std::string& what);  // the same, and below 2^64
// The same, within [lo, hi]; the error says "out of range" and names the bounds.
ref::Int parse_in_range(const std::string& s, const std::string& what, const ref::Int& lo, const ref::Int& hi);

// A numeric option of type T (any integer type, or double for counts written as 1e10) read through
// parse_number and checked against [lo, hi] (default: T's own range; doubles: [0, 2^64)). Every numeric
// option of the CLI is added this way, so no count wraps, and 2^33 for an int is "out of range".
template <class T>
CLI::Option* add_number(CLI::App& app, const std::string& name, T& var, const std::string& help,
                        ref::Int lo = std::is_floating_point_v<T> ? ref::Int(0) : ref::Int(std::numeric_limits<T>::min()),
                        ref::Int hi = std::is_floating_point_v<T> ? ref::Int(~uint64_t(0))
                                                                   : ref::Int(std::numeric_limits<T>::max())) {
  static_assert(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>);
  auto* o = app.add_option_function<std::string>(
      name, [&var, name, lo, hi](const std::string& s) { var = parse_in_range(s, name, lo, hi).template convert_to<T>(); },
      help);
  o->type_name("N");
  return o;
}
}  // namespace bx
