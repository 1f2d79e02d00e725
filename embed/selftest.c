/* The embedded selftest (include/bitexact/selftest.h): runs `bitexact selftest --plugins-only` in a child
 * process with a deadline and turns its exit status and summary line into a verdict and a one-line reason.
 * Invariants: a run that does not finish in time is killed (with its process group) and refused; passed is
 * 1 only for exit status 0 together with bitexact's "selftest PASSED" line; the reason always holds one line. */
#define _GNU_SOURCE
#include "bitexact/selftest.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef BX_SELFTEST_DEFAULT_BITEXACT
#define BX_SELFTEST_DEFAULT_BITEXACT "bitexact"
#endif

extern char** environ;

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int set_reason(bx_selftest_report* r, int rc, const char* fmt, const char* a, const char* b) {
  snprintf(r->reason, sizeof r->reason, fmt, a ? a : "", b ? b : "");
  for (char* c = r->reason; *c; ++c)
    if (*c == '\n' || *c == '\r') *c = ' ';
  return rc;
}

/* Keeps what the reason needs from the output, line by line: bitexact's summary ("selftest PASSED: ..." or
 * "selftest FAILED: ...; first failure: ..."), its first "FAIL ..." detail and its error line. */
typedef struct {
  char line[4096];
  size_t len;
  char summary[BX_SELFTEST_REASON_MAX], detail[BX_SELFTEST_REASON_MAX], error[BX_SELFTEST_REASON_MAX];
} scan;

static void keep(char* dst, const char* src) {
  snprintf(dst, BX_SELFTEST_REASON_MAX, "%s", src);
}

static void scan_line(scan* s) {
  s->line[s->len] = 0;
  if (strncmp(s->line, "selftest PASSED", 15) == 0 || strncmp(s->line, "selftest FAILED", 15) == 0) keep(s->summary, s->line);
  else if (strncmp(s->line, "FAIL ", 5) == 0 && !s->detail[0]) keep(s->detail, s->line + 5);
  else if (strncmp(s->line, "bitexact: error: ", 17) == 0 && !s->error[0]) keep(s->error, s->line + 17);
  s->len = 0;
}

static void scan_bytes(scan* s, const char* p, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (p[i] == '\n') scan_line(s);
    else if (s->len + 1 < sizeof s->line) s->line[s->len++] = p[i];
  }
}

int bx_selftest_run(const char* plugin, int device, const char* tier, bx_selftest_report* report) {
  bx_selftest_options o;
  memset(&o, 0, sizeof o);
  o.struct_size = sizeof o;
  o.plugin = plugin;
  o.device = device;
  o.tier = tier;
  return bx_selftest_run_with(&o, report);
}

