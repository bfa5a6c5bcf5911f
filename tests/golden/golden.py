#!/usr/bin/env python3
"""golden.py BUILD_DIR CASE | --update BUILD_DIR [CASE...] | --list

Golden outputs of the analyzers and of a profile replay on the reference traces
(traces/home.zst, traces/video.zst): `hwc-trace info`, `hwc-trace dump` of the first two
frames, `hwc-trace stats --json`, and the results of `hwc-replay --profile` on the vkms 6.1
board with overlays, whose host-dependent members (replay environment, tool version, timings,
wall time) are masked. Each golden file starts with "#golden" lines naming the command and its
inputs; the rest is the expected output, byte for byte.

CASE alone: runs the command from the source root and diffs its output against
tests/golden/CASE.txt; exit 0 when equal, 1 with a unified diff otherwise. --update rewrites
the golden files (all, or the cases named): the one command that regenerates them, to run
after a change of output made on purpose (the diff then shows it in review).
"""
import difflib
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(os.path.dirname(HERE))
BOARD = "tests/data/boards/vkms-6.1-overlays.json"
TRACES = ("home", "video")
# results members that depend on the host or the run, not on the trace and the board
MASKED = {"replay_environment", "tool", "wall_ns", "fps", "timing"}


def commands(build):
    tool = os.path.relpath(os.path.join(build, "analyzers", "hwc-trace"), SRC)
    replay = os.path.relpath(os.path.join(build, "replayer", "hwc-replay"), SRC)
    cases = {}
    for t in TRACES:
        trace = "traces/%s.zst" % t
        cases["info-" + t] = ([tool, "info", trace], None)
        cases["dump-" + t] = ([tool, "dump", trace, "--frames", "0-1", "--no-blob-data"], None)
        cases["stats-" + t] = ([tool, "stats", trace, "--json"], None)
        cases["results-" + t] = ([replay, trace, "--profile", BOARD, "--results", "-", "--quiet"], mask_results)
    return cases


def mask(value):
    if isinstance(value, dict):
        return {k: ("(masked)" if k in MASKED else mask(v)) for k, v in value.items()}
    if isinstance(value, list):
        return [mask(v) for v in value]
    return value


def mask_results(text):
    return json.dumps(mask(json.loads(text)), indent=1, sort_keys=True) + "\n"


def run(argv, post):
    p = subprocess.run(argv, cwd=SRC, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.exit("golden: %s: exit %d: %s" % (" ".join(argv), p.returncode, p.stderr.strip()))
    return post(p.stdout) if post else p.stdout


def header(name, argv):
    prog = os.path.basename(argv[0])
    return ("#golden %s: the output of `%s %s`, run from the source root\n"
            "#golden inputs: %s (traces: traces/generate.sh; boards: drm_info dumps, "
            "tests/data/boards/README.md); written by tests/golden/golden.py --update\n"
            % (name, prog, " ".join(argv[1:]),
               ", ".join(a for a in argv[1:] if a.startswith(("traces/", "tests/data/")))))


def path(name):
    return os.path.join(HERE, name + ".txt")


def body(text):
    return "".join(l for l in text.splitlines(True) if not l.startswith("#golden"))


def main():
    args = sys.argv[1:]
    if args[:1] == ["--list"]:
        print("\n".join(commands("build")))
        return 0
    if args[:1] == ["--update"]:
        cases = commands(args[1])
        for name in args[2:] or cases:
            argv, post = cases[name]
            with open(path(name), "w") as f:
                f.write(header(name, argv) + run(argv, post))
            print("golden: wrote %s" % os.path.relpath(path(name), SRC))
        return 0
    if len(args) != 2:
        sys.exit(__doc__)
    cases = commands(args[0])
    argv, post = cases[args[1]]
    actual = run(argv, post)
    with open(path(args[1])) as f:
        expected = body(f.read())
    if actual == expected:
        print("golden: %s: equal" % args[1])
        return 0
    sys.stdout.writelines(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True),
                                               "tests/golden/%s.txt" % args[1], "actual", n=2))
    print("golden: %s differs; if on purpose: tests/golden/golden.py --update BUILD_DIR %s" % (args[1], args[1]))
    return 1


if __name__ == "__main__":
    sys.exit(main())
