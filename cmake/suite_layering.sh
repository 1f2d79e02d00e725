#!/usr/bin/env bash
# The engine (suite/) includes no command-line header (cli/): the CLI is a program over the engine, never a
# part of it.   suite_layering.sh SOURCE_DIR [--plant]
# --plant: the check's own control. It runs on a copy of suite/ with one file that includes a cli/ header,
# and succeeds only when that file is the one reported.
set -uo pipefail
src=$1
dir=$src/suite
if [ "${2:-}" = --plant ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  cp -r "$src/suite" "$tmp/suite"
  printf '#include "cli/family.hpp"\n' >"$tmp/suite/planted_layering.cpp"
  dir=$tmp/suite
fi
found=$(grep -rn --include='*.hpp' --include='*.cpp' --include='*.h' '^[[:space:]]*#[[:space:]]*include[[:space:]]*"cli/' "$dir")
if [ "${2:-}" = --plant ]; then
  if [ "$(printf '%s\n' "$found" | grep -c 'planted_layering.cpp')" = 1 ] && [ "$(printf '%s\n' "$found" | grep -c .)" = 1 ]; then
    echo "suite layering: the planted cli/ include was found"; exit 0
  fi
  echo "suite layering: the planted cli/ include was not the one reported: ${found:-nothing}"; exit 1
fi
if [ -n "$found" ]; then
  printf 'suite layering: suite/ includes a cli/ header:\n%s\n' "$found"; exit 1
fi
echo "suite layering: suite/ includes no cli/ header"
