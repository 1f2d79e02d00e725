#!/usr/bin/env bash
# shellcheck disable=SC2016  # ${{ ... }} and the awk program are literal text on purpose
# Runs the sharding templates locally against a bitexact binary:
#
#   1. examples/slurm/verify-array.sh: every task of its `#SBATCH --array` with the variables Slurm sets
#      (SLURM_ARRAY_JOB_ID, _TASK_ID, _TASK_COUNT, _TASK_MIN, _TASK_MAX, _TASK_STEP, ...), then its merge
#      step; the merge must pass. Negative checks: shard mode without SLURM_ARRAY_TASK_ID is refused, and
#      the merge fails with one shard's result deleted and with one result edited.
#   2. examples/github-actions/gate.yml: the matrix (family and shard lists, include's per-family args)
#      and the steps of the verify and merge jobs are read FROM THE WORKFLOW (a small awk parser flattens
#      the YAML to path/value JSON lines, read back with jq); every matrix cell's `run:` steps are run
#      with `${{ matrix.KEY }}` substituted, as Actions runs them (bash --noprofile --norc -eo pipefail,
#      one fresh workspace per job), upload-artifact/download-artifact emulated by copying through one
#      artifact directory, the build job's binary artifact stood in for by the binary under test. Steps
#      whose id starts with `setup` (runner packages) are skipped. Every family's merge must pass and
#      its merged document must cover the whole range. Negative check: one shard's artifact deleted, the
#      first family's merge must fail.
#
# Usage: bash examples/test_templates.sh BITEXACT_BINARY [SOURCE_DIR]
#        DRY_RUN=1 bash examples/test_templates.sh - [SOURCE_DIR]   (print the commands, run nothing)
#        FLATTEN=FILE.yml bash examples/test_templates.sh            (print the parser's output, for debugging)
# Needs bash, awk (mawk or gawk), sed, grep, jq. Exit 0 when every check passed, else 1.
set -uo pipefail

