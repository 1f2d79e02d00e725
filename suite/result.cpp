#include "suite/result.hpp"

namespace bx {

std::string range_text(const RunResult& r, RangePart p) {
  // offsets are relative to the range's first unit (range_lo may exceed 64 bits: a U512 nonce)
  return r.unit + " range " + r.range_lo + " + [" + std::to_string(p.offset) + ", " + std::to_string(p.offset + p.size) + ")";
}

void RunResult::add_count(const std::string& who, const std::string& counter, uint64_t v) {
  json& c = counts[who];
  if (!c.is_object()) c = json::object();
  c[counter] = (c.contains(counter) ? c[counter].get<uint64_t>() : uint64_t(0)) + v;
}

uint64_t fold_item(std::initializer_list<uint64_t> item) {
  uint64_t h = 0x6a09e667f3bcc909ull;
  for (uint64_t f : item) {  // splitmix64's finaliser over each field in turn
    h ^= f;
    h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
    h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
    h ^= h >> 31;
  }
  return h;
}

void RunResult::add_fold(const std::string& who, const std::string& counter, std::initializer_list<uint64_t> item) {
  add_count(who, counter, fold_item(item));  // unsigned: the sum wraps mod 2^64
}

void RunResult::add_counts(const std::string& who, std::initializer_list<std::pair<const char*, uint64_t>> counters) {
  for (const auto& [counter, v] : counters) add_count(who, counter, v);
}

void RunResult::add_seconds(const std::string& who, double s) {
  json& t = seconds[who];
  t = (t.is_number() ? t.get<double>() : 0.0) + s;
}

std::string result_label(const std::string& label) {
  const size_t at = label.rfind("@gpu");
  if (at == std::string::npos || label.find_first_not_of("0123456789", at + 4) != std::string::npos) return label;
  return label.substr(0, at + 4);
}

}  // namespace bx
