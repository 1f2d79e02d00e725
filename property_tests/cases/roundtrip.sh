#!/usr/bin/env bash
# The offline round trip (docs/cases.md): export a field25519 prompt, answer it with a program that has no
# bitexact in it (examples/cases/answer_fe64), judge the response. It must pass; the responder built with
# a planted bug (encode assumes a tight input) must fail with the first wrong case named with its flags and
# both answers; a response with a missing, an extra or a duplicate answer is refused; judging against the
# exported expected document gives the same verdict as against the reference; bad documents are one error
# line and exit 2.
#   roundtrip.sh BITEXACT ANSWER ANSWER_BUG
set -uo pipefail
bin=$1 ans=$2 bug=$3
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# run WANT_RC OUTFILE CMD...: CMD's exit status must be WANT_RC (its output kept in OUTFILE and shown).
run() {
  local want=$1 out=$2; shift 2
  "$@" > "$out" 2>&1
  local rc=$?
  cat "$out"
  [ "$rc" = "$want" ] || fail "exit $rc, want $want: $*"
}
run 0 "$t/export.log" "$bin" cases export --family field25519 --tier full --seed 7 --out "$t/prompt.json" --expected "$t/expected.json"
[ "$(jq '.cases | length' "$t/prompt.json")" -gt 7000 ] || fail "the full prompt has too few cases"
jq -e '.cases[0] | has("answer") | not' "$t/prompt.json" > /dev/null || fail "a prompt carries an answer"
"$ans" "$t/prompt.json" > "$t/response.json" || fail "the responder failed"
run 0 "$t/judge.log" "$bin" cases judge "$t/prompt.json" "$t/response.json"
grep -q "cases judge PASSED: [0-9]* cases, [0-9]* right, 0 wrong, 0 refusal" "$t/judge.log" || fail "no PASSED line"
run 0 "$t/judge_expected.log" "$bin" cases judge "$t/prompt.json" "$t/response.json" --expected "$t/expected.json"
# The negative control: named with its id, operation, flags, request and both answers.
"$bug" "$t/prompt.json" > "$t/bug.json" || fail "the control responder failed"
run 1 "$t/bug.log" "$bin" cases judge "$t/prompt.json" "$t/bug.json"
grep -qE '^WRONG case [0-9]+ fe25519\.[a-z_0-9]+ \["[A-Za-z]+' "$t/bug.log" || fail "the control's first wrong case is not named with its flags"
grep -qE '^  got  "[0-9a-f]{64}"' "$t/bug.log" && grep -qE '^  want "[0-9a-f]{64}"' "$t/bug.log" || fail "both answers not shown"
grep -q "cases judge FAILED" "$t/bug.log" || fail "no FAILED line for the control"
# Refusals: a missing, an extra, a duplicate answer.
"$ans" "$t/prompt.json" --drop 5 > "$t/missing.json"
run 1 "$t/missing.log" "$bin" cases judge "$t/prompt.json" "$t/missing.json"
grep -q "REFUSED: 1 case(s) not answered (missing), the first: case 5" "$t/missing.log" || fail "a missing answer is not refused"
"$ans" "$t/prompt.json" --extra 99999999 > "$t/extra.json"
run 1 "$t/extra.log" "$bin" cases judge "$t/prompt.json" "$t/extra.json"
grep -q "REFUSED: answer for case 99999999, which the prompt does not have (extra)" "$t/extra.log" || fail "an extra answer is not refused"
jq '.answers += [.answers[0]]' "$t/response.json" > "$t/dup.json"
run 1 "$t/dup.log" "$bin" cases judge "$t/prompt.json" "$t/dup.json"
grep -q "REFUSED: case 1 answered more than once (duplicate)" "$t/dup.log" || fail "a duplicate answer is not refused"
# Bad input: one error line, exit 2.
echo "not json" > "$t/bad.json"
run 2 "$t/bad.log" "$bin" cases judge "$t/prompt.json" "$t/bad.json"
grep -q "^bitexact: error: response .*: not JSON" "$t/bad.log" || fail "non-JSON response not named"
run 2 "$t/nofile.log" "$bin" cases judge "$t/prompt.json" "$t/nonexistent.json"
jq '.family = "md5z"' "$t/response.json" > "$t/wrongfam.json"
run 2 "$t/wrongfam.log" "$bin" cases judge "$t/prompt.json" "$t/wrongfam.json"
# A search family: every hit of a range per case. The reference's own answers pass; a response that drops
# a hit (completeness), adds one (soundness) or repeats one (uniqueness) fails, naming what differs.
run 0 "$t/md5z_export.log" "$bin" cases export --family md5z --out "$t/mp.json" --expected "$t/me.json"
n=$(jq '[.answers[] | select(.answer | type == "array" and length > 2)] | .[0].id' "$t/me.json")
[ "$n" != null ] || fail "no md5z search case with hits"
jq '.kind = "response"' "$t/me.json" > "$t/mr.json"
run 0 "$t/md5z_pass.log" "$bin" cases judge "$t/mp.json" "$t/mr.json"
# An answer is a JSON value: the same answers with their objects' keys sorted ({"digest", "message",
# "zeros"}) are the same answers.
jq -S . "$t/mr.json" > "$t/sorted.json"
run 0 "$t/md5z_sorted.log" "$bin" cases judge "$t/mp.json" "$t/sorted.json"
edit() { jq --argjson n "$n" "(.answers[] | select(.id == \$n) | .answer) |= ($1)" "$t/mr.json" > "$t/$2.json"; }
edit '.[1:]' drop
run 1 "$t/drop.log" "$bin" cases judge "$t/mp.json" "$t/drop.json"
grep -qE "^  [0-9]+ reported, [0-9]+ in the reference; in the reference, not reported: \{\"index\":[0-9]+,\"zeros\":[0-9]+\}$" "$t/drop.log" || fail "a dropped hit is not named"
edit '. + [{"index": 4294967295, "zeros": 32}]' add
run 1 "$t/add.log" "$bin" cases judge "$t/mp.json" "$t/add.json"
grep -q 'reported, not in the reference: {"index":4294967295,"zeros":32}' "$t/add.log" || fail "an added hit is not named"
edit '. + [.[0]]' twice
run 1 "$t/twice.log" "$bin" cases judge "$t/mp.json" "$t/twice.json"
grep -q "reported more than once: " "$t/twice.log" || fail "a repeated hit is not named"
# qpow: windows across the nonce's word carries; the case says which precondition it leaves.
run 0 "$t/qpow_export.log" "$bin" cases export --family qpow --out "$t/qp.json" --expected "$t/qe.json"
jq -e '[.cases[] | select(.flags | index("Carry64")) | .precondition] | length > 0 and all(test("2\\^64"))' "$t/qp.json" > /dev/null ||
  fail "the qpow carry cases do not state the precondition they leave"
