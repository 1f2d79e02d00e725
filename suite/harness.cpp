#include "suite/harness.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <set>
#include <thread>

extern char** environ;

namespace bx::suite::harness {

namespace {

using Clock = std::chrono::steady_clock;

std::string clip(const std::string& s, size_t n = 120) { return s.size() > n ? s.substr(0, n) + "..." : s; }

std::string status_text(int status) {
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return std::string("was killed by signal ") + strsignal(WTERMSIG(status));
  return "stopped";
}

std::string case_name(const Case& c) { return "case " + std::to_string(c.id) + " (" + c.request.value("op", "?") + ")"; }

std::string type_of(const json& reply) { return reply.contains("type") && reply["type"].is_string() ? reply["type"].get<std::string>() : ""; }

// A reply nested past kMaxDepth is refused while it is parsed: comparing, copying or printing such a value
// recurses that deep.
constexpr int kMaxDepth = 64;
struct TooDeep {};

constexpr size_t kMaxLine = size_t(1) << 30;  // one reply line: 1 GiB (a batch of a million large answers fits)

}  // namespace

bool Described::provides(const std::string& op) const { return std::find(ops.begin(), ops.end(), op) != ops.end(); }

bool Described::accepts(const std::string& precondition) const {
  if (precondition.empty() || !preconditions) return true;
  return std::find(preconditions->begin(), preconditions->end(), precondition) != preconditions->end();
}

Harness::Harness(const std::string& command, double timeout_s) : command_(command), timeout_s_(timeout_s) {
  if (command.empty()) throw HarnessError("--exec: an empty command");
  // A harness that exits while we write must be an error we report, not a SIGPIPE that ends bitexact.
  signal(SIGPIPE, SIG_IGN);
  int in[2], out[2];
  if (pipe2(in, O_CLOEXEC) != 0) throw HarnessError("harness: cannot create pipes: " + std::string(strerror(errno)));
  if (pipe2(out, O_CLOEXEC) != 0) {
    close(in[0]), close(in[1]);
    throw HarnessError("harness: cannot create pipes: " + std::string(strerror(errno)));
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, in[0], 0);
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // Its own process group (a timeout kills its children too), default SIGPIPE and SIGCHLD (ours ignores
  // SIGPIPE) and no blocked signals.
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  posix_spawnattr_setpgroup(&attr, 0);
  sigset_t defaults, none;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  sigaddset(&defaults, SIGCHLD);
  sigemptyset(&none);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setsigmask(&attr, &none);
  const char* argv[] = {"/bin/sh", "-c", command.c_str(), nullptr};
  const int rc = posix_spawn(&pid_, "/bin/sh", &fa, &attr, const_cast<char**>(argv), environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  close(in[0]);
  close(out[1]);
  to_ = in[1];
  from_ = out[0];
  if (rc != 0) {
    pid_ = -1;
    close(to_), close(from_);
    throw HarnessError("harness `" + command + "`: cannot start /bin/sh: " + strerror(rc));
  }
  fcntl(to_, F_SETFL, fcntl(to_, F_GETFL) | O_NONBLOCK);
  fcntl(from_, F_SETFL, fcntl(from_, F_GETFL) | O_NONBLOCK);
  // A constructor that throws runs no destructor: the harness is killed and the pipes closed here.
  try {
    read_describe();
  } catch (...) {
    if (pid_ > 0) kill_and_reap();
    close(to_), close(from_);
    to_ = from_ = -1;
    throw;
  }
}

void Harness::read_describe() {
  const json reply = exchange({{"bitexact_protocol", kProtocol}, {"type", "describe"}}, "describe");
  const auto bad = [&](const std::string& why) { fail("describe reply " + why, "describe"); };
  if (type_of(reply) != "describe") bad("has no \"type\": \"describe\"");
  if (!reply.contains("bitexact_protocol") || !reply["bitexact_protocol"].is_number_integer())
    bad("has no integer \"bitexact_protocol\"");
  if (reply["bitexact_protocol"].get<int64_t>() != kProtocol)
    bad("speaks protocol " + reply["bitexact_protocol"].dump() + "; this bitexact speaks " + std::to_string(kProtocol));
  if (!reply.contains("implementations") || !reply["implementations"].is_array() || reply["implementations"].empty())
    bad("lists no \"implementations\"");
  std::set<std::string> names;
  for (const json& j : reply["implementations"]) {
    const auto str = [&](const char* key, bool required) -> std::string {
      if (!j.is_object() || !j.contains(key)) {
        if (required) bad(std::string("has an implementation without \"") + key + "\"");
        return "";
      }
      if (!j[key].is_string() || (required && j[key].get<std::string>().empty()))
        bad(std::string("has an implementation whose \"") + key + "\" is not a non-empty string");
      return j[key].get<std::string>();
    };
    const auto strings = [&](const char* key) {
      std::vector<std::string> v;
      if (!j[key].is_array()) bad("implementation \"" + j["name"].get<std::string>() + "\": \"" + key + "\" is not a list of strings");
      for (const json& s : j[key]) {
        if (!s.is_string()) bad("implementation \"" + j["name"].get<std::string>() + "\": \"" + key + "\" is not a list of strings");
        v.push_back(s.get<std::string>());
      }
      return v;
    };
    Described d;
    d.name = str("name", true);
    d.family = str("family", true);
    if (!names.insert(d.name).second) bad("names implementation \"" + d.name + "\" twice");
    if (!j.contains("ops")) bad("implementation \"" + d.name + "\" has no \"ops\"");
    d.ops = strings("ops");
    if (d.ops.empty()) bad("implementation \"" + d.name + "\" lists no ops");
    if (j.contains("preconditions")) d.preconditions = strings("preconditions");
    if (j.contains("contract")) d.contract = str("contract", true);
    if (d.contract != "bit-exact")
      bad("implementation \"" + d.name + "\" declares contract \"" + d.contract +
          "\"; harness answers are judged bit for bit (\"bit-exact\"): a characterised implementation goes through a plugin");
    if (j.contains("max_batch")) {
      if (!j["max_batch"].is_number_unsigned() || j["max_batch"].get<uint64_t>() < 1 || j["max_batch"].get<uint64_t>() > 1000000)
        bad("implementation \"" + d.name + "\": \"max_batch\" is not an integer in 1..1000000");
      d.max_batch = j["max_batch"].get<size_t>();
    }
    d.description = str("description", false);
    impls_.push_back(std::move(d));
  }
}

Harness::~Harness() {
  if (pid_ > 0) kill_and_reap();
  if (to_ >= 0) close(to_);
  if (from_ >= 0) close(from_);
}

void Harness::kill_and_reap() {
  kill(-pid_, SIGKILL);
  int status;
  while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
}

void Harness::fail(const std::string& what, const std::string& last_case) {
  if (pid_ > 0) kill_and_reap();
  throw HarnessError("harness `" + command_ + "`: " + what + " (last case sent: " + last_case + ")");
}

json Harness::exchange(const json& request, const std::string& last_case) {
  // Whatever it wrote since its last reply is a line nobody asked for (a request answered twice, a print).
  for (char buf[4096];;) {
    const ssize_t r = read(from_, buf, sizeof buf);  // non-blocking: only what is already there
    if (r <= 0) break;
    pending_.append(buf, size_t(r));
  }
  if (!pending_.empty()) fail("wrote what nobody asked for after its last reply: '" + clip(pending_) + "'", answered_);
  const std::string line = request.dump() + "\n";
  size_t written = 0, scanned = 0;
  const auto deadline = Clock::now() + std::chrono::duration<double>(timeout_s_);
  for (;;) {
    const size_t nl = pending_.find('\n', scanned);
    scanned = pending_.size();
    if (nl != std::string::npos) {
      const std::string got = pending_.substr(0, nl);
      pending_.erase(0, nl + 1);
      if (written < line.size()) fail("answered before reading its whole request", last_case);
      if (!pending_.empty()) fail("wrote more than one line for one request: '" + clip(pending_) + "'", last_case);
      json reply;
      try {
        reply = json::parse(got, [](int depth, json::parse_event_t, json&) {
          if (depth > kMaxDepth) throw TooDeep{};
          return true;
        });
      } catch (const TooDeep&) {
        fail("wrote a line nested deeper than " + std::to_string(kMaxDepth) + " levels", last_case);
      } catch (const json::exception&) {
        fail("wrote a line that is not JSON: '" + clip(got) + "'", last_case);
      }
      if (!reply.is_object()) fail("wrote a JSON line that is not an object: '" + clip(got) + "'", last_case);
      answered_ = last_case;
      return reply;
    }
    if (pending_.size() > kMaxLine) fail("wrote more than 1 GiB without a newline", last_case);
    const double left = std::chrono::duration<double>(deadline - Clock::now()).count();
    if (left <= 0) fail("did not answer within " + std::to_string(int(timeout_s_)) + " s (killed)", last_case);
    pollfd fds[2] = {{from_, POLLIN, 0}, {to_, short(written < line.size() ? POLLOUT : 0), 0}};
    const int n = poll(fds, written < line.size() ? 2 : 1, int(std::min(left * 1000 + 1, 1000.0)));
    if (n < 0 && errno != EINTR) fail("poll failed: " + std::string(strerror(errno)), last_case);
    if (n <= 0) continue;
    if (written < line.size() && (fds[1].revents & (POLLOUT | POLLERR | POLLHUP))) {
      const ssize_t w = write(to_, line.data() + written, line.size() - written);
      if (w > 0) written += size_t(w);
      else if (w < 0 && errno != EAGAIN && errno != EINTR) {
        // It closed its stdin: it has exited or will; its status (read below) says how.
        end_of_harness("closed its stdin before reading its whole request", last_case);
      }
    }
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
      char buf[1 << 16];
      const ssize_t r = read(from_, buf, sizeof buf);
      if (r > 0) pending_.append(buf, size_t(r));
      else if (r == 0) end_of_harness(pending_.empty() ? "" : "after writing '" + clip(pending_) + "' without a newline", last_case);
    }
  }
}

void Harness::end_of_harness(const std::string& detail, const std::string& last_case) {
  int status = 0;
  const bool exited = reap_by(Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(std::min(timeout_s_, 5.0))), &status);
  throw HarnessError("harness `" + command_ + "`: " + (exited ? status_text(status) : "closed its stdout (killed)") +
                     (detail.empty() ? "" : " " + detail) + " before answering (last case sent: " + last_case + ")");
}

