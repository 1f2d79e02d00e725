// qpow's offline cases: "qpow.search" windows (every valid nonce of a range, as offsets) where miners lose
// or invent shares: nonce 0 (never valid), the 2^64 and 2^128 carries of the nonce's words (a kernel that
// keeps the high words per batch), the end of the nonce space at 2^512, and a plain window; and
// "qpow.hash" of the nonces next to each carry. Difficulty 16 (about one valid nonce in 16). The full tier
// takes four headers instead of one.
#include "cli/qpow/qpow.hpp"

namespace bx::qpow {

namespace {

std::string nonce_hex(const Int& n) { return u512_hex(n); }

suite::cases::CaseSpec search_case(const Header& h, const Int& lo, uint64_t count, std::vector<std::string> flags, std::string pre) {
  return {{{"op", "qpow.search"}, {"header", to_hex(h.data(), h.size())}, {"lo", nonce_hex(lo)}, {"count", count}, {"difficulty", "16"}},
          std::move(flags), std::move(pre)};
}

}  // namespace

std::vector<suite::cases::CaseSpec> cases(const std::string& tier, uint64_t seed, json* notes) {
  std::vector<suite::cases::CaseSpec> out;
  const int headers = tier == "full" ? 4 : 1;
  const Int two64 = Int(1) << 64, two128 = Int(1) << 128, end = Int(1) << 512;
  const std::string carry = "crosses a 2^64 nonce carry (outside a declared \"never across a 2^64 carry\" precondition)";
  for (int k = 0; k < headers; ++k) {
    Header h{};
    for (size_t i = 0; i < h.size(); ++i) h[i] = uint8_t((seed + uint64_t(k)) * 131 + i * 29 + 7);
    out.push_back(search_case(h, 0, 1024, {"NonceZero"}, ""));
    out.push_back(search_case(h, Int(two64 - 512), 1024, {"Carry64"}, carry));
    out.push_back(search_case(h, Int(two128 - 512), 1024, {"Carry64", "Carry128"}, carry));
    out.push_back(search_case(h, Int(end - 1024), 1024, {"RangeEnd"}, ""));
    out.push_back(search_case(h, Int(1) << 40, 4096, {"Random"}, ""));
    for (const Int& at : std::vector<Int>{Int(two64 - 1), two64, Int(two128 - 1), two128, Int(end - 1)})
      out.push_back({{{"op", "qpow.hash"}, {"header", to_hex(h.data(), h.size())}, {"nonce", nonce_hex(at)}}, {"NonceCarry"}, ""});
  }
  if (notes)
    *notes = {{"NonceZero", {{"bugType", "EDGE_CASE"}, {"description", "A range starting at nonce 0: 0 is never a valid seal."}}},
              {"Carry64", {{"bugType", "CARRY"}, {"description", "A range across a 2^64 carry: the nonce's high words held per batch."}}},
              {"Carry128", {{"bugType", "CARRY"}, {"description", "A range across the 2^128 carry."}}},
              {"RangeEnd", {{"bugType", "CARRY"}, {"description", "The last nonces below 2^512: a range end that wraps."}}},
              {"NonceCarry", {{"bugType", "CARRY"}, {"description", "The hash of a nonce next to a word carry."}}},
              {"Random", {{"bugType", "BASIC"}, {"description", "A plain window."}}}};
  return out;
}

}  // namespace bx::qpow
