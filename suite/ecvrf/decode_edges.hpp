// Encodings next to each rejection rule of the strict decoder, in every byte position (the thin spot a
// test of the exact edges alone leaves: a y >= p check or an x = 0 check that reads only some bytes).
// Shared by the selftest's decoder table (golden.cpp) and vectors/ecvrf/decode.json, so the CPU layouts,
// the GPU point code and outside decoders all see them.
#pragma once
#include <string>
#include <vector>

#include "suite/hex.hpp"

namespace bx::ecvrf_family {

struct EdgeEncoding {
  Bytes32 s;
  std::string comment;
};
// Rule 1 (y >= p): y = p - 2^(8i) for each byte position i = 0..31, both sign bits: y differs from p in byte
// i alone and is below p, so a check that skips byte i rejects it (valid or not, the reason changes).
// Rule 4 (x = 0 with the sign set): the first odd x = 1, 3, 5, ... that lie on the curve, sign bit set: x is
// small and non-zero (every byte but byte 0 is zero), so a check that skips byte 0 calls it 0.
std::vector<EdgeEncoding> decode_edge_encodings();

}  // namespace bx::ecvrf_family
