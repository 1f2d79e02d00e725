// Scalar multiplication by the fixed secret (spec 3): host recodings of a 256-bit scalar into small
// digit arrays (computed once per job, kept in constant memory by kernels), their reconstruction checks
// (the host MUST assert every recoding: spec 3.2), and the per-item evaluation k*H for each strategy.
//
// Strategies (all MUST agree bit-exact on canonical output):
//   DoubleAdd     bits, MSB first: n doublings + one cached addition per set bit (n = 255 for x, 253
//                 suffices for x mod L; 256 for any 256-bit k).
//   Window4       64 fixed 4-bit windows (256 bits), table 0..15 H cached with 0 H = cached identity:
//                 63 x (4 dbl + 1 add) after the first window. Digit 0 adds the identity (no digit test).
//   Wnaf5         width-5 wNAF: digits 0, +-1, +-3, .., +-15, >= 4 zeros after each non-zero digit, final
//                 carry emitted; table of 8 cached odd multiples 1, 3, .., 15 H; negative digits add the
//                 negated cached point (-2dT).
//   JoyeTunstall  signed odd 5-bit windows: d_0..d_49 odd in [-31, 31], top digit d_50 in [1, 31]; table
//                 of 16 cached odd multiples 1, 3, .., 31 H; 50 x (5 dbl + 1 add), no digit test. An even
//                 k is recoded as k - 1 with a final +H fix-up (k = 0: recoded as 1 with a final -H).
// T-skipping (spec 2.2): a doubling computes T only when an addition follows, an addition only when it
// is the last operation (or another addition follows); the output always has a valid T.
//
// Host recoders throw std::logic_error if the digits do not reconstruct k (or violate their digit form,
// which the evaluation relies on); kernels only ever see digits that passed reconstructs().
#pragma once
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include "gpu/core/fault.hpp"
#include "gpu/core/hd.hpp"
#include "gpu/ecvrf/point.hpp"

