#!/usr/bin/env bash
# The oracle answers for plugin implementations beside the built-in ones: a field op, a qpow hash, MD5 and
# an md5z candidate, each reply carrying the plugin's own full answer under "impl" and agree = true; an op
# the plugin does not provide reads "not provided" (the consumer-style mul-only case is covered by the
# selftest tests). Negative control: the md5z plugin whose precomputation pads wrongly makes the candidate
# reply disagree.
# An ecvrf plugin answers ecvrf.score through its vrf_beta; the tie control's vrf_beta is right, so it
# answers the reference's beta and score too (its bug is in the search's comparison, caught by the selftest).
# It answers the point operations too: a y that differs from p in byte 2 alone decodes; the decoder control
# rejects it, and the reply disagrees. A q8parity plugin answers q8.rmsnorm bit for bit; its reassociation
# control disagrees.
#   oracle_check.sh BITEXACT FIELD_PLUGIN QPOW_PLUGIN MD5Z_PLUGIN MD5Z_CONTROL ECVRF_PLUGIN ECVRF_CONTROL Q8_PLUGIN Q8_CONTROL
#                   ECVRF_DECODE_CONTROL
set -euo pipefail
bin=$1 fe=$2 qp=$3 mz=$4 mzbad=$5 ev=$6 evbad=$7 q8=$8 q8bad=$9 evdec=${10}
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
# expect PLUGIN REQUESTS LINE JQ WHAT: the oracle with PLUGIN loaded answers REQUESTS (one per line); reply
# LINE must satisfy JQ, else WHAT is the failure.
expect() {
  local out
  out=$("$bin" oracle --device cpu --plugin "$1" <<<"$2")
  jq -e "$4" >/dev/null <<<"$(sed -n "$3p" <<<"$out")" || { echo "FAIL: $5"; echo "$out"; exit 1; }
}
base=$(echo '{"op":"md5z.base","seed":7}' | "$bin" oracle --device cpu | jq -r .base)
md5z_req=$(printf '%s\n' '{"op":"md5","data":"616263"}' "{\"op\":\"md5z.candidate\",\"base\":\"$base\",\"index\":4294967295}")
expect "$mz" "$md5z_req" 1 '.agree == true and (.impl["md5z/tunnel-c@cpu"] == .ref)' "the md5z plugin's MD5 answer is missing or differs"
expect "$mz" "$md5z_req" 2 '.agree == true and (.impl["md5z/tunnel-c@cpu"].digest == .ref.digest)' \
  "the md5z plugin's candidate answer is missing or differs"
expect "$mzbad" "$md5z_req" 2 '.agree == false' "the md5z negative control's candidate reply agrees"
sk=9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60
ev_req="{\"op\":\"ecvrf.score\",\"sk\":\"$sk\",\"header\":\"$h\",\"nonce\":\"4294967296\"}"
expect "$ev" "$ev_req" 1 '.agree == true and (.impl["ecvrf/fe32-w4-miner@cpu"] == .ref)' "the ecvrf plugin's score answer is missing or differs"
expect "$evbad" "$ev_req" 1 '.impl["ecvrf/fe32-w4-miner-bug-tie@cpu"] == .ref' \
  "the ecvrf tie control's vrf_beta (which is right) answers otherwise"
edge="{\"op\":\"ed25519.decode\",\"point\":\"edfffe$(printf 'ff%.0s' $(seq 28))7f\"}"
expect "$ev" "$edge" 1 '.agree == true and (.impl["ecvrf/fe32-w4-miner@cpu"] == .ref)' "the ecvrf plugin's decode answer is missing or differs"
expect "$evdec" "$edge" 1 '.agree == false and .impl["ecvrf/fe32-w4-miner-bug-decode@cpu"].rejected == "y_not_below_p"' \
  "the ecvrf decoder control's decode reply agrees"
x=3f8ccccd3fb3333340490fdb3e99999ac02000003f1d70a4412000003dcccccd3f7d70a4bf4ccccd  # 1.1 1.4 pi 0.3 -2.5 ...
w=3dcccccd412000003f1d70a4c02000003e99999a40490fdb3fb333333f8ccccd3f7d70a4bf4ccccd
q8_req="{\"op\":\"q8.rmsnorm\",\"x\":\"$x\",\"w\":\"$w\",\"eps\":\"358637bd\"}"
expect "$q8" "$q8_req" 1 '.agree == true and (.impl["q8parity/q8-c@cpu"] == .ref)' "the q8parity plugin's rmsnorm answer is missing or differs"
expect "$q8bad" "$q8_req" 1 '.agree == false' "the q8parity negative control's rmsnorm reply agrees"
echo "oracle answers for plugins: OK"
