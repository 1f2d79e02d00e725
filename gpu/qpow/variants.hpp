// The qpow variants: one row each (name, layout, backend, shortcut bits, contract). A variant is an
// index into kVariants; with_variant(v, f) calls f with its code as a type (Miner<L, S> or PlainHash<L>)
// so that host searches, kernels and the oracle instantiate exactly the registry's list.
//
// Host runs: portable code runs on the CPU as written; a ptx variant has no host build (its row says
// cpu = false). gl2x32-lossy (ptx, the engine) and gl2x32-lossy-model (portable, its host model) are
// the same lossy arithmetic in the two backends, contract characterised.
#pragma once
#include <cstddef>

#include "gpu/qpow/goldilocks/gl2x32.hpp"
#include "gpu/qpow/goldilocks/gl64.hpp"
#include "gpu/qpow/poseidon2/miner.hpp"
#include "gpu/qpow/poseidon2/sponge.hpp"

namespace bx::qpow {

// The general path: the byte sponge over header ‖ nonce_be (no midstate, no early exit), gl64.
template <class L>
struct PlainHash {
  using Layout = L;
  BX_HD static void hash(const MinerJob& job, const U512& n, uint64_t h[8], const P2Constants& K) {
    uint8_t in[96], out[64];
    for (int i = 0; i < 8; ++i)
      for (int b = 0; b < 4; ++b) in[4 * i + b] = uint8_t(job.header[i] >> (8 * b));
    for (int j = 0; j < 16; ++j) {
      const uint32_t f = uint32_t(nonce_felt(n, j));  // u32_le of seal bytes 4j..4j+3
      for (int b = 0; b < 4; ++b) in[32 + 4 * j + b] = uint8_t(f >> (8 * b));
    }
    Sponge<L>::hash_squeeze_twice(in, 96, out, K);
    for (int j = 0; j < 8; ++j) {  // the 64 bytes read big-endian
      uint64_t w = 0;
      for (int b = 0; b < 8; ++b) w = w << 8 | out[8 * j + b];
      h[j] = w;
    }
  }
  BX_HD static bool valid(const MinerJob& job, const U512& n, const P2Constants& K) {
    uint64_t h[8];
    hash(job, n, h, K);
    return hash_below(h, job.target);
  }
  template <class NonceAt>
  BX_HD static bool valid_of(const MinerJob& job, NonceAt&& nonce_at, const P2Constants& K) {
    return valid(job, nonce_at(), K);
  }
};

struct VariantRow {
  const char* name;  // without the family prefix
  const char* layout;
  const char* backend;
  unsigned shortcuts;  // Shortcut bits; plain: 0
  bool lossy;
  bool host;       // has a host build
};

inline constexpr unsigned kNoMid = kEarlyReject | kFolded;
inline constexpr unsigned kNoPre = kMidstate | kEarlyReject | kFolded;
inline constexpr unsigned kNoEr = kMidstate | kPrestate | kFolded;
inline constexpr unsigned kNoFold = kMidstate | kPrestate | kEarlyReject;
// The gl2x32 exact ladders add the deferred final borrow (their reductions have one to defer); their
// minus-one rows keep it where a prestate remains (it rides on the prestate path), and
// -no-deferred-borrow drops it.
inline constexpr unsigned kLadder32 = kLadder | kDeferBorrow;

// Order: the oracle (plain), the three exact ladders, the lossy pair, then each ladder minus one
// shortcut (each shortcut proven against the path without it).
#define BX_QPOW_VARIANTS(X)                                                                        \
  X(plain, "plain", "gl64", "portable", 0, false, true, PlainHash<gl::gl64>)                \
  X(gl64, "gl64", "gl64", "portable", kLadder, false, true, Miner<gl::gl64 BX_COMMA kLadder>) \
  X(gl2x32_portable, "gl2x32-portable", "gl2x32", "portable", kLadder32, false, true, \
    Miner<gl::gl2x32<carry::portable> BX_COMMA kLadder32>)                                         \
  X(gl2x32_ptx, "gl2x32-ptx", "gl2x32", "ptx", kLadder32, false, false, \
    Miner<gl::gl2x32<carry::ptx> BX_COMMA kLadder32>)                                              \
  X(lossy, "gl2x32-lossy", "gl2x32", "ptx", kLadder, true, false,                           \
    Miner<gl::gl2x32_lossy<carry::ptx> BX_COMMA kLadder>)                                          \
  X(lossy_model, "gl2x32-lossy-model", "gl2x32", "portable", kLadder, true, true,           \
    Miner<gl::gl2x32_lossy<carry::portable> BX_COMMA kLadder>)                                     \
  X(gl64_nomid, "gl64-no-midstate", "gl64", "portable", kNoMid, false, true,                 \
    Miner<gl::gl64 BX_COMMA kNoMid>)                                                               \
  X(gl64_nopre, "gl64-no-prestate", "gl64", "portable", kNoPre, false, true,                 \
    Miner<gl::gl64 BX_COMMA kNoPre>)                                                               \
  X(gl64_noer, "gl64-no-early-reject", "gl64", "portable", kNoEr, false, true,               \
    Miner<gl::gl64 BX_COMMA kNoEr>)                                                                \
  X(gl64_nofold, "gl64-no-fold", "gl64", "portable", kNoFold, false, true,                   \
    Miner<gl::gl64 BX_COMMA kNoFold>)                                                              \
  X(p32_nomid, "gl2x32-portable-no-midstate", "gl2x32", "portable", kNoMid, false, true, \
    Miner<gl::gl2x32<carry::portable> BX_COMMA kNoMid>) \
  X(p32_nopre, "gl2x32-portable-no-prestate", "gl2x32", "portable", kNoPre, false, true, \
    Miner<gl::gl2x32<carry::portable> BX_COMMA kNoPre>) \
  X(p32_noer, "gl2x32-portable-no-early-reject", "gl2x32", "portable", kNoEr | kDeferBorrow, false, true, \
    Miner<gl::gl2x32<carry::portable> BX_COMMA kNoEr | kDeferBorrow>) \
  X(p32_nofold, "gl2x32-portable-no-fold", "gl2x32", "portable", kNoFold | kDeferBorrow, false, true, \
    Miner<gl::gl2x32<carry::portable> BX_COMMA kNoFold | kDeferBorrow>) \
  X(p32_nodefer, "gl2x32-portable-no-deferred-borrow", "gl2x32", "portable", kLadder, false, true, \
    Miner<gl::gl2x32<carry::portable> BX_COMMA kLadder>) \
  X(x32_nomid, "gl2x32-ptx-no-midstate", "gl2x32", "ptx", kNoMid, false, false, \
    Miner<gl::gl2x32<carry::ptx> BX_COMMA kNoMid>) \
  X(x32_nopre, "gl2x32-ptx-no-prestate", "gl2x32", "ptx", kNoPre, false, false, \
    Miner<gl::gl2x32<carry::ptx> BX_COMMA kNoPre>) \
  X(x32_noer, "gl2x32-ptx-no-early-reject", "gl2x32", "ptx", kNoEr | kDeferBorrow, false, false, \
    Miner<gl::gl2x32<carry::ptx> BX_COMMA kNoEr | kDeferBorrow>) \
  X(x32_nofold, "gl2x32-ptx-no-fold", "gl2x32", "ptx", kNoFold | kDeferBorrow, false, false, \
    Miner<gl::gl2x32<carry::ptx> BX_COMMA kNoFold | kDeferBorrow>) \
  X(x32_nodefer, "gl2x32-ptx-no-deferred-borrow", "gl2x32", "ptx", kLadder, false, false, \
    Miner<gl::gl2x32<carry::ptx> BX_COMMA kLadder>)

#define BX_COMMA ,

enum class Variant : int {
#define BX_QPOW_ENUM(id, ...) id,
  BX_QPOW_VARIANTS(BX_QPOW_ENUM)
#undef BX_QPOW_ENUM
};

inline constexpr VariantRow kVariants[] = {
#define BX_QPOW_ROW(id, nm, lay, be, s, lossy, host, T) {nm, lay, be, s, lossy, host},
    BX_QPOW_VARIANTS(BX_QPOW_ROW)
#undef BX_QPOW_ROW
};
inline constexpr int kVariantCount = int(sizeof(kVariants) / sizeof(kVariants[0]));

inline const VariantRow& row(Variant v) { return kVariants[int(v)]; }

// f.template operator()<Code>() for the variant's code type. Ptx variants are dispatched only where
// their code can run (device code, or a host caller that checked row(v).host).
template <class F>
decltype(auto) with_variant(Variant v, F&& f) {
  switch (v) {
#define BX_QPOW_CASE(id, nm, lay, be, s, lossy, host, T) \
  case Variant::id:                                             \
    return f.template operator()<T>();
    BX_QPOW_VARIANTS(BX_QPOW_CASE)
#undef BX_QPOW_CASE
  }
  return f.template operator()<PlainHash<gl::gl64>>();
}

}  // namespace bx::qpow

namespace bx::qpow {
// The code type of a variant known at compile time (kernels).
template <Variant V>
struct CodeOf;
#define BX_QPOW_CODEOF(id, nm, lay, be, s, lossy, host, T) \
  template <>                                                     \
  struct CodeOf<Variant::id> {                                    \
    using type = T;                                               \
  };
BX_QPOW_VARIANTS(BX_QPOW_CODEOF)
#undef BX_QPOW_CODEOF
}  // namespace bx::qpow
