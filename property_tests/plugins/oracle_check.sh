#!/usr/bin/env bash
# The oracle answers for plugin implementations beside the built-in ones: a field op and a qpow hash, each
# reply carrying the plugin's own full answer under "impl" and agree = true; an op the plugin does not
# provide reads "not provided" (the consumer-style mul-only case is covered by the selftest tests).
#   oracle_check.sh BITEXACT FIELD_PLUGIN QPOW_PLUGIN
set -euo pipefail
bin=$1 fe=$2 qp=$3
a=0200000000000000000000000000000000000000000000000000000000000000
b=ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f
h=$(printf '11%.0s' $(seq 32))
n=$(printf '00%.0s' $(seq 63))07
out=$(printf '%s\n' "{\"op\":\"fe25519.mul\",\"a\":\"$a\",\"b\":\"$b\"}" "{\"op\":\"qpow.hash\",\"header\":\"$h\",\"nonce\":\"$n\"}" |
  "$bin" oracle --device cpu --plugin "$fe" --plugin "$qp")
echo "$out"
line1=$(echo "$out" | sed -n 1p) line2=$(echo "$out" | sed -n 2p)
echo "$line1" | jq -e '.agree == true and (.impl["field25519/fe64-saturated@cpu"] == .ref)' >/dev/null ||
  { echo "FAIL: the field plugin's answer is missing or differs"; exit 1; }
echo "$line2" | jq -e '.agree == true and (.impl["qpow/gl64-miner@cpu"] == .ref)' >/dev/null ||
  { echo "FAIL: the qpow plugin's answer is missing or differs"; exit 1; }
echo "oracle answers for plugins: OK"
