#include "cli/json_out.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>

namespace bx::json_out {
namespace {
struct State {
  bool active = false, done = false;
  int real_stdout = -1;
  nlohmann::json doc = nlohmann::json::object();
};
State& state() {
  static State s;
  return s;
}
}  // namespace

void begin(int argc, char** argv) {
  State& s = state();
  if (s.active) return;
  std::fflush(stdout);
  // The real stdout, kept close-on-exec (a child this process starts must not write into the document).
  s.real_stdout = ::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
  if (s.real_stdout < 0) return;  // no stdout to keep: write nothing special, behave as without --json
  if (::dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {  // no stderr to take the tables: they go nowhere
    const int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (null >= 0) ::dup2(null, STDOUT_FILENO), ::close(null);
  }
  s.active = true;
  s.doc["seeds"] = nlohmann::json::object();  // every document has the key; the command fills it
  nlohmann::json cmd = nlohmann::json::array();
  for (int i = 0; i < argc; ++i) cmd.push_back(i == 0 ? std::string("bitexact") : std::string(argv[i]));
  s.doc["command"] = cmd;
}

bool active() { return state().active; }

void put(const std::vector<std::string>& path, nlohmann::json value) {
  nlohmann::json* at = &state().doc;
  for (size_t i = 0; i + 1 < path.size(); ++i) at = &(*at)[path[i]];
  (*at)[path.back()] = std::move(value);
}

nlohmann::json unsigned_as_strings(const nlohmann::json& j) {
  if (j.is_number_unsigned()) return std::to_string(j.get<uint64_t>());
  if (j.is_object()) {
    nlohmann::json o = nlohmann::json::object();
    for (auto it = j.begin(); it != j.end(); ++it) o[it.key()] = unsigned_as_strings(it.value());
    return o;
  }
  if (j.is_array()) {
    nlohmann::json a = nlohmann::json::array();
    for (const auto& e : j) a.push_back(unsigned_as_strings(e));
    return a;
  }
  return j;
}

int finish(int rc, const std::string& error) {
  State& s = state();
  if (!s.active || s.done) return rc;
  s.done = true;
  s.doc["verdict"] = rc == 0 ? "PASS" : (rc == 2 ? "ERROR" : "FAIL");
  s.doc["exit_status"] = rc;
  if (!error.empty()) s.doc["error"] = error;
  const std::string text = unsigned_as_strings(s.doc).dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  std::fflush(stdout);
  size_t off = 0;
  while (off < text.size()) {
    const ssize_t n = ::write(s.real_stdout, text.data() + off, text.size() - off);
    if (n <= 0) break;
    off += size_t(n);
  }
  return rc;
}
}  // namespace bx::json_out
