#!/usr/bin/env bash
# The negative control of cmake/hostile_input.sh: a stand-in program that passes on everything (exit 0,
# "PASSED"), crashes on one option, hangs on another and has a text option no case names must make the
# runner fail and name each class.
#   cmake/hostile_input_control.sh CASES_FILE
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
stub=$(mktemp)
trap 'rm -f "$stub"' EXIT
cat >"$stub" <<'STUB'
#!/usr/bin/env bash
case "$1" in
  usage) echo "bitexact verify md5z [--bases N] [--seed N] [--no-such-case FILE]"; exit 0 ;;
esac
for a in "$@"; do
  [ "$a" = --seed ] && kill -SEGV $$
  [ "$a" = 1e400 ] && sleep 60
done
echo "verify PASSED"
exit 0
STUB
chmod +x "$stub"
out=$(BX_HOSTILE_TIMEOUT=2 bash "$here/hostile_input.sh" "$stub" "$1" 2>&1)
rc=$?
summary=$(printf '%s\n' "$out" | tail -1)
echo "$summary"
[ $rc != 0 ] || { echo "negative control: the runner passed a program that passes on everything"; exit 1; }
for what in "[1-9][0-9]* crashes" "[1-9][0-9]* hangs" "[1-9][0-9]* passes on nothing"; do
  grep -qE "$what" <<<"$summary" || { echo "negative control: the summary reports no '$what'"; exit 1; }
done
grep -q "no case in .* for 'verify md5z --no-such-case'" <<<"$out" ||
  { echo "negative control: a text option without a hand-written case is not reported"; exit 1; }
echo "negative control: crashes, hangs, passes on nothing and an uncovered option are each reported"
