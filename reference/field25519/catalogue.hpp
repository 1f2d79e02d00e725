// The boundary catalogue of the field25519 spec (section 6.1) as exact integers, each with a label.
// Values may exceed 2^255 (up to 2^261): layouts that can hold them get them as representations;
// byte-level consumers (vectors, oracle) use the ones below 2^255.
#pragma once
#include <string>
#include <vector>
#include "reference/common/prime_field.hpp"

namespace bx::ref::f25519 {

struct CatalogueEntry {
  Int value;
  std::string label;
};

// Every entry of spec 6.1 "Values": small constants, values around p, 2p and 2^256, all of p..2^255-1,
// 2^k-1, 2^k, 2^k+1 and 19*2^k at every limb boundary of every layout, sqrt(-1), d, 2d, a non-square.
const std::vector<CatalogueEntry>& boundary_catalogue();
// The subset below 2^255 (expressible as a 32-byte operand with bit 255 clear).
std::vector<CatalogueEntry> boundary_catalogue_bytes();

}  // namespace bx::ref::f25519
