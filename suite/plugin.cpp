#include "suite/plugin.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cstring>

#include "suite/hex.hpp"

namespace bx::suite {

namespace {
std::vector<PluginImpl>& registry() {
  static std::vector<PluginImpl> r;
  return r;
}

// A C string from the plugin: present, at most `max` characters, printable ASCII.
std::string c_string(const char* s, size_t max, const std::string& what, const std::string& path) {
  if (!s) throw InputError("plugin " + path + ": " + what + " is NULL");
  const size_t n = strnlen(s, max + 1);
  if (n == 0 || n > max) throw InputError("plugin " + path + ": " + what + " is empty or longer than " + std::to_string(max) + " characters");
  for (size_t i = 0; i < n; ++i)
    if (s[i] < 0x20 || s[i] > 0x7e) throw InputError("plugin " + path + ": " + what + " has a non-printable character");
  return std::string(s, n);
}
}  // namespace

std::string family_name(uint32_t family) {
  switch (family) {
    case BX_FAMILY_FIELD25519: return "field25519";
    case BX_FAMILY_MD5Z: return "md5z";
    case BX_FAMILY_QPOW: return "qpow";
    case BX_FAMILY_Q8PARITY: return "q8parity";
    case BX_FAMILY_ECVRF: return "ecvrf";
    default: return "";
  }
}

std::string PluginImpl::contract_text() const {
  switch (contract) {
    case BX_CONTRACT_BIT_EXACT: return "bit-exact";
    case BX_CONTRACT_CHARACTERISED: return "characterised: " + contract_note;
    default: return "between-variants: " + contract_note;
  }
}

void load_plugin(const std::string& path) {
  dlerror();
  void* h = dlopen(path.find('/') == std::string::npos ? ("./" + path).c_str() : path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char* e = dlerror();
    throw InputError("plugin " + path + ": cannot load: " + (e ? e : "unknown dlopen error"));
  }
  auto entry = reinterpret_cast<bx_plugin_entry_fn>(dlsym(h, BX_PLUGIN_ENTRY_SYMBOL));
  if (!entry) {
    const bool other = dlsym(h, "bx_plugin_entry_v2") || dlsym(h, "bx_plugin_entry_v0");
    throw InputError("plugin " + path + ": does not export " + BX_PLUGIN_ENTRY_SYMBOL +
                     (other ? " (it exports another ABI version's entry point; this bitexact speaks ABI version " +
                                  std::to_string(BX_PLUGIN_ABI_VERSION) + ")"
                            : " (not a bitexact plugin, or built without BX_PLUGIN_EXPORT)"));
  }
  const bx_plugin* t = entry();
  if (!t) throw InputError("plugin " + path + ": " + BX_PLUGIN_ENTRY_SYMBOL + " returned NULL");
  if (t->abi_version != BX_PLUGIN_ABI_VERSION)
    throw InputError("plugin " + path + ": ABI version " + std::to_string(t->abi_version) + ", this bitexact speaks ABI version " +
                     std::to_string(BX_PLUGIN_ABI_VERSION) + " (rebuild it against this include/bitexact/plugin.h)");
  const std::string lib = c_string(t->name, 64, "the library name", path);
  if (t->impl_count == 0 || t->impl_count > 64 || !t->impls)
    throw InputError("plugin " + path + ": impl_count " + std::to_string(t->impl_count) + " is not in 1..64 (or impls is NULL)");
  std::vector<PluginImpl> found;
  // The array's stride is the plugin's own struct_size (a newer plugin's bx_impl may be longer).
  const uint32_t stride = t->impls[0].struct_size;
  if (stride < sizeof(bx_impl) || stride > 4096 || stride % alignof(bx_impl))
    throw InputError("plugin " + path + ": bx_impl struct_size " + std::to_string(stride) + " is not a size this bitexact reads (at least " +
                     std::to_string(sizeof(bx_impl)) + ")");
  for (uint32_t i = 0; i < t->impl_count; ++i) {
    const bx_impl& im = *reinterpret_cast<const bx_impl*>(reinterpret_cast<const char*>(t->impls) + size_t(i) * stride);
    const std::string at = "implementation " + std::to_string(i);
    if (im.struct_size < sizeof(bx_impl))
      throw InputError("plugin " + path + ": " + at + " has struct_size " + std::to_string(im.struct_size) + ", want at least " +
                       std::to_string(sizeof(bx_impl)));
    PluginImpl p;
    p.path = path, p.library = lib, p.impl = &im;
    p.name = c_string(im.name, 48, at + "'s name", path);
    for (char c : p.name)
      if (!std::isalnum(static_cast<unsigned char>(c)) && !std::strchr("_.+-", c))
        throw InputError("plugin " + path + ": implementation name '" + p.name + "' has '" + std::string(1, c) +
                         "' (allowed: letters, digits, _ . + -)");
    const std::string who = "plugin " + path + ": implementation '" + p.name + "'";
    if (family_name(im.family).empty())
      throw InputError(who + ": family " + std::to_string(im.family) + " is not defined by plugin ABI version " +
                       std::to_string(BX_PLUGIN_ABI_VERSION));
    if (im.place != BX_PLACE_HOST && im.place != BX_PLACE_DEVICE) throw InputError(who + ": place " + std::to_string(im.place) + " is not host (0) or device (1)");
    if (im.contract > BX_CONTRACT_BETWEEN_VARIANTS) throw InputError(who + ": contract " + std::to_string(im.contract) + " is not defined");
    if (im.contract != BX_CONTRACT_BIT_EXACT) p.contract_note = c_string(im.contract_note, 400, "its contract_note", path);
    if (im.preconditions)
      for (size_t k = 0; im.preconditions[k]; ++k) {
        if (k == 32) throw InputError(who + ": more than 32 preconditions (is the list NULL-terminated?)");
        p.preconditions.push_back(c_string(im.preconditions[k], 400, "precondition " + std::to_string(k), path));
      }
    if (!im.ops) throw InputError(who + ": ops is NULL");
    p.family = im.family, p.place = im.place, p.contract = im.contract;
    for (auto& q : found)
      if (q.name == p.name) throw InputError(who + ": the name is used twice in the library");
    for (auto& q : registry())
      if (q.family == p.family && q.name == p.name)
        throw InputError(who + ": " + family_name(p.family) + "/" + p.name + " is already provided by " + q.where_from());
    found.push_back(std::move(p));
  }
  for (auto& p : found) registry().push_back(std::move(p));
}

const std::vector<PluginImpl>& plugin_impls() { return registry(); }

std::vector<PluginPlace> plugin_places(const std::string& family, bool cpu, const std::vector<int>& gpus,
                                       const std::function<void(const PluginImpl&)>& validate) {
  std::vector<PluginPlace> out;
  for (const PluginImpl& p : plugin_impls()) {
    if (family_name(p.family) != family) continue;
    if (p.place == BX_PLACE_DEVICE)
      for (int dev : gpus) out.push_back({p, dev});
    else if (cpu) out.push_back({p, -1});
    else validate(p);
  }
  return out;
}

}  // namespace bx::suite
