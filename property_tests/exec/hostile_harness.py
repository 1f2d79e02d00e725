#!/usr/bin/env python3
"""Harnesses that break bitexact's protocol (docs/protocol.md), one way each, for property_tests/exec/protocol.sh.
Every mode but the last three is a failure bitexact must name in one line, exit 1, without hanging.

  hostile_harness.py MODE
"""
import json
import os
import sys
import time

mode = sys.argv[1]
ADD = "fe25519.add"


def impl(**kw):
    d = {"name": "h", "family": "field25519", "ops": [ADD]}
    d.update(kw)
    return d


describes = {
    "bad-protocol": {"bitexact_protocol": 2, "type": "describe", "implementations": [impl()]},
    "no-implementations": {"bitexact_protocol": 1, "type": "describe", "implementations": []},
    "no-ops": {"bitexact_protocol": 1, "type": "describe", "implementations": [impl(ops=[])]},
    "unknown-family": {"bitexact_protocol": 1, "type": "describe", "implementations": [impl(family="sha3")]},
    "unknown-op": {"bitexact_protocol": 1, "type": "describe", "implementations": [impl(ops=[ADD, "fe25519.frobnicate"])]},
    "characterised": {"bitexact_protocol": 1, "type": "describe", "implementations": [impl(contract="characterised")]},
    "twice": {"bitexact_protocol": 1, "type": "describe", "implementations": [impl(), impl()]},
    # Declares it accepts no precondition: every field case has one, so nothing is asked (a failure).
    "accepts-nothing": {"bitexact_protocol": 1, "type": "describe", "implementations": [impl(preconditions=[])]},
}
P = 2**255 - 19


def add(r):
    return ((int.from_bytes(bytes.fromhex(r["a"]), "little") + int.from_bytes(bytes.fromhex(r["b"]), "little")) % P).to_bytes(32, "little").hex()


def send(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "describe":
        if mode == "type-number":
            send({"bitexact_protocol": 1, "type": 5, "implementations": [impl()]})
            continue
        if mode == "exit-at-describe":
            sys.exit(3)
        if mode == "not-json":
            print("harness ready", flush=True)  # a debug print on stdout
            continue
        if mode == "hang-at-describe":
            time.sleep(3600)
        send(describes.get(mode, {"bitexact_protocol": 1, "type": "describe", "implementations": [impl(max_batch=100)]}))
        continue
    if msg["type"] == "end":
        if mode == "exit-1-at-end":
            sys.exit(1)
        if mode == "talks-at-end":
            print("bye", flush=True)
        if mode == "stays-at-end":
            time.sleep(3600)
        sys.exit(0)
    cases = msg["cases"]
    answers = [{"id": c["id"], "answer": add(c["request"])} for c in cases]
    if mode == "close-stdout":  # closes its stdout and stays: bitexact must not wait for it
        sys.stdout.close()
        os.close(1)
        time.sleep(3600)
    if mode == "deep":
        sys.stdout.write('{"type": "answers", "answers": ' + "[" * 100000 + "]" * 100000 + "}\n")
        sys.stdout.flush()
        continue
    if mode == "huge-number":
        sys.stdout.write('{"type": "answers", "answers": [{"id": 1, "answer": 1e400}]}\n')
        sys.stdout.flush()
        continue
    if mode == "no-answer":
        answers[1] = {"id": cases[1]["id"]}
    if mode == "crash-mid" and cases[0]["id"] > 200:
        print("harness: segmentation fault (pretend)", file=sys.stderr, flush=True)
        sys.exit(139)
    if mode == "hang-mid" and cases[0]["id"] > 200:
        time.sleep(3600)
    if mode == "out-of-order":
        answers[3], answers[4] = answers[4], answers[3]
    if mode == "short-batch":
        answers = answers[:-1]
    if mode == "two-lines":
        send({"type": "answers", "answers": answers})
    if mode == "partial-line":
        sys.stdout.write(json.dumps({"type": "answers"})[:10])
        sys.stdout.flush()
        sys.exit(0)
    if mode == "error-answer" and cases[0]["id"] == 1:
        answers[2] = {"id": cases[2]["id"], "error": "ValueError: this harness cannot add these"}
    send({"type": "answers", "answers": answers})
