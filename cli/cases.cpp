#include "cli/cases.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>

#include "cli/family.hpp"
#include "cli/input_file.hpp"
#include "cli/numbers.hpp"

namespace bx {

namespace C = suite::cases;

namespace {

void write_document(const std::string& path, const json& doc, const std::string& what) {
  if (path.empty() || path == "-") {
    std::printf("%s\n", doc.dump(1).c_str());
    return;
  }
  require_writable_file(path, what);
  std::ofstream f(path, std::ios::binary);
  f << doc.dump(1) << "\n";
  if (!f) throw InputError(what + " " + path + ": write error");
}


bool op_wanted(const std::vector<std::string>& ops, const std::string& op) {
  if (ops.empty()) return true;
  const std::string tail = op.substr(op.find('.') + 1);
  return std::find(ops.begin(), ops.end(), op) != ops.end() || std::find(ops.begin(), ops.end(), tail) != ops.end();
}

std::string short_json(const json& j) {
  std::string s = j.dump();
  return s.size() > 400 ? s.substr(0, 400) + "..." : s;
}

}  // namespace

std::function<json(const json&)> reference_of(const Family& f) {
  DeviceSelection none;
  none.cpu = false;
  OracleHandler h = f.oracle(none);
  return [h](const json& request) { return h(request).at("ref"); };
}

void print_verdict_details(const suite::cases::Verdict& v) {
  for (size_t k = 0; k < v.wrong.size() && k < 5; ++k) {
    const C::Wrong& w = v.wrong[k];
    std::printf("WRONG case %llu %s %s\n  request %s\n", (unsigned long long)w.id, w.request.value("op", "?").c_str(), w.flags.dump().c_str(),
                short_json(w.request).c_str());
    if (w.detail.empty())
      std::printf("  got  %s\n  want %s\n", short_json(w.got).c_str(), short_json(w.want).c_str());
    else
      std::printf("  %s\n", w.detail.c_str());
  }
  if (v.wrong.size() > 5) std::printf("... and %zu more wrong answers\n", v.wrong.size() - 5);
  for (const std::string& s : v.refusals) std::printf("REFUSED: %s\n", s.c_str());
}

void add_cases_command(CLI::App& app, CasesCommand& c) {
  auto* cases = app.add_subcommand("cases", "offline case files: export a prompt, judge a response (docs/cases.md)");
  cases->require_subcommand(1);
  c.exp = cases->add_subcommand("export", "write a prompt (cases with ids, requests, flags; no answers)");
  c.exp->add_option("--family", c.family, "the family")->required()->type_name("FAMILY");
  c.exp->add_option("--tier", c.tier, "quick (the vectors) or full (and seeded random cases)")->type_name("TIER")
      ->check(CLI::IsMember({"quick", "full"}));
  add_number(*c.exp, "--seed", c.seed, "seed of the full tier's random cases (default 1)");
  c.exp->add_option("--ops", c.ops, "only these operations (\"mul\" or \"fe25519.mul\"; repeatable)")->type_name("OP")->delimiter(',');
  c.exp->add_option("--out", c.out, "the prompt file (default stdout)")->type_name("FILE");
  c.exp->add_option("--expected", c.expected_out, "also write the reference's answers as a response document")->type_name("FILE");
  c.judge = cases->add_subcommand("judge", "judge a response against the reference (or --expected)");
  c.judge->add_option("prompt", c.prompt, "the prompt file")->required()->type_name("PROMPT");
  c.judge->add_option("response", c.response, "the response file")->required()->type_name("RESPONSE");
  c.judge->add_option("--expected", c.expected_in, "judge against this expected document instead of the reference")->type_name("FILE");
}

bool CasesCommand::parsed() const { return exp->parsed() || judge->parsed(); }

int CasesCommand::run(int argc, char** argv) const {
  if (exp->parsed()) {
    const Family& f = bx::family(family);
    json notes = json::object();
    std::vector<C::CaseSpec> all = f.cases(tier, seed, &notes), specs;
    if (all.empty()) throw InputError("cases export: family " + family + " offers no offline cases yet");
    for (C::CaseSpec& s : all)
      if (op_wanted(ops, s.request.at("op").get<std::string>())) specs.push_back(std::move(s));
    if (specs.empty()) throw InputError("cases export: family " + family + ": no case of the --ops given");
    std::string cmd = "bitexact";
    for (int i = 1; i < argc; ++i) cmd += std::string(" ") + argv[i];
    const json prompt = C::make_prompt(family, tier, seed, cmd, notes, specs);
    if (!expected_out.empty()) write_document(expected_out, C::make_expected(prompt, reference_of(f)), "--expected");
    write_document(out, prompt, "--out");
    std::fprintf(stderr, "cases export: %zu cases of %s (%s tier)\n", specs.size(), family.c_str(), tier.c_str());
    return 0;
  }
  const json p = read_json_file<json>(prompt, "prompt"), r = read_json_file<json>(response, "response");
  if (!p.is_object() || !p.contains("family") || !p["family"].is_string()) throw InputError("prompt " + prompt + ": no \"family\"");
  const Family& f = bx::family(p["family"].get<std::string>());
  std::function<json(const json&, uint64_t)> want;
  std::map<uint64_t, json> expected;
  if (!expected_in.empty()) {
    const json doc = read_json_file<json>(expected_in, "--expected");
    for (const json& a : C::answers_of(doc, "--expected"))
      if (a.contains("id") && a["id"].is_number_unsigned() && a.contains("answer")) expected[a["id"].get<uint64_t>()] = a["answer"];
    want = [&](const json&, uint64_t id) {
      const auto it = expected.find(id);
      if (it == expected.end()) throw InputError("--expected " + expected_in + ": no answer for case " + std::to_string(id));
      return it->second;
    };
  } else {
    const auto ref = reference_of(f);
    want = [ref](const json& request, uint64_t) { return ref(request); };
  }
  const C::Verdict v = C::judge(p, r, want);
  // Per operation: cases and wrong answers.
  std::map<std::string, std::pair<uint64_t, uint64_t>> per_op;
  for (const json& c : p["cases"]) ++per_op[c["request"].value("op", "?")].first;
  for (const C::Wrong& w : v.wrong) ++per_op[w.request.value("op", "?")].second;
  std::printf("%-28s %8s %8s\n", "operation", "cases", "wrong");
  for (const auto& [op, n] : per_op) std::printf("%-28s %8llu %8llu\n", op.c_str(), (unsigned long long)n.first, (unsigned long long)n.second);
  print_verdict_details(v);
  std::printf("cases judge %s: %llu cases, %llu right, %zu wrong, %zu refusal(s) (against %s)\n", v.pass() ? "PASSED" : "FAILED",
              (unsigned long long)v.cases, (unsigned long long)v.right, v.wrong.size(), v.refusals.size(),
              expected_in.empty() ? "the reference" : expected_in.c_str());
  return v.pass() ? 0 : 1;
}

}  // namespace bx
