#!/usr/bin/env bash
# Shards and merges work unchanged for a plugin: two shards of a qpow verify with the plugin beside a
# built-in variant merge to the unsharded run's counts (verify merge --same-as), the plugin's row included.
#   shard_merge_check.sh BITEXACT QPOW_PLUGIN
set -euo pipefail
bin=$1 plugin=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
run=(verify qpow --device cpu --plugin "$plugin" --variant gl64 --headers 1 --nonces 2^64-3000:6000 --difficulty 8 --quiet)
"$bin" "${run[@]}" --result "$dir/all.json" >/dev/null
"$bin" "${run[@]}" --shard 0/2 --result "$dir/s0.json" >/dev/null
"$bin" "${run[@]}" --shard 1/2 --result "$dir/s1.json" >/dev/null
out=$("$bin" verify merge "$dir/s0.json" "$dir/s1.json" --same-as "$dir/all.json")
echo "$out"
grep -q "qpow/gl64-miner@cpu" <<<"$out" || { echo "FAIL: the plugin's row is missing from the merge"; exit 1; }
grep -q "verify merge PASSED" <<<"$out" || { echo "FAIL: the merge did not pass"; exit 1; }
