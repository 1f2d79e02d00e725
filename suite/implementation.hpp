// The engine's identity of an implementation, the part every family's shares whether it is a built-in
// variant or a plugin's: its name in every table, its place, and where it came from. Each family's
// implementation type derives from it and adds the callables of the family's operations (the contract's
// operations, empty where not provided), so selftest, verify, bench, the oracle, result documents and
// reproduce lines name built-in and outside implementations the same way.
#pragma once
#include <string>

namespace bx::suite {

struct Implementation {
  std::string name;          // as every table prints it: "<family>/<variant>" or "<family>/<plugin implementation>"
  std::string where = "cpu"; // the place: "cpu", "gpu0", ...
  int device = -1;           // -1: the CPU
  std::string plugin_path;   // the library as given to --plugin; empty: built-in

  bool builtin() const { return plugin_path.empty(); }
  std::string origin() const { return builtin() ? "built-in" : "plugin " + plugin_path; }
  std::string label() const { return name + "@" + where; }  // one implementation on one place
  // A reproduce line's options naming it: "--plugin PATH --variant 'NAME' --device D".
  std::string options() const {
    return (builtin() ? "" : "--plugin " + plugin_path + " ") + "--variant '" + name + "' --device " +
           (device < 0 ? std::string("cpu") : std::to_string(device));
  }
  static std::string place_of(int device) { return device < 0 ? "cpu" : "gpu" + std::to_string(device); }
};

}  // namespace bx::suite
