#!/usr/bin/env python3
"""A bitexact harness in Python: two implementations behind bitexact's JSON-lines protocol (docs/protocol.md).

  bitexact selftest --exec "python3 examples/exec/harness.py"          # the quick tier of both
  bitexact verify field25519 --exec "python3 examples/exec/harness.py"   # the full tier of one family
  bitexact bench md5z --exec "python3 examples/exec/harness.py"

fe25519-py answers the field25519 operations with Python integers; md5z-py builds md5z candidates (the
Q9 tunnel: three message words recomputed per index) and searches index ranges with hashlib. A real
harness calls its kernel where these call Python; the protocol part (main) stays as it is.

--bug add-unreduced      a negative control: add subtracts p only past 2^255, so a sum in [p, 2^255) is
                         returned unreduced (encode assumed a tight input). bitexact must report it wrong.
--bug search-drops-last  a negative control: a search never looks at the last index of its range.
"""
import argparse
import hashlib
import json
import sys

PROTOCOL = 1

# ---- field25519: canonical little-endian bytes in, canonical bytes out --------------------------------
P = 2**255 - 19
SQRT_M1 = pow(2, (P - 1) // 4, P)


def fe(hexstr):
    return int.from_bytes(bytes.fromhex(hexstr), "little")


def enc(v):
    return (v % P).to_bytes(32, "little").hex()


def pow22523(a):
    return pow(a, (P - 5) // 8, P)


def sqrt_ratio(u, v):
    # x = u v^3 (u v^7)^((p-5)/8); a root of u/v when v x^2 = u, of -u/v times sqrt(-1) when v x^2 = -u.
    u, v = u % P, v % P
    x = u * pow(v, 3, P) * pow22523(u * pow(v, 7, P)) % P
    vx2 = v * x * x % P
    if vx2 == u:
        return {"was_square": True, "root": enc(x)}
    if vx2 == (-u) % P:
        return {"was_square": True, "root": enc(x * SQRT_M1)}
    return {"was_square": False, "root": enc(x)}


def add_unreduced(a, b):
    s = a + b
    if s >= 2**255:  # the planted bug: one subtraction, at 2^255 instead of at p
        s -= P
    return s.to_bytes(32, "little").hex()


def field_ops(bug):
    a = lambda r: fe(r["a"])
    b = lambda r: fe(r["b"])
    return {
        "fe25519.add": (lambda r: add_unreduced(a(r), b(r))) if bug == "add-unreduced" else (lambda r: enc(a(r) + b(r))),
        "fe25519.sub": lambda r: enc(a(r) - b(r)),
        "fe25519.mul": lambda r: enc(a(r) * b(r)),
        "fe25519.neg": lambda r: enc(-a(r)),
        "fe25519.sqr": lambda r: enc(a(r) * a(r)),
        "fe25519.mul_small": lambda r: enc(a(r) * 121665),
        "fe25519.invert": lambda r: enc(pow(a(r), P - 2, P)),
        "fe25519.pow22523": lambda r: enc(pow22523(a(r))),
        "fe25519.sqrt_ratio": lambda r: sqrt_ratio(a(r), b(r)),
        "fe25519.canonical": lambda r: enc(a(r)),
    }


# ---- md5z: candidate (base, index) and every hit of a range ------------------------------------------
M32 = 0xFFFFFFFF
S = [7, 12, 17, 22] * 4 + [5, 9, 14, 20] * 4 + [4, 11, 16, 23] * 4 + [6, 10, 15, 21] * 4
K = [int(abs(__import__("math").sin(t + 1)) * 2**32) & M32 for t in range(64)]
IV = (0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476)


def rotr(x, s):
    return ((x >> s) | (x << (32 - s))) & M32


def rotl(x, s):
    return ((x << s) | (x >> (32 - s))) & M32


def F(x, y, z):
    return (x & y) | (~x & z & M32)


class Base:
    """A base's words and its state Q[-3..13] (steps 0..12 forward), checked for the tunnel conditions."""

    def __init__(self, hexstr):
        raw = bytes.fromhex(hexstr)
        if len(raw) != 52:
            raise ValueError("a base is 52 bytes")
        self.m = [int.from_bytes(raw[4 * i:4 * i + 4], "little") for i in range(13)]
        q = {-3: IV[0], -2: IV[3], -1: IV[2], 0: IV[1]}
        for t in range(13):
            q[t + 1] = (q[t] + rotl((q[t - 3] + F(q[t], q[t - 1], q[t - 2]) + K[t] + self.m[t]) & M32, S[t])) & M32
        if q[10] != 0 or q[11] != M32:
            raise ValueError("not a base (Q[10] != 0 or Q[11] != 0xffffffff)")
        self.q = q
        self.c8 = (q[5] + K[8]) & M32
        self.c9 = K[9]
        self.c12 = (K[12] + F(q[12], q[11], q[10])) & M32

    def message(self, i):
        q = self.q
        m = list(self.m)
        m[8] = (rotr((i - q[8]) & M32, S[8]) - self.c8 - F(q[8], q[7], q[6])) & M32
        m[9] = (rotr((0 - i) & M32, S[9]) - q[6] - F(i, q[8], q[7]) - self.c9) & M32
        m[12] = (rotr((q[13] - q[12]) & M32, S[12]) - i - self.c12) & M32
        return b"".join(w.to_bytes(4, "little") for w in m)


def zeros(digest_hex):
    return len(digest_hex) - len(digest_hex.lstrip("0"))


def md5z_ops(bug):
    bases = {}

    def base(h):
        if h not in bases:
            bases[h] = Base(h)
        return bases[h]

    def candidate(r):
        msg = base(r["base"]).message(r["index"])
        d = hashlib.md5(msg).hexdigest()
        return {"message": msg.hex(), "digest": d, "zeros": zeros(d)}

    def search(r):
        b, lo, hi, t = base(r["base"]), r["lo"], r["hi"], r["threshold"]
        if bug == "search-drops-last":
            hi -= 1
        hits = []
        for i in range(lo, hi):
            z = zeros(hashlib.md5(b.message(i)).hexdigest())
            if z >= t:
                hits.append({"index": i, "zeros": z})
        return hits

    return {"md5z.candidate": candidate, "md5z.search": search}


# ---- the protocol: one JSON object per line each way ------------------------------------------------
def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bug", choices=["add-unreduced", "search-drops-last"])
    ap.add_argument("--max-batch", type=int, default=4096, help="cases per request fe25519-py asks for (1: one request per case)")
    args = ap.parse_args()
    bug = args.bug
    impls = {
        "fe25519-py": ("field25519", field_ops(bug)),
        "md5z-py": ("md5z", md5z_ops(bug)),
    }
    describe = {
        "bitexact_protocol": PROTOCOL,
        "type": "describe",
        "implementations": [
            {"name": "fe25519-py", "family": "field25519", "ops": list(impls["fe25519-py"][1]),
             "preconditions": ["canonical", "below 2^255"], "contract": "bit-exact", "max_batch": args.max_batch,
             "description": "Python integers" + (" (negative control: add-unreduced)" if bug == "add-unreduced" else "")},
            {"name": "md5z-py", "family": "md5z", "ops": list(impls["md5z-py"][1]), "contract": "bit-exact", "max_batch": 64,
             "description": "hashlib over Q9-tunnel candidates" + (" (negative control: search-drops-last)" if bug == "search-drops-last" else "")},
        ],
    }
    out = sys.stdout
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "describe":
            reply = describe
        elif kind == "cases":
            ops = impls[msg["impl"]][1]
            answers = []
            for c in msg["cases"]:
                try:
                    answers.append({"id": c["id"], "answer": ops[c["request"]["op"]](c["request"])})
                except Exception as e:  # one case it cannot answer is that case's error, not the harness's end
                    answers.append({"id": c["id"], "error": f"{type(e).__name__}: {e}"})
            reply = {"type": "answers", "answers": answers}
        elif kind == "end":
            return 0
        else:
            print(f"harness.py: unknown request type {kind!r}", file=sys.stderr)
            return 2
        out.write(json.dumps(reply, separators=(",", ":")) + "\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
