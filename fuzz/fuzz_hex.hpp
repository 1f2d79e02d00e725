// Lowercase hex of a byte string, for the fuzz targets' difference reports.
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>

inline std::string hex(const uint8_t* p, size_t n) {
  std::string s;
  char b[3];
  for (size_t i = 0; i < n; ++i) std::snprintf(b, sizeof b, "%02x", p[i]), s += b;
  return s;
}
