// md5z in the CLI: base and range input (strict: a 52-byte string that is not a base, a bad range or
// threshold 0 is an InputError), the implementation registry (every variant on the CPU and on every GPU),
// `bitexact verify md5z` and `bitexact bench md5z`.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>
#include "cli/devices.hpp"
#include "cli/family.hpp"
#include "suite/hex.hpp"
#include "suite/implementation.hpp"
#include "suite/md5z/base.hpp"
#include "gpu/md5z/search.hpp"
#include "reference/md5z/md5z_ref.hpp"
#include "bitexact/plugin.h"

namespace bx::md5z {

using Message = ref::md5z::Message;

// 104 hex digits -> a checked base (reference checker and the tunnel's own check must both accept it).
Message parse_base(const std::string& hex, const std::string& what);
// prepare(base, what): the tunnel precomputation of a checked base (suite/md5z/base.hpp).
// "LO:HI" with decimal, 0x-hex or 2^K numbers; 0 <= LO < HI <= 2^32.
std::pair<uint64_t, uint64_t> parse_range(const std::string& s);
// The reference's hits (OpenSSL brute force, md5z_ref.hpp) as packed hits in index order.
std::vector<uint64_t> reference_hits(const Message& base, uint64_t lo, uint64_t hi, int threshold);
// 1..32 (0 is not a difficulty).
int check_threshold(long long t);

// Variant names: "plain", "q9-v0", ... or "md5z/q9-v0"; "all" gives every variant.
std::vector<md5::Variant> parse_variants(const std::vector<std::string>& names);

using Search = std::function<std::vector<uint64_t>(const md5::TunnelBase&, uint64_t, uint64_t, int, double*)>;
// An md5z implementation (suite::Implementation: name, place, origin) and its operations.
struct Impl : suite::Implementation {
  md5::Variant variant = md5::kPlain;  // a built-in variant's (plugins: unused)
  // Packed hits of [lo, hi) at threshold T in index order; adds kernel/host seconds to *seconds. A
  // plugin's: its search on the base, else its search_job on bitexact's job.
  Search search;
  // Digest words of each index along this variant's own path (steps 61..63 always run): the oracle's answer.
  std::function<std::vector<std::array<uint32_t, 4>>(const md5::TunnelBase&, const std::vector<uint32_t>&)> digests;
  // A plugin's other operations (empty where not provided): its job-level search beside its own search,
  // its precomputation of a base, its MD5 of messages.
  Search plugin_search_job;
  std::function<bx_md5z_job(const Message&)> plugin_prepare;
  std::function<std::vector<ref::md5z::Digest>(const std::vector<std::vector<uint8_t>>&)> plugin_md5;
};
Impl make_impl(md5::Variant v, bool gpu, int dev);
std::vector<Impl> impls(const std::vector<md5::Variant>& variants, const DeviceSelection& sel);
// Every loaded plugin's md5z implementations on the selected places (host ones on the CPU).
std::vector<Impl> plugin_impls(const DeviceSelection& sel);

struct VerifyOptions {
  std::vector<Message> bases;
  uint64_t bases_seed = 0, seeded_bases = 0;  // --bases N: bases from seeds bases_seed.. (recorded in results)
  uint64_t lo = 0, hi = md5::kIndexEnd;
  int threshold = 2;
  std::vector<md5::Variant> variants;
  // A self-check of the verdict: after its search on the first base, the list of the first checked
  // implementation gets one planted error ("duplicate", "missing" or "mismatch"); the run must FAIL.
  std::string plant;
};
int run_verify(const RunContext& ctx, const VerifyOptions& opt);
// The estimated wall time of a CPU (host) run of these bases, range and variants.
double cpu_seconds(const VerifyOptions& o);

struct BenchOptions {
  int threshold = 6;
  uint64_t candidates = uint64_t(1) << 32;  // per variant per round (a CPU-only run takes at most 2^24)
  uint64_t seed = 0xbe9c4;
};
int run_bench(const RunContext& ctx, BenchOptions opt);

}  // namespace bx::md5z

namespace bx::md5z {
// `bitexact selftest` part for md5z: every variant on every selected place against the embedded vectors
// (candidates at T = 0, frozen hits at T = zeros and zeros + 1) and a seeded range ending at 2^32 against
// the reference; the RFC 1321 suite, MD5 at every length 0..300 and the non-bases once on the host.
SelftestReport selftest(const SelftestOptions& opt);
// Oracle requests "md5", "md5z.base", "md5z.candidate" (cli/md5z/oracle.cpp). Throws InputError.
OracleHandler oracle(const DeviceSelection& sel);
// Offline cases (cases.cpp): candidate vectors and search windows as oracle requests.
std::vector<suite::cases::CaseSpec> cases(const std::string& tier, uint64_t seed, json* notes);
// `bitexact vectors find-hits`: GPU search for one hit with each zero count 2..max_zeros, each re-hashed
// with OpenSSL; returns the hits.json text.
std::string find_hits(int dev, int max_zeros);
}  // namespace bx::md5z
