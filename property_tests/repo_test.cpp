// The repository stands alone and its documents hold together:
// - every citation of a specification (docs/specs/<file>, optionally with section numbers or a quoted
//   section name) in code, vectors and documents names a file that exists and a heading it has;
// - every relative link in README.md and docs/ resolves;
// - nothing reads a folder beside the repository;
// - each vendored third-party folder has its licence and PROVENANCE, and every file PROVENANCE lists
//   has the SHA-256 it states (so an edited or truncated vendored file fails here, by name).
// Each check is a function over a tree; PlantedBreaks runs them on a small tree with one break of each kind.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "suite/hex.hpp"
#include "property_tests/read_file.hpp"

namespace {
namespace fs = std::filesystem;
using bx::test::read_file;

// Text files of a tree: everything but build trees, dot folders, fuzz corpora and (unless asked) third_party.
std::vector<fs::path> repo_files(const fs::path& r, bool include_third_party) {
  std::vector<fs::path> out;
  for (auto it = fs::recursive_directory_iterator(r); it != fs::recursive_directory_iterator(); ++it) {
    const std::string name = it->path().filename().string();
    if (it->is_directory()) {
      const bool skip = name.rfind("build", 0) == 0 || name[0] == '.' || name == "corpus" ||
                        (!include_third_party && name == "third_party");
      if (skip) it.disable_recursion_pending();
      continue;
    }
    static const std::set<std::string> text{".cpp", ".hpp", ".cu", ".cuh", ".h", ".c", ".txt", ".cmake", ".json",
                                            ".md", ".sh", ".in", ".yml", ".rs", ".py", ""};
    if (text.count(it->path().extension().string())) out.push_back(it->path());
  }
  return out;
}

// Heading numbers ("9", "9.4") and heading texts of a Markdown file.
struct Headings {
  std::set<std::string> numbers;
  std::vector<std::string> texts;
};
Headings headings_of(const std::string& md) {
  Headings h;
  static const std::regex line(R"(^#{1,6}[ \t]+(([0-9]+(\.[0-9]+)*)\.?[ \t])?(.*)$)", std::regex::multiline);
  for (std::sregex_iterator it(md.begin(), md.end(), line), end; it != end; ++it) {
    if ((*it)[2].matched) h.numbers.insert((*it)[2]);
    h.texts.push_back((*it)[4]);
  }
  return h;
}

// The section numbers a citation names right after the path: "§9.4", "sections 7-9.1", "2.3-2.4",
// "sections 4, 6, 9.4, 9.5", "4.2 and 4.4" (a range names both ends).
std::vector<std::string> cited_numbers(const std::string& tail) {
  static const std::regex head(R"(^[ \t]*(§|sections?[ \t]+)?[ \t]*([0-9]+(\.[0-9]+)*))");
  static const std::regex more(R"(^[ \t]*(,|-|–|and)[ \t]*([0-9]+(\.[0-9]+)*))");
  std::vector<std::string> out;
  std::smatch m;
  std::string rest = tail;
  if (!std::regex_search(rest, m, head)) return out;
  out.push_back(m[2]);
  rest = m.suffix();
  while (std::regex_search(rest, m, more)) {
    out.push_back(m[2]);
    rest = m.suffix();
  }
  return out;
}

struct Report {
  std::vector<std::string> problems;
  int checked = 0;  // citations, links, files: what the check looked at
};

Report spec_citations(const fs::path& r) {
  static const std::regex cite(R"(docs/specs/([A-Za-z0-9_]+\.(md|json)))");
  static const std::regex named(R"rx(^[ \t]*"([^"\n]{3,80})")rx");
  std::map<std::string, Headings> specs;
  Report rep;
  for (const auto& p : repo_files(r, false)) {
    const std::string text = read_file(p.string()), where = fs::relative(p, r).string();
    for (std::sregex_iterator it(text.begin(), text.end(), cite), end; it != end; ++it) {
      ++rep.checked;
      const std::string file = (*it)[1];
      const fs::path spec = r / "docs" / "specs" / file;
      if (!fs::is_regular_file(spec)) {
        rep.problems.push_back(where + " cites docs/specs/" + file + ", which does not exist");
        continue;
      }
      if ((*it)[2] != "md") continue;
      if (!specs.count(file)) specs[file] = headings_of(read_file(spec.string()));
      const Headings& h = specs[file];
      const std::string tail = text.substr(it->position() + it->length(), 120);
      for (const auto& n : cited_numbers(tail))
        if (!h.numbers.count(n))
          rep.problems.push_back(where + " cites docs/specs/" + file + " section " + n + ", which has no heading numbered " + n);
      std::smatch m;
      if (std::regex_search(tail, m, named)) {
        const std::string want = m[1];
        if (std::none_of(h.texts.begin(), h.texts.end(), [&](const std::string& t) { return t.find(want) != std::string::npos; }))
          rep.problems.push_back(where + " cites docs/specs/" + file + " \"" + want + "\", which is no heading");
      }
    }
  }
  return rep;
}

Report relative_links(const fs::path& r) {
  static const std::regex link(R"(\]\(([^)\s]+)\))");
  Report rep;
  for (const auto& p : repo_files(r, true)) {
    if (p.extension() != ".md") continue;
    const std::string where = fs::relative(p, r).string(), text = read_file(p.string());
    for (std::sregex_iterator it(text.begin(), text.end(), link), end; it != end; ++it) {
      std::string target = (*it)[1];
      if (target.find("://") != std::string::npos || target.rfind("mailto:", 0) == 0 || target[0] == '#') continue;
      target = target.substr(0, target.find('#'));
      ++rep.checked;
      if (!fs::exists(p.parent_path() / target)) rep.problems.push_back(where + " links to " + target + ", which does not exist");
    }
  }
  return rep;
}

Report outside_paths(const fs::path& r) {
  const std::string outside = std::string("..") + "/shared", var = std::string("BX_") + "SHARED_DIR";
  Report rep;
  for (const auto& p : repo_files(r, false)) {
    ++rep.checked;
    const std::string text = read_file(p.string()), where = fs::relative(p, r).string();
    for (const auto& bad : {outside, var})
      if (text.find(bad) != std::string::npos) rep.problems.push_back(where + " names " + bad);
  }
  return rep;
}

// Every third_party/<folder> has LICENSE and PROVENANCE; each PROVENANCE row "file ... <sha256>" names a
// file beside it with that hash.
Report vendored_data(const fs::path& r) {
  static const std::regex row(R"(^([A-Za-z0-9_.\-]+)[ \t].*[ \t]([0-9a-f]{64})[ \t]*$)", std::regex::multiline);
  Report rep;
  const fs::path tp = r / "third_party";
  if (!fs::is_directory(tp)) return {{"third_party/ missing"}, 0};
  for (const auto& d : fs::directory_iterator(tp)) {
    if (!d.is_directory()) continue;
    const std::string name = "third_party/" + d.path().filename().string();
    if (!fs::is_regular_file(d.path() / "LICENSE")) rep.problems.push_back(name + " has no LICENSE");
    const std::string prov = read_file((d.path() / "PROVENANCE").string());
    int rows = 0;
    for (std::sregex_iterator it(prov.begin(), prov.end(), row), end; it != end; ++it) {
      ++rows, ++rep.checked;
      const std::string file = (*it)[1], want = (*it)[2];
      const fs::path f = d.path() / file;
      if (!fs::is_regular_file(f)) rep.problems.push_back(name + "/" + file + " is listed in PROVENANCE but missing");
      else if (bx::sha256_hex(read_file(f.string())) != want) rep.problems.push_back(name + "/" + file + " differs from its PROVENANCE sha256");
    }
    if (rows == 0) rep.problems.push_back(name + "/PROVENANCE missing or lists no file with its sha256");
  }
  return rep;
}

std::string joined(const Report& r) {
  std::string s;
  for (auto& p : r.problems) s += "  " + p + "\n";
  return s;
}

const fs::path kRoot = bx::source_dir();

// A check over the repository: no problem, and it looked at no fewer than `at_least` things.
void expect_clean(const Report& r, const char* what, int at_least) {
  std::printf("%s checked: %d\n", what, r.checked);
  EXPECT_TRUE(r.problems.empty()) << joined(r);
  EXPECT_GE(r.checked, at_least) << what;
}

TEST(Repository, EverySpecCitationResolves) {
  expect_clean(spec_citations(kRoot), "spec citations", 30);  // the code cites the specifications on dozens of lines
  for (const char* f : {"field25519_ecvrf.md", "md5z.md", "qpow.md", "q8parity.md"})
    EXPECT_TRUE(fs::is_regular_file(kRoot / "docs" / "specs" / f)) << "docs/specs/" << f << " missing";
}
TEST(Repository, EveryRelativeLinkInTheDocumentsResolves) { expect_clean(relative_links(kRoot), "relative links", 10); }
TEST(Repository, NothingReadsAFolderBesideTheRepository) { expect_clean(outside_paths(kRoot), "files", 100); }
TEST(Repository, VendoredDataMatchesItsProvenance) { expect_clean(vendored_data(kRoot), "third_party files hashed", 2); }

// The negative control: a small tree with one break of each kind, each reported by its check.
TEST(Repository, PlantedBreaksAreEachReported) {
  const fs::path t = fs::temp_directory_path() / ("bx-repo-test-" + std::to_string(::getpid()));
  fs::remove_all(t);
  const auto put = [&](const std::string& path, const std::string& text) {
    fs::create_directories((t / path).parent_path());
    std::ofstream(t / path, std::ios::binary) << text;
  };
  const std::string S = std::string("docs/") + "specs/";  // split: this file is itself scanned
  put(S + "a.md", "# A\n## 2. Two\n### 2.3 Decoding\n## Zero count\n");
  put("src/good.cpp", "// " + S + "a.md 2.3, " + S + "a.md \"Zero count\", " + S + "a.md §2\n");
  put("third_party/v/LICENSE", "licence");
  put("third_party/v/data.json", "{}");
  put("third_party/v/PROVENANCE", "data.json   upstream   " + bx::sha256_hex("{}") + "\n");
  put("README.md", "[spec](" + S + "a.md)\n");
  EXPECT_TRUE(spec_citations(t).problems.empty()) << joined(spec_citations(t));
  EXPECT_TRUE(relative_links(t).problems.empty()) << joined(relative_links(t));
  EXPECT_TRUE(outside_paths(t).problems.empty()) << joined(outside_paths(t));
  EXPECT_TRUE(vendored_data(t).problems.empty()) << joined(vendored_data(t));

  put("src/bad.cpp", "// " + S + "b.md; " + S + "a.md sections 2, 2.4-2.3; " + S + "a.md \"One count\"\n");
  const auto c = spec_citations(t);
  EXPECT_EQ(c.problems.size(), 3u) << joined(c);  // b.md missing, section 2.4, "One count"
  put("docs/x.md", "[gone](../nowhere.md)\n");
  EXPECT_EQ(relative_links(t).problems.size(), 1u);
  put("src/reads.cmake", std::string("set(D ${CMAKE_SOURCE_DIR}/..") + "/shared)\n");
  EXPECT_EQ(outside_paths(t).problems.size(), 1u);
  put("third_party/v/data.json", "{ }");
  EXPECT_EQ(vendored_data(t).problems.size(), 1u);
  fs::remove(t / "third_party/v/LICENSE");
  EXPECT_EQ(vendored_data(t).problems.size(), 2u);
  fs::remove_all(t);
}

}  // namespace
