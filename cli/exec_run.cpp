#include "cli/exec_run.hpp"

#include <algorithm>
#include <cstdio>
#include <deque>
#include <functional>
#include <map>

#include "cli/bench_harness.hpp"
#include "cli/bench_record.hpp"
#include "cli/cases.hpp"
#include "cli/family.hpp"
#include "suite/harness.hpp"

namespace bx {

namespace {

namespace C = suite::cases;
namespace H = suite::harness;

// One implementation's cases: the family's prompt for the tier (its ids are those `cases export` writes),
// and which of them it is asked.
struct Plan {
  const Family* family;
  std::function<json(const json&)> reference;  // the family's reference answer to a request
  json prompt;                        // every case of the tier
  std::vector<std::string> ops;       // the family's operations, in the order their cases first appear
  std::map<std::string, size_t> all;  // cases per operation
  std::vector<H::Case> asked;         // provided operation, accepted precondition
  std::map<std::string, size_t> asked_per_op, left_out_per_op;
};

Plan plan_for(const H::Described& d, const std::string& tier, uint64_t seed, const std::string& command) {
  Plan p;
  try {
    p.family = &bx::family(d.family);
  } catch (const InputError& e) {
    throw H::HarnessError("harness `" + command + "`: implementation \"" + d.name + "\": " + e.what());
  }
  json notes = json::object();
  const std::vector<C::CaseSpec> specs = p.family->cases(tier, seed, &notes);
  if (specs.empty()) throw H::HarnessError("harness `" + command + "`: family " + d.family + " offers no cases yet, so a harness cannot be judged");
  p.reference = reference_of(*p.family);
  p.prompt = C::make_prompt(d.family, tier, seed, "bitexact cases export --family " + d.family + " --tier " + tier + " --seed " + std::to_string(seed),
                            notes, specs);
  for (const json& c : p.prompt["cases"]) {
    const std::string op = c["request"]["op"].get<std::string>();
    if (!p.all.count(op)) p.ops.push_back(op);
    ++p.all[op];
    if (!d.provides(op)) continue;
    if (d.accepts(c.value("precondition", ""))) {
      p.asked.push_back({c["id"].get<uint64_t>(), c["request"]});
      ++p.asked_per_op[op];
    } else {
      ++p.left_out_per_op[op];
    }
  }
  for (const std::string& op : d.ops)
    if (!p.all.count(op)) {
      std::string known;
      for (const std::string& o : p.ops) known += (known.empty() ? "" : ", ") + o;
      throw H::HarnessError("harness `" + command + "`: implementation \"" + d.name + "\" lists op \"" + op + "\", which " + d.family +
                            "'s cases do not have (they have: " + known + ")");
    }
  return p;
}

// The prompt holding `cases` only, and the response made of the harness's answer entries. An entry with
// "error" (the harness could not answer) becomes the answer {"error": ...}: judged wrong, shown beside the
// reference's answer.
std::pair<json, json> documents(const Plan& p, const std::vector<H::Case>& cases, const std::vector<json>& entries) {
  json prompt = p.prompt;
  json kept = json::array();
  size_t k = 0;
  for (const json& c : p.prompt["cases"])
    if (k < cases.size() && c["id"].get<uint64_t>() == cases[k].id) kept.push_back(c), ++k;
  prompt["cases"] = std::move(kept);
  json answers = json::array();
  for (const json& e : entries) {
    if (!e.contains("answer") && e.contains("error")) answers.push_back({{"id", e["id"]}, {"answer", {{"error", e["error"]}}}});
    else answers.push_back(e);
  }
  return {prompt, json{{"bitexact_cases", C::kFormat}, {"kind", "response"}, {"family", p.prompt["family"]}, {"answers", std::move(answers)}}};
}

std::string label(const H::Described& d) { return d.family + "/" + d.name; }

std::vector<const H::Described*> chosen(const H::Harness& h, const std::string& family) {
  std::vector<const H::Described*> out;
  for (const H::Described& d : h.implementations())
    if (family.empty() || d.family == family) out.push_back(&d);
  if (out.empty()) {
    std::string offered;
    for (const H::Described& d : h.implementations()) offered += (offered.empty() ? "" : ", ") + label(d);
    throw H::HarnessError("harness `" + h.command() + "`: describes no implementation of " + family + " (it offers " + offered + ")");
  }
  return out;
}

}  // namespace

int run_exec_checks(const char* command_name, const ExecOptions& o, const std::string& family, const std::string& tier) {
  H::Harness h(o.command, o.timeout_s);
  bool all_pass = true;
  size_t n_impl = 0;
  for (const H::Described* d : chosen(h, family)) {
    ++n_impl;
    const Plan p = plan_for(*d, tier, o.seed, o.command);
    std::printf("\n=== %s --exec: %s (harness, %s): %zu cases at the %s tier, %zu asked\n", command_name, label(*d).c_str(), d->contract.c_str(),
                p.prompt["cases"].size(), tier.c_str(), p.asked.size());
    if (!d->description.empty()) std::printf("%s\n", d->description.c_str());
    C::Verdict v;
    if (!p.asked.empty()) {
      const std::vector<json> entries = h.answer(*d, p.asked);
      const auto [prompt, response] = documents(p, p.asked, entries);
      v = C::judge(prompt, response, [&](const json& request, uint64_t) { return p.reference(request); });
    }
    std::map<std::string, size_t> wrong;
    for (const C::Wrong& w : v.wrong) ++wrong[w.request.value("op", "?")];
    std::printf("%-24s %8s %8s %8s  %s\n", "operation", "cases", "asked", "wrong", "verdict");
    for (const std::string& op : p.ops) {
      const size_t asked = p.asked_per_op.count(op) ? p.asked_per_op.at(op) : 0, left = p.left_out_per_op.count(op) ? p.left_out_per_op.at(op) : 0;
      std::string verdict = !d->provides(op) ? "not provided"
                            : asked == 0     ? "none asked (precondition)"
                            : wrong[op]      ? "WRONG"
                                             : "OK";
      if (d->provides(op) && left) verdict += " (" + std::to_string(left) + " left out by precondition)";
      std::printf("%-24s %8zu %8zu %8zu  %s\n", op.c_str(), p.all.at(op), asked, wrong[op], verdict.c_str());
    }
    print_verdict_details(v);
    const bool pass = !p.asked.empty() && v.pass();
    all_pass = all_pass && pass;
    std::printf("%s: %s: %llu asked, %llu right, %zu wrong, %zu refusal(s)\n", label(*d).c_str(), pass ? "PASS" : "FAIL",
                (unsigned long long)v.cases, (unsigned long long)v.right, v.wrong.size(), v.refusals.size());
    if (p.asked.empty()) std::printf("%s: nothing asked (no provided operation has a case it accepts): not a pass\n", label(*d).c_str());
  }
  h.finish();
  std::printf("\n%s --exec %s: %zu implementation(s) of the harness\n", command_name, all_pass ? "PASSED" : "FAILED", n_impl);
  return all_pass ? 0 : 1;
}

int run_exec_bench(const ExecOptions& o, const std::string& family, int rounds) {
  H::Harness h(o.command, o.timeout_s);
  struct Item {
    const H::Described* d;
    const Plan* plan;  // one per implementation (its prompt is large), shared by its operations
    std::string op;
    std::vector<H::Case> cases;
    std::vector<double> seconds;
    bool parity = true;
  };
  std::vector<Item> items;
  std::deque<Plan> plans;  // stable addresses
  for (const H::Described* d : chosen(h, family)) {
    const Plan& p = plans.emplace_back(plan_for(*d, "full", o.seed, o.command));
    for (const std::string& op : p.ops) {
      if (!d->provides(op)) {
        std::printf("%s: %s not provided (nothing to time)\n", label(*d).c_str(), op.c_str());
        continue;
      }
      Item it{d, &p, op, {}, {}, true};
      for (const H::Case& c : p.asked)
        if (c.request["op"] == op) it.cases.push_back(c);
      if (it.cases.empty()) std::printf("%s: %s: no case it accepts (nothing to time)\n", label(*d).c_str(), op.c_str());
      else items.push_back(std::move(it));
    }
  }
  if (items.empty()) throw H::HarnessError("harness `" + o.command + "`: nothing to time");
  // Interleaved: every round runs every (implementation, operation) once; each round's answers are judged.
  for (int r = 0; r < rounds; ++r)
    for (Item& it : items) {
      double s = 0;
      const std::vector<json> entries = h.answer(*it.d, it.cases, &s);
      it.seconds.push_back(s);
      const auto [prompt, response] = documents(*it.plan, it.cases, entries);
      const C::Verdict v = C::judge(prompt, response, [&](const json& request, uint64_t) { return it.plan->reference(request); });
      if (!v.pass() && it.parity) {
        std::printf("PARITY FAILED: %s %s in round %d\n", label(*it.d).c_str(), it.op.c_str(), r + 1);
        print_verdict_details(v);
      }
      it.parity = it.parity && v.pass();
    }
  h.finish();
  std::printf("%-36s %-22s %8s %14s %14s  %s\n", "implementation", "operation", "cases", "k case/s", "us/case", "parity");
  bool parity = true;
  std::map<std::string, std::vector<BenchRow>> rows;  // per family
  for (const Item& it : items) {
    BenchRow row{label(*it.d), "harness", "harness " + o.command, it.op, "k case/s", per_round_rates(it.seconds, double(it.cases.size()), 1e3)};
    const double med = median(row.rates);
    std::printf("%-36s %-22s %8zu %14.2f %14.2f  %s\n", row.implementation.c_str(), it.op.c_str(), it.cases.size(), med, med > 0 ? 1e3 / med : 0.0,
                it.parity ? "OK" : "FAILED");
    parity = parity && it.parity;
    rows[it.d->family].push_back(std::move(row));
  }
  for (const auto& [fam, r] : rows) put_bench(fam, rounds, parity, {}, r);
  std::printf("bench --exec: %d round(s), time per case includes the pipe and the harness's JSON (docs/protocol.md)\n", rounds);
  return parity ? 0 : 1;
}

}  // namespace bx
