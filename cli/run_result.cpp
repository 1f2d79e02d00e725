#include "cli/run_result.hpp"

#include <CLI/CLI.hpp>

#include <optional>
#include <regex>
#include "cli/input_file.hpp"
#include "cli/json_out.hpp"

#include <openssl/evp.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>

#include "bx_build_info.hpp"
#include "suite/hex.hpp"

namespace bx {
namespace {

constexpr const char* kFormat = "bitexact-verify-result/1";

// The digest of a document without its "digest" member, over its keys in sorted order: a tool that
// reorders keys (jq -S, a JSON library) keeps a file valid; one that changes a value does not.
std::string content_digest(const json& doc) { return sha256_hex(nlohmann::json(doc).dump()); }

// The identity fields: equal in every part of one merge.
json identity(const RunResult& r) {
  return {{"family", r.family}, {"mode", r.mode},       {"params", r.params},         {"seeds", r.seeds},
          {"implementations", r.implementations},       {"unit", r.unit},             {"range_lo", r.range_lo},
          {"range_size", r.range_size}, {"version", r.version}, {"build", r.build}};
}


std::string clip(const std::string& s, size_t n = 160) { return s.size() > n ? s.substr(0, n) + "..." : s; }

}  // namespace

json result_json(const RunResult& r) {
  json doc = {{"format", kFormat},
              {"family", r.family},
              {"mode", r.mode},
              {"version", r.version.empty() ? BX_VERSION : r.version},
              {"build", r.build.empty() ? BX_BUILD_FLAGS : r.build},
              {"params", r.params},
              {"seeds", r.seeds},
              {"implementations", r.implementations},
              {"range", {{"unit", r.unit}, {"lo", r.range_lo}, {"size", r.range_size}}},
              {"covered", {{"offset", r.covered.offset}, {"size", r.covered.size}}},
              {"shard", {{"spec", r.shard}, {"source", r.shard_source}}},
              {"counts", r.counts},
              {"seconds", r.seconds},
              {"disagreements", r.disagreements},
              {"pass", r.pass},
              {"details", r.details}};
  doc["digest"] = content_digest(doc);
  return doc;
}

RunResult result_from_json(const json& doc0, const std::string& what) {
  try {
    if (!doc0.is_object() || doc0.value("format", "") != kFormat)
      throw InputError(what + ": not a bitexact verify result (\"format\": \"" + kFormat + "\" expected)");
    json doc = doc0;
    const std::string digest = doc.at("digest").get<std::string>();
    doc.erase("digest");
    if (content_digest(doc) != digest) throw InputError(what + ": digest mismatch: the file was edited or is corrupt");
    RunResult r;
    r.family = doc.at("family").get<std::string>();
    r.mode = doc.at("mode").get<std::string>();
    r.version = doc.at("version").get<std::string>();
    r.build = doc.at("build").get<std::string>();
    r.params = doc.at("params");
    r.seeds = doc.at("seeds");
    r.implementations = doc.at("implementations").get<std::vector<std::string>>();
    r.unit = doc.at("range").at("unit").get<std::string>();
    r.range_lo = doc.at("range").at("lo").get<std::string>();
    r.range_size = doc.at("range").at("size").get<uint64_t>();
    r.covered = {doc.at("covered").at("offset").get<uint64_t>(), doc.at("covered").at("size").get<uint64_t>()};
    r.shard = doc.at("shard").at("spec").get<std::string>();
    r.shard_source = doc.at("shard").at("source").get<std::string>();
    r.counts = doc.at("counts");
    r.seconds = doc.at("seconds");
    r.disagreements = doc.at("disagreements");
    r.pass = doc.at("pass").get<bool>();
    r.details = doc.at("details");
    if (r.covered.offset > r.range_size || r.covered.size > r.range_size - r.covered.offset)
      throw InputError(what + ": covered part " + range_text(r, r.covered) + " lies outside its declared range");
    if (!r.counts.is_object() || !r.disagreements.is_array()) throw InputError(what + ": counts or disagreements malformed");
    return r;
  } catch (const json::exception& e) {
    throw InputError(what + ": malformed result document (" + e.what() + ")");
  }
}

RunResult read_result_file(const std::string& path) { return result_from_json(read_json_file<json>(path, "result file"), path); }

std::string parse_plant(const std::string& kind) {
  if (kind.empty() || kind == "duplicate" || kind == "missing" || kind == "mismatch") return kind;
  throw InputError("--plant: expected duplicate, missing or mismatch, got '" + kind + "'");
}

void refuse_long_cpu_run(const std::string& command, double seconds, bool force, const std::string& smaller) {
  constexpr double kLimitSeconds = 300;
  if (force || seconds <= kLimitSeconds) return;
  char est[96];
  if (seconds >= 7200) std::snprintf(est, sizeof est, "about %.0f hours", seconds / 3600);
  else std::snprintf(est, sizeof est, "about %.0f minutes", seconds / 60);
  throw InputError(command + ": this run takes " + est + " on the CPU; give --force to run it anyway, " + smaller +
                   ", or a GPU");
}

void add_plant_option(CLI::App& sub, std::string& kind) {
  sub.add_option("--plant", kind, "self-check of the verdict: plant a duplicate, missing or mismatch (must FAIL)")
      ->type_name("KIND");
}

bool judged_something(const RunContext& ctx, RunResult& res, uint64_t judged, const std::string& raise) {
  const std::string& family = res.family;
  res.details["judged"] = judged;
  if (judged > 0) return true;
  if (ctx.shard.active()) {
    std::printf("verify %s: no hit in this shard (its probe windows agree); the merged run must show hits\n", family.c_str());
    return true;
  }
  std::printf("verify %s FAILED: no hit at all, so nothing was compared (raise %s)\n", family.c_str(), raise.c_str());
  return false;
}

void emit_result(const RunContext& ctx, const RunResult& r0) {
  RunResult r = r0;
  r.shard = ctx.shard.spec();
  r.shard_source = ctx.shard.source;
  for (auto& [impl, c] : r.counts.items())
    for (auto& [k, v] : c.items())
      if (!v.is_number_unsigned()) throw std::logic_error("result counts " + impl + "." + k + ": not an unsigned integer");
  const json doc = result_json(r);
  if (!ctx.result_path.empty()) {
    std::ofstream f(ctx.result_path, std::ios::binary);
    if (!f || !(f << doc.dump(1) << "\n")) throw InputError("--result " + ctx.result_path + ": cannot write");
  }
  if (ctx.json) {
    json_out::put({"result"}, doc);
    json_out::put({"seeds"}, doc["seeds"]);
  }
}

Merged merge_results(std::vector<RunResult> parts, RangePart want) {
  Merged m;
  if (parts.empty()) {
    m.problems.push_back("no result to merge");
    return m;
  }
  std::stable_sort(parts.begin(), parts.end(), [](const RunResult& a, const RunResult& b) {
    return a.covered.offset != b.covered.offset ? a.covered.offset < b.covered.offset : a.covered.size < b.covered.size;
  });
  const RunResult& first = parts.front();
  const json id = identity(first);
  RunResult& out = m.result;
  out = first;
  out.covered = want;
  out.shard = out.shard_source = "";
  out.counts = json::object();
  out.seconds = json::object();
  out.disagreements = json::array();
  out.details = {{"parts", json::array()}};
  // One shard plan per merge: the parts' --shard specs with their indices dropped ("i/3" -> "/3",
  // "i/3,j/2" -> "/3,/2") must agree, so parts of two plans never merge, even where they happen to tile.
  const auto plan_of = [](const std::string& shard) { return std::regex_replace(shard, std::regex("[0-9]+/"), "/"); };
  const std::string plan = plan_of(first.shard);
  for (const RunResult& p : parts)
    if (plan_of(p.shard) != plan) {
      m.problems.push_back("mixed shard plans: shard " + (p.shard.empty() ? "(none)" : p.shard) + " beside shard " +
                           (first.shard.empty() ? "(none)" : first.shard) + ": the parts of one merge come from one --shard count");
      break;
    }
  uint64_t next = want.offset;
  const uint64_t end = want.offset + want.size;
  for (const RunResult& p : parts) {
    const std::string name = "shard " + (p.shard.empty() ? "(none)" : p.shard) + " (" + range_text(p, p.covered) + ")";
    const json pid = identity(p);
    for (auto& [k, v] : id.items())
      if (pid[k] != v) m.problems.push_back(name + ": " + k + " differs: " + clip(pid[k].dump()) + " vs " + clip(v.dump()));
    const uint64_t a = p.covered.offset, b = p.covered.offset + p.covered.size;
    if (a < want.offset || b > end) m.problems.push_back(name + ": outside the merged " + range_text(first, want));
    if (a > next) m.problems.push_back("gap: " + range_text(first, {next, a - next}) + " is covered by no shard");
    if (a < next) m.problems.push_back("overlap: " + range_text(first, {a, std::min(next, b) - a}) + " is covered twice (" + name + ")");
    next = std::max(next, b);
    if (!p.pass) m.problems.push_back(name + ": FAILED (" + std::to_string(p.disagreements.size()) + " disagreement(s) listed)");
    for (auto& [impl, c] : p.counts.items())
      for (auto& [k, v] : c.items()) {
        if (!v.is_number_unsigned()) {
          m.problems.push_back(name + ": count " + impl + "." + k + " is not an unsigned integer");
          continue;
        }
        out.add_count(impl, k, v.get<uint64_t>());
      }
    for (auto& [impl, s] : p.seconds.items()) out.add_seconds(impl, s.is_number() ? s.get<double>() : 0.0);
    for (const auto& d : p.disagreements) out.disagreements.push_back(d);
    out.details["parts"].push_back({{"shard", p.shard}, {"source", p.shard_source}, {"covered", {{"offset", a}, {"size", b - a}}},
                                    {"pass", p.pass}, {"details", p.details}});
  }
  if (next < end) m.problems.push_back("gap: " + range_text(first, {next, end - next}) + " is covered by no shard");
  // Hits judged, summed where every part counts them: the whole declared range with none compared nothing.
  const bool counted = std::all_of(parts.begin(), parts.end(), [](const RunResult& p) { return p.details.contains("judged"); });
  if (counted) {
    uint64_t judged = 0;
    for (const RunResult& p : parts) {
      const json& j = p.details["judged"];
      if (j.is_number_integer() && j.get<int64_t>() >= 0) judged += j.get<uint64_t>();
      else m.problems.push_back("shard " + p.shard + ": details.judged is not a count");
    }
    out.details["judged"] = judged;
    if (judged == 0 && want.offset == 0 && want.size == first.range_size)
      m.problems.push_back("no part judged a hit: across the whole range nothing was compared");
  }
  out.pass = m.problems.empty();
  return m;
}

void print_result_table(const RunResult& r, size_t max_disagreements) {
  std::vector<std::string> cols;
  for (auto& [impl, c] : r.counts.items())
    for (auto& [k, v] : c.items())
      if (std::find(cols.begin(), cols.end(), k) == cols.end()) cols.push_back(k);
  size_t w = 14;
  for (auto& [impl, c] : r.counts.items()) w = std::max(w, impl.size());
  std::printf("%-*s", int(w), "implementation");
  auto cw = [](const std::string& col) { return int(std::max<size_t>(12, col.size())); };
  for (auto& c : cols) std::printf(" %*s", cw(c), c.c_str());
  std::printf(" %10s\n", "seconds");
  for (auto& [impl, c] : r.counts.items()) {
    std::printf("%-*s", int(w), impl.c_str());
    for (auto& k : cols)
      if (c.contains(k)) std::printf(" %*llu", cw(k), (unsigned long long)c[k].get<uint64_t>());
      else std::printf(" %*s", cw(k), "-");
    std::printf(" %10.2f\n", r.seconds.value(impl, 0.0));
  }
  std::printf("disagreements: %zu\n", r.disagreements.size());
  for (size_t i = 0; i < r.disagreements.size() && i < max_disagreements; ++i)
    std::printf("  %s\n", r.disagreements[i].dump().c_str());
}

std::vector<std::string> result_differences(const RunResult& a, const RunResult& b) {
  std::vector<std::string> d;
  const json ia = identity(a), ib = identity(b);
  for (auto& [k, v] : ia.items())
    if (ib[k] != v) d.push_back(k + " differs: " + clip(v.dump()) + " vs " + clip(ib[k].dump()));
  if (a.covered.offset != b.covered.offset || a.covered.size != b.covered.size)
    d.push_back("covered " + range_text(a, a.covered) + " vs " + range_text(b, b.covered));
  std::vector<std::pair<std::string, std::string>> keys;  // (implementation, counter) in either run
  for (const json* c : {&a.counts, &b.counts})
    for (auto& [impl, cs] : c->items())
      for (auto& [k, v] : cs.items())
        if (std::find(keys.begin(), keys.end(), std::pair{impl, k}) == keys.end()) keys.emplace_back(impl, k);
  auto count_text = [](const RunResult& r, const std::string& impl, const std::string& k) {
    return r.counts.contains(impl) && r.counts[impl].contains(k) ? r.counts[impl][k].dump() : std::string("absent");
  };
  for (const auto& [impl, k] : keys)
    if (count_text(a, impl, k) != count_text(b, impl, k))
      d.push_back("count " + impl + "." + k + ": " + count_text(a, impl, k) + " vs " + count_text(b, impl, k));
  auto sorted = [](const json& arr) {
    std::vector<std::string> v;
    for (const auto& x : arr) v.push_back(x.dump());
    std::sort(v.begin(), v.end());
    return v;
  };
  const auto da = sorted(a.disagreements), db = sorted(b.disagreements);
  if (da != db) {
    std::vector<std::string> only_a, only_b;
    std::set_difference(da.begin(), da.end(), db.begin(), db.end(), std::back_inserter(only_a));
    std::set_difference(db.begin(), db.end(), da.begin(), da.end(), std::back_inserter(only_b));
    d.push_back("disagreements: " + std::to_string(da.size()) + " vs " + std::to_string(db.size()) + ", " +
                std::to_string(only_a.size()) + " only in the first" + (only_a.empty() ? "" : " (" + clip(only_a[0]) + ")") + ", " +
                std::to_string(only_b.size()) + " only in the second" + (only_b.empty() ? "" : " (" + clip(only_b[0]) + ")"));
  }
  if (a.pass != b.pass) d.push_back(std::string("pass: ") + (a.pass ? "true" : "false") + " vs " + (b.pass ? "true" : "false"));
  return d;
}

int run_verify_merge(const std::vector<std::string>& files, const std::string& same_as, const RunContext& ctx) {
  if (files.empty()) throw InputError("verify merge: give the shards' result files");
  std::vector<RunResult> parts;
  for (const auto& f : files) parts.push_back(read_result_file(f));
  std::optional<RunResult> whole;  // read before any table is printed: a bad file is one error line
  if (!same_as.empty()) whole = read_result_file(same_as);
  const RunResult& first = parts.front();
  std::printf("verify merge: %zu result(s) of %s %s, declared %s\n", parts.size(), first.family.c_str(), first.mode.c_str(),
              range_text(first, {0, first.range_size}).c_str());
  for (size_t i = 0; i < parts.size(); ++i)
    std::printf("  %-40s shard %-10s %s %s\n", files[i].c_str(), parts[i].shard.empty() ? "-" : parts[i].shard.c_str(),
                range_text(parts[i], parts[i].covered).c_str(), parts[i].pass ? "PASS" : "FAIL");
  Merged m = merge_results(parts, {0, first.range_size});
  print_result_table(m.result);
  if (!same_as.empty()) {
    for (const auto& d : result_differences(m.result, *whole)) m.problems.push_back("merge vs " + same_as + ": " + d);
    if (m.problems.empty()) std::printf("the merge equals %s (counts, disagreements, verdict)\n", same_as.c_str());
  }
  std::fflush(stdout);  // the problems follow the table they explain, also when both streams go to one file
  for (const auto& p : m.problems) std::fprintf(stderr, "verify merge: %s\n", p.c_str());
  RunContext out = ctx;
  out.shard = {};
  emit_result(out, m.result);
  std::printf("verify merge %s\n", m.problems.empty() ? "PASSED" : "FAILED");
  return m.problems.empty() ? 0 : 1;
}

}  // namespace bx
