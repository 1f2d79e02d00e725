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
constexpr uint8_t kPattern = 0xa5;
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
  std::memset(base, kPattern, kGuard);
  std::memset(base + kGuard, 0, n);
  std::memset(base + kGuard + n, kPattern, kGuard);
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
      if (b.base[i] != kPattern) return "wrote " + std::to_string(kGuard - i) + " byte(s) before the start of " + b.name;
    for (size_t i = kGuard; i-- > 0;)
      if (d[b.size + i] != kPattern) return "wrote " + std::to_string(i + 1) + " byte(s) past the end of " + b.name;
    if (!b.original.empty() && std::memcmp(d, b.original.data(), b.size) != 0) return "changed its input " + b.name;
  }
  return "";
}

int call(const std::function<int()>& fn, double timeout_s) {
  const char* inproc = std::getenv("BX_PLUGIN_IN_PROCESS");
  if (inproc && std::strcmp(inproc, "1") == 0) return fn();
  int* rc_shared = reinterpret_cast<int*>(map_shared(sizeof(int)));
  constexpr int kNotReturned = -0x5eed;
  *rc_shared = kNotReturned;
  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error("cannot create a pipe");
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]), close(fds[1]);
    munmap(rc_shared, sizeof(int));
    throw std::runtime_error("cannot fork");
  }
  if (pid == 0) {  // child: the call, its status in shared memory, then an exit that runs no destructors
    close(fds[0]);
    int rc = 1;
    try {
      rc = fn();
    } catch (...) {
      _exit(111);
    }
    *rc_shared = rc;
    std::fflush(stdout);
    std::fflush(stderr);
    _exit(0);
  }
  close(fds[1]);  // the parent sees EOF on fds[0] when the child exits (or closes its end)
  const auto t0 = std::chrono::steady_clock::now();
  bool hung = false;
  for (;;) {
    const double left = timeout_s - std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (left <= 0) {
      hung = true;
      break;
    }
    pollfd pfd{fds[0], POLLIN, 0};
    const int r = poll(&pfd, 1, int(std::min(left, 1.0) * 1000) + 1);
    if (r > 0) {
      char buf[256];
      if (read(fds[0], buf, sizeof buf) <= 0) break;  // EOF: the child is gone
    }
  }
  close(fds[0]);
  if (hung) kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  const int rc = *rc_shared;
  munmap(rc_shared, sizeof(int));
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
  if (WIFEXITED(status) && WEXITSTATUS(status) == 111) throw std::runtime_error("threw a C++ exception across the C ABI");
  if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
    throw std::runtime_error("exited with status " + std::to_string(WEXITSTATUS(status)));
  if (rc == kNotReturned) throw std::runtime_error("exited the process (status 0) instead of returning");
  return rc;
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
