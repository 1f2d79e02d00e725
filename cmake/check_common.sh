# Sourced by the shell checks of cmake/ (POSIX sh): fail MESSAGE (stderr, exit 1), jq present, and $T,
# a scratch directory removed on exit.
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
command -v jq >/dev/null 2>&1 || fail "jq not found (ci/deps installs it)"
T=$(mktemp -d) || fail "mktemp -d"
trap 'rm -rf "$T"' EXIT INT TERM
