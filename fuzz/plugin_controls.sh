#!/usr/bin/env bash
# The plugin fuzzers (fuzz/plugin_<family>.cpp) on the example plugins of examples/plugins/controls.tsv of
# every family that has one: each example ("pass") must survive a bounded run; every negative control
# ("caught") must be found within BUDGET seconds, and the saved input must replay the same difference.
# One line per plugin: what happened and how long it took.
#   plugin_controls.sh BUILD_DIR [SECONDS_FOR_THE_EXAMPLE] [BUDGET_PER_CONTROL]
set -uo pipefail
B=$1 secs=${2:-5} budget=${3:-60}
src=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rc=0
declare -A n
while IFS=$'\t' read -r expect lib fam glob bug; do
  [ -f "$src/fuzz/plugin_$fam.cpp" ] || continue
  fz=$B/fuzz/plugin_${fam}_fuzz
  [ -x "$fz" ] || { echo "plugin_controls: $fz not built"; rc=1; continue; }
  so=$B/examples/plugins/$lib.so
  [ -f "$so" ] || { echo "$lib: $so missing"; rc=1; continue; }
  n[$fam]=$(( ${n[$fam]:-0} + 1 ))
  mkdir -p "$work/$lib/corpus"
  log=$work/$lib/log
  start=$(date +%s%N)
  if [ "$expect" = pass ]; then
    BX_FUZZ_PLUGIN=$so "$fz" -max_total_time="$secs" -seed=1 -artifact_prefix="$work/$lib/" "$work/$lib/corpus" >"$log" 2>&1
    r=$?
    if [ $r = 0 ]; then echo "$lib: no difference in ${secs} s ($(grep -E '^#[0-9]+' "$log" | tail -1 | awk '{print $1}' | tr -d '#') inputs)"
    else echo "$lib: FAILED (exit $r), an example must survive:"; grep -A8 DIFFERENCE "$log" | head -12; rc=1; fi
    continue
  fi
  BX_FUZZ_PLUGIN=$so "$fz" -max_total_time="$budget" -seed=1 -artifact_prefix="$work/$lib/" "$work/$lib/corpus" >"$log" 2>&1
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  crash=$(ls "$work/$lib"/crash-* 2>/dev/null | head -1)
  if ! grep -q '^DIFFERENCE' "$log" || [ -z "$crash" ]; then
    echo "$lib: NOT FOUND within $budget s ($bug)"; rc=1; continue
  fi
  found=$(grep -m1 '^DIFFERENCE' "$log" | sed 's/^DIFFERENCE: //')
  # The saved input replays the same difference.
  BX_FUZZ_PLUGIN=$so "$fz" "$crash" >"$log.replay" 2>&1
  if ! grep -qF "DIFFERENCE: $found" "$log.replay"; then
    echo "$lib: found ($found) but its saved input does not replay it"; rc=1; continue
  fi
  printf '%s: found in %d.%03d s (%s): %s; replayed from %s\n' "$lib" $((ms / 1000)) $((ms % 1000)) "$bug" "$found" "$(basename "$crash")"
done < "$src/examples/plugins/controls.tsv"
for f in "$src"/fuzz/plugin_*.cpp; do
  fam=$(basename "$f" .cpp)
  fam=${fam#plugin_}
  [ "${n[$fam]:-0}" -ge 2 ] || { echo "plugin_controls: fewer than two $fam plugins (an example and a control) in controls.tsv"; rc=1; }
done
exit $rc