bool Harness::reap_by(std::chrono::steady_clock::time_point deadline, int* status) {
  for (;;) {
    siginfo_t si{};
    // WNOWAIT: the leader stays a zombie while its group is killed, so the group id cannot be reused.
    if (waitid(P_PID, id_t(pid_), &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == pid_) {
      kill(-pid_, SIGKILL);  // what it left running in its group
      while (waitpid(pid_, status, 0) < 0 && errno == EINTR) {
      }
      pid_ = -1;
      return true;
    }
    if (Clock::now() > deadline) {
      kill_and_reap();
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

std::vector<json> Harness::answer(const Described& impl, const std::vector<Case>& cases, double* seconds) {
  std::vector<json> out;
  out.reserve(cases.size());
  const auto t0 = Clock::now();
  for (size_t at = 0; at < cases.size(); at += impl.max_batch) {
    const size_t end = std::min(cases.size(), at + impl.max_batch);
    json batch = json::array();
    for (size_t k = at; k < end; ++k) batch.push_back({{"id", cases[k].id}, {"request", cases[k].request}});
    const std::string last = case_name(cases[end - 1]);
    const json reply = exchange({{"type", "cases"}, {"impl", impl.name}, {"cases", std::move(batch)}}, last);
    if (type_of(reply) != "answers" || !reply.contains("answers") || !reply["answers"].is_array())
      fail("replied to a batch without {\"type\": \"answers\", \"answers\": [...]}: '" + clip(reply.dump()) + "'", last);
    const json& a = reply["answers"];
    if (a.size() != end - at)
      fail("answered " + std::to_string(a.size()) + " of the batch's " + std::to_string(end - at) + " cases", last);
    for (size_t k = at; k < end; ++k) {
      const json& e = a[k - at];
      if (!e.is_object() || !e.contains("id") || !e["id"].is_number_unsigned())
        fail("answer " + std::to_string(k - at) + " of the batch has no id: '" + clip(e.dump()) + "'", last);
      if (e["id"].get<uint64_t>() != cases[k].id)
        fail("answered out of order: " + case_name(cases[k]) + " was due, the answer names case " + e["id"].dump(), last);
      if (e.contains("answer") == e.contains("error") || (e.contains("error") && !e["error"].is_string()))
        fail("answered " + case_name(cases[k]) + " with neither one \"answer\" nor one \"error\" string: '" + clip(e.dump()) + "'", last);
      out.push_back(e);
    }
  }
  if (seconds) *seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return out;
}

void Harness::finish() {
  if (pid_ <= 0) return;
  const std::string line = json{{"type", "end"}}.dump() + "\n";
  (void)!write(to_, line.data(), line.size());  // a harness that already left is judged by its status below
  close(to_);
  to_ = -1;
  // Read its stdout to the end: a line after the last answer is one nobody asked for (a request answered
  // twice, a debug print); then its exit status.
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_s_));
  for (bool eof = false; !eof;) {
    if (Clock::now() > deadline) fail("did not exit within " + std::to_string(int(timeout_s_)) + " s of \"end\" (killed)", "end");
    pollfd fd{from_, POLLIN, 0};
    if (poll(&fd, 1, 10) <= 0) continue;
    char buf[4096];
    const ssize_t r = read(from_, buf, sizeof buf);
    if (r > 0 && pending_.size() < 4096) pending_.append(buf, size_t(r));
    eof = r == 0;
  }
  if (!pending_.empty()) fail("wrote what nobody asked for: '" + clip(pending_) + "'", "end");
  int status = 0;
  if (!reap_by(deadline, &status)) fail("did not exit within " + std::to_string(int(timeout_s_)) + " s of \"end\" (killed)", "end");
  if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0))
    throw HarnessError("harness `" + command_ + "`: " + status_text(status) + " after \"end\" (a harness exits 0 when told to end)");
}

}  // namespace bx::suite::harness
