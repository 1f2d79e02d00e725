#!/usr/bin/env bash
#SBATCH --job-name=bitexact-verify
#SBATCH --array=0-3
#SBATCH --gres=gpu:1
#SBATCH --cpus-per-task=8
#SBATCH --time=04:00:00
#SBATCH --output=bitexact-verify-%A_%a.out
#SBATCH --error=bitexact-verify-%A_%a.out
#
# One bitexact verify run split over a Slurm job array: array task i runs part i of n (n = the number
# of array tasks), with the shard read by bitexact itself from SLURM_ARRAY_TASK_ID and
# SLURM_ARRAY_TASK_MIN/_MAX (or _COUNT), and writes $RESULTS/shard-$SLURM_ARRAY_TASK_ID.json.
# `verify-array.sh merge` then runs `bitexact verify merge` over those files: it passes only when the
# shards cover the declared range exactly once, with the same parameters, and every shard passed;
# it writes $RESULTS/merged.json.
#
# Submit from the directory the results should go under (RESULTS must be the same for both jobs;
# sbatch passes the environment on, --export=ALL is its default):
#
#   export RESULTS=$PWD/bitexact-results/run-$(date +%Y%m%d-%H%M%S)
#   jid=$(sbatch --parsable examples/slurm/verify-array.sh)
#   sbatch --dependency=afterok:${jid%%;*} --job-name=bitexact-merge --output=bitexact-merge-%j.out \
#          --wrap="$PWD/examples/slurm/verify-array.sh merge"
#
# The merge is a --wrap job so that it does not inherit this file's #SBATCH lines (no array, no GPU).
# afterok runs it only when every shard exited 0; with afterany it also runs after a failed shard and
# names it (a shard that wrote no file shows as a gap).
#
# Environment:
#   BITEXACT     the binary (default: bitexact on PATH)
#   FAMILY       the family to verify (default: md5z)
#   VERIFY_ARGS  the family's options (default: a GPU-sized md5z run, 4 bases x the whole 2^32 range);
#                no --shard here: the shard comes from Slurm's variables
#   RESULTS      directory for the shard results, logs and merged.json
#                (default: $SLURM_SUBMIT_DIR/bitexact-results/$FAMILY); use a fresh one per run: merge
#                reads every shard-*.json in it
#
# Other array sizes: `sbatch --array=0-7 ...` splits into 8 parts; nothing else changes.
set -euo pipefail

BITEXACT=${BITEXACT:-bitexact}
FAMILY=${FAMILY:-md5z}
VERIFY_ARGS=${VERIFY_ARGS:---bases 4 --range 0:2^32 --threshold 6 --device gpu}
RESULTS=${RESULTS:-${SLURM_SUBMIT_DIR:-$PWD}/bitexact-results/$FAMILY}

die() {
  echo "verify-array.sh: error: $*" >&2
  exit 2
}

mode=${1:-shard}
case $mode in
  shard)
    if [ -z "${SLURM_ARRAY_TASK_ID:-}" ]; then
      die "SLURM_ARRAY_TASK_ID is not set: this is not a Slurm array task. Submit with
  sbatch examples/slurm/verify-array.sh            (its #SBATCH --array gives the shards)
or run one shard by hand with SLURM_ARRAY_TASK_ID=i SLURM_ARRAY_TASK_COUNT=n set,
or run the merge step with: verify-array.sh merge"
    fi
    read -r -a args <<<"$VERIFY_ARGS"
    for a in "${args[@]}"; do
      case $a in --shard | --shard=* | --result | --result=*)
        die "VERIFY_ARGS must not contain $a: the shard comes from Slurm's variables and the result goes to \$RESULTS" ;;
      esac
    done
    mkdir -p "$RESULTS"
    out=$RESULTS/shard-$SLURM_ARRAY_TASK_ID.json
    log=$RESULTS/shard-$SLURM_ARRAY_TASK_ID.log
    rm -f "$out"  # a run that dies early leaves no stale file behind (the merge then reports a gap)
    echo "verify-array.sh: job ${SLURM_ARRAY_JOB_ID:-?} task $SLURM_ARRAY_TASK_ID on $(hostname): $BITEXACT verify $FAMILY $VERIFY_ARGS --result $out"
    rc=0
    "$BITEXACT" verify "$FAMILY" "${args[@]}" --result "$out" 2>&1 | tee "$log" || rc=$?
    if [ "$rc" -eq 0 ] && ! grep -q '^shard: .* from SLURM_ARRAY_TASK_ID' "$log"; then
      die "$BITEXACT did not run as a shard of the Slurm array (no 'shard: ... from SLURM_ARRAY_TASK_ID' line; see $log)"
    fi
    exit "$rc"
    ;;
  merge)
    shopt -s nullglob
    files=("$RESULTS"/shard-*.json)
    [ ${#files[@]} -gt 0 ] || die "no shard results in $RESULTS (RESULTS must be the same as for the array job)"
    echo "verify-array.sh: merging ${#files[@]} shard result(s) from $RESULTS"
    exec "$BITEXACT" verify merge --result "$RESULTS/merged.json" "${files[@]}"
    ;;
  *)
    die "usage: verify-array.sh [shard|merge] (shard, the default, is what each array task runs)"
    ;;
esac
