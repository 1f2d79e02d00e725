// The plug-in interface of a family (a workload such as field25519 or md5z) and the registry of all of
// them. Shared machinery (list, selftest, vectors, oracle, verify, bench, the zoo) iterates over
// families() and knows no family by name. A family lives in folders of its own name (reference/F,
// gpu/F, gpu/kernels/F*, suite/F, cli/F, property_tests/F, vectors/F, fuzz/F*) and is registered by one entry
// in BX_FAMILIES (CMakeLists.txt), which also compiles those folders.
#pragma once
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/devices.hpp"
#include "suite/cases.hpp"
#include "suite/shard.hpp"
#include "suite/tally.hpp"
#include "suite/vectors.hpp"

namespace CLI {
class App;
}

namespace bx {

using json = nlohmann::ordered_json;

// A concrete kernel: family x layout x backend x shortcuts, with a stable name.
struct VariantInfo {
  std::string name;                    // "md5z/q9-v2", "field25519/fe32-ptx"
  std::string layout = "-";            // "fe32", "gl2x32", "-" where the family has one representation
  std::string backend = "-";           // "portable", "ptx", "-"
  std::vector<std::string> shortcuts;  // e.g. "tunnel", "early-exit", "km-fold"
  // Its kind, then the kind's terms after a comma: "bit-exact" (canonical output equal to the reference on
  // every input), "characterised" (lossy: deviations measured, hits re-checked), "between-variants,..."
  // (bitwise equal to the family's plain variant on the same place, within a stated bound of the
  // reference: floating-point epilogues whose library functions differ by place), "negative-control"
  // (differs from the reference on purpose: proof that the comparison can fail).
  std::string contract = "bit-exact";
  bool cpu = true;                     // runs on the CPU (host build of its code)
  bool gpu = true;                     // runs on every GPU of a CUDA build
  std::string description;
  std::string origin = "built-in";     // or "plugin <library> (<path>)" (--plugin)
};

// Counting checks into a Tally; the first three failures print their description (stderr).
struct TallyCheck {
  Tally& t;
  int shown = 0;
  void check(bool ok, const std::string& what);
};
// A row of the shared selftest table: one implementation on one place.
struct SelftestRow {
  std::string variant, where;
  std::vector<Tally> checks;
  bool ok() const;
};
struct SelftestOptions {
  bool full = false;  // --full: larger random batches, every iterated vector
  DeviceSelection devices;
  uint64_t seed = 0x5e1f7e57;
  // Variant filter (--variant GLOB): a family runs only the variants it accepts.
  std::function<bool(const std::string& variant)> wants = [](const std::string&) { return true; };
};
struct SelftestReport {
  std::vector<Tally> host_checks;  // facts checked once on the host (known answers of shared code, ...)
  std::vector<SelftestRow> rows;
  std::vector<std::string> notes;  // one line each, printed above the family's table
};

// What `bitexact verify F` and `bitexact bench F` receive besides the family's own options.
struct RunContext {
  DeviceSelection devices;  // --device, or the family's default when it was not given
  bool device_given = false;
  bool json = false;   // --json: also print machine-readable output
  bool quiet = false;  // --quiet: no progress lines
  int rounds = 3;      // bench: timed rounds
  // verify: the part of the declared range this process runs (--shard, or the engine's variables), and
  // where its result document goes (--result FILE; cli/run_result.hpp).
  ShardPlan shard;
  std::string result_path;
};
// A family's subcommand: options registered on `sub` by the family; `run` is called after parsing.
using SubcommandRun = std::function<int(const RunContext&)>;

// A check the fault zoo runs for this family: argv with {build} (the zoo build directory) and {source}
// (the repository) substituted. It must exit 0 without a fault and non-zero when it catches one.
struct ZooCheck {
  std::string name;
  bool gpu = false;  // needs a GPU
  std::string command;
};

struct FaultInfo;

// An oracle handler bound to the implementations of one device selection: request -> reply (throws
// InputError). A reply carries "ref", every implementation's full result under "impl" and "agree".
using OracleHandler = std::function<json(const json& request)>;
// An oracle request has exactly "op" and these fields (InputError naming the unknown or missing one).
void require_fields(const json& request, std::initializer_list<const char*> keys);

class Family : public vectors::Owner {  // name() and its vector files: vectors::Owner (suite/vectors.hpp)
 public:
  virtual std::string description() const = 0;
  virtual std::vector<VariantInfo> variants() const = 0;

  // Every selected variant on every selected place against the embedded vectors and a seeded random
  // batch against the reference; rows for the shared table.
  virtual SelftestReport selftest(const SelftestOptions& opt) const = 0;

  // `bitexact verify F` / `bitexact bench F`: register options on the family's own subcommand and return
  // what runs it (nullptr: the family has none).
  virtual SubcommandRun add_verify(CLI::App& sub) const = 0;
  virtual SubcommandRun add_bench(CLI::App& sub) const = 0;
  // Extra `bitexact vectors` subcommands (e.g. a GPU search that freezes hits); none by default.
  virtual void add_vector_commands(CLI::App& vectors, const std::string& root_option_default) const {
    (void)vectors, (void)root_option_default;
  }

  // Oracle operations: exact op names, or prefixes ending in '.' ("fe25519.") owned by this family.
  virtual std::vector<std::string> oracle_ops() const = 0;
  virtual OracleHandler oracle(const DeviceSelection& sel) const = 0;

  // Offline cases (`bitexact cases export`, suite/cases.hpp): the family's cases for a tier ("quick": its
  // vectors; "full": also seeded random ones), each a request of its oracle with flags and a precondition;
  // *notes gets what each flag means. Empty: the family offers no offline cases yet.
  virtual std::vector<suite::cases::CaseSpec> cases(const std::string& tier, uint64_t seed, json* notes) const {
    (void)tier, (void)seed, (void)notes;
    return {};
  }

  virtual std::vector<std::string> fuzz_targets() const = 0;  // fuzz/<target>.cpp, corpus fuzz/corpus/<target>
  virtual std::vector<ZooCheck> zoo_checks() const = 0;       // besides selftest, which the zoo always runs
  // Short GPU runs that launch every kernel of the family ({build} substituted), for compute-sanitizer's
  // memcheck, racecheck and initcheck (ci/sanitize).
  virtual std::vector<std::string> sanitizer_runs() const = 0;
  // The family's long runs for a GPU host's stage (ci/gpu-stage): verify at scale, bench ({build}).
  virtual std::vector<std::string> gpu_stage_runs() const = 0;

  // Its planted faults: the rows of BX_FAULT_LIST (gpu/core/fault.hpp) that carry its name.
  std::vector<FaultInfo> faults() const;
};

// Every registered family, in registration order.
const std::vector<const Family*>& families();
// The family called `name`, or InputError naming the known ones.
const Family& family(const std::string& name);
// families() as the owners of the vector files (bx::vectors::generate_all, check_all).
const vectors::Owners& vector_owners();

// A fault planted by BX_FAULT(name) in the zoo build (gpu/core/fault.hpp).
struct FaultInfo {
  std::string family, name;
  std::string where;  // shared (host and device code), host (CPU-only code), device (device-only code)
  std::string description;
};
std::vector<FaultInfo> all_faults();
bool zoo_build();  // BX_FAULT(name) is a run-time switch in this build

}  // namespace bx
