#!/usr/bin/env bash
# The gate's skip rule, proved: a throwaway CTest project with a test that reports a GTEST_SKIP line (under
# the SKIP_REGULAR_EXPRESSION every host test has) must make ci/no-skips fail; the same project without
# the skip must pass.   cmake/no_skips_check.sh SOURCE_DIR CMAKE CTEST
set -uo pipefail
src=$1 cmake=$2 ctest=$3
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
make_project() {  # dir, what the test prints
  mkdir -p "$1"
  cat >"$1/CMakeLists.txt" <<CM
cmake_minimum_required(VERSION 3.20)
project(skipcheck NONE)
enable_testing()
add_test(NAME t COMMAND sh -c "echo '$2'")
set_tests_properties(t PROPERTIES SKIP_REGULAR_EXPRESSION "\\\\[  SKIPPED \\\\]")
CM
  "$cmake" -S "$1" -B "$1/b" >/dev/null && "$ctest" --test-dir "$1/b" >"$1/log" 2>&1
}
make_project "$t/skip" "[  SKIPPED ] planted: a missing input"
make_project "$t/pass" "[       OK ] fine"
if bash "$src/ci/no-skips" "$t/skip/log" >/dev/null; then echo "ci/no-skips passed a log with a skipped test"; exit 1; fi
bash "$src/ci/no-skips" "$t/pass/log" || { echo "ci/no-skips failed a log without skips"; exit 1; }
echo "ci/no-skips fails on a skipped test and passes without one"
