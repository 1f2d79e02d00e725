// A limb representation declared at run time (by a built-in layout's bounds or by a plugin's
// bx_limb_form), over any prime modulus: the checkers' whole view of limbs. Limb vectors are held as
// exact integers, so a check never depends on the width or signedness it is checking.
//   held(form, x)    = sum_j x_j 2^weight_j                 (the integer the limbs hold)
//   element(form, x) = held * 2^-montgomery_bits  mod p     (the field element it stands for)
// Every function here is exact; nothing wraps.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "reference/common/prime_field.hpp"

namespace bx::suite {

using ref::Int;

enum class Bound { tight, loose, lazy2 };
const char* bound_name(Bound b);

using Limbs = std::vector<Int>;  // one element: limb_count exact limb values

struct LimbForm {
  int limbs = 0;          // 1..32
  int bits = 0;           // storage width: 32 or 64
  bool is_signed = false;
  int montgomery_bits = 0;
  std::vector<int> weight;  // strictly increasing from 0
  std::vector<uint64_t> tight, loose, lazy2;  // inclusive max of |limb|; lazy2 empty or all 0: not declared
  bool has_lazy2() const;
  const std::vector<uint64_t>& max(Bound b) const;
  // Why the form cannot be used with modulus p ("" if it can): counts, widths, increasing weights, bounds
  // that fit the width, tight <= loose <= lazy2, and a tight bound that holds every value below p.
  std::string invalid_because(const Int& p) const;
  std::string describe() const;  // "5 x 64-bit unsigned limbs, weights 0,51,102,153,204"
};

Int held(const LimbForm& f, const Limbs& x);
Int element(const LimbForm& f, const Limbs& x, const Int& p);
bool within(const LimbForm& f, const Limbs& x, Bound b);
// The first limb past bound b, as "limb 3 = 0x... > 0x..." ("" when within).
std::string past_bound(const LimbForm& f, const Limbs& x, Bound b);

// A tight representation holding exactly v (0 <= v < 2^(top weight + bits)), digit by digit with the
// remainder in the top limb (balanced digits when signed); if that misses the tight bound, v - p (then
// v + p) is tried, so a signed layout holds values near 2^255 shifted by a multiple of p. nullopt if none fits.
std::optional<Limbs> represent(const LimbForm& f, const Int& v, const Int& p);
// The limb vector standing for field element e (Montgomery forms hold e * 2^k mod p).
Limbs represent_element(const LimbForm& f, const Int& e, const Int& p);

// Limb vectors at the corners of bound b: all limbs at the maximum, all zero, alternating both ways, all
// at maximum - 1, the negative maximum and a mixed-sign pattern (signed), and each limb alone at its
// maximum. Empty when b is not declared.
std::vector<Limbs> corners(const LimbForm& f, Bound b);
// Just outside bound b: each limb alone at its maximum + 1 (outside-precondition probes).
std::vector<Limbs> just_outside(const LimbForm& f, Bound b);

// Packing to and from the plugin's storage (native endianness, limb 0 first, two's complement).
std::vector<uint8_t> pack(const LimbForm& f, const std::vector<Limbs>& xs);
std::vector<Limbs> unpack(const LimbForm& f, const uint8_t* data, size_t n);
size_t element_bytes(const LimbForm& f);

std::string limbs_hex(const Limbs& x);  // "[0x1, -0x2, ...]", as every failure report prints limbs

}  // namespace bx::suite
