#!/bin/sh
# CTest launcher of the gpu-labelled tests: ctest_gpu_launch.sh COMMAND [ARGS...]
# Under `ctest --resource-spec-file` a test declaring RESOURCE_GROUPS "gpus:1" is handed its GPU in
# CTEST_RESOURCE_GROUP_COUNT=1, CTEST_RESOURCE_GROUP_0=gpus, CTEST_RESOURCE_GROUP_0_GPUS=id:<id>,slots:<n>
# (';' between several GPUs); this sets CUDA_VISIBLE_DEVICES to those ids and execs COMMAND, so tests that
# run at once never share a GPU. Without CTEST_RESOURCE_GROUP_COUNT (no spec file) COMMAND runs unchanged.
# Ids are device indices as `bitexact list --ctest-resources` enumerated them, i.e. within the caller's
# CUDA_VISIBLE_DEVICES when that is set: then id k maps to its k-th entry, not to physical device k.
# A malformed or unexpected variable is one error line on stderr and exit 2; COMMAND is not run.
me=ctest_gpu_launch.sh
die() {
  printf '%s: error: %s\n' "$me" "$*" >&2
  exit 2
}
[ $# -ge 1 ] || die "usage: $me COMMAND [ARGS...]"
[ -n "${CTEST_RESOURCE_GROUP_COUNT+set}" ] || exec "$@"

[ "$CTEST_RESOURCE_GROUP_COUNT" = 1 ] ||
  die "CTEST_RESOURCE_GROUP_COUNT='$CTEST_RESOURCE_GROUP_COUNT': expected 1 (RESOURCE_GROUPS \"gpus:N\")"
case ",${CTEST_RESOURCE_GROUP_0-}," in
  *,gpus,*) ;;
  *) die "CTEST_RESOURCE_GROUP_0='${CTEST_RESOURCE_GROUP_0-}': expected a group holding gpus" ;;
esac

spec=${CTEST_RESOURCE_GROUP_0_GPUS-}
bad() { die "CTEST_RESOURCE_GROUP_0_GPUS='$spec': expected id:<device index>,slots:<n>[;...]"; }
ids=
rest=$spec
while :; do
  entry=${rest%%;*}
  case $entry in
    id:*,slots:*) ;;
    *) bad ;;
  esac
  id=${entry#id:}
  id=${id%%,slots:*}
  slots=${entry#*,slots:}
  case $id in '' | *[!0123456789]*) bad ;; esac
  case $slots in '' | *[!0123456789]*) bad ;; esac
  ids=${ids:+$ids,}$id
  [ "$rest" = "$entry" ] && break
  rest=${rest#*;}
done

if [ -n "${CUDA_VISIBLE_DEVICES+set}" ]; then  # ids index the caller's list of visible devices
  outer=$CUDA_VISIBLE_DEVICES
  mapped=
  oldifs=$IFS
  IFS=,
  set -f
  for id in $ids; do
    k=0 hit=
    for dev in $outer; do
      [ "$k" -eq "$id" ] 2>/dev/null && hit=$dev && break
      k=$((k + 1))
    done
    [ -n "$hit" ] || die "GPU id $id is not in CUDA_VISIBLE_DEVICES='$outer' (the spec must be written under the same CUDA_VISIBLE_DEVICES)"
    mapped=${mapped:+$mapped,}$hit
  done
  set +f
  IFS=$oldifs
  ids=$mapped
fi
CUDA_VISIBLE_DEVICES=$ids
export CUDA_VISIBLE_DEVICES
exec "$@"
