# Shared by the test scripts that drive bitexact from the shell (sourced; $t must name a scratch folder):
#   run WANT_RC NAME CMD...   CMD's exit status must be WANT_RC (a hang is cut at 120 s); its output is kept
#                             in $t/NAME.log and shown
#   has NAME REGEX            $t/NAME.log has a line matching REGEX (extended)
#   fail MESSAGE              one FAIL line, exit 1
fail() { echo "FAIL: $*"; exit 1; }
run() {
  local want=$1 name=$2; shift 2
  timeout 120 "$@" > "$t/$name.log" 2>&1
  local rc=$?
  cat "$t/$name.log"
  [ "$rc" = "$want" ] || fail "exit $rc, want $want: $*"
}
has() { grep -qE -- "$2" "$t/$1.log" || fail "$1: no line matching '$2'"; }
