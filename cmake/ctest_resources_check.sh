#!/bin/sh
# CTest cli_ctest_resources (no GPU needed): the GPU scheduling of the gpu-labelled tests works end to end.
#   ctest_resources_check.sh BITEXACT LAUNCHER CMAKE CTEST GENERATOR [MAKE_PROGRAM]
# (a) `bitexact list --ctest-resources` is a version 1.0 spec with local[0].gpus (ids "0".."n-1", one slot
#     each), ctest accepts it, and with no GPU stderr is one line;
# (b) a throwaway project of 4 tests, each RESOURCE_GROUPS "gpus:1" through LAUNCHER, run as
#     `ctest -j 2 --resource-spec-file` with 2 fake GPUs: every test saw CUDA_VISIBLE_DEVICES = one of the
#     ids, both ids were used (ctest starts two tests at once, each holding one of the two 1-slot GPUs),
#     and no two running tests held the same id (a lock per id; a collision fails, never a slow machine);
# (c) the launcher: no resource variables runs the command unchanged; an outer CUDA_VISIBLE_DEVICES is
#     indexed, not replaced; a malformed variable is exit 2, one stderr line, the command not run.
# jq is required (ci/deps installs it).
# shellcheck disable=SC2016 # the single-quoted $VARs are the child shell's
set -u
[ $# -ge 5 ] || { echo "usage: $0 BITEXACT LAUNCHER CMAKE CTEST GENERATOR [MAKE_PROGRAM]" >&2; exit 2; }
BX=$1 LAUNCH=$2 CMAKE=$3 CTEST=$4 GEN=$5 MAKEPROG=${6:-}
# shellcheck source=check_common.sh
. "$(dirname "$0")/check_common.sh"  # fail, jq, $T

# (a) the spec bitexact writes
"$BX" list --ctest-resources >"$T/spec.json" 2>"$T/spec.err" || fail "bitexact list --ctest-resources: exit $?"
jq -e '.version == {"major": 1, "minor": 0} and (.local | type == "array" and length == 1)
       and (.local[0].gpus | type == "array")
       and ([.local[0].gpus | to_entries[] | .value == {"id": (.key | tostring), "slots": 1}] | all)' \
  "$T/spec.json" >/dev/null || fail "spec shape: $(cat "$T/spec.json")"
n=$(jq '.local[0].gpus | length' "$T/spec.json")
errlines=$(wc -l <"$T/spec.err")
if [ "$n" = 0 ]; then
  [ "$errlines" = 1 ] || fail "no GPU: want one stderr line, got $errlines: $(cat "$T/spec.err")"
else
  [ "$errlines" = 0 ] || fail "$n GPUs: want no stderr, got: $(cat "$T/spec.err")"
fi
echo "spec: $n GPU(s): $(cat "$T/spec.json")"

# (b) a throwaway project scheduled by ctest with 2 fake GPUs
mkdir -p "$T/src" "$T/seen"
cat >"$T/src/record.sh" <<'EOF'
# record.sh SEEN NAME: writes the CUDA_VISIBLE_DEVICES it was given and holds that id for a second.
seen=$1 name=$2
cvd=${CUDA_VISIBLE_DEVICES-unset}
printf '%s\n' "$cvd" >"$seen/$name.cvd"
mkdir "$seen/lock.$cvd" 2>/dev/null || { echo "$name: id '$cvd' held by a running test" >"$seen/$name.shared"; exit 1; }
sleep 1
rmdir "$seen/lock.$cvd"
EOF
cat >"$T/src/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.16)
project(bx_ctest_resources NONE)
enable_testing()
foreach(i 1 2 3 4)  # as property_tests' bx_gpu_test registers a gpu test
  add_test(NAME t${i} COMMAND "${LAUNCH}" sh "${CMAKE_SOURCE_DIR}/record.sh" "${SEEN}" t${i})
  set_tests_properties(t${i} PROPERTIES RESOURCE_GROUPS "gpus:1" LABELS gpu)
endforeach()
add_test(NAME parse_only COMMAND "${CMAKE_COMMAND}" -E true)  # runs only to make ctest read a spec file
set_tests_properties(parse_only PROPERTIES LABELS parse)
EOF
printf '%s\n' '{"version":{"major":1,"minor":0},"local":[{"gpus":[{"id":"0","slots":1},{"id":"1","slots":1}]}]}' >"$T/spec2.json"
"$CMAKE" -S "$T/src" -B "$T/build" -G "$GEN" ${MAKEPROG:+"-DCMAKE_MAKE_PROGRAM=$MAKEPROG"} \
  "-DLAUNCH=$LAUNCH" "-DSEEN=$T/seen" >"$T/configure.log" 2>&1 || fail "configure: $(cat "$T/configure.log")"
# ids index the caller's CUDA_VISIBLE_DEVICES: the project runs without one
(cd "$T/build" && unset CUDA_VISIBLE_DEVICES && "$CTEST" -L parse --resource-spec-file "$T/spec.json") >"$T/parse.log" 2>&1 ||
  fail "ctest does not accept bitexact's spec: $(cat "$T/parse.log")"
(cd "$T/build" && unset CUDA_VISIBLE_DEVICES && "$CTEST" -L gpu -j 2 --resource-spec-file "$T/spec2.json" --output-on-failure) \
  >"$T/ctest.log" 2>&1 || fail "ctest -j 2 --resource-spec-file: $(cat "$T/ctest.log") $(cat "$T/seen"/*.shared 2>/dev/null)"
used=
for i in 1 2 3 4; do
  [ -f "$T/seen/t$i.cvd" ] || fail "t$i did not run"
  v=$(cat "$T/seen/t$i.cvd")
  case $v in 0 | 1) ;; *) fail "t$i saw CUDA_VISIBLE_DEVICES='$v', want 0 or 1 (the spec's ids)" ;; esac
  used="$used $v"
  echo "t$i: CUDA_VISIBLE_DEVICES=$v"
