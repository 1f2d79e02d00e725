/* A miner's start-up check (include/bitexact/selftest.h): before mining on a card, run bitexact's quick
 * selftest of the miner's kernel on it and refuse the card if it fails. One line per card.
 *
 *   refuse_card [--timeout S] PLUGIN [DEVICE ...]      DEVICE: a GPU index, or cpu (the default)
 *   refuse_card libmykernel.so 0 1 2 3
 *
 * The bitexact binary: $BITEXACT if set, else the one this program was built against (REFUSE_CARD_BITEXACT,
 * from the package's bitexact_EXECUTABLE), else the library's default.
 * Exit status: 0 when every card was trusted, 1 when any was refused, 2 for bad arguments. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bitexact/selftest.h>

int main(int argc, char** argv) {
  double timeout = 0;
  int at = 1;
  if (argc > 2 && strcmp(argv[1], "--timeout") == 0) timeout = atof(argv[2]), at = 3;
  if (argc <= at) {
    fprintf(stderr, "usage: refuse_card [--timeout S] PLUGIN [DEVICE ...]   (DEVICE: a GPU index or cpu)\n");
    return 2;
  }
  const char* plugin = argv[at++];
  int refused = 0, bad = 0;
  const int cards = argc > at ? argc - at : 1;
  for (int k = 0; k < cards; ++k) {
    const char* name = argc > at ? argv[at + k] : "cpu";
    char* end = NULL;
    const int device = strcmp(name, "cpu") == 0 ? -1 : (int)strtol(name, &end, 10);
    if (device != -1 && (end == name || *end != 0 || device < 0)) {
      fprintf(stderr, "refuse_card: '%s' is not a GPU index or cpu\n", name);
      return 2;
    }
    bx_selftest_options o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.plugin = plugin;
    o.device = device;
    o.tier = "quick";
    o.timeout_s = timeout;
#ifdef REFUSE_CARD_BITEXACT
    o.bitexact = getenv("BITEXACT") ? NULL : REFUSE_CARD_BITEXACT;
#endif
    bx_selftest_report r;
    const int rc = bx_selftest_run_with(&o, &r);
    if (rc == 0) {
      printf("card %s: trusted in %.2f s: %s\n", name, r.seconds, r.reason);
    } else {
      printf("card %s: REFUSED in %.2f s: %s\n", name, r.seconds, r.reason);
      refused += rc == 1;
      bad += rc == 2;
    }
  }
  return bad ? 2 : refused ? 1 : 0;
}
