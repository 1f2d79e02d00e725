#!/bin/sh
# CTest cli_shard_merge (no GPU needed): for every family, a CPU verify split into 4 shards merges into
# exactly the unsharded run (`verify merge --same-as`: counts, disagreements, verdict), and the merge
# refuses what would hide lost or forged work:
#   a missing shard     -> exit 1, "gap"
#   a shard given twice -> exit 1, "overlap"
#   an edited shard     -> exit 2, "digest mismatch" (one error line)
#   a shard of a run with other parameters -> exit 1, "differs"
#   a merge compared with a run of other parameters (--same-as) -> exit 1
#   shard_merge_check.sh BITEXACT
# jq is required (ci/deps installs it) for the edit.
set -u
[ $# -eq 1 ] || { echo "usage: $0 BITEXACT" >&2; exit 2; }
BX=$1
# shellcheck source=check_common.sh
. "$(dirname "$0")/check_common.sh"  # fail, jq, $T

# expect_merge NAME RC PATTERN FILE... : `verify merge FILE...` exits RC and says PATTERN
expect_merge() {
  name=$1 want=$2 pat=$3
  shift 3
  "$BX" verify merge "$@" >"$T/merge.out" 2>&1
  rc=$?
  [ "$rc" = "$want" ] || { cat "$T/merge.out" >&2; fail "$name: verify merge exit $rc, want $want"; }
  grep -q -- "$pat" "$T/merge.out" || { cat "$T/merge.out" >&2; fail "$name: no '$pat' in the merge's output"; }
  echo "ok  $name (exit $rc: $(grep -m1 -- "$pat" "$T/merge.out" | cut -c1-110))"
}

# run NAME LOG ARGS... : bitexact ARGS, its output in LOG; a non-zero exit fails NAME
run() {
  name=$1 log=$2
  shift 2
  "$BX" "$@" >"$log" 2>&1 || { rc=$?; cat "$log" >&2; fail "$name: exit $rc"; }
}

# check FAMILY ARGS OTHER_ARGS : ARGS and OTHER_ARGS are word lists (no spaces inside an argument); OTHER_ARGS
# is the same run with one parameter changed
check() {
  fam=$1 args=$2 other=$3
  d=$T/$fam
  mkdir -p "$d"
  # shellcheck disable=SC2086 # the argument lists split on spaces by design
  {
    run "$fam: unsharded run" "$d/full.log" verify "$fam" $args --device cpu --quiet --result "$d/full.json"
    for i in 0 1 2 3; do
      run "$fam: shard $i/4" "$d/s$i.log" verify "$fam" $args --device cpu --quiet --shard "$i/4" --result "$d/s$i.json"
      grep -q "^shard: $i/4 from --shard $i/4" "$d/s$i.log" || fail "$fam: shard $i/4 does not say which shard it ran"
    done
    run "$fam: shard 2/4 of $other" "$d/other2.log" verify "$fam" $other --device cpu --quiet --shard 2/4 --result "$d/other2.json"
    run "$fam: $other" "$d/other.log" verify "$fam" $other --device cpu --quiet --result "$d/other.json"
  }
  # a shard that did work: every shard's document counts something (a merge of empty shards proves nothing)
  for i in 0 1 2 3; do
    jq -e '[.counts[][]] | add > 0' "$d/s$i.json" >/dev/null || fail "$fam: shard $i/4 counted nothing"
  done
  expect_merge "$fam: 4 shards = the unsharded run" 0 "the merge equals" "$d/s0.json" "$d/s1.json" "$d/s2.json" "$d/s3.json" --same-as "$d/full.json"
  expect_merge "$fam: shards in any order" 0 "the merge equals" "$d/s3.json" "$d/s1.json" "$d/s0.json" "$d/s2.json" --same-as "$d/full.json"
  expect_merge "$fam: shard 2/4 missing" 1 "gap" "$d/s0.json" "$d/s1.json" "$d/s3.json"
  expect_merge "$fam: shard 1/4 twice" 1 "overlap" "$d/s0.json" "$d/s1.json" "$d/s1.json" "$d/s2.json" "$d/s3.json"
  # the first counter of the first implementation, plus one; the digest no longer matches
  jq '(.counts | to_entries[0].key) as $i | (.counts[$i] | to_entries[0].key) as $k | .counts[$i][$k] += 1' \
    "$d/s2.json" >"$d/edited2.json" || fail "$fam: jq edit"
  expect_merge "$fam: shard 2/4 edited" 2 "digest mismatch" "$d/s0.json" "$d/s1.json" "$d/edited2.json" "$d/s3.json"
  [ "$(wc -l <"$T/merge.out")" = 1 ] || fail "$fam: the edited shard is not one error line"
  expect_merge "$fam: shard 2/4 of a run with $other" 1 "differs" "$d/s0.json" "$d/s1.json" "$d/other2.json" "$d/s3.json"
  expect_merge "$fam: merge vs a run with $other" 1 "merge vs" "$d/s0.json" "$d/s1.json" "$d/s2.json" "$d/s3.json" --same-as "$d/other.json"
}

check md5z "--bases 2 --range 0:65536 --threshold 3" "--bases 2 --range 0:65536 --threshold 4"
check qpow "--headers 1 --nonces 2^64-600:1200 --difficulty 64" "--headers 1 --nonces 2^64-600:1200 --difficulty 65"
check ecvrf "--keys 1 --nonces 0:256 --target 2^61" "--keys 1 --nonces 0:256 --target 2^60"
check field25519 "--ops 1e5" "--ops 1e5 --seed 7"
check q8parity "--rows 256 --k 256 --ntok 1..2" "--rows 256 --k 512 --ntok 1..2"
echo "shard merge: every family's 4 shards equal its unsharded run; gap, overlap, edit and parameter mismatch refused"
