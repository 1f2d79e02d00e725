#include "suite/vectors.hpp"

#include <unistd.h>

#include <filesystem>
#include <set>

#include "suite/embedded.hpp"
#include "suite/hex.hpp"
#include "suite/paths.hpp"
#include "suite/vector_json.hpp"

namespace bx {

const std::string& embedded_file(const std::string& rel) {
  for (auto& f : embedded_vectors())
    if (f.path == rel) return f.content;
  throw InputError("this build has no embedded copy of " + rel + " (rebuild after adding it)");
}

namespace vectors {
namespace fs = std::filesystem;

const Owner& owner(const Owners& owners, const std::string& name) {
  std::string known;
  for (auto* f : owners) {
    if (f->name() == name) return *f;
    known += (known.empty() ? "" : ", ") + f->name();
  }
  throw InputError("unknown family '" + name + "' (known: " + known + ")");
}

std::map<std::string, std::string> generate_all(const Owners& owners, const std::string& fam) {
  std::map<std::string, std::string> all;
  for (auto* f : owners)
    if (fam.empty() || f->name() == fam) all.merge(f->generate_vectors());
  if (!fam.empty() && all.empty()) owner(owners, fam);  // unknown family: InputError
  return all;
}

std::vector<std::string> check_all(const Owners& owners, const std::string& root, const std::string& fam) {
  std::vector<std::string> problems;
  std::set<std::string> owned;
  bool any = false;
  for (auto* f : owners) {
    for (auto& rel : f->vector_files()) owned.insert(rel);
    if (!fam.empty() && f->name() != fam) continue;
    any = true;
    for (auto& p : f->check_vectors(root)) problems.push_back(p);
  }
  if (!any) owner(owners, fam);
  std::error_code ec;
  const fs::path dir = fs::path(root) / "vectors";
  if (!fs::is_directory(dir, ec)) {
    problems.push_back(io::malformed(root + ": no vectors/ directory"));
    return problems;
  }
  for (auto& e : fs::recursive_directory_iterator(dir, ec)) {
    if (!e.is_regular_file() || e.path().extension() != ".json") continue;
    const std::string rel = fs::relative(e.path(), root).generic_string();
    if (!owned.count(rel)) problems.push_back(rel + ": no family owns this file (vectors::Owner::vector_files)");
  }
  return problems;
}

std::string resolve_root(const std::string& root_option) {
  if (!root_option.empty()) {
    std::error_code ec;
    if (!fs::exists(root_option, ec)) throw InputError("--root " + root_option + ": no such directory");
    if (!fs::is_directory(fs::path(root_option) / "vectors", ec))
      throw InputError("--root " + root_option + ": holds no vectors/ directory (give the repository root)");
    return root_option;
  }
  std::error_code ec;
  if (fs::is_directory("vectors", ec)) return fs::current_path().string();
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path share = exe.parent_path().parent_path() / "share" / "bitexact";
    if (fs::is_directory(share / "vectors", ec)) return share.string();
  }
  return source_dir();
}

}  // namespace vectors
}  // namespace bx