# ---------------------------------------------------------------------------------------------------
# YAML subset -> JSON lines {"p": PATH, "v": VALUE}; PATH like jobs.verify.steps[2].run,
# jobs.verify.strategy.matrix.family[0]. Handles block mappings, `- ` sequences (indented under their key
# or at its column), one-line flow sequences [a, b] and mappings {k: v, ...} (no commas inside values),
# plain/'single'/"double" scalars, `|`/`>` block scalars, comments. Anchors, nested or multi-line flow
# collections, `- - x` and quoted keys are not handled.
# ---------------------------------------------------------------------------------------------------
FLATTEN_AWK='
function jesc(s,   out, i, c) {
  out = ""
  for (i = 1; i <= length(s); i++) {
    c = substr(s, i, 1)
    if (c == "\\") out = out "\\\\"
    else if (c == "\"") out = out "\\\""
    else if (c == "\n") out = out "\\n"
    else if (c == "\t") out = out "\\t"
    else if (c == "\r") out = out "\\r"
    else out = out c
  }
  return out
}
function emit(p, v) { printf "{\"p\":\"%s\",\"v\":\"%s\"}\n", jesc(p), jesc(v) }
function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
# cut a " #..." comment that is outside quotes
function uncomment(s,   i, c, q, prev) {
  q = ""; prev = " "
  for (i = 1; i <= length(s); i++) {
    c = substr(s, i, 1)
    if (q == "") {
      if (c == "#" && (prev == " " || prev == "\t")) return substr(s, 1, i - 1)
      if ((c == "\"" || c == "\047") && (prev == " " || prev == "\t" || prev == "[" || prev == ",")) q = c
    } else if (c == q) q = ""
    else if (q == "\"" && c == "\\") { i++; c = "x" }
    prev = c
  }
  return s
}
function unquote(s,   out, i, c, n) {
  s = trim(s)
  n = length(s)
  if (n >= 2 && substr(s, 1, 1) == "\047" && substr(s, n, 1) == "\047") {
    s = substr(s, 2, n - 2); out = ""
    for (i = 1; i <= length(s); i++) {
      c = substr(s, i, 1); out = out c
      if (c == "\047" && substr(s, i + 1, 1) == "\047") i++
    }
    return out
  }
  if (n >= 2 && substr(s, 1, 1) == "\"" && substr(s, n, 1) == "\"") {
    s = substr(s, 2, n - 2); out = ""
    for (i = 1; i <= length(s); i++) {
      c = substr(s, i, 1)
      if (c == "\\") {
        i++; c = substr(s, i, 1)
        if (c == "n") c = "\n"; else if (c == "t") c = "\t"
      }
      out = out c
    }
    return out
  }
  return s
}
function value(path, v,   n, inner, parts, k, j) {
  v = trim(v)
  if (v ~ /^\[.*\]$/) {
    inner = trim(substr(v, 2, length(v) - 2))
    if (inner == "") return
    n = split(inner, parts, ",")
    j = 0
    for (k = 1; k <= n; k++) emit(path "[" j++ "]", unquote(parts[k]))
    return
  }
  if (v ~ /^\{.*\}$/) {
    inner = trim(substr(v, 2, length(v) - 2))
    if (inner == "") return
    n = split(inner, parts, ",")
    for (k = 1; k <= n; k++) {
      j = index(parts[k], ":")
      if (j == 0) { emit(path "[?]", parts[k]); continue }
      emit(path "." trim(substr(parts[k], 1, j - 1)), unquote(substr(parts[k], j + 1)))
    }
    return
  }
  emit(path, unquote(v))
}
function push(indent, path, isseq) { d++; ind[d] = indent; pre[d] = path; seq[d] = isseq }
function endblock() {
  if (!inblock) return
  if (bstyle ~ /^>/) gsub(/\n/, " ", btext)
  if (bstyle !~ /-$/ && btext != "") btext = btext "\n"
  emit(bpath, btext)
  inblock = 0
}
BEGIN { d = 0; inblock = 0 }
{
  line = $0
  sub(/\r$/, "", line)
  match(line, /^ */); indent = RLENGTH
  if (inblock) {
    if (line ~ /^[ \t]*$/) { bpend = bpend "\n"; next }
    if (indent > bkey) {
      if (bind < 0) bind = indent
      if (btext != "" || bstarted) btext = btext bpend "\n"
      else btext = btext substr(bpend, 2)
      bpend = ""
      btext = btext substr(line, bind + 1)
      bstarted = 1
      next
    }
    endblock()
  }
  text = substr(line, indent + 1)
  if (text ~ /^#/ || text ~ /^[ \t]*$/ || text == "---" || text == "...") next
  text = trim(uncomment(text))
  if (text == "") next
  if (text == "-" || text ~ /^- /) {
    while (d > 0 && (ind[d] > indent || (ind[d] == indent && seq[d]))) d--
    parent = d > 0 ? pre[d] : ""
    item = parent "[" (cnt[parent] + 0) "]"
    cnt[parent]++
    push(indent, item, 1)
    rest = substr(text, 2)
    match(rest, /^ */); keycol = indent + 1 + RLENGTH
    text = substr(rest, RLENGTH + 1)
    if (text == "") next
    if (text !~ /^[A-Za-z0-9_.\/-]+:([ \t]|$)/) { value(item, text); next }
    parent = item; indent = keycol
  } else {
    while (d > 0 && ind[d] >= indent) d--
    parent = d > 0 ? pre[d] : ""
  }
  if (!match(text, /^[A-Za-z0-9_.\/-]+:([ \t]|$)/)) { emit(parent "[?]", text); next }
  key = substr(text, 1, index(text, ":") - 1)
  v = trim(substr(text, length(key) + 2))
  path = parent == "" ? key : parent "." key
  if (v == "") { push(indent, path, 0); next }
  if (v ~ /^[|>][-+]?$/) {
    inblock = 1; bstyle = v; bpath = path; bkey = indent; bind = -1; btext = ""; bpend = ""; bstarted = 0
    next
  }
  value(path, v)
}
END { endblock() }
'

flatten() { awk "$FLATTEN_AWK" "$1"; }

if [ -n "${FLATTEN:-}" ]; then
  flatten "$FLATTEN"
  exit $?
fi

# ---------------------------------------------------------------------------------------------------
BIN_ARG=${1:-}
SRC=${2:-$(cd "$(dirname "$0")/.." && pwd)}
DRY=${DRY_RUN:-0}
[ "$DRY" = 0 ] || DRY=1
SRC=$(cd "$SRC" && pwd) || { echo "test_templates: no source dir $2" >&2; exit 1; }
SLURM_SCRIPT=$SRC/examples/slurm/verify-array.sh
GATE=$SRC/examples/github-actions/gate.yml
for f in "$SLURM_SCRIPT" "$GATE"; do [ -f "$f" ] || { echo "test_templates: missing $f" >&2; exit 1; }; done
for t in jq awk sed grep; do command -v "$t" >/dev/null || { echo "test_templates: needs $t" >&2; exit 1; }; done

if [ "$DRY" = 1 ]; then
  BIN=${BIN_ARG:-bitexact}
  [ "$BIN" != - ] || BIN=bitexact
else
  [ -n "$BIN_ARG" ] || { echo "usage: test_templates.sh BITEXACT_BINARY [SOURCE_DIR]" >&2; exit 1; }
  case $BIN_ARG in
    */*) BIN=$(cd "$(dirname "$BIN_ARG")" && pwd)/$(basename "$BIN_ARG") ;;
    *) BIN=$(command -v "$BIN_ARG") ;;
  esac
  [ -x "$BIN" ] || { echo "test_templates: $BIN_ARG is not an executable" >&2; exit 1; }
fi

# No shard variables from the environment the test itself runs in (CTest under Slurm, a sharded gtest run).
unset SLURM_ARRAY_JOB_ID SLURM_ARRAY_TASK_ID SLURM_ARRAY_TASK_COUNT SLURM_ARRAY_TASK_MIN SLURM_ARRAY_TASK_MAX \
  SLURM_ARRAY_TASK_STEP SLURM_JOB_ID SLURM_JOBID SLURM_SUBMIT_DIR SLURM_JOB_NAME JOB_COMPLETION_INDEX \
  BITEXACT_SHARD_COUNT GTEST_SHARD_INDEX GTEST_TOTAL_SHARDS BITEXACT FAMILY VERIFY_ARGS RESULTS

TMP=$(mktemp -d "${TMPDIR:-/tmp}/bx-templates.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
status=0
declare -a SUMMARY=()

note() { printf '%s\n' "$*"; }
pass() { SUMMARY+=("PASS  $1"); note "ok: $1"; }
fail() {  # what [logfile] [command]
  status=1
  SUMMARY+=("FAIL  $1")
  printf '\nFAILED: %s\n' "$1" >&2
  [ -z "${3:-}" ] || printf '%s\n' "$3" | sed '1s/^/  command: /; 2,$s/^/           /' >&2
  if [ -n "${2:-}" ] && [ -f "$2" ]; then
    printf '  output (last 40 lines of %s):\n' "$2" >&2
    tail -n 40 "$2" | sed 's/^/    | /' >&2
  fi
}
die() { echo "test_templates: $*" >&2; exit 1; }

FLAT=$TMP/gate.jsonl
flatten "$GATE" >"$FLAT" || die "cannot parse $GATE"
# The flattened file, loaded once: Y[PATH]=VALUE, YPATHS in file order, YP[PREFIX] for every path's
# ancestors (a.b[2].c -> a.b[2].c, a.b[2], a.b, a).
declare -A Y=() YP=()
declare -a YPATHS=()
while IFS= read -r -d '' p && IFS= read -r -d '' v; do
  Y[$p]=$v
  YPATHS+=("$p")
  while :; do
    YP[$p]=1
    case $p in *.* | *\[*) p=${p%[.[]*} ;; *) break ;; esac
  done
done < <(jq -j '.p, "\u0000", .v, "\u0000"' "$FLAT")
[ ${#YPATHS[@]} -gt 0 ] || die "$GATE: nothing parsed"
yget() { printf '%s' "${Y[$1]-}"; }                                     # the scalar at PATH
yhas() { [ -n "${YP[$1]+x}" ]; }                                        # PATH exists (scalar or container)
ycount() { local n=0 k="$1[0]"; while yhas "$k"; do n=$((n + 1)); k="$1[$n]"; done; echo "$n"; }  # sequence length
ylist() { local i k n; n=$(ycount "$1"); for ((i = 0; i < n; i++)); do k="$1[$i]"; printf '%s\n' "${Y[$k]-}"; done; }
ychildren() {  # PREFIX: the distinct first components of the paths under PREFIX (mapping keys), in order
  local p rest
  declare -A seen=()
  for p in "${YPATHS[@]}"; do
    [[ $p == "$1"* ]] || continue
    rest=${p#"$1"}
    rest=${rest%%[.[]*}
    [ -n "$rest" ] && [ -z "${seen[$rest]+x}" ] && { seen[$rest]=1; printf '%s\n' "$rest"; }
  done
}

# ---------------------------------------------------------------------------------------------------
# Matrix cells: one cell = lines KEY=VALUE.
cell_get() { local line v=""; while IFS= read -r line; do [[ $line == "$2="* ]] && v=${line#*=}; done <<<"$1"; printf '%s' "$v"; }
cell_set() { local line out=""; while IFS= read -r line; do [ -z "$line" ] || [[ $line == "$2="* ]] || out+="$line"$'\n'; done <<<"$1"; printf '%s%s=%s\n' "$out" "$2" "$3"; }
cell_text() { local line out=""; while IFS= read -r line; do [ -z "$line" ] || out+="${out:+ }$line"; done <<<"$1"; printf '%s' "$out"; }

# KEY is one of expand_matrix's matrix keys. A loop, not `printf | grep -q`: under pipefail grep -q's early
# exit can end printf with SIGPIPE, and the pipeline then reads as "not a key" on a loaded machine.
is_matrix_key() { local x; for x in "${keys[@]}"; do [ "$x" = "$1" ] && return 0; done; return 1; }

# expand_matrix JOB: fills CELLS (GitHub's rules: cross product of the lists; each include entry adds its
# other keys to every cell its original keys match, or becomes a cell of its own when it matches none).
expand_matrix() {
  local job=$1 m="jobs.$1.strategy.matrix" key v c i n k
  local -a keys=() cells=("") next
  yhas "$m.exclude" && die "gate.yml: jobs.$job: matrix exclude is not handled by this test"
  keys=()
  for key in $(ychildren "$m."); do
    [ "$key" = include ] || [ "$key" = exclude ] || keys+=("$key")
  done
  for key in "${keys[@]}"; do
    next=()
    mapfile -t vals < <(ylist "$m.$key")
    for c in "${cells[@]}"; do for v in "${vals[@]}"; do next+=("$(cell_set "$c" "$key" "$v")"); done; done
    cells=("${next[@]}")
  done
  [ ${#keys[@]} -gt 0 ] || cells=()
  n=$(ycount "$m.include")
  for ((i = 0; i < n; i++)); do
    local -a ikeys=()
    mapfile -t ikeys < <(ychildren "$m.include[$i].")
    local matched=0 j ok
    for j in "${!cells[@]}"; do
      ok=1
      for k in "${ikeys[@]}"; do
        if is_matrix_key "$k"; then
          [ "$(cell_get "${cells[$j]}" "$k")" = "$(yget "$m.include[$i].$k")" ] || ok=0
        fi
      done
      if [ $ok = 1 ]; then
        matched=1
        for k in "${ikeys[@]}"; do
          is_matrix_key "$k" || cells[j]=$(cell_set "${cells[$j]}" "$k" "$(yget "$m.include[$i].$k")")
        done
      fi
    done
    if [ $matched = 0 ]; then
      c=""
      for k in "${ikeys[@]}"; do c=$(cell_set "$c" "$k" "$(yget "$m.include[$i].$k")"); done
      cells+=("$c")
    fi
  done
  [ ${#cells[@]} -gt 0 ] || cells=("")   # a job without a matrix: one cell
  CELLS=("${cells[@]}")
}

# subst CELL TEXT: ${{ matrix.KEY }} -> the cell's value, as Actions does before the shell sees the text.
subst() {
  local cell=$1 text line key
  text=$(printf '%s' "$2" | sed -E 's/\$\{\{[[:space:]]*([^}]*[^[:space:]}])[[:space:]]*\}\}/${{ \1 }}/g')
  while IFS= read -r line; do
    [ -n "$line" ] || continue
    key=${line%%=*}
    text=${text//"\${{ matrix.$key }}"/"${line#*=}"}
  done <<<"$cell"
  if [[ $text == *'${{'* ]]; then
    echo "test_templates: gate.yml: unsupported expression (only matrix.KEY of this job's matrix): $(grep -o '\${{[^}]*}}' <<<"$text" | head -1)" >&2
    return 1
  fi
  printf '%s' "$text"
}

# run_cell JOB CELL WORKSPACE LOG: the job's steps in order, as a runner would; returns non-zero when a
# step failed. Artifacts live in $ART/NAME/.
run_cell() {
  local job=$1 cell=$2 ws=$3 log=$4 k n sp id uses run cond rc failed=0 name path pattern mm a
  mkdir -p "$ws"
  : >"$log"
  n=$(ycount "jobs.$job.steps")
  [ "$n" -gt 0 ] || { echo "gate.yml: jobs.$job has no steps" >>"$log"; return 1; }
  for ((k = 0; k < n; k++)); do
    sp="jobs.$job.steps[$k]"
    id=$(yget "$sp.id"); uses=$(yget "$sp.uses"); run=$(yget "$sp.run"); cond=$(yget "$sp.if")
    if [ $failed = 1 ] && [[ $cond != *always\(\)* ]]; then
      echo "--- step $k skipped (an earlier step failed)" >>"$log"
      continue
    fi
    if [ -n "$run" ]; then
      if [[ $id == setup* ]]; then
        echo "--- step $k ($id): skipped, runner setup: $run" >>"$log"
        [ "$DRY" = 0 ] || note "    skip  [$id] $run"
        continue
      fi
      run=$(subst "$cell" "$run" 2>>"$log") || { failed=1; LAST_CMD="(expression in step $k)"; continue; }
      printf '%s\n' "$run" >"$ws/../step-$job-$k.sh"
      if [ "$DRY" = 1 ]; then
        note "    run   (cd WORKSPACE && bash --noprofile --norc -eo pipefail <<'EOF')"
        printf '%s\n' "$run" | sed 's/^/            /'
        continue
      fi
      echo "--- step $k${id:+ ($id)}: $run" >>"$log"
      (cd "$ws" && bash --noprofile --norc -eo pipefail "$ws/../step-$job-$k.sh") >>"$log" 2>&1
      rc=$?
      if [ $rc != 0 ]; then
        echo "--- step $k exited $rc" >>"$log"
        failed=1
        LAST_CMD=$run
      fi
      continue
    fi
    name=$(subst "$cell" "$(yget "$sp.with.name")") || { failed=1; continue; }
    path=$(subst "$cell" "$(yget "$sp.with.path")") || { failed=1; continue; }
    pattern=$(subst "$cell" "$(yget "$sp.with.pattern")") || { failed=1; continue; }
    mm=$(yget "$sp.with.merge-multiple")
    case $uses in
      actions/checkout@*)
        echo "--- step $k: $uses (not needed: the steps use only the binary)" >>"$log" ;;
      actions/upload-artifact@*)
        [ "$DRY" = 0 ] || { note "    copy  WORKSPACE/$path -> ARTIFACTS/$name/   ($uses)"; continue; }
        echo "--- step $k: $uses name=$name path=$path" >>"$log"
        mkdir -p "$ART/$name"
        if [ -d "$ws/$path" ]; then cp -R "$ws/$path/." "$ART/$name/"
        elif [ -e "$ws/$path" ]; then cp "$ws/$path" "$ART/$name/"
        elif [ "$(yget "$sp.with.if-no-files-found")" = error ]; then echo "upload: no files at $path" >>"$log"; failed=1
        fi ;;
      actions/download-artifact@*)
        [ -n "$path" ] || path=.
        if [ "$DRY" = 1 ]; then
          note "    copy  ARTIFACTS/${name:-$pattern}/ -> WORKSPACE/$path/   ($uses${mm:+, merge-multiple: $mm})"
          continue
        fi
        echo "--- step $k: $uses name=$name pattern=$pattern path=$path" >>"$log"
        mkdir -p "$ws/$path"
        if [ -n "$name" ]; then
          if [ -d "$ART/$name" ]; then cp -R "$ART/$name/." "$ws/$path/"
          else echo "download: no artifact $name" >>"$log"; failed=1
          fi
        else
          for a in "$ART"/*/; do
            a=$(basename "$a")
            # shellcheck disable=SC2053  # the pattern is a glob on purpose
            [[ $a == $pattern ]] || continue
            if [ "$mm" = true ]; then cp -R "$ART/$a/." "$ws/$path/"; else mkdir -p "$ws/$path/$a" && cp -R "$ART/$a/." "$ws/$path/$a/"; fi
          done
        fi ;;
      *)
        echo "--- step $k: unsupported step (uses: $uses) in jobs.$job" >>"$log"
        failed=1 ;;
    esac
  done
  return $failed
}