namespace bx::ecvrf {

// A 256-bit scalar, little-endian bytes (the RFC byte order of x).
using Scalar = std::array<uint8_t, 32>;

// ---------------------------------------------------------------------------------------------------
// Digit arrays (trivially copyable, host and device).

// Double-and-add: bit[i] in {0, 1} for i < n, evaluated from bit n-1 down to 0; bit[i] = 0 for i >= n.
struct BitDigits {
  uint8_t bit[256];
  int n;
};
// 4-bit fixed windows: k = sum nib[i] 16^i, nib[i] in 0..15, all 64 windows (bits 0..255).
struct Window4Digits {
  uint8_t nib[64];
};
// Width-5 wNAF: k = sum d[i] 2^i; d[i] in {0, +-1, .., +-15} odd when non-zero, >= 4 zeros after each
// non-zero digit; n = 1 + index of the top non-zero digit (0 for k = 0), n <= bitlen(k) + 1 <= 257.
constexpr int kWnafMaxDigits = 262;  // room for the final carry with margin; reconstructs() checks n
struct Wnaf5Digits {
  int8_t d[kWnafMaxDigits];
  int n;
};
// Joye-Tunstall: k = sum d[i] 32^i + fixup; d[0..49] odd in [-31, 31], d[50] in [1, 31],
// fixup in {-1, 0, +1} (0 for odd k, +1 for even k >= 2, -1 for k = 0). Requires k < 2^255.
constexpr int kJtDigits = 51;
struct JtDigits {
  int8_t d[kJtDigits];
  int8_t fixup;
};

// ---------------------------------------------------------------------------------------------------
// Host: 320-bit two's-complement accumulator for recoding and reconstruction (|sum| < 2^262, so
// equality mod 2^320 is equality of integers).
namespace scalar_detail {

struct Wide {
  uint32_t w[10];
};
inline Wide wide_of(const Scalar& k) {
  Wide a{};
  for (int i = 0; i < 32; ++i) a.w[i / 4] |= uint32_t(k[i]) << (8 * (i % 4));
  return a;
}
// a += v * 2^pos (v < 2^32, 0 <= pos < 320; bits past 320 wrap away).
inline void wide_add_at(Wide& a, uint32_t v, int pos) {
  const int li = pos / 32, sh = pos % 32;
  uint64_t add = uint64_t(v) << sh;  // < 2^63
  uint64_t c = 0;
  for (int i = li; i < 10; ++i) {
    c += uint64_t(a.w[i]) + (add & 0xffffffffu);
    add >>= 32;
    a.w[i] = uint32_t(c);
    c >>= 32;
  }
}
// a -= v * 2^pos (mod 2^320).
inline void wide_sub_at(Wide& a, uint32_t v, int pos) {
  const int li = pos / 32, sh = pos % 32;
  uint64_t sub = uint64_t(v) << sh;
  uint64_t br = 0;
  for (int i = li; i < 10; ++i) {
    const uint64_t d = uint64_t(a.w[i]) - (sub & 0xffffffffu) - br;
    sub >>= 32;
    a.w[i] = uint32_t(d);
    br = (d >> 63) & 1;
  }
}
inline void wide_add_signed_at(Wide& a, int64_t d, int pos) {
  if (d >= 0) wide_add_at(a, uint32_t(d), pos);
  else wide_sub_at(a, uint32_t(-d), pos);
}
inline bool wide_eq(const Wide& a, const Wide& b) {
  for (int i = 0; i < 10; ++i)
    if (a.w[i] != b.w[i]) return false;
  return true;
}
inline bool wide_is_zero(const Wide& a) { return wide_eq(a, Wide{}); }
inline uint32_t wide_bits(const Wide& a, int pos, int width) {  // width <= 32, pos + width <= 320
  const int li = pos / 32, sh = pos % 32;
  uint64_t v = a.w[li] >> sh;
  if (sh + width > 32 && li + 1 < 10) v |= uint64_t(a.w[li + 1]) << (32 - sh);
  return uint32_t(v & ((uint64_t(1) << width) - 1));
}
// Arithmetic shift right by s < 32 (a >= 0 where it is used).
inline void wide_shr(Wide& a, int s) {
  for (int i = 0; i < 10; ++i) a.w[i] = (a.w[i] >> s) | (i + 1 < 10 ? uint32_t(uint64_t(a.w[i + 1]) << (32 - s)) : 0u);
}
inline int bitlen(const Scalar& k) {
  for (int i = 255; i >= 0; --i)
    if ((k[i / 8] >> (i % 8)) & 1) return i + 1;
  return 0;
}
[[noreturn]] inline void recoding_failed(const char* what) {
  throw std::logic_error(std::string("ecvrf scalar recoding does not reconstruct the scalar: ") + what);
}

}  // namespace scalar_detail

// ---------------------------------------------------------------------------------------------------
// Host: reconstruction checks (value and digit form).

inline bool reconstructs(const BitDigits& r, const Scalar& k) {
  using namespace scalar_detail;
  if (r.n < 1 || r.n > 256) return false;
  Wide s{};
  for (int i = 0; i < 256; ++i) {
    if (r.bit[i] > 1 || (i >= r.n && r.bit[i] != 0)) return false;
    if (r.bit[i]) wide_add_at(s, 1, i);
  }
  return wide_eq(s, wide_of(k));
}
inline bool reconstructs(const Window4Digits& r, const Scalar& k) {
  using namespace scalar_detail;
  Wide s{};
  for (int i = 0; i < 64; ++i) {
    if (r.nib[i] > 15) return false;
    wide_add_at(s, r.nib[i], 4 * i);
  }
  return wide_eq(s, wide_of(k));
}
inline bool reconstructs(const Wnaf5Digits& r, const Scalar& k) {
  using namespace scalar_detail;
  if (r.n < 0 || r.n > 257) return false;
  if (r.n > 0 && r.d[r.n - 1] == 0) return false;
  Wide s{};
  int last_nonzero = -5;
  for (int i = 0; i < kWnafMaxDigits; ++i) {
    const int d = r.d[i];
    if (d == 0) continue;
    if (i >= r.n || (d & 1) == 0 || d < -15 || d > 15 || i - last_nonzero < 5) return false;
    last_nonzero = i;
    wide_add_signed_at(s, d, i);
  }
  return wide_eq(s, wide_of(k));
}
inline bool reconstructs(const JtDigits& r, const Scalar& k) {
  using namespace scalar_detail;
  Wide s{};
  for (int i = 0; i < kJtDigits - 1; ++i) {
    const int d = r.d[i];
    if ((d & 1) == 0 || d < -31 || d > 31) return false;
    wide_add_signed_at(s, d, 5 * i);
  }
  const int top = r.d[kJtDigits - 1];
  if (top < 1 || top > 31) return false;
  wide_add_at(s, uint32_t(top), 5 * (kJtDigits - 1));
  if (r.fixup < -1 || r.fixup > 1) return false;
  wide_add_signed_at(s, r.fixup, 0);
  return wide_eq(s, wide_of(k));
}

// ---------------------------------------------------------------------------------------------------
// Host: recoders. Each asserts its reconstruction (throws std::logic_error).

// n bits (1..256); k MUST be < 2^n (a clamped x needs 255, x mod L 253).
inline BitDigits recode_bits(const Scalar& k, int n) {
  if (n < 1 || n > 256) throw std::logic_error("recode_bits: n must be in 1..256");
  BitDigits r{};
  r.n = n;
  for (int i = 0; i < 256; ++i) {
    const uint8_t b = (k[i / 8] >> (i % 8)) & 1;
    if (i < n) r.bit[i] = b;
    else if (b) throw std::logic_error("recode_bits: scalar has bits at or above n");
  }
  if (!reconstructs(r, k)) scalar_detail::recoding_failed("bits");
  return r;
}

inline Window4Digits recode_window4(const Scalar& k) {
  Window4Digits r{};
  for (int i = 0; i < 64; ++i) r.nib[i] = uint8_t((k[i / 2] >> (4 * (i & 1))) & 15);
  if (!reconstructs(r, k)) scalar_detail::recoding_failed("window4");
  return r;
}

// Window-reading width-5 wNAF (the curve25519-dalek shape): at each position the window is the carry
// plus the next 5 bits; an even window moves one bit on (a pending carry plus a set bit carries on), an
// odd one emits d = window (< 16, carry 0) or window - 32 (carry 1) and moves 5 bits on. The loop runs
// over the bit length of k; a carry pending at the end is the top digit (+1) and MUST be emitted
// (zkcrypto/group#83: dropped, 2^255-1, 2^255-8 and 2^255-19 lose 2^255).
inline Wnaf5Digits recode_wnaf5(const Scalar& k) {
  using namespace scalar_detail;
  Wnaf5Digits r{};
  const Wide v = wide_of(k);
  const int len = bitlen(k);
  uint32_t carry = 0;
  int pos = 0;
  while (pos < len) {
    const uint32_t window = carry + wide_bits(v, pos, 5);
    if ((window & 1) == 0) {
      pos += 1;
      continue;
    }
    if (window < 16) {
      carry = 0;
      r.d[pos] = int8_t(window);
    } else {
      carry = 1;
      r.d[pos] = int8_t(int(window) - 32);
    }
    pos += 5;
  }
  if (carry && !BX_FAULT(ecvrf_wnaf_drop_final_carry)) {
    if (pos >= kWnafMaxDigits) recoding_failed("wnaf5 carry position");
    r.d[pos] = 1;
  }
  r.n = 0;
  for (int i = kWnafMaxDigits - 1; i >= 0; --i)
    if (r.d[i] != 0) {
      r.n = i + 1;
      break;
    }
  if (!reconstructs(r, k)) recoding_failed("wnaf5");
  return r;
}

// Joye-Tunstall signed odd 5-bit windows of an odd k' < 2^255: d_i = (k' mod 64) - 32,
// k' <- (k' - d_i)/32 for i = 0..49 (k' stays odd), d_50 = k' in [1, 31]. Even k: k' = k - 1 and
// fixup = +1 (k = 0: k' = 1, fixup = -1). Recoding an even k' directly gives even digits, which the
// odd-multiple table cannot evaluate (reconstructs() rejects them).
inline JtDigits recode_jt(const Scalar& k) {
  using namespace scalar_detail;
  if (k[31] & 0x80) throw std::logic_error("recode_jt: scalar must be < 2^255");
  JtDigits r{};
  Wide v = wide_of(k);
  r.fixup = 0;
  if ((v.w[0] & 1) == 0 && !BX_FAULT(ecvrf_jt_even_no_fixup)) {
    if (wide_is_zero(v)) {
      wide_add_at(v, 1, 0);
      r.fixup = -1;
    } else {
      wide_sub_at(v, 1, 0);
      r.fixup = 1;
    }
  }
  for (int i = 0; i < kJtDigits - 1; ++i) {
    const int d = int(v.w[0] & 63) - 32;
    r.d[i] = int8_t(d);
    wide_add_signed_at(v, -d, 0);  // v - d: divisible by 32
    wide_shr(v, 5);
  }
  r.d[kJtDigits - 1] = int8_t(v.w[0] & 0xff);
  if (v.w[0] > 31 || !wide_eq(v, Wide{{v.w[0]}})) recoding_failed("jt top digit");
  if (!reconstructs(r, k)) recoding_failed("jt");
  return r;
}

// ---------------------------------------------------------------------------------------------------
// Host: the cofactor-folded scalar of the miner kernels. For any point P of the curve (order dividing
// 8L), 8 (x (8P)) = 64x P = 8 (t P) with t = 8x mod L, because 8 (8x - t) is a multiple of 8L. The
// kernels that fold the cofactor multiply the raw candidate P by t and double three times, instead of
// 3 doublings to H = 8P, x H and 3 more doublings: 3 doublings fewer per attempt. x and x mod L give the
// same t. Output t < L < 2^253 (every strategy takes it; Joye-Tunstall needs < 2^255).
namespace scalar_detail {
// 2^252 + 27742317777372353535851937790883648493, little-endian 32-bit words.
constexpr uint32_t kOrderL[8] = {0x5cf5d3ed, 0x5812631a, 0xa2f79cd6, 0x14def9de, 0, 0, 0, 0x10000000};
// a - L 2^s (mod 2^320).
inline Wide wide_minus_l_at(const Wide& a, int s) {
  Wide l{};
  for (int i = 0; i < 8; ++i) wide_add_at(l, kOrderL[i], 32 * i + s);
  Wide d{};
  uint64_t br = 0;
  for (int i = 0; i < 10; ++i) {
    const uint64_t x = uint64_t(a.w[i]) - l.w[i] - br;
    d.w[i] = uint32_t(x);
    br = (x >> 63) & 1;
  }
  return d;
}
inline bool wide_negative(const Wide& a) { return (a.w[9] >> 31) != 0; }
}  // namespace scalar_detail
inline Scalar cofactor_folded_scalar(const Scalar& k) {
  using namespace scalar_detail;
  Wide v = wide_of(k);
  if (!BX_FAULT(ecvrf_fold_scalar_not_times8)) {  // v = 8k < 2^259
    Wide e{};
    for (int i = 0; i < 32; ++i) wide_add_at(e, uint32_t(k[i]) << 3, 8 * i);
    v = e;
  }
  // Binary long division, s = 6 .. 0 (8k < 2^259 < 2^7 L): subtract L 2^s where it stays >= 0.
  for (int s = 6; s >= 0; --s)
    if (const Wide t = wide_minus_l_at(v, s); !wide_negative(t)) v = t;
  if (!wide_negative(wide_minus_l_at(v, 0)) || v.w[8] || v.w[9])
    recoding_failed("cofactor-folded scalar is not below L");
  Scalar r{};
  for (int i = 0; i < 32; ++i) r[i] = uint8_t(v.w[i / 4] >> (8 * (i % 4)));
  return r;
}

// ---------------------------------------------------------------------------------------------------
// Device/host: evaluation k*H. Input: H tight with a valid T (e.g. 8*P from ge_mul8(.., true)).
// Output: r tight with a valid T. r may alias H.

// Double-and-add, MSB first: n iterations of (dbl, add H if the bit is set).
template <class F>
BX_HD void scalarmult_bits(ge_ext<F>& r, const ge_ext<F>& H, const BitDigits& k) {
  ge_cached<F> h;
  ge_to_cached<F>(h, H);
  ge_ext<F> q;
  ge_identity<F>(q);
  const int top = BX_FAULT(ecvrf_loop_stops_at_bit_253) && k.n > 254 ? 253 : k.n - 1;
  BX_ROLLED
  for (int i = top; i >= 0; --i) {
    const bool add = k.bit[i] != 0;
    ge_dbl_opt<F>(q, q, add || i == 0);
    if (add) ge_add_cached_opt<F>(q, q, h, false, i == 0);
  }
  r = q;
}

// Odd multiples table[j] = (2j+1) H as cached points, j < M (M = 8 for wNAF, 16 for Joye-Tunstall).
template <class F, int M>
BX_HD void odd_multiples(ge_cached<F> table[M], const ge_ext<F>& H) {
  ge_ext<F> h2, p = H;
  ge_dbl<F>(h2, H);  // T needed: 2H is an addend
  ge_cached<F> c2;
  ge_to_cached<F>(c2, h2);
  ge_to_cached<F>(table[0], H);
  BX_ROLLED
  for (int j = 1; j < M; ++j) {
    ge_add_cached<F>(p, p, c2);  // T needed: p becomes a table entry
    ge_to_cached<F>(table[j], p);
  }
}

// 4-bit fixed window: table[j] = j H (j = 0..15), table[0] the cached identity.
template <class F>
BX_HD void scalarmult_window4(ge_ext<F>& r, const ge_ext<F>& H, const Window4Digits& k) {
  ge_cached<F> table[16];
  ge_cached_identity<F>(table[0]);
  ge_to_cached<F>(table[1], H);
  ge_ext<F> p;
  ge_dbl<F>(p, H);
  ge_to_cached<F>(table[2], p);
  BX_ROLLED
  for (int j = 3; j < 16; ++j) {
    ge_add_cached<F>(p, p, table[1]);
    ge_to_cached<F>(table[j], p);
  }
  ge_ext<F> q;
  ge_identity<F>(q);
  ge_add_cached_opt<F>(q, q, table[k.nib[63]], false, false);  // identity + top window; a dbl follows
  // Per window four doubling sites, only the last computing T (the addition reads it), then the addition.
  // Kept as four sites: a single doubling site with an addition after every fourth is slower on sm_90.
  BX_ROLLED
  for (int i = 62; i >= 0; --i) {
    ge_dbl_opt<F>(q, q, false);
    ge_dbl_opt<F>(q, q, false);
    ge_dbl_opt<F>(q, q, false);
    ge_dbl_opt<F>(q, q, !BX_FAULT(ecvrf_tless_dbl_feeds_add));  // T: the addition reads it
    ge_add_cached_opt<F>(q, q, table[k.nib[i]], false, i == 0);
  }
  r = q;
}

// Width-5 wNAF, digits from n-1 down to 0: dbl (T iff an addition follows or it is the last op), then
// an addition of table[(|d|-1)/2], negated for d < 0.
template <class F>
BX_HD void scalarmult_wnaf5(ge_ext<F>& r, const ge_ext<F>& H, const Wnaf5Digits& k) {
  ge_cached<F> table[8];
  odd_multiples<F, 8>(table, H);
  ge_ext<F> q;
  ge_identity<F>(q);
  BX_ROLLED
  for (int i = k.n - 1; i >= 0; --i) {
    const int d = k.d[i];
    if (i != k.n - 1) ge_dbl_opt<F>(q, q, d != 0 || i == 0);
    if (d != 0) {
      const int a = d < 0 ? -d : d;
      ge_add_cached_opt<F>(q, q, table[(a - 1) >> 1], d < 0, i == 0);
    }
  }
  r = q;
}

// Joye-Tunstall: q = d_50 H, then 50 x (5 dbl, add +-table[(|d|-1)/2]), then the fix-up +-H.
template <class F>
BX_HD void scalarmult_jt(ge_ext<F>& r, const ge_ext<F>& H, const JtDigits& k) {
  ge_cached<F> table[16];
  odd_multiples<F, 16>(table, H);
  ge_ext<F> q;
  ge_identity<F>(q);
  ge_add_cached_opt<F>(q, q, table[(k.d[kJtDigits - 1] - 1) >> 1], false, false);
  // Per digit five doubling sites, only the last computing T, then the signed addition (as the 4-bit window).
  BX_ROLLED
  for (int i = kJtDigits - 2; i >= 0; --i) {
    ge_dbl_opt<F>(q, q, false);
    ge_dbl_opt<F>(q, q, false);
    ge_dbl_opt<F>(q, q, false);
    ge_dbl_opt<F>(q, q, false);
    ge_dbl_opt<F>(q, q, true);
    const int d = k.d[i];
    const int a = d < 0 ? -d : d;
    ge_add_cached_opt<F>(q, q, table[(a - 1) >> 1], d < 0, i == 0);
  }
  if (k.fixup != 0) ge_add_cached_opt<F>(q, q, table[0], k.fixup < 0, true);
  r = q;
}

// ---------------------------------------------------------------------------------------------------
// Strategy tags: the digit type, its host recoder and its evaluation, for ecvrf_attempt<F, S>.

struct DoubleAdd {
  using digits = BitDigits;
  static constexpr const char* name = "double-add";
  static constexpr const char* tag = "da";  // in variant names
  // The fewest of 253 (x mod L), 255 (clamped x) or 256 bits that hold k.
  static digits recode(const Scalar& k) {
    const int len = scalar_detail::bitlen(k);
    return recode_bits(k, len <= 253 ? 253 : len <= 255 ? 255 : 256);
  }
  template <class F>
  BX_HD static void mul(ge_ext<F>& r, const ge_ext<F>& H, const digits& k) {
    scalarmult_bits<F>(r, H, k);
  }
};
struct Window4 {
  using digits = Window4Digits;
  static constexpr const char* name = "window4";
  static constexpr const char* tag = "w4";  // in variant names
  static digits recode(const Scalar& k) { return recode_window4(k); }
  template <class F>
  BX_HD static void mul(ge_ext<F>& r, const ge_ext<F>& H, const digits& k) {
    scalarmult_window4<F>(r, H, k);
  }
};
struct Wnaf5 {
  using digits = Wnaf5Digits;
  static constexpr const char* name = "wnaf5";
  static constexpr const char* tag = "wnaf5";  // in variant names
  static digits recode(const Scalar& k) { return recode_wnaf5(k); }
  template <class F>
  BX_HD static void mul(ge_ext<F>& r, const ge_ext<F>& H, const digits& k) {
    scalarmult_wnaf5<F>(r, H, k);
  }
};
struct JoyeTunstall {
  using digits = JtDigits;
  static constexpr const char* name = "joye-tunstall";
  static constexpr const char* tag = "jt";  // in variant names
  static digits recode(const Scalar& k) { return recode_jt(k); }
  template <class F>
  BX_HD static void mul(ge_ext<F>& r, const ge_ext<F>& H, const digits& k) {
    scalarmult_jt<F>(r, H, k);
  }
};

}  // namespace bx::ecvrf