done
case $used in *0*) ;; *) fail "id 0 never used:$used" ;; esac
case $used in *1*) ;; *) fail "id 1 never used:$used" ;; esac

# (c) the launcher on its own
out=$(unset CUDA_VISIBLE_DEVICES CTEST_RESOURCE_GROUP_COUNT; "$LAUNCH" sh -c 'echo "${CUDA_VISIBLE_DEVICES-unset}|$#|$1"; exit 7' x "a b")
rc=$?
{ [ "$rc" = 7 ] && [ "$out" = "unset|1|a b" ]; } || fail "no resource variables: want the command unchanged (unset|1|a b, exit 7), got '$out' exit $rc"
out=$(CUDA_VISIBLE_DEVICES=4,6 CTEST_RESOURCE_GROUP_COUNT=1 CTEST_RESOURCE_GROUP_0=gpus CTEST_RESOURCE_GROUP_0_GPUS=id:1,slots:1 \
  "$LAUNCH" sh -c 'echo "$CUDA_VISIBLE_DEVICES"')
[ "$out" = 6 ] || fail "outer CUDA_VISIBLE_DEVICES=4,6 with id 1: want 6, got '$out'"
for bad in garbage 'id:0' 'id:x,slots:1' 'id:0,slots:1;' ''; do
  rm -f "$T/ran"
  CTEST_RESOURCE_GROUP_COUNT=1 CTEST_RESOURCE_GROUP_0=gpus CTEST_RESOURCE_GROUP_0_GPUS=$bad \
    "$LAUNCH" touch "$T/ran" >"$T/bad.out" 2>"$T/bad.err"
  rc=$?
  [ "$rc" = 2 ] || fail "CTEST_RESOURCE_GROUP_0_GPUS='$bad': exit $rc, want 2"
  { [ "$(wc -l <"$T/bad.err")" = 1 ] && grep -q "error: CTEST_RESOURCE_GROUP_0_GPUS='$bad'" "$T/bad.err"; } ||
    fail "CTEST_RESOURCE_GROUP_0_GPUS='$bad': want one error line naming it, got: $(cat "$T/bad.err")"
  { [ ! -e "$T/ran" ] && [ ! -s "$T/bad.out" ]; } || fail "CTEST_RESOURCE_GROUP_0_GPUS='$bad': the command ran"
done
echo "ctest resources: OK"
