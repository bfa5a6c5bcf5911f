#!/usr/bin/env python3
"""What `hwc-suite merge` reads, made from two results files, for
bench-results' merge figure: DIR/manifest.json of two one-case jobs on two
boards (a, b) and DIR/runs/<job>.log, the LAVA log of each with the case's
block as lava/hwct-case prints it (status, the results gzip'd, base64, a
line each, the md5sum). The merge then writes each results back, diffs each
against TRACE and board b's against board a's.

Usage: merge-input.py TRACE A.json B.json DIR
"""

import base64
import gzip
import hashlib
import json
import os
import sys


def block(name, path):
    """The console lines of one case whose results are the file at path."""
    with open(path, "rb") as f:
        data = gzip.compress(f.read(), compresslevel=6)
    lines = base64.encodebytes(data).decode().split()
    mark = "HWCT-CASE %s " % name
    yield mark + "begin"
    yield mark + "status 0"
    for line in lines:
        yield mark + "results " + line
    yield mark + "end %s %d" % (hashlib.md5(data).hexdigest(), len(lines))


def log_line(level, msg):
    return json.dumps({"dt": "2026-01-01T10:00:00.000000", "lvl": level, "msg": msg}) + "\n"


def main(trace, a, b, out):
    os.makedirs(os.path.join(out, "runs"), exist_ok=True)
    jobs = []
    for board, path in (("a", a), ("b", b)):
        name = "bench-%s" % board
        jobs.append({"name": name, "board": board, "shard": [1, 1],
                     "cases": [{"name": "pair", "trace": trace, "frames": "all", "expect": None}]})
        with open(os.path.join(out, "runs", name + ".log"), "w", encoding="utf-8") as f:
            for line in block("pair", path):
                f.write(log_line("target", line))
            f.write(log_line("results", {"case": "job", "definition": "lava", "result": "pass"}))
    with open(os.path.join(out, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump({"suite": "bench", "jobs": jobs}, f)


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__.strip().splitlines()[-1])
    main(*sys.argv[1:])
