/* bitexact's selftest for a miner to embed: before it trusts a card, a miner asks whether its kernel (built
 * as a plugin, include/bitexact/plugin.h) still gives the reference's answers on that card, and refuses the
 * card if not. C ABI; no dependency beyond POSIX.
 *
 *   bx_selftest_report r;
 *   if (bx_selftest_run("libmykernel.so", 0, "quick", &r) != 0) refuse_card(0, r.reason);
 *
 * The checks run in a child process, the installed `bitexact selftest --plugins-only`: a kernel that crashes,
 * hangs or corrupts memory on a bad card is a refusal with its reason, never a dead miner. What runs is the
 * selftest of every implementation the plugin declares, on that card (device >= 0: its device
 * implementations; -1: its host implementations on the CPU), each declared operation against the vectors,
 * the corners of its declared bounds and a random batch; an operation it does not provide reads "not
 * provided", never a pass. */
#ifndef BITEXACT_SELFTEST_H
#define BITEXACT_SELFTEST_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BX_SELFTEST_REASON_MAX 512

typedef struct bx_selftest_report {
  int passed;       /* 1: every check of every implementation passed on the card; 0: refuse it */
  int exit_status;  /* bitexact's exit status: 0 passed, 1 a check failed, 2 bad input; -1 it did not finish */
  double seconds;   /* wall time of the whole selftest, start-up included */
  char reason[BX_SELFTEST_REASON_MAX]; /* one line: the summary, or what failed first and why */
} bx_selftest_report;

typedef struct bx_selftest_options {
  uint32_t struct_size;  /* sizeof(bx_selftest_options) */
  const char* plugin;    /* the plugin library to check (required) */
  int device;            /* a GPU index, or -1 for the CPU */
  const char* tier;      /* "quick" (start-up; NULL means quick) or "full" */
  const char* bitexact;  /* the bitexact binary; NULL: $BITEXACT, else the one installed with this library,
                            else `bitexact` on PATH */
  double timeout_s;      /* the whole run; past it the child is killed and the card refused (0: 60 s) */
} bx_selftest_options;

/* Runs the selftest; fills *report (never NULL). Returns 0 when the card passed, 1 when it must be refused
 * (a check failed, the run failed, or it did not finish), 2 for bad arguments (report->reason says which). */
int bx_selftest_run(const char* plugin, int device, const char* tier, bx_selftest_report* report);
int bx_selftest_run_with(const bx_selftest_options* options, bx_selftest_report* report);

#ifdef __cplusplus
}
#endif

#endif /* BITEXACT_SELFTEST_H */