jq '.kind = "response"' "$t/qe.json" > "$t/qr.json"
run 0 "$t/qpow_pass.log" "$bin" cases judge "$t/qp.json" "$t/qr.json"
# q8parity: vectors and random matvec cases, bitwise; one flipped output bit is a wrong case.
run 0 "$t/q8_export.log" "$bin" cases export --family q8parity --out "$t/q8p.json" --expected "$t/q8e.json"
jq '.kind = "response"' "$t/q8e.json" > "$t/q8r.json"
run 0 "$t/q8_pass.log" "$bin" cases judge "$t/q8p.json" "$t/q8r.json"
jq '.answers[0].answer |= (.[0:7] + (if .[7:8] == "0" then "1" else "0" end) + .[8:])' "$t/q8r.json" > "$t/q8bit.json"
run 1 "$t/q8_bit.log" "$bin" cases judge "$t/q8p.json" "$t/q8bit.json"
grep -q "^WRONG case 1 q8.matvec" "$t/q8_bit.log" || fail "a flipped bit in a q8 answer is not a wrong case"
# ecvrf: decoder edges and scores at the nonce's word carry.
run 0 "$t/ecvrf_export.log" "$bin" cases export --family ecvrf --out "$t/ep.json" --expected "$t/ee.json"
jq '.kind = "response"' "$t/ee.json" > "$t/er.json"
run 0 "$t/ecvrf_pass.log" "$bin" cases judge "$t/ep.json" "$t/er.json"
echo "roundtrip: PASS"
