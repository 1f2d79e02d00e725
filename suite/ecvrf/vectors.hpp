// ecvrf vector files (Wycheproof shape, as vectors/qpow and vectors/field25519: algorithm, schema, generator,
// source, numberOfTests, notes (flag -> bug class), testGroups of {tcId, comment, flags, inputs, outputs,
// result}). Every file is written by `bitexact vectors generate --family ecvrf` from the golden model
// (reference/ecvrf) and OpenSSL; the RFC 9381 and spec 9 known answers are written into the generator
// literally and the generator refuses (throws) when the golden model disagrees with them.
//   vectors/ecvrf/rfc9381.json       RFC 9381 B.3 Examples 16-18 with every intermediate (x, x mod L, every
//                                    TAI try: hash input, candidate, decode verdict, 8P; H, Gamma, u(H),
//                                    u(Gamma), 8 Gamma, beta)
//   vectors/ecvrf/decode.json        the spec 2.3 decoder table (strict verdict and each lax decoder's result
//                                    where it differs), torsion encodings and their non-canonical forms, the
//                                    TAI candidates, seeded strings; encoding of non-canonical coordinates
//   vectors/ecvrf/scalarmult.json    the spec 3 / 6.1 extremal scalars times B, B + T8 and T8
//   vectors/ecvrf/batch_invert.json  batch inversion sets of 1..8 values (zeros, repeats, 1, p - 1, p)
//   vectors/ecvrf/sha512.json        SHA-512 of every length 0..300 of a fixed byte pattern (OpenSSL)
//   vectors/ecvrf/search.json        the spec 9 worked examples and frozen hits of search windows
// check_vectors loads each file strictly (one InputError line naming the file, the tcId and the field),
// recomputes every vector with the golden model, runs it through the implementations under test on the
// host (every layout of f25519::AllLayouts with carry::portable, x every scalar strategy where a scalar is
// involved) and compares each file with generation byte for byte.
#pragma once
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "suite/ecvrf/host.hpp"

namespace bx::ecvrf_vectors {

// The six files, relative to the repository root.
std::vector<std::string> vector_files();
// path -> exact file text, deterministic; throws std::logic_error if the golden model disagrees with a
// literal known answer of RFC 9381 or spec 9 (no file is written then).
std::map<std::string, std::string> generate_vectors();
// One line per problem (empty: all good).
std::vector<std::string> check_vectors(const std::string& root);

// ---- frozen search hits (search.json's "frozen-hits" group), for any search implementation -------------

extern const char* const kSearchPath;  // "vectors/ecvrf/search.json"

// One window of one job: every hit of [lo, lo + count) with score < target, in nonce order.
struct SearchWindow {
  int tc_id = 0;
  std::string comment;
  std::vector<std::string> flags;
  ecvrf_family::Job job;  // sk, x (the scalar the search uses: x or x mod L), pk, header, scalar_kind
  uint64_t lo = 0, count = 0, target = 0;  // lo + count <= 2^64
  std::vector<ecvrf_family::Hit> hits;
};
// search.json's windows (strict: InputError on malformed input, e.g. the embedded copy or a file's text).
std::vector<SearchWindow> load_search_windows(const std::string& file, const std::string& text);

// A search implementation: the hits of [lo, lo + count) for the job, in any order (the check sorts them
// and reports duplicates). May throw: the exception is reported as that window's disagreement.
using SearchFn = std::function<std::vector<ecvrf_family::Hit>(const ecvrf_family::Job& job, uint64_t lo,
                                                              uint64_t count, uint64_t target)>;
struct Searcher {
  std::string name;  // "ecvrf/fe32-portable/w4/fused/k1@cpu", "golden"
  SearchFn run;
};
// Every window through `s`: one line per missing hit, extra hit, wrong score or duplicate (naming the file,
// the tcId, the implementation and the window), at most `max_lines` lines, then a count of the rest.
std::vector<std::string> check_frozen_hits(const std::string& file, const std::vector<SearchWindow>& windows,
                                           const Searcher& s, size_t max_lines = 20);
// The golden model's search (reference/ecvrf search) and every host variant's fused attempt loop.
Searcher golden_searcher();
std::vector<Searcher> host_searchers();

}  // namespace bx::ecvrf_vectors
