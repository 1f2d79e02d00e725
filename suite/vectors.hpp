// `bitexact vectors generate|check` over every owner's vector files (a family: bx::Family in cli/family.hpp
// is an Owner; the CLI hands its families() in). A file under vectors/ that no owner owns is a problem too.
#pragma once
#include <map>
#include <string>
#include <vector>

namespace bx::vectors {

// What owns vector files (vectors/F/...): a family.
class Owner {
 public:
  virtual ~Owner() = default;
  virtual std::string name() const = 0;
  // Vector files it owns, relative to the repository root (vectors/F/...).
  virtual std::vector<std::string> vector_files() const = 0;
  // The deterministic ones: relative path -> exact content, as `bitexact vectors generate` writes it.
  virtual std::map<std::string, std::string> generate_vectors() const = 0;
  // Verifies every owned file under `root` against the reference, and the deterministic ones against
  // generation. One line per problem (empty: all good).
  virtual std::vector<std::string> check_vectors(const std::string& root) const = 0;
};
using Owners = std::vector<const Owner*>;

// The owner named `name`; an unknown name is an InputError naming the known ones.
const Owner& owner(const Owners& owners, const std::string& name);

// relative path -> exact content of every deterministic file of the named owner (empty: all); an unknown
// name is an InputError naming the known ones.
std::map<std::string, std::string> generate_all(const Owners& owners, const std::string& family = "");
// One line per problem (empty: all good).
std::vector<std::string> check_all(const Owners& owners, const std::string& root, const std::string& family = "");
// The tree `vectors check` reads: --root when given, else the current directory when it holds
// vectors/, else an installed share/bitexact beside the binary, else the source tree compiled in.
std::string resolve_root(const std::string& root_option);

}  // namespace bx::vectors
