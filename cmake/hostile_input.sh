#!/usr/bin/env bash
# Hostile input for every command: bad values for every numeric option (generated from `bitexact usage`,
# so an option added later is covered without editing this file) and the hand-written cases of
# property_tests/hostile_cases.txt (text options, files, the oracle, --json documents).
#   cmake/hostile_input.sh BITEXACT CASES_FILE
# Every case must end as its kind says, and no case may end in a signal, a hang (timeout), an uncaught
# C++ exception, or PASS having checked nothing. One line per failing case, then a summary; exit 1 if any.
set -uo pipefail
set -f  # arguments are split on spaces and never globbed ("fe51-*" is an argument)
BIN=$1
CASES=$2
TIMEOUT=${BX_HOSTILE_TIMEOUT:-30}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
n=0
bad=0
crashes=0
hangs=0
passes=0
fail() {  # case text, reason
  bad=$((bad + 1))
  echo "FAIL [$1]: $2"
}

# Files the cases name: @dir (a directory), @empty, @trunc (truncated JSON), @notjson, @missing, @tmp.
mkdir -p "$work/dir"
: >"$work/empty"
printf '{"algorithm": "x", "testGroups": [' >"$work/trunc"
printf 'not json at all\n' >"$work/notjson"
# @upper and @cut: copies of the repository's vectors/ with one md5z digest in uppercase, one file truncated.
SRC=$(cd "$(dirname "$CASES")/.." && pwd)
for t in upper cut; do mkdir -p "$work/$t" && cp -r "$SRC/vectors" "$work/$t/"; done
sed -i -E '0,/"digest": ?"[0-9a-f]+"/s//"digest":"D41D8CD98F00B204E9800998ECF8427E"/' "$work/upper/vectors/md5z/rfc1321.json"
head -c 300 "$SRC/vectors/md5z/bases.json" >"$work/cut/vectors/md5z/bases.json"
subst() { local s=$1; s=${s//@upper/$work/upper}; s=${s//@cut/$work/cut}
  s=${s//@dir/$work/dir}; s=${s//@empty/$work/empty}; s=${s//@trunc/$work/trunc}
  s=${s//@notjson/$work/notjson}; s=${s//@missing/$work/no-such-file}; s=${s//@tmp/$work}; printf '%s' "$s"; }

# run_case KIND STDIN ARGS... : KIND is
#   error[=REGEX]  exit 2, exactly one stderr line "bitexact: error: ..." (matching REGEX), no PASS on stdout
#   fail           exit 1 and no PASS (a run that checks nothing or finds a planted fault)
#   json           exit 0 or 1; stdout is exactly one JSON document with verdict and exit_status matching
#   oracle         every stdin line (";;" separates them) gets one JSON reply line, then {"op":"list"} still
#                  answers with the ops: the session survives
run_case() {
  local kind=$1 input=$2
  shift 2
  local label="$kind | $input | $*"
  n=$((n + 1))
  local out=$work/out err=$work/err rc
  if [ "$kind" = oracle ]; then
    { printf '%s\n' "${input//;;/$'\n'}"; echo '{"op":"list"}'; } >"$work/in"
  else
    printf '%s' "$input" >"$work/in"
  fi
  local envs=()  # leading ENV:NAME=VALUE arguments set the environment of this case
  while [ $# -gt 0 ] && [ "${1#ENV:}" != "$1" ]; do envs+=("${1#ENV:}"); shift; done
  timeout -k 5 "$TIMEOUT" env "${envs[@]}" "$BIN" "$@" <"$work/in" >"$out" 2>"$err"
  rc=$?
  if [ $rc = 124 ] || [ $rc = 137 ]; then hangs=$((hangs + 1)); fail "$label" "no answer within ${TIMEOUT} s (a hang)"; return; fi
  if [ $rc -ge 128 ]; then crashes=$((crashes + 1)); fail "$label" "killed by signal $((rc - 128))"; return; fi
  if grep -qE "terminate called|what\(\)|Aborted|std::[a-z_]+|stoull|stoi|basic_string" "$err"; then
    crashes=$((crashes + 1)); fail "$label" "a C++ exception text reached the user: $(head -1 "$err")"; return
  fi
  case "$kind" in
    error*)
      local re=${kind#error}; re=${re#=}
      local lines; lines=$(wc -l <"$err")
      if grep -qE "PASS|\"verdict\": *\"PASS\"" "$out"; then passes=$((passes + 1)); fail "$label" "PASS on bad input"; return; fi
      [ $rc = 2 ] || { fail "$label" "exit $rc, want 2 ($(head -1 "$err"))"; return; }
      [ "$lines" = 1 ] || { fail "$label" "$lines stderr lines, want 1: $(head -3 "$err" | tr '\n' '|')"; return; }
      grep -q "^bitexact: error: " "$err" || { fail "$label" "stderr is not 'bitexact: error: ...': $(cat "$err")"; return; }
      if [ -n "$re" ] && ! grep -qE -- "$re" "$err"; then fail "$label" "error line does not match '$re': $(cat "$err")"; return; fi ;;
    fail)
      if grep -q "PASSED" "$out"; then passes=$((passes + 1)); fail "$label" "PASSED"; return; fi
      [ $rc = 1 ] || { fail "$label" "exit $rc, want 1 ($(head -1 "$err"))"; return; } ;;
    json)
      [ $rc = 0 ] || [ $rc = 1 ] || { fail "$label" "exit $rc ($(head -1 "$err"))"; return; }
      local docs; docs=$(jq -c . "$out" 2>/dev/null | wc -l) || docs=0
      jq -e . "$out" >/dev/null 2>&1 || { fail "$label" "stdout is not JSON: $(head -c 120 "$out")"; return; }
      [ "$docs" = 1 ] || { fail "$label" "stdout holds $docs JSON documents, want 1"; return; }
      jq -e --argjson rc $rc '(.verdict | type == "string") and (.exit_status == $rc) and has("seeds")' "$out" >/dev/null ||
        { fail "$label" "document lacks verdict/exit_status $rc/seeds"; return; }
      if jq -e '[.. | numbers | select(. > 9007199254740991)] | length > 0' "$out" >/dev/null; then
        fail "$label" "a number above 2^53 (jq rounds it): 64-bit values must be strings"; return
      fi ;;
    oracle)
      local want; want=$(( $(grep -c . "$work/in") ))
      [ $rc = 0 ] || { fail "$label" "oracle exit $rc ($(head -1 "$err"))"; return; }
      [ "$(wc -l <"$out")" = "$want" ] || { fail "$label" "$(wc -l <"$out") replies to $want requests"; return; }
      jq -e . "$out" >/dev/null 2>&1 || { fail "$label" "a reply is not JSON"; return; }
      tail -1 "$out" | jq -e '.ops' >/dev/null || { fail "$label" "the session did not survive: $(tail -1 "$out")"; return; } ;;
    *) fail "$label" "unknown case kind '$kind'" ;;
  esac
}

# 1. Every numeric option of every command (from the synopsis), with each class of bad number. The base
#    command adds what the command needs to reach option parsing on the CPU.
base_of() {
  case "$1" in
    "verify merge") echo "verify merge @missing" ;;
    verify\ *|verify) echo "$1 --device cpu" ;;
    bench\ *|bench) echo "$1 --device cpu" ;;
    selftest) echo "selftest --device cpu" ;;
    "cases export") echo "cases export --family field25519" ;;
    *) echo "$1" ;;
  esac
}
long_digits=$(printf '9%.0s' $(seq 1 400))
numeric_bad=("" "x" "-1" "1.5" "1e400" "inf" "nan" "2^600" "18446744073709551616" "0x" "0x1g" "+-3" "１"
            "$long_digits" "2^1+2^1+2^1+2^1" "2^99999")