int bx_selftest_run_with(const bx_selftest_options* o, bx_selftest_report* r) {
  if (!r) return 2;
  memset(r, 0, sizeof *r);
  r->exit_status = -1;
  if (!o || o->struct_size < sizeof(bx_selftest_options)) return set_reason(r, 2, "bad arguments: options missing or struct_size too small%s%s", 0, 0);
  if (!o->plugin || !o->plugin[0]) return set_reason(r, 2, "bad arguments: no plugin given%s%s", 0, 0);
  const char* tier = o->tier ? o->tier : "quick";
  if (strcmp(tier, "quick") != 0 && strcmp(tier, "full") != 0) return set_reason(r, 2, "bad arguments: tier '%s' (quick or full)%s", tier, 0);
  if (o->device < -1) return set_reason(r, 2, "bad arguments: device must be a GPU index or -1 (the CPU)%s%s", 0, 0);
  const char* exe = o->bitexact;
  if (!exe || !exe[0]) exe = getenv("BITEXACT");
  if (!exe || !exe[0]) exe = access(BX_SELFTEST_DEFAULT_BITEXACT, X_OK) == 0 ? BX_SELFTEST_DEFAULT_BITEXACT : "bitexact";
  const double timeout = o->timeout_s > 0 ? o->timeout_s : 60;

  char dev[16];
  if (o->device < 0) snprintf(dev, sizeof dev, "cpu");
  else snprintf(dev, sizeof dev, "%d", o->device);
  const char* argv[] = {exe, "selftest", "--plugins-only", "--plugin", o->plugin, "--device", dev, strcmp(tier, "full") == 0 ? "--full" : "--quick", NULL};

  int out[2];
  if (pipe2(out, O_CLOEXEC) != 0) return set_reason(r, 1, "cannot create a pipe: %s%s", strerror(errno), 0);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  posix_spawn_file_actions_adddup2(&fa, out[1], 2);
  posix_spawnattr_t at;
  posix_spawnattr_init(&at);
  /* Its own process group (a deadline kills all of it), default SIGPIPE and SIGCHLD whatever the miner set,
   * no blocked signals. */
  posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  posix_spawnattr_setpgroup(&at, 0);
  sigset_t defaults, none;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  sigaddset(&defaults, SIGCHLD);
  sigemptyset(&none);
  posix_spawnattr_setsigdefault(&at, &defaults);
  posix_spawnattr_setsigmask(&at, &none);
  pid_t pid;
  const double t0 = now_s();
  const int sp = posix_spawnp(&pid, exe, &fa, &at, (char* const*)argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&at);
  close(out[1]);
  if (sp != 0) {
    close(out[0]);
    return set_reason(r, 1, "cannot run %s: %s", exe, strerror(sp));
  }

  scan s;
  memset(&s, 0, sizeof s);
  int timed_out = 0;
  for (;;) {
    const double left = timeout - (now_s() - t0);
    if (left <= 0) {
      timed_out = 1;
      break;
    }
    struct pollfd p = {out[0], POLLIN, 0};
    const int n = poll(&p, 1, left > 1.0 ? 1000 : (int)(left * 1000) + 1);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) continue;
    char buf[8192];
    const ssize_t got = read(out[0], buf, sizeof buf);
    if (got > 0) scan_bytes(&s, buf, (size_t)got);
    else if (got == 0 || errno != EINTR) break;
  }
  if (s.len) scan_line(&s);
  close(out[0]);
  /* Its output ended: it exits now (or by the deadline, else it is killed). WNOWAIT keeps the leader a
   * zombie while what it left in its group is killed. */
  int status = 0, reaped = 0;
  for (;;) {
    siginfo_t si;
    memset(&si, 0, sizeof si);
    if (!timed_out && waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == pid) break;
    if (timed_out || now_s() - t0 > timeout) {
      timed_out = 1;
      break;
    }
    struct timespec nap = {0, 2000000};
    nanosleep(&nap, NULL);
  }
  kill(-pid, SIGKILL);
  for (;;) {
    const pid_t w = waitpid(pid, &status, 0);
    if (w == pid) {
      reaped = 1;
      break;
    }
    if (w < 0 && errno != EINTR) break; /* ECHILD: the miner reaps children itself; no status to trust */
  }
  r->seconds = now_s() - t0;
  if (!reaped && !timed_out) return set_reason(r, 1, "the selftest's exit status could not be read (is SIGCHLD ignored or handled by a reaper?)%s%s", 0, 0);
  if (timed_out) {
    char t[32];
    snprintf(t, sizeof t, "%g", timeout);
    return set_reason(r, 1, "the selftest did not finish within %s s (killed)%s", t, 0);
  }
  if (WIFSIGNALED(status)) return set_reason(r, 1, "bitexact was killed by signal %s%s", strsignal(WTERMSIG(status)), 0);
  r->exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r->passed = r->exit_status == 0 && strncmp(s.summary, "selftest PASSED", 15) == 0;
  if (r->passed) return set_reason(r, 0, "%s%s", s.summary, 0);
  if (s.error[0]) return set_reason(r, 1, "%s%s", s.error, 0);
  if (s.summary[0] && s.detail[0]) return set_reason(r, 1, "%s (%s)", s.summary, s.detail);
  if (s.summary[0]) return set_reason(r, 1, "%s%s", s.summary, 0);
  if (r->exit_status == 127) return set_reason(r, 1, "cannot run %s (not found)%s", exe, 0);
  return set_reason(r, 1, "bitexact exited with status %s without a verdict%s", r->exit_status == 1 ? "1" : "other than 0 or 1", 0);
}
