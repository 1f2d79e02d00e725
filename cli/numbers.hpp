// Number arguments of the CLI: decimal (no leading zero: never read as octal), 0x-hex, or 2^K with an
// optional +N / -N (K <= 512). Anything else is an InputError naming the argument.
#pragma once
#include <cstdint>
#include <string>

#include "cli/hex.hpp"
#include "reference/common/prime_field.hpp"

namespace bx {
ref::Int parse_number(const std::string& s, const std::string& what);
uint64_t parse_u64(const std::string& s, const std::string& what);  // the same, and below 2^64
}  // namespace bx