"$BIN" usage >"$work/usage" || { echo "bitexact usage failed"; exit 1; }
# One line per command (continuation lines joined), then each "[--opt N]" with its command path.
awk '/^bitexact /{if (l) print l; l=$0; next} {l = l " " $0} END {print l}' "$work/usage" >"$work/commands"
path_of() { printf '%s\n' "$1" | sed -E 's/^bitexact ((([a-z0-9][a-z0-9-]*)( |$))+).*/\1/; s/ *$//; s/ (\[|[A-Z]).*//'; }
while read -r line; do
  path=$(path_of "$line")
  printf '%s\n' "$line" | grep -oE '\[--[a-z0-9-]+ N\]' | tr -d '[]' | while read -r opt _; do
    printf '%s\t%s\n' "$path" "$opt"
  done
done <"$work/commands" >"$work/numeric"
[ -s "$work/numeric" ] || { echo "no numeric option found in bitexact usage"; exit 1; }
while IFS=$'\t' read -r path opt; do
  base=$(subst "$(base_of "$path")")
  for v in "${numeric_bad[@]}"; do
    # shellcheck disable=SC2086
    run_case "error=$opt" "" $base "$opt" "$v"
  done
done <"$work/numeric"
numeric_opts=$(wc -l <"$work/numeric")

# Every option that takes text (--opt METAVAR other than N in the synopsis) must have a hand-written case naming its command
# and the option, so an option added later without one fails here.
while read -r line; do
  path=$(path_of "$line")
  printf '%s\n' "$line" | grep -oE '\[--[a-z0-9-]+ [A-Z][A-Z0-9:/]*\]' | grep -v ' N\]' | tr -d '[]' | while read -r opt _; do
    grep -qE "^[^#].*[|] .*\b${path}\b.* ${opt}( |$)" "$CASES" || echo "$path $opt"
  done
done <"$work/commands" >"$work/uncovered"
while read -r miss; do n=$((n + 1)); fail "coverage" "no case in $(basename "$CASES") for '$miss'"; done <"$work/uncovered"

# 2. The hand-written cases: "KIND | STDIN | ARGS" per line.
while IFS= read -r row; do
  case "$row" in ""|\#*) continue ;; esac
  kind=$(printf '%s' "$row" | awk -F' [|] ' '{print $1}')
  input=$(printf '%s' "$row" | awk -F' [|] ' '{print $2}')
  args=$(subst "$(printf '%s' "$row" | awk -F' [|] ' '{print $3}')")
  # shellcheck disable=SC2086
  run_case "$kind" "$input" $args
done <"$CASES"

echo "hostile input: $n cases ($numeric_opts numeric options x ${#numeric_bad[@]} bad numbers, the rest from $(basename "$CASES")):" \
     "$bad failed, $crashes crashes, $hangs hangs, $passes passes on nothing"
[ $bad = 0 ]
