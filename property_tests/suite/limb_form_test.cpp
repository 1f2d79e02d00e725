// The engine's run-time limb forms (suite/limb_form.hpp), which every limb check of a built-in layout or
// a plugin goes through: packing round-trips at both widths and both signs, representations hold the value
// (or it shifted by p), Montgomery forms map elements both ways, every built-in layout's declared form is
// accepted, and forms that cannot hold every value below p are refused (the negative controls).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "cli/field25519/impls.hpp"
#include "suite/field25519/limb_check.hpp"
#include "suite/limb_form.hpp"

namespace {
using bx::suite::Bound;
using bx::suite::Int;
using bx::suite::LimbForm;
using bx::suite::Limbs;
const Int& p() { return bx::suite::field25519::modulus(); }

LimbForm saturated(int bits, bool is_signed, int montgomery = 0) {  // 256 bits in limbs of `bits`
  LimbForm f;
  f.limbs = 256 / bits, f.bits = bits, f.is_signed = is_signed, f.montgomery_bits = montgomery;
  for (int j = 0; j < f.limbs; ++j) {
    f.weight.push_back(bits * j);
    const uint64_t max = is_signed ? (uint64_t(1) << (bits - 1)) - 1 : bits == 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
    f.tight.push_back(max), f.loose.push_back(max), f.lazy2.push_back(0);
  }
  return f;
}

std::vector<std::pair<std::string, LimbForm>> forms() {
  auto v = bx::field25519::builtin_limb_forms();
  v.push_back({"4x64 unsigned", saturated(64, false)});
  v.push_back({"8x32 unsigned, Montgomery 2^256", saturated(32, false, 256)});
  return v;
}

Int draw(const std::vector<uint64_t>& w) {
  Int v = 0;
  for (uint64_t x : w) v = (v << 64) | x;
  return v % p();
}
}  // namespace

TEST(LimbForm, EveryBuiltinLayoutsFormIsAccepted) {
  for (auto& [name, f] : bx::field25519::builtin_limb_forms()) EXPECT_EQ(f.invalid_because(p()), "") << name;
}

RC_GTEST_PROP(LimbForm, RepresentHoldsTheValueAndPackRoundTrips, (std::vector<uint64_t> words)) {
  RC_PRE(!words.empty());
  const Int v = draw(words);
  for (auto& [name, f] : forms()) {
    const auto r = bx::suite::represent(f, v, p());
    RC_ASSERT(r.has_value());
    const Int h = bx::suite::held(f, *r);
    RC_ASSERT(h == v || h == v - p() || h == v + p());
    RC_ASSERT(bx::suite::within(f, *r, Bound::tight));
    const auto packed = bx::suite::pack(f, {*r});
    RC_ASSERT(packed.size() == bx::suite::element_bytes(f));
    RC_ASSERT(bx::suite::unpack(f, packed.data(), 1)[0] == *r);
    // The element a representation stands for: represent_element inverts element (Montgomery included).
    RC_ASSERT(bx::suite::element(f, bx::suite::represent_element(f, v, p()), p()) == v);
  }
}

TEST(LimbForm, CornersLieOnTheirBoundAndJustOutsideDoesNot) {
  for (auto& [name, f] : forms())
    for (Bound b : {Bound::tight, Bound::loose}) {
      for (const Limbs& c : bx::suite::corners(f, b)) EXPECT_TRUE(bx::suite::within(f, c, b)) << name << " " << bx::suite::limbs_hex(c);
      for (const Limbs& c : bx::suite::just_outside(f, b)) EXPECT_FALSE(bx::suite::within(f, c, b)) << name << " " << bx::suite::limbs_hex(c);
    }
}

// Negative controls: forms a plugin might declare that cannot hold every value below p.
TEST(LimbForm, FormsThatCannotHoldEveryValueAreRefused) {
  LimbForm narrow = bx::field25519::builtin_limb_forms()[0].second;  // fe51
  narrow.tight[0] = uint64_t(1) << 50;
  EXPECT_NE(narrow.invalid_because(p()).find("cannot hold every 51-bit digit"), std::string::npos) << narrow.invalid_because(p());
  LimbForm short_top = saturated(64, false);
  short_top.tight[3] = uint64_t(1) << 40;  // the top limb cannot reach p - 1
  EXPECT_NE(short_top.invalid_because(p()).find("no tight representation"), std::string::npos) << short_top.invalid_because(p());
  LimbForm wide = saturated(32, true);
  wide.loose[0] = uint64_t(1) << 31;  // does not fit a signed 32-bit limb
  EXPECT_NE(wide.invalid_because(p()).find("does not fit"), std::string::npos) << wide.invalid_because(p());
  LimbForm order = saturated(64, false);
  order.weight[2] = 64;
  EXPECT_NE(order.invalid_because(p()).find("weights do not increase"), std::string::npos);
}
