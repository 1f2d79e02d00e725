#!/usr/bin/env bash
# The speed half of a kernel-change gate: bench this build (parity on every round), keep its document,
# and compare it with the main branch's stored one. bench-gate.yml runs it on a GPU runner; it runs the
# same anywhere.
#   bench-gate.sh BITEXACT BASE.json NEW.json [BENCH ARGS...]   (default bench args: --device 0 --rounds 7)
# Exit 0: parity held and no regression beyond the threshold that the rounds' interval supports.
# Exit 1: a failed parity, a regression, an implementation missing from NEW, or no BASE document (a missing
# BASE is a failure: run the workflow on main first; BENCH_GATE_NO_BASE=store says this run is the first).
# Exit 2: BASE is not comparable (another card or CPU, its own failed parity, not a bench document).
#   BENCH_GATE_THRESHOLD  the slowdown to flag (default 2%)
set -uo pipefail
[ $# -ge 3 ] || { echo "usage: bench-gate.sh BITEXACT BASE.json NEW.json [BENCH ARGS...]" >&2; exit 2; }
bin=$1 base=$2 new=$3
shift 3
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(--device 0 --rounds 7)
if [ ! -f "$base" ] && [ "${BENCH_GATE_NO_BASE:-}" != store ]; then  # before spending the card's time
  echo "bench-gate: FAILED: BASE document $base not found (store one from main first)"
  exit 1
fi
echo "bench-gate: bitexact bench ${args[*]} --json > $new"
"$bin" bench "${args[@]}" --json > "$new" || { echo "bench-gate: FAILED: bench failed (parity or a launch; its report is above)"; exit 1; }
if [ ! -f "$base" ]; then
  echo "bench-gate: no BASE document ($base): this run's document is the first one stored"
  exit 0
fi
"$bin" bench compare "$base" "$new" --threshold "${BENCH_GATE_THRESHOLD:-2%}"
