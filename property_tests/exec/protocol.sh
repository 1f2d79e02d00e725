#!/usr/bin/env bash
# --exec (docs/protocol.md): harnesses in two languages pass; each negative control is caught with its first
# wrong case named (flags, request, both answers); every way a harness can break the protocol is one error
# line naming the last case sent and exit 1, never a hang; options that cannot go with --exec are exit 2.
#   protocol.sh BITEXACT SOURCE_DIR
set -uo pipefail
bin=$1 src=$2
py="python3 $src/examples/exec/harness.py" pl="perl $src/examples/exec/harness.pl"
hostile="python3 $src/property_tests/exec/hostile_harness.py"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
. "$(dirname "$0")/../script_lib.sh"

# Python: a field family and a search family, the quick tier, then the full tier of one.
run 0 py "$bin" selftest --exec "$py"
has py '^field25519/fe25519-py: PASS: 7118 asked, 7118 right, 0 wrong'
has py '^md5z/md5z-py: PASS: 88 asked, 88 right, 0 wrong'
has py '^selftest --exec PASSED: 2 implementation'
run 0 py_verify "$bin" verify field25519 --exec "$py" --exec-seed 9
has py_verify 'PASS: 9678 asked, 9678 right'
run 1 py_add "$bin" selftest --family field25519 --exec "$py --bug add-unreduced"
has py_add '^WRONG case [0-9]+ fe25519\.add \["'
has py_add '^  got  "[0-9a-f]{64}"'
has py_add '^  want "[0-9a-f]{64}"'
has py_add '^fe25519\.add +1532 +1532 +[1-9][0-9]* +WRONG'
has py_add '^selftest --exec FAILED'
run 1 py_search "$bin" selftest --family md5z --exec "$py --bug search-drops-last"
has py_search 'in the reference, not reported: \{"index":4294967295'
# Perl: the search family; its control is the classic zero count without the byte swap.
run 0 pl "$bin" selftest --exec "$pl"
has pl '^md5z/md5z-perl: PASS: 88 asked, 88 right'
run 1 pl_bug "$bin" selftest --exec "$pl --bug h0-no-bswap"
has pl_bug '^WRONG case [0-9]+ md5z\.candidate'
# docs/protocol.schema.json: every line bitexact writes and every line both example harnesses write
# conforms (schema_tap.py checks each line on its way through); a describe reply of protocol 2 does not.
tap="python3 $src/property_tests/exec/schema_tap.py $src/docs/protocol.schema.json"
run 0 tap_py "$bin" selftest --exec "$tap $py"
has tap_py '^schema_tap: [0-9]+ lines conform'
run 0 tap_pl "$bin" selftest --exec "$tap $pl"
has tap_pl '^schema_tap: [0-9]+ lines conform'
run 1 tap_err "$bin" selftest --exec "$tap $hostile error-answer"  # an answer entry with "error" conforms
has tap_err '^schema_tap: [0-9]+ lines conform'
run 1 tap_bad "$bin" selftest --exec "$tap $hostile bad-protocol"
has tap_bad "^schema_tap: the harness's line does not conform"
# bench: parity judged every round; a control fails it.
run 0 bench "$bin" bench field25519 --exec "$py" --rounds 3
has bench '^field25519/fe25519-py +fe25519\.mul +[0-9]+ +[0-9.]+ +[0-9.]+ +OK'
run 1 bench_bug "$bin" bench field25519 --exec "$py --bug add-unreduced" --rounds 3
has bench_bug '^PARITY FAILED: field25519/fe25519-py fe25519.add in round 1'

# A harness that breaks the protocol: one line naming what and the last case sent, exit 1.
hostile() {  # MODE PATTERN
  run 1 "h_$1" "$bin" selftest --exec "$hostile $1" --exec-timeout 2
  has "h_$1" "^bitexact: error: harness .*$2"
}
hostile exit-at-describe 'exited with status 3 before answering \(last case sent: describe\)'
hostile not-json "wrote a line that is not JSON: 'harness ready'"
hostile hang-at-describe 'did not answer within 2 s \(killed\) \(last case sent: describe\)'
hostile bad-protocol 'speaks protocol 2; this bitexact speaks 1'
hostile no-implementations 'lists no "implementations"'
hostile no-ops 'lists no ops'
hostile unknown-family "unknown family 'sha3'"
hostile unknown-op 'lists op "fe25519.frobnicate", which field25519.s cases do not have'
hostile characterised 'declares contract "characterised"'
hostile twice 'names implementation "h" twice'
hostile exit-1-at-end 'exited with status 1 after "end"'
hostile stays-at-end 'did not exit within 2 s of "end"'
hostile talks-at-end "wrote what nobody asked for: 'bye"
hostile crash-mid 'exited with status 139 before answering \(last case sent: case 300 \(fe25519.add\)\)'
has h_crash-mid 'segmentation fault \(pretend\)'  # its stderr is kept in the log
hostile hang-mid 'did not answer within 2 s \(killed\) \(last case sent: case 300'
hostile out-of-order 'answered out of order: case 4 \(fe25519.add\) was due, the answer names case 5'
hostile short-batch 'answered 99 of the batch.s 100 cases'
# Which of the three depends on when the second line arrives.
hostile two-lines '(answered out of order|wrote more than one line for one request|wrote what nobody asked for after its last reply: .* \(last case sent: case 100 )'
hostile partial-line "without a newline before answering"
# (its shell may still hold the pipe, so the end is the deadline or the end of its stdout: never a wait)
hostile close-stdout '(closed its stdout \(killed\)|did not answer within 2 s \(killed\)).*\(last case sent: case 100'
hostile deep 'wrote a line nested deeper than 64 levels'
hostile huge-number "wrote a line that is not JSON"
hostile no-answer 'answered case 2 \(fe25519.add\) with neither one "answer" nor one "error" string'
hostile type-number 'describe reply has no "type": "describe"'
# Not a protocol break, still a failure: nothing asked, or a case answered with an error.
run 1 h_nothing "$bin" selftest --exec "$hostile accepts-nothing"
has h_nothing 'nothing asked'
run 1 h_error "$bin" selftest --exec "$hostile error-answer"
has h_error '^  got  \{"error":"ValueError: this harness cannot add these"\}'
# Operations a harness does not list read "not provided", beside the one it passes.
run 0 h_ok "$bin" selftest --exec "$hostile ok"
has h_ok '^fe25519\.mul +1532 +0 +0 +not provided'
# Options that do not go with --exec: bad input, exit 2; a family the harness does not offer: exit 1.
run 2 x_plugin "$bin" selftest --exec "$py" --plugin /nonexistent.so
run 2 x_shard "$bin" verify md5z --exec "$pl" --shard 0/2
run 2 x_device "$bin" bench md5z --exec "$pl" --device cpu
run 2 x_variant "$bin" selftest --exec "$pl" --variant 'md5z/*'
run 1 x_family "$bin" selftest --exec "$pl" --family qpow
has x_family 'describes no implementation of qpow \(it offers md5z/md5z-perl\)'
echo "protocol.sh: all checks passed"
