#include "cli/usage.hpp"

#include <CLI/CLI.hpp>
#include <vector>

namespace bx {
namespace {

// The metavariable ("N", "FILE", "LO:COUNT"): the type name without any validator text after a space.
std::string metavar(const CLI::Option& o) {
  std::string t = o.get_type_name();
  const size_t cut = t.find(' ');
  if (cut != std::string::npos) t.resize(cut);
  return t;
}

std::string word(const CLI::Option& o) {
  if (o.get_positional()) {
    const bool many = o.get_items_expected_max() > 1;
    const std::string w = o.get_name(true) + (many ? "..." : "");
    return o.get_required() ? w : "[" + w + "]";
  }
  const std::string name = o.get_name();
  const std::string w = o.get_type_name().empty() ? name : name + " " + metavar(o);  // a flag has no type
  return o.get_required() ? w : "[" + w + "]";
}

void wrap(std::string& out, const std::vector<std::string>& words, size_t width) {
  std::string line;
  for (const auto& w : words) {
    if (!line.empty() && line.size() + 1 + w.size() > width) {
      out += line + "\n";
      line = "        " + w;
    } else {
      line += (line.empty() ? "" : " ") + w;
    }
  }
  out += line + "\n";
}

void walk(const CLI::App& app, const std::string& path, size_t width, std::string& out) {
  std::vector<std::string> words{path};
  const CLI::Option* help = app.get_help_ptr();
  for (const CLI::Option* o : app.get_options())
    if (o != help && o->get_positional() == false) words.push_back(word(*o));
  for (const CLI::Option* o : app.get_options())
    if (o->get_positional()) words.push_back(word(*o));
  const auto subs = app.get_subcommands([](const CLI::App*) { return true; });
  if (!subs.empty()) words.push_back(app.get_require_subcommand_min() > 0 ? "COMMAND" : "[COMMAND]");
  wrap(out, words, width);
  for (const CLI::App* s : subs) walk(*s, path + " " + s->get_name(), width, out);
}

}  // namespace

std::string usage_synopsis(const CLI::App& app, size_t width) {
  std::string out;
  for (const CLI::App* s : app.get_subcommands([](const CLI::App*) { return true; }))
    walk(*s, "bitexact " + s->get_name(), width, out);
  return out;
}

}  // namespace bx