# ===================================================================================================
note "== Slurm template: $SLURM_SCRIPT"
bash -n "$SLURM_SCRIPT" || fail "bash -n $SLURM_SCRIPT"
arr=$(grep -m1 -E '^#SBATCH[[:space:]]+--array=' "$SLURM_SCRIPT")
[[ $arr =~ --array=([0-9]+)-([0-9]+)(:([0-9]+))? ]] || die "$SLURM_SCRIPT: no '#SBATCH --array=A-B[:S]' line"
AMIN=${BASH_REMATCH[1]} AMAX=${BASH_REMATCH[2]} ASTEP=${BASH_REMATCH[4]:-1}
ACOUNT=$(((AMAX - AMIN) / ASTEP + 1))
SFAMILY=md5z
# The Slurm run uses the workflow's small CPU arguments for md5z (one place for the test arguments).
SARGS=""
ninc=$(ycount jobs.verify.strategy.matrix.include)
for ((i = 0; i < ninc; i++)); do
  [ "$(yget "jobs.verify.strategy.matrix.include[$i].family")" = "$SFAMILY" ] && SARGS=$(yget "jobs.verify.strategy.matrix.include[$i].args")
done
[ -n "$SARGS" ] || die "gate.yml: no include entry with family: $SFAMILY and its args"
SDIR=$TMP/slurm
mkdir -p "$SDIR"
JOBID=4242
slurm_env=(BITEXACT="$BIN" FAMILY="$SFAMILY" VERIFY_ARGS="$SARGS" RESULTS="$SDIR/results"
  SLURM_SUBMIT_DIR="$SDIR" SLURM_CLUSTER_NAME=local)
