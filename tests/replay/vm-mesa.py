#!/usr/bin/env python3
"""vm-mesa.py HWC_REPLAY VM_USERLAND VM_CACHE SOURCE_ROOT UNAVAILABLE_STATUS

The 'vm-mesa' test: the reference traces (traces/home.zst, video.zst, frames
0-4 of each) replayed with hwc-replay --vm --compositor gl in two userlands,
the host's (Debian 12's Mesa) and Debian 13's made by vm-userland
(--userland). Asserts that each results file names the Mesa that ran
(replay_environment.gl.version: the host's build version, and the userland's
version from its `complete` file), that the two differ, and that both
replays give the same frames, each with a writeback checksum. Prints which
frames' checksums are equal and which differ: a finding either way
(docs/vm-tests.md records it).

Exit 0, 1 on a failed check, UNAVAILABLE_STATUS when no VM or userland can be
prepared here (no debootstrap, no network).
"""
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

FRAMES = "0-4"


def fail(msg):
    print("vm-mesa: FAIL:", msg, file=sys.stderr)
    sys.exit(1)


def main():
    replay, userland_script, cache, root, unavailable = sys.argv[1:6]
    unavailable = int(unavailable)
    cache = os.path.realpath(cache)
    env = dict(os.environ, HWCT_VM_CACHE=cache)
    p = subprocess.run([userland_script, "--cache", cache, "trixie"], capture_output=True, text=True)
    print(p.stderr, file=sys.stderr, end="")
    if p.returncode == 125:
        sys.exit(unavailable)
    if p.returncode != 0:
        fail(f"vm-userland exited {p.returncode}")
    userland = p.stdout.strip()
    facts = dict(line.split(": ", 1) for line in
                 pathlib.Path(userland, "complete").read_text().splitlines() if ": " in line)
    ul_mesa = facts.get("mesa", "").split("-")[0]
    if not ul_mesa:
        fail(f"{userland}/complete names no Mesa version")

    tmp = pathlib.Path(tempfile.mkdtemp(prefix="vm-mesa."))
    try:
        for trace in ("home", "video"):
            runs = {}
            for name, extra in (("host", []), ("userland", ["--userland", userland])):
                out = tmp / f"{trace}-{name}.json"
                r = subprocess.run([replay, f"{root}/traces/{trace}.zst", "--vm", *extra, "--compositor", "gl",
                                    "--frames", FRAMES, "--quiet", "--results", str(out)],
                                   env=env, capture_output=True, text=True)
                if r.returncode in (125, 77):
                    print(r.stderr, file=sys.stderr)
                    sys.exit(unavailable)
                if r.returncode != 0:
                    fail(f"{trace} on the {name} userland exited {r.returncode}: {r.stderr}")
                runs[name] = json.loads(out.read_text())
            host, ul = runs["host"], runs["userland"]
            gl_host = ((host["replay_environment"] or {}).get("gl") or {}).get("version") or ""
            gl_ul = ((ul["replay_environment"] or {}).get("gl") or {}).get("version") or ""
            build = host["replay_environment"].get("mesa_build") or ""
            if f"Mesa {build}" not in gl_host:
                fail(f"{trace}: the host replay ran '{gl_host}', not Mesa {build}")
            if f"Mesa {ul_mesa}" not in gl_ul:
                fail(f"{trace}: the userland replay ran '{gl_ul}', not Mesa {ul_mesa}")
            fh, fu = host["frames"], ul["frames"]
            if [f["frame"] for f in fh] != [f["frame"] for f in fu] or not fh:
                fail(f"{trace}: the two replays have different frames")
            same, differ = [], []
            for a, b in zip(fh, fu):
                if a.get("checksum_source") != "writeback" or b.get("checksum_source") != "writeback":
                    fail(f"{trace} frame {a['frame']}: no writeback checksum")
                (same if a["checksum"] == b["checksum"] else differ).append(a["frame"])
            print(f"vm-mesa: {trace}: '{gl_host}' against '{gl_ul}': {len(same)} frames equal "
                  f"{same}, {len(differ)} differ {differ}", file=sys.stderr)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("vm-mesa: all checks passed", file=sys.stderr)


if __name__ == "__main__":
    main()
