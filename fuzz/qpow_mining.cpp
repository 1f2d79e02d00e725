// libFuzzer target: the qpow mining code of every host variant (gpu/qpow/variants.hpp kVariants: the
// plain sponge, the shortcut ladders, each ladder minus one shortcut) against the golden model
// reference/qpow: the hash equals mining_hash, and the validity verdict (with the early reject) equals
// hash < target for the input's target and for forced ties: a target sharing the hash's top 64 bits, one
// sharing its top 256 bits, and the hash itself (strict <: invalid); and the output path on a lazy lane. The job is made by the variant's own
// JobMaker for the batch that plan_batches puts the nonce in, starting up to 255 nonces earlier, so the
// midstate and prestate of an earlier nonce are used across the batch exactly as a search uses them.
// The lossy model is characterised, not bit-exact: it is not compared (qpow_field_diff bounds its errors).
//
// Input (zero-padded to 161 bytes): [32 header][64 nonce, big-endian][64 target, big-endian][1 offset].
// On a difference: the variant, the inputs, its answer and the reference's, then abort().
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "gpu/qpow/search.hpp"
#include "reference/qpow/qpow_ref.hpp"

namespace {
namespace R = bx::ref::qpow;
namespace Q = bx::qpow;
using R::Int;

std::string hex(const uint8_t* p, size_t n) {
  std::string s;
  char b[3];
  for (size_t i = 0; i < n; ++i) std::snprintf(b, sizeof b, "%02x", p[i]), s += b;
  return s;
}
std::string hex_words(const uint64_t w[8]) {
  std::string s;
  char b[20];
  for (int i = 0; i < 8; ++i) std::snprintf(b, sizeof b, "%016llx", (unsigned long long)w[i]), s += b;
  return s;
}
Int int_be(const uint8_t* p, size_t n) {
  Int v = 0;
  for (size_t i = 0; i < n; ++i) v = (v << 8) + p[i];
  return v;
}
Q::U512 u512_of(const Int& v) {
  Q::U512 u{};
  for (int k = 0; k < 16; ++k) u.limb[k] = static_cast<uint32_t>((v >> (32 * k)) & 0xffffffffu);
  return u;
}
void words_of(const Int& v, uint64_t w[8]) {  // most significant first
  for (int j = 0; j < 8; ++j) w[j] = static_cast<uint64_t>((v >> (64 * (7 - j))) & Int(~0ull));
}
Int int_of_words(const uint64_t w[8]) {
  Int v = 0;
  for (int j = 0; j < 8; ++j) v = (v << 64) + w[j];
  return v;
}

struct Ctx {
  uint8_t header[32];
  Int nonce, target;
  unsigned offset;
};
const Ctx* ctx;

[[noreturn]] void report(const char* variant, const std::string& what, const std::string& got, const std::string& want) {
  uint8_t nb[64];
  const auto n = R::nonce_be_bytes(ctx->nonce);
  std::memcpy(nb, n.data(), 64);
  std::fprintf(stderr,
               "qpow_mining: DIFFERENCE in %s: %s\n  header %s\n  nonce  %s\n  target %s\n  batch offset %u\n"
               "  %s: %s\n  reference: %s\n",
               variant, what.c_str(), hex(ctx->header, 32).c_str(), hex(nb, 64).c_str(),
               hex(R::nonce_be_bytes(ctx->target).data(), 64).c_str(), ctx->offset, variant, got.c_str(), want.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  uint8_t in[161] = {};
  std::memcpy(in, data, size < sizeof in ? size : sizeof in);
  Ctx c;
  std::memcpy(c.header, in, 32);
  c.nonce = int_be(in + 32, 64);
  c.target = int_be(in + 96, 64);
  c.offset = in[160];
  ctx = &c;

  R::Header h;
  std::memcpy(h.data(), c.header, 32);
  const Int ref_hash = R::mining_hash(h, c.nonce);
  uint64_t H[8], T[8];
  words_of(ref_hash, H);
  words_of(c.target, T);
  // The targets each variant's verdict is checked on: the input's, top-64 tie, top-256 tie, the hash.
  uint64_t targets[4][8];
  for (int j = 0; j < 8; ++j) {
    targets[0][j] = T[j];
    targets[1][j] = j < 1 ? H[j] : T[j];
    targets[2][j] = j < 4 ? H[j] : T[j];
    targets[3][j] = H[j];
  }
  const char* target_names[4] = {"the input target", "a top-64 tie target", "a top-256 tie target", "target = hash"};

  // The output path on a lazy lane c + p (c < EPS, taken from the hash): canonicalised before the byte
  // swap (spec §6.5), or the swapped word is another number.
  const uint64_t lane = (H[0] >> 32) % bx::gl::EPS, lazy = lane + bx::gl::P;
  if (Q::hash_word(lazy) != __builtin_bswap64(lane)) {
    char g[20], w[20];
    std::snprintf(g, sizeof g, "%016llx", (unsigned long long)Q::hash_word(lazy));
    std::snprintf(w, sizeof w, "%016llx", (unsigned long long)__builtin_bswap64(lane));
    report("the output path (hash_word)", "lazy lane " + std::to_string(lazy), g, w);
  }

  const Q::U512 nonce = u512_of(c.nonce);
  // The batch start: up to `offset` nonces earlier (mod 2^512), as a search over [lo, lo + offset] plans it.
  const Int lo_int = (c.nonce - c.offset + (Int(1) << 512)) % (Int(1) << 512);
  const Q::U512 lo = u512_of(lo_int);

  for (int v = 0; v < Q::kVariantCount; ++v) {
    const Q::VariantRow& row = Q::kVariants[v];
    if (!row.host || row.lossy) continue;
    Q::with_variant(Q::Variant(v), [&]<class Code>() {
      Q::U512 base = nonce;
      for (const Q::Batch& b : Q::plan_batches(lo, uint64_t(c.offset) + 1, row.shortcuts, uint64_t(1) << 16))
        if (c.offset >= b.offset && c.offset < b.offset + b.count) base = b.base;  // nonce 0 is in no batch
      Q::MinerJob job = Q::JobMaker<Code>::make(c.header, T, base, row.shortcuts);
      uint64_t got[8];
      Code::hash(job, nonce, got, Q::kQuantusP2);
      if (std::memcmp(got, H, sizeof H) != 0) report(row.name, "hash", hex_words(got), hex_words(H));
      for (int t = 0; t < 4; ++t) {
        for (int j = 0; j < 8; ++j) job.target[j] = targets[t][j];
        const bool want = R::hash_meets_target(ref_hash, int_of_words(targets[t]));
        const bool ok = Code::valid(job, nonce, Q::kQuantusP2);
        if (ok != want)
          report(row.name, std::string("valid for ") + target_names[t] + " " + hex_words(targets[t]), ok ? "valid" : "invalid",
                 want ? "valid" : "invalid");
      }
      return 0;
    });
  }
  return 0;
}