note "array $AMIN-$AMAX:$ASTEP ($ACOUNT tasks), FAMILY=$SFAMILY VERIFY_ARGS=$SARGS"
k=0
for ((id = AMIN; id <= AMAX; id += ASTEP)); do
  tenv=("${slurm_env[@]}" SLURM_JOB_NAME=bitexact-verify "SLURM_ARRAY_JOB_ID=$JOBID" "SLURM_ARRAY_TASK_ID=$id"
    "SLURM_ARRAY_TASK_COUNT=$ACOUNT" "SLURM_ARRAY_TASK_MIN=$AMIN" "SLURM_ARRAY_TASK_MAX=$AMAX" "SLURM_ARRAY_TASK_STEP=$ASTEP"
    "SLURM_JOB_ID=$((JOBID + 1 + k))" "SLURM_JOBID=$((JOBID + 1 + k))")
  cmd="env $(printf '%q ' "${tenv[@]}")bash $SLURM_SCRIPT"
  if [ "$DRY" = 1 ]; then note "  task $id: (cd $SDIR && $cmd)"; k=$((k + 1)); continue; fi
  log=$SDIR/task-$id.out
  (cd "$SDIR" && env "${tenv[@]}" bash "$SLURM_SCRIPT") >"$log" 2>&1
  rc=$?
  if [ $rc != 0 ]; then fail "slurm task $id exited $rc" "$log" "$cmd"
  elif ! grep -q "^shard: $k/$ACOUNT from SLURM_ARRAY_TASK_ID=$id" "$log"; then fail "slurm task $id: no 'shard: $k/$ACOUNT from SLURM_ARRAY_TASK_ID=$id' line" "$log" "$cmd"
  elif [ ! -s "$SDIR/results/shard-$id.json" ]; then fail "slurm task $id wrote no $SDIR/results/shard-$id.json" "$log" "$cmd"
  else pass "slurm task $id (shard $k/$ACOUNT)"
  fi
  k=$((k + 1))
