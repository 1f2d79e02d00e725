#!/usr/bin/env bash
# bench compare: a real bench document (qpow on the CPU) with its rates replaced by tight, known rounds (so
# the test does not depend on this machine's timing noise): an A/A comparison passes; a 3 % planted slowdown
# of one implementation fails naming it; a 1 % one passes at the default 2 % threshold; an improvement
# passes; an implementation missing from NEW fails; different CPU models, failed parity, a document that is
# not a bench document and a bad threshold are refused (exit 2).
#   compare.sh BITEXACT
set -uo pipefail
bin=$1
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
. "$(dirname "$0")/../script_lib.sh"
"$bin" bench qpow --device cpu --rounds 3 --json > "$t/real.json" 2>/dev/null || fail "bench --json failed"
jq -e '.bench.qpow.rows | length > 3' "$t/real.json" > /dev/null || fail "no qpow rows in the bench document"
jq -e '.build.version and .bench.qpow.cards.cpu' "$t/real.json" > /dev/null || fail "no build or CPU model in the bench document"
# Rounds with a 0.2 % spread, the same in BASE and NEW.
jq '(.bench[].rows[].rates) |= [100, 100.2, 99.8]' "$t/real.json" > "$t/base.json"
cp "$t/base.json" "$t/aa.json"
slow() { jq --arg impl "$1" --argjson f "$2" '(.bench[].rows[] | select(.implementation == $impl) | .rates) |= map(. * $f)' "$t/base.json"; }
slow qpow/gl64 0.97 > "$t/slow3.json"
slow qpow/gl64 0.99 > "$t/slow1.json"
slow qpow/gl64 1.10 > "$t/fast.json"
run 0 aa "$bin" bench compare "$t/base.json" "$t/aa.json"
has aa '^bench compare PASSED: [0-9]+ compared, 0 regression'
run 1 slow3 "$bin" bench compare "$t/base.json" "$t/slow3.json"
has slow3 '^qpow/gl64 +cpu .* 0\.9700 +\[0\.9661, 0\.9739\] +REGRESSION'
has slow3 '^bench compare FAILED: [0-9]+ compared, 1 regression'
run 0 slow1 "$bin" bench compare "$t/base.json" "$t/slow1.json"
run 1 slow1_tight "$bin" bench compare "$t/base.json" "$t/slow1.json" --threshold 0.5%
run 0 fast "$bin" bench compare "$t/base.json" "$t/fast.json"
has fast '^qpow/gl64 +cpu .* faster'
jq 'del(.bench.qpow.rows[0])' "$t/base.json" > "$t/missing.json"
run 1 missing "$bin" bench compare "$t/base.json" "$t/missing.json"
has missing 'MISSING in NEW'
# The same card under another driver or power limit: compared, and said.
facts() { jq --arg d "$1" '.bench.qpow.card_facts = {"gpu0": {"driver": $d, "cuda_driver": "13.0", "power_limit_w": 700}}' "$t/base.json"; }
facts 580.65.06 > "$t/drv_a.json"
facts 585.10.01 > "$t/drv_b.json"
run 0 driver "$bin" bench compare "$t/drv_a.json" "$t/drv_b.json"
has driver '^note: gpu0 runs driver 580\.65\.06, CUDA 13\.0, power limit 700 W in BASE but driver 585\.10\.01, CUDA 13\.0, power limit 700 W in NEW'
# Refusals: one error line, exit 2.
jq '.bench.qpow.cards.cpu = "another CPU"' "$t/base.json" > "$t/othercpu.json"
run 2 othercpu "$bin" bench compare "$t/base.json" "$t/othercpu.json"
has othercpu 'bitexact: error: bench compare: cpu is .* but another CPU'
jq '.bench.qpow.parity = false' "$t/base.json" > "$t/parity.json"
run 2 parity "$bin" bench compare "$t/base.json" "$t/parity.json"
has parity 'failed parity'
echo '{"verdict": "PASS"}' > "$t/notbench.json"
run 2 notbench "$bin" bench compare "$t/base.json" "$t/notbench.json"
run 2 nofile "$bin" bench compare "$t/base.json" "$t/nonexistent.json"
run 2 threshold "$bin" bench compare "$t/base.json" "$t/aa.json" --threshold 0
# The CI template's gate script (examples/github-actions/bench-gate.sh) on a short CPU bench: no BASE is a
# failure unless this run is declared the first; against a BASE twice as fast it flags the regression,
# against one half as fast it passes (factors of two: far beyond this machine's noise).
gate=$(dirname "$0")/../../examples/github-actions/bench-gate.sh
qargs=(qpow --device cpu --rounds 3)
run 1 gate_nobase bash "$gate" "$bin" "$t/none.json" "$t/g1.json" "${qargs[@]}"
has gate_nobase 'bench-gate: FAILED: BASE document .* not found'
BENCH_GATE_NO_BASE=store run 0 gate_first bash "$gate" "$bin" "$t/none.json" "$t/g1.json" "${qargs[@]}"
jq -e '.bench.qpow.rows | length > 3' "$t/g1.json" > /dev/null || fail "bench-gate kept no document"
jq '(.bench[].rows[].rates) |= map(. * 2)' "$t/g1.json" > "$t/g_fast_base.json"
jq '(.bench[].rows[].rates) |= map(. / 2)' "$t/g1.json" > "$t/g_slow_base.json"
run 1 gate_regression bash "$gate" "$bin" "$t/g_fast_base.json" "$t/g2.json" "${qargs[@]}"
has gate_regression 'REGRESSION'
run 0 gate_faster bash "$gate" "$bin" "$t/g_slow_base.json" "$t/g3.json" "${qargs[@]}"
echo "compare.sh: all checks passed"
