#include "suite/isolate.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace bx::suite::isolate {

namespace {
double g_timeout = 60;

uint8_t* map_shared(size_t n) {
  void* p = mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::runtime_error("cannot map " + std::to_string(n) + " bytes of shared memory");
  return static_cast<uint8_t*>(p);
}
}  // namespace

double default_timeout_s() { return g_timeout; }
void set_default_timeout_s(double s) { g_timeout = s; }

Arena::~Arena() {
  for (auto& b : bufs_) munmap(b.base, b.mapped);
}

uint8_t* Arena::output(size_t n, const std::string& name) {
  const size_t mapped = n + 2 * kGuard;
  uint8_t* base = map_shared(mapped);
  std::memset(base, kGuardPattern, kGuard);
  std::memset(base + kGuard, kUnwritten, n);
  std::memset(base + kGuard + n, kGuardPattern, kGuard);
  bufs_.push_back({base, n, mapped, name, {}});
  return base + kGuard;
}

uint8_t* Arena::input(const uint8_t* data, size_t n, const std::string& name) {
  uint8_t* p = output(n, name);
  if (n) std::memcpy(p, data, n);
  bufs_.back().original.assign(data, data + n);
  return p;
}

std::string Arena::breach() const {
  for (const auto& b : bufs_) {
    const uint8_t* d = b.base + kGuard;
    for (size_t i = 0; i < kGuard; ++i)
      if (b.base[i] != kGuardPattern) return "wrote " + std::to_string(kGuard - i) + " byte(s) before the start of " + b.name;
    for (size_t i = kGuard; i-- > 0;)
      if (d[b.size + i] != kGuardPattern) return "wrote " + std::to_string(i + 1) + " byte(s) past the end of " + b.name;
    if (!b.original.empty() && std::memcmp(d, b.original.data(), b.size) != 0) return "changed its input " + b.name;
  }
  return "";
}

int call(const std::function<int()>& fn, double timeout_s) {
  const char* inproc = std::getenv("BX_PLUGIN_IN_PROCESS");
  if (inproc && std::strcmp(inproc, "1") == 0) return fn();
  // The child's outcome, in memory both see: how it ended (kNotReturned until the call returns) and the
  // call's value. Its exit status alone cannot tell a return from a plugin that exits.
  enum : int { kNotReturned = 0, kReturned = 1, kThrew = 2 };
  struct Outcome {
    int state, rc;
  };
  auto* out = reinterpret_cast<Outcome*>(map_shared(sizeof(Outcome)));
  out->state = kNotReturned, out->rc = 0;
  int fds[2];
  if (pipe(fds) != 0) {
    munmap(out, sizeof(Outcome));
    throw std::runtime_error("cannot create a pipe");
  }
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]), close(fds[1]);
    munmap(out, sizeof(Outcome));
    throw std::runtime_error("cannot fork");
  }
  if (pid == 0) {  // child: the call, its outcome in shared memory, then an exit that runs no destructors
    close(fds[0]);
    try {
      out->rc = fn();
      out->state = kReturned;
    } catch (...) {
      out->state = kThrew;
    }
    std::fflush(stdout);
    std::fflush(stderr);
    _exit(0);
  }
  close(fds[1]);  // the parent sees EOF on fds[0] when the child exits (or closes its end)
  const auto t0 = std::chrono::steady_clock::now();
  const auto left = [&] { return timeout_s - std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  bool hung = false, eof = false;
  int status = 0;
  for (;;) {  // until the child is reaped or the deadline passes (EOF alone proves nothing: a plugin may
              // close its descriptors, a grandchild may hold them)
    const pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) break;
    if (left() <= 0) {
      hung = true;
      break;
    }
    if (!eof) {
      pollfd pfd{fds[0], POLLIN, 0};
      if (poll(&pfd, 1, int(std::min(left(), 0.05) * 1000) + 1) > 0) {
        char buf[256];
        if (read(fds[0], buf, sizeof buf) <= 0) eof = true;
      }
    } else {
      usleep(50);  // EOF came: the child is exiting; reap it without a busy wait
    }
  }
  close(fds[0]);
  if (hung) {
    kill(pid, SIGKILL);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  const Outcome o = *out;
  munmap(out, sizeof(Outcome));
  if (hung) {
    char b[64];
    std::snprintf(b, sizeof b, "hung past %g s (killed)", timeout_s);
    throw std::runtime_error(b);
  }
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    const char* name = sigabbrev_np(sig);
    throw std::runtime_error(std::string("crashed (") + (name ? std::string("SIG") + name : "signal " + std::to_string(sig)) + ")");
  }
  if (o.state == kThrew) throw std::runtime_error("threw a C++ exception across the C ABI");
  if (o.state != kReturned)
    throw std::runtime_error("exited the process (status " + std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
                             ") instead of returning");
  return o.rc;
}

void checked_call(const std::string& who, const std::string& what, const Arena& arena, const std::function<int()>& fn) {
  int rc;
  try {
    rc = call(fn, default_timeout_s());
  } catch (const std::exception& e) {
    throw std::runtime_error(who + " " + what + ": " + e.what());
  }
  if (rc != 0) throw std::runtime_error(who + " " + what + ": returned error " + std::to_string(rc));
  const std::string b = arena.breach();
  if (!b.empty()) throw std::runtime_error(who + " " + what + ": " + b);
}

}  // namespace bx::suite::isolate
