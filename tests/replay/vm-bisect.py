#!/usr/bin/env python3
"""vm-bisect.py HWC_BISECT HWC_REPLAY REPLAY_GEN VM_PREPARE VM_CACHE UNAVAILABLE_STATUS

The 'vm-bisect' test: hwc-bisect over four Debian kernel versions spanning
both lines, in the order a user would list them,

    6.1 (the installed one), 6.12 second newest, a bogus 6.12, 6.12 newest

with the known-good results of the rotated trace (replay-gen --rotate) on
6.1. Asserts that it names the second newest 6.12 as the first differing
build (6.12 puts the rotated tile on a plane; docs/vm-tests.md), in at most 3
replays, that it skips the bogus version (it cannot be prepared) and says so,
and leaves a results file per build tried whose kernel is the build's.

The versions come from `vm-prepare --kernel list`; the newest 6.12 is the one
vm-kernels prepares, so this test prepares one more version (the second
newest 6.12). Exit 0, 1 on a failed check, UNAVAILABLE_STATUS when no VM can
be prepared or booted here or the archive lacks the versions.
"""
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time

BOGUS = "6.12.0-0~bogus"


def fail(msg, out=""):
    print("vm-bisect: FAIL:", msg, file=sys.stderr)
    if out:
        print("--- hwc-bisect's output:\n" + out, file=sys.stderr)
    sys.exit(1)


def main():
    bisect, replay, gen, prepare, cache, unavailable = sys.argv[1:7]
    unavailable = int(unavailable)
    cache = os.path.realpath(cache)
    env = dict(os.environ, HWCT_VM_CACHE=cache)
    p = subprocess.run([prepare, "--cache", cache, "--kernel", "list"], capture_output=True, text=True)
    if p.returncode != 0:
        print(p.stderr, file=sys.stderr)
        sys.exit(unavailable)
    rows = [line.split(None, 2) for line in p.stdout.splitlines()[1:] if line.strip()]
    v61 = [r[0] for r in rows if r[0].startswith("6.1.") and r[2:] == ["yes (the default)"]]
    v61 = v61 or [r[0] for r in rows if r[0].startswith("6.1.")]
    v612 = [r[0] for r in rows if r[0].startswith("6.12.")]
    if not v61 or len(v612) < 2:
        print(f"vm-bisect: the archive lacks a 6.1 or two 6.12 versions:\n{p.stdout}", file=sys.stderr)
        sys.exit(unavailable)
    builds = [v61[0], v612[1], BOGUS, v612[0]]

    tmp = pathlib.Path(tempfile.mkdtemp(prefix="vm-bisect."))
    try:
        trace, good, out = tmp / "rotated.zst", tmp / "good.json", tmp / "out"
        subprocess.run([gen, str(trace), "--layers", "3", "--frames", "4", "--rotate"], check=True)
        r = subprocess.run([replay, str(trace), "--vm", "--quiet", "--results", str(good)], env=env,
                           capture_output=True, text=True)
        if r.returncode in (125, 77):
            print(r.stderr, file=sys.stderr)
            sys.exit(unavailable)
        if r.returncode != 0:
            fail(f"the reference replay on 6.1 exited {r.returncode}: {r.stderr}")

        start = time.monotonic()
        b = subprocess.run([bisect, str(trace), "--good", str(good), "--out", str(out), *builds],
                           env=env, capture_output=True, text=True)
        secs = time.monotonic() - start
        text = b.stdout + b.stderr
        print(text, file=sys.stderr, end="")
        print(f"vm-bisect: hwc-bisect took {secs:.0f} s", file=sys.stderr)
        real_skips = [v for v in builds if v != BOGUS and f"] kernel {v}: skipped" in text]
        if real_skips:
            print(f"vm-bisect: {', '.join(real_skips)} cannot be tested here: skipped", file=sys.stderr)
            sys.exit(unavailable)
        if b.returncode != 0:
            fail(f"hwc-bisect exited {b.returncode}, not 0", text)
        if f"first differing build: kernel {v612[1]}\n" not in text:
            fail(f"the first differing build is not {v612[1]}", text)
        m = re.search(r"^replays: (\d+) of 4 builds, skipped 1: kernel (\S+)$", text, re.M)
        if not m or int(m.group(1)) > 3 or m.group(2) != BOGUS:
            fail("not at most 3 replays with the bogus version skipped", text)
        if not re.search(r"first difference: frame 0: layer \d+: expected client \([a-z,-]+\), got plane \d+", text):
            fail("the first difference does not say client against plane on frame 0", text)
        for i, v in enumerate(builds):
            res = out / f"{i + 1}-kernel_{v}.json"
            if f"] kernel {v}: " not in text:
                continue
            if v == BOGUS:
                if not (out / f"{i + 1}-kernel_{v}.log").exists():
                    fail("no log for the skipped version")
                continue
            kernel = json.loads(res.read_text())["replay_environment"]["kernel"]
            if f"Debian {v} " not in kernel:
                fail(f"{res.name} ran '{kernel}', not {v}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("vm-bisect: all checks passed", file=sys.stderr)


if __name__ == "__main__":
    main()
