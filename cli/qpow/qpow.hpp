// qpow in the CLI: strict input (headers, U512 nonces, difficulties and targets), conversions between the
// reference's big integers and the kernels' limbs, the implementation registry (every variant on the CPU
// where it has a host build and on every GPU that holds its kernel), verify, bench and the selftest.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "cli/family.hpp"
#include "suite/hex.hpp"
#include "suite/implementation.hpp"
#include "gpu/qpow/search.hpp"
#include "reference/qpow/qpow_ref.hpp"
#include "bitexact/plugin.h"

namespace bx::qpow {

using Int = ref::qpow::Int;
using Header = ref::qpow::Header;
using Hash8 = std::array<uint64_t, 8>;  // a 512-bit hash or target, most significant word first

// 64 hex digits.
Header parse_header(const std::string& hex, const std::string& what);
// A nonce: 128 hex digits (its 64 big-endian seal bytes), or a number: decimal, 0x-hex or 2^K[-N|+N];
// must be < 2^512.
Int parse_nonce(const std::string& s, const std::string& what);
// "decimal" or "0x..." in 1..2^512-1 (0 is an InputError: no target exists).
Int parse_difficulty(const std::string& s, const std::string& what);
// 128 hex digits (a 512-bit target).
Int parse_target(const std::string& hex, const std::string& what);
// "LO:COUNT": LO a nonce (as parse_nonce), COUNT 1..2^64-1 (decimal, 0x-hex or 2^K[+-N]).
std::pair<Int, uint64_t> parse_nonce_range(const std::string& s);

U512 to_u512(const Int& v);  // v in [0, 2^512)
Int from_u512(const U512& v);
Hash8 to_words(const Int& v);  // [0, 2^512) -> 8 words, most significant first
Int from_words(const Hash8& w);
std::string words_hex(const Hash8& w);  // 128 hex digits
std::string u512_hex(const Int& v);     // 128 hex digits

// Variant names: "plain", "gl64", ... or "qpow/gl64"; "all" gives every variant.
std::vector<Variant> parse_variants(const std::vector<std::string>& names);
std::string variant_label(Variant v);  // "qpow/gl64"

// A qpow implementation (suite::Implementation: name, place, origin) and its operations.
struct Impl : suite::Implementation {
  Variant variant{};   // a built-in variant's (plugins: unused)
  bool lossy = false;  // characterised (its counts are reported as measured)
  // A plugin's own field ops (kMul, kAdd) and permutation; empty where it does not provide them (built-in
  // variants run theirs through `variant`).
  std::function<std::vector<uint64_t>(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b)> plugin_mul, plugin_add;
  std::function<std::vector<uint64_t>(const std::vector<uint64_t>& states)> plugin_permute;
  // A plugin's search across a 2^64 carry in one request (outside its declared precondition); empty when
  // it declares none.
  std::function<std::vector<uint64_t>(const SearchRequest&)> search_unsplit;
  // Hits of the request (offsets from lo, sorted); adds kernel/host seconds to *seconds.
  std::function<std::vector<uint64_t>(const SearchRequest&, double* seconds)> search;
  // The full hash of each nonce along this variant's own path.
  std::function<std::vector<Hash8>(const Header&, const std::vector<U512>&)> hashes;
  // The same for given (possibly crafted) jobs: the hash of each job's base from that job's state.
  std::function<std::vector<Hash8>(const std::vector<MinerJob>&)> job_hashes;
  // Valid offsets of [job.base, job.base + count) for one given job, sorted (the search kernel on a GPU).
  std::function<std::vector<uint64_t>(const MinerJob&, uint32_t count)> job_search;
  // A plugin's job-level search beside its own search (empty where not provided, or where it is the only
  // search: then `search` is it), and its own precomputation of (header, nonce): midstate, prestate.
  std::function<std::vector<uint64_t>(const SearchRequest&, double* seconds)> plugin_search_job;
  std::function<bx_qpow_job(const Header&, const Int& nonce)> plugin_prepare;
  // GPU only (empty on the CPU): search with the hit buffer starting at `capacity` entries, so a batch
  // with more hits overflows and must be re-run; *reruns counts the re-run batches.
  std::function<std::vector<uint64_t>(const SearchRequest&, size_t capacity, unsigned* reruns)> search_capped;
};
// Every selected variant on every selected place where it exists (CPU: host builds; GPU: kernels present).
std::vector<Impl> impls(const std::vector<Variant>& variants, const DeviceSelection& sel);
// Every loaded plugin's qpow implementations on the selected places (host ones on the CPU); hashes and
// search are empty where the plugin does not provide them.
std::vector<Impl> plugin_impls(const DeviceSelection& sel);

// The search request for [lo, lo + count) of header h at target (lo and target below 2^512).
SearchRequest search_request(const Header& h, const Int& lo, uint64_t count, const Int& target);
// The reference's verdicts over a range (nonce 0 skipped), on all cores: offsets of the valid nonces.
std::vector<uint64_t> reference_hits(const Header& h, const Int& lo, uint64_t count, const Int& target);
// The reference hash of each nonce, on all cores.
std::vector<Int> reference_hashes(const Header& h, const std::vector<Int>& nonces);

// The deferred borrow's crafted jobs (gpu/qpow/borrow_cases.hpp) through im, a kDeferBorrow variant:
// the full hash and the search verdicts on targets hash + 1 (valid) and hash (invalid) against the
// exact path, and that each job takes the borrow on the host: 4 checks per job, one line per failure.
struct DeferredBorrowResult {
  size_t checks = 0;
  std::vector<std::string> mismatches;
};
DeferredBorrowResult deferred_borrow_check(const Impl& im, const Header& h, int count = 24);

SelftestReport selftest(const SelftestOptions& opt);

struct VerifyOptions {
  std::vector<Header> headers;
  uint64_t headers_seed = 0, seeded_headers = 0;  // --headers N: seeded random headers (recorded in results)
  Int lo = 0;
  uint64_t count = 1 << 16;
  Int target;
  std::vector<Variant> variants;
  uint64_t probe = 512;  // reference brute force window at each carry inside the range
  std::string plant;     // "duplicate", "missing" or "mismatch": the verdict's self-check (must FAIL)
};
int run_verify(const RunContext& ctx, const VerifyOptions& opt);

struct BenchOptions {
  uint64_t nonces = uint64_t(1) << 28;  // per variant per round (CPU: at most 2^12)
  uint64_t difficulty = uint64_t(1) << 20;
  uint64_t seed = 0x9e0f;
};
int run_bench(const RunContext& ctx, BenchOptions opt);

OracleHandler oracle(const DeviceSelection& sel);
// Offline cases (cases.cpp): search windows at nonce 0, the 2^64 and 2^128 carries and 2^512, and hashes
// next to the carries, as oracle requests.
std::vector<suite::cases::CaseSpec> cases(const std::string& tier, uint64_t seed, json* notes);

// Lossy characterisation on a GPU (`bitexact verify qpow --characterise`).
int run_characterise(const RunContext& ctx, uint64_t multiplies, uint64_t nonces);

}  // namespace bx::qpow