done

menv=("${slurm_env[@]}" SLURM_JOB_NAME=bitexact-merge SLURM_JOB_ID=$((JOBID + ACOUNT + 1)))
slurm_merge() {  # RESULTS_DIR LOG -> rc of the merge step
  (cd "$SDIR" && env "${menv[@]}" RESULTS="$1" bash "$SLURM_SCRIPT" merge) >"$2" 2>&1
}
if [ "$DRY" = 1 ]; then
  note "  merge:   (cd $SDIR && env $(printf '%q ' "${menv[@]}")bash $SLURM_SCRIPT merge)   -> must print 'verify merge PASSED', exit 0"
  note "  refused: shard mode without SLURM_ARRAY_TASK_ID   -> must exit non-zero naming SLURM_ARRAY_TASK_ID"
  note "  missing: merge with shard-$((AMIN + ASTEP)).json deleted   -> must print 'verify merge FAILED', exit non-zero"
  note "  edited:  merge with shard-$AMIN.json's covered.size changed   -> must exit non-zero without 'verify merge PASSED'"
else
  cmd="env $(printf '%q ' "${menv[@]}")bash $SLURM_SCRIPT merge"
  slurm_merge "$SDIR/results" "$SDIR/merge.out"
  rc=$?
  if [ $rc != 0 ] || ! grep -q "verify merge PASSED" "$SDIR/merge.out"; then fail "slurm merge (rc $rc)" "$SDIR/merge.out" "$cmd"
  elif ! jq -e '.pass == true and .covered.offset == 0 and .covered.size == .range.size' "$SDIR/results/merged.json" >/dev/null 2>&1; then
    fail "slurm merge: $SDIR/results/merged.json is not a passing document covering the whole range" "$SDIR/merge.out" "$cmd"
  else pass "slurm merge of $ACOUNT shards"
  fi

  log=$SDIR/refused.out
  (cd "$SDIR" && env "${slurm_env[@]}" bash "$SLURM_SCRIPT") >"$log" 2>&1
  rc=$?
  if [ $rc = 0 ] || ! grep -q "SLURM_ARRAY_TASK_ID is not set" "$log"; then fail "slurm shard mode without SLURM_ARRAY_TASK_ID was not refused (rc $rc)" "$log"
  else pass "slurm shard mode without SLURM_ARRAY_TASK_ID refused (rc $rc)"
  fi

  gone=$((AMIN + ASTEP))
  cp -R "$SDIR/results" "$SDIR/results-missing" && rm -f "$SDIR/results-missing/shard-$gone.json" "$SDIR/results-missing/merged.json"
  slurm_merge "$SDIR/results-missing" "$SDIR/merge-missing.out"
  rc=$?
  if [ $rc = 0 ] || ! grep -q "verify merge FAILED" "$SDIR/merge-missing.out"; then fail "slurm merge without shard-$gone.json did not fail (rc $rc)" "$SDIR/merge-missing.out"
  else pass "slurm merge without shard-$gone.json fails (rc $rc: $(grep -m1 -E 'gap|FAILED' "$SDIR/merge-missing.out"))"
  fi

  cp -R "$SDIR/results" "$SDIR/results-edited" && rm -f "$SDIR/results-edited/merged.json"
  f=$SDIR/results-edited/shard-$AMIN.json
  jq '.covered.size -= 1' "$f" >"$f.tmp" && mv "$f.tmp" "$f"
  slurm_merge "$SDIR/results-edited" "$SDIR/merge-edited.out"
  rc=$?
  # an edited file may be refused as bad input (digest mismatch) before any verdict line
  if [ $rc = 0 ] || grep -q "verify merge PASSED" "$SDIR/merge-edited.out"; then fail "slurm merge with an edited shard-$AMIN.json did not fail (rc $rc)" "$SDIR/merge-edited.out"
  else pass "slurm merge with an edited shard-$AMIN.json fails (rc $rc: $(grep -m1 -E 'digest|FAILED|error' "$SDIR/merge-edited.out"))"
  fi
