#!/usr/bin/env python3
"""Sits between bitexact and a harness and checks every line both ways against docs/protocol.schema.json:
what bitexact writes against #/$defs/request, what the harness writes against #/$defs/reply. A line that
does not conform is reported on stderr and ends the tap with status 3 (so bitexact's run fails).

  schema_tap.py SCHEMA COMMAND...     (bitexact selftest --exec "python3 schema_tap.py SCHEMA python3 harness.py")
"""
import json
import subprocess
import sys

import jsonschema

schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)


def validator(name):
    return jsonschema.Draft202012Validator({"$ref": f"#/$defs/{name}", "$defs": schema["$defs"]})


request, reply = validator("request"), validator("reply")
child = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
checked = 0


def check(v, line, who):
    global checked
    errors = sorted(v.iter_errors(json.loads(line)), key=lambda e: e.path)
    if errors:
        print(f"schema_tap: {who} line does not conform: {errors[0].message}: {line[:200]}", file=sys.stderr)
        child.kill()
        sys.exit(3)
    checked += 1


for line in sys.stdin:
    check(request, line, "bitexact's")
    child.stdin.write(line)
    child.stdin.flush()
    if json.loads(line)["type"] == "end":
        break
    answer = child.stdout.readline()
    check(reply, answer, "the harness's")
    sys.stdout.write(answer)
    sys.stdout.flush()
child.stdin.close()
rc = child.wait()
print(f"schema_tap: {checked} lines conform", file=sys.stderr)
sys.exit(rc)
