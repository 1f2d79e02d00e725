#!/usr/bin/env bash
# The embedded selftest (include/bitexact/selftest.h) through its example, refuse_card: the fe64 example
# plugin's card is trusted; each negative control's card is refused with bitexact's first failure in the
# one-line reason; a file that is not a plugin, a missing bitexact and a run past its deadline are refusals
# with their reason, never a hang; a bad device argument is exit 2.
#   refuse.sh BITEXACT REFUSE_CARD PLUGIN_DIR
set -uo pipefail
bin=$1 rc_bin=$2 plug=$3
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
. "$(dirname "$0")/../script_lib.sh"
export BITEXACT=$bin
run 0 ok "$rc_bin" "$plug/field25519_fe64.so" cpu
has ok '^card cpu: trusted in [0-9.]+ s: selftest PASSED: 1 implementation\(s\) of 1 family'
for c in encode:fe64-bug-encode-assumes-tight borrow:fe64-bug-sub-drops-borrow precondition:fe64-bug-add-precondition; do
  run 1 "bug_${c%%:*}" "$rc_bin" "$plug/field25519_fe64_bug_${c%%:*}.so" cpu
  has "bug_${c%%:*}" "^card cpu: REFUSED in [0-9.]+ s: selftest FAILED: .*first failure: field25519/${c#*:}@cpu [a-z]+ [0-9]+/[0-9]+"
done
run 1 notplugin "$rc_bin" /etc/hostname cpu
has notplugin '^card cpu: REFUSED .*plugin /etc/hostname'
BITEXACT=/nonexistent/bitexact run 1 nobitexact "$rc_bin" "$plug/field25519_fe64.so" cpu
has nobitexact 'REFUSED .*cannot run /nonexistent/bitexact'
printf '#!/bin/sh\nsleep 30\n' > "$t/slow" && chmod +x "$t/slow"
start=$(date +%s)
BITEXACT=$t/slow run 1 slow "$rc_bin" --timeout 1 "$plug/field25519_fe64.so" cpu
has slow 'REFUSED .*did not finish within 1 s \(killed\)'
[ $(( $(date +%s) - start )) -lt 10 ] || fail "a run past its deadline was not cut short"
run 2 baddev "$rc_bin" "$plug/field25519_fe64.so" gpu0
run 2 noplugins "$bin" selftest --plugins-only --device cpu
echo "refuse.sh: all checks passed"