fi

# ===================================================================================================
note ""
note "== GitHub Actions template: $GATE"
ART=$TMP/gh/artifacts
mkdir -p "$ART"
mapfile -t VFAM < <(ylist jobs.verify.strategy.matrix.family)
mapfile -t VSHARD < <(ylist jobs.verify.strategy.matrix.shard)
mapfile -t MFAM < <(ylist jobs.merge.strategy.matrix.family)
note "verify matrix: family = ${VFAM[*]}; shard = ${VSHARD[*]}"
note "merge matrix:  family = ${MFAM[*]}"
{ [ ${#VFAM[@]} -gt 0 ] && [ ${#VSHARD[@]} -gt 0 ]; } || die "gate.yml: no jobs.verify.strategy.matrix.family / .shard lists"
[ "$(printf '%s\n' "${VFAM[@]}" | sort)" = "$(printf '%s\n' "${MFAM[@]}" | sort)" ] ||
  fail "gate.yml: the merge matrix's families (${MFAM[*]}) differ from the verify matrix's (${VFAM[*]})"
[ "$(yget jobs.verify.strategy.fail-fast)" = false ] || fail "gate.yml: jobs.verify.strategy.fail-fast is not false"
[ "$(yget jobs.merge.needs)" = verify ] || fail "gate.yml: jobs.merge.needs is not verify"

# The build job: its binary artifact is the binary under test.
BJOB=$(yget jobs.verify.needs)
[ -n "$BJOB" ] || die "gate.yml: jobs.verify.needs is not set"
bname="" bpath="" nb=$(ycount "jobs.$BJOB.steps")
for ((k = 0; k < nb; k++)); do
  if [[ $(yget "jobs.$BJOB.steps[$k].uses") == actions/upload-artifact@* ]]; then
    bname=$(yget "jobs.$BJOB.steps[$k].with.name") bpath=$(yget "jobs.$BJOB.steps[$k].with.path")
  fi
done
{ [ -n "$bname" ] && [ -n "$bpath" ]; } || die "gate.yml: jobs.$BJOB uploads no artifact"
note "build job '$BJOB': stood in for by ARTIFACTS/$bname/$(basename "$bpath") = $BIN"
for ((k = 0; k < nb; k++)); do
  r=$(yget "jobs.$BJOB.steps[$k].run")
  [ -z "$r" ] || note "    (not run here) $r"
done
mkdir -p "$ART/$bname"
[ "$DRY" = 1 ] || cp "$BIN" "$ART/$bname/$(basename "$bpath")"

expand_matrix verify
note "verify: ${#CELLS[@]} matrix cells"
n=0
for cell in "${CELLS[@]}"; do
  fam=$(cell_get "$cell" family) shard=$(cell_get "$cell" shard)
  ws=$TMP/gh/verify-$n/workspace log=$TMP/gh/verify-$n.log
  note "  [verify $(cell_text "$cell")]"
  [ -n "$(cell_get "$cell" args)" ] || fail "verify cell $(cell_text "$cell"): no args from include"
  LAST_CMD=""
  run_cell verify "$cell" "$ws" "$log"
  rc=$?
  if [ "$DRY" = 0 ]; then
    if [ $rc != 0 ]; then fail "verify cell $(cell_text "$cell")" "$log" "$LAST_CMD"
    elif ! grep -q "^shard: $shard/${#VSHARD[@]} from --shard" "$log"; then fail "verify cell $(cell_text "$cell"): no 'shard: $shard/${#VSHARD[@]}' line" "$log"
    else pass "verify $fam shard $shard/${#VSHARD[@]}"
    fi
  fi
  n=$((n + 1))
done

expand_matrix merge
note "merge: ${#CELLS[@]} matrix cells"
MERGE_CELLS=("${CELLS[@]}")
n=0
for cell in "${MERGE_CELLS[@]}"; do
  fam=$(cell_get "$cell" family)
  ws=$TMP/gh/merge-$n/workspace log=$TMP/gh/merge-$n.log
  note "  [merge $(cell_text "$cell")]"
  LAST_CMD=""
  run_cell merge "$cell" "$ws" "$log"
  rc=$?
  if [ "$DRY" = 0 ]; then
    merged=$(find "$ws" -maxdepth 1 -name '*.json' | head -1)
    if [ $rc != 0 ] || ! grep -q "verify merge PASSED" "$log"; then fail "merge cell $(cell_text "$cell") (rc $rc)" "$log" "$LAST_CMD"
    elif [ -z "$merged" ] || ! jq -e '.pass == true and .covered.offset == 0 and .covered.size == .range.size' "$merged" >/dev/null 2>&1; then
      fail "merge cell $(cell_text "$cell"): no passing merged document covering the whole range in the workspace" "$log"
    else pass "merge $fam ($(find "$ws" -name '*.json' -path '*/results/*' | wc -l) results)"
    fi
  fi
  n=$((n + 1))
done

# Negative: the first family's merge with one shard's artifact gone must fail.
cell=${MERGE_CELLS[0]}
fam=$(cell_get "$cell" family)
gone=${VSHARD[$((${#VSHARD[@]} > 1 ? 1 : 0))]}
note "  [merge $(cell_text "$cell"), artifact result-$fam-$gone deleted: must fail]"
if [ "$DRY" = 0 ]; then
  gonefile=""
  for f in "$ART"/*/*.json; do
    jq -e --arg fam "$fam" --arg spec "$gone/${#VSHARD[@]}" '.family == $fam and .shard.spec == $spec' "$f" >/dev/null 2>&1 && gonefile=$f
  done
  if [ -z "$gonefile" ]; then
    fail "negative check: no artifact holds the result of $fam shard $gone/${#VSHARD[@]}"
  else
    note "    deleting artifact $(basename "$(dirname "$gonefile")") ($(basename "$gonefile"))"
    rm -rf "$(dirname "$gonefile")"
    ws=$TMP/gh/merge-missing/workspace log=$TMP/gh/merge-missing.log
    run_cell merge "$cell" "$ws" "$log"
    rc=$?
    if [ $rc = 0 ] || ! grep -q "verify merge FAILED" "$log"; then fail "merge of $fam without shard $gone did not fail (rc $rc)" "$log"
    else pass "merge of $fam without shard $gone fails (rc $rc: $(grep -m1 -E 'gap|FAILED' "$log"))"
    fi
  fi
fi

note ""
if [ "$DRY" = 1 ]; then
  note "DRY_RUN: nothing was run"
  exit 0
fi
note "== summary"
printf '  %s\n' "${SUMMARY[@]}"
if [ $status = 0 ]; then note "test_templates: PASSED"; else note "test_templates: FAILED"; fi
exit $status
