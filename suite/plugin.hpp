// Plugins: shared libraries exporting the versioned C table of include/bitexact/plugin.h, loaded with
// `--plugin PATH` (repeatable). The loader checks the ABI version first, then the table (names, family,
// place, contract, preconditions); each family's adapter checks its own operations table. Every problem
// is one InputError line naming the library and the implementation. Loaded libraries stay loaded for the
// life of the process.
#pragma once
#include <algorithm>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <bitexact/plugin.h>

#include "suite/hex.hpp"  // InputError

namespace bx::suite {

struct PluginImpl {
  std::string path;     // as given on the command line
  std::string library;  // the table's name
  std::string name;     // the implementation's name
  uint32_t family = 0, place = 0, contract = 0;
  std::string contract_note;
  std::vector<std::string> preconditions;
  const bx_impl* impl = nullptr;
  std::string where_from() const { return "plugin " + library + " (" + path + ")"; }
  std::string contract_text() const;  // "bit-exact", "characterised: ...", "between-variants: ..."
};

// Loads one library and validates its table (throws InputError naming the path).
void load_plugin(const std::string& path);
// Every implementation of every loaded library, in load order.
const std::vector<PluginImpl>& plugin_impls();
// The family name of a bx_family number ("field25519"), or "" for a number this version does not define.
std::string family_name(uint32_t family);

// Where each loaded implementation of `family` runs for a selection: a device one on each of `gpus`, a host
// one on the CPU (device -1) when `cpu`. A host implementation the selection leaves out is still handed to
// `validate` (a bad table is refused whether or not it runs).
struct PluginPlace {
  const PluginImpl& impl;
  int device;
};
std::vector<PluginPlace> plugin_places(const std::string& family, bool cpu, const std::vector<int>& gpus,
                                       const std::function<void(const PluginImpl&)>& validate);

// A family's ops table as this bitexact reads it (the header's growth rule): the fields within the plugin's
// struct_size, every later one zero (not provided). A struct_size below `first_version` (the struct's size
// in its first ABI 1 version) is refused in one line naming the plugin and both sizes.
template <class Ops>
Ops read_ops(const PluginImpl& p, size_t first_version, const char* family) {
  const uint32_t size = *static_cast<const uint32_t*>(p.impl->ops);  // every table starts with struct_size
  if (size < first_version)
    throw InputError("plugin " + p.path + ": implementation '" + p.name + "': " + family + " ops struct_size " + std::to_string(size) +
                     ", want at least " + std::to_string(first_version));
  Ops ops{};
  std::memcpy(&ops, p.impl->ops, std::min<size_t>(size, sizeof(Ops)));
  return ops;
}

}  // namespace bx::suite
