#!/usr/bin/python3
"""arch-suite: one suite with an amd64 and an arm64 qemu board, as LAVA jobs run by LAVA's
own dispatcher (lava-run) on this machine's qemu-system-x86_64 and qemu-system-aarch64,
each with the project VM's kernel and vkms of its architecture, and merged (docs/fleet.md,
"Architectures"). Run by scripts/test-cross.sh (the cross step: it needs build-aarch64's
hwc-replay; tests/README.md says why it is not in the vm suite).

  arch-suite.py HWC_SUITE HWC_REPLAY HWC_REPLAY_AARCH64 HWC_TRACE VM_PREPARE VM_CACHE SOURCE_ROOT

The case: frames 0-3 of traces/video.zst (few frames: arm64 under TCG is slow), with vkms's
writeback connector, on both boards.

Checks: the aarch64 bundle holds the libraries the aarch64 dynamic loader itself lists for
hwc-replay (its --list, under qemu-user) and the loader; board-files tells each VM's
architecture, and refuses an hwc-replay of the other; `jobs` writes one job per board,
valid by LAVA's schema, with context arch amd64 and arm64; lava-run completes both (on
qemu-system-x86_64 and qemu-system-aarch64: the log's boot command); both cases pass; every
frame of both has its checksum from the writeback connector, and the arm64 checksums equal
the amd64 ones frame by frame; merge's comparison of the two boards (hwc-trace diff) finds
them equal. Prints each job's time.

Exit 77 (skipped) without root (lava-run runs as root only), lava-run, or a VM of either
architecture (vm-prepare's exit 125).
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from suitecheck import check, failures, retry_hung, run  # noqa: E402
from suitecheck import skip as _skip  # noqa: E402

HWC_SUITE, HWC_REPLAY, HWC_REPLAY_A64, HWC_TRACE, VM_PREPARE, VM_CACHE, ROOT = sys.argv[1:8]
BOARDS = {"amd64": "qemu-vkms", "arm64": "qemu-arm64"}
CONSOLE = {"amd64": "ttyS0", "arm64": "ttyAMA0"}
QEMU = {"amd64": "qemu-system-x86_64", "arm64": "qemu-system-aarch64"}
CASE = "video-0-3"


def prepare(arch):
    args = [VM_PREPARE, "--cache", VM_CACHE, "--quiet"] + (["--arch", arch] if arch != "amd64" else [])
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode == 125:
        skip("the %s VM cannot be prepared: %s" % (arch, p.stderr.strip()))
    if p.returncode != 0:
        print(p.stderr)
        check(False, "%s: exit %d" % (" ".join(args), p.returncode))
        return None
    return p.stdout.strip()


def skip(why):
    _skip("arch-suite", why)


def main():
    if os.geteuid() != 0:
        skip("lava-run runs as root only")
    if not shutil.which("lava-run"):
        skip("lava-run not found (scripts/install-deps.sh lava)")
    prepared = {arch: prepare(arch) for arch in BOARDS}
    if None in prepared.values():
        return 1
    begin = time.monotonic()
    tmp = tempfile.mkdtemp(prefix="arch-suite.")
    try:
        run_suite(tmp, prepared)
    finally:
        if not failures:
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            print("arch-suite: kept %s" % tmp)
    print("arch-suite: %.0f s from the prepared VMs to the end of the merge" % (time.monotonic() - begin))
    return 1 if failures else 0


def loader_list(replay):
    """The libraries the program's own dynamic loader lists (name -> real path), run
    under qemu-user."""
    from_elf = subprocess.run([sys.executable, "-c", "import sys; sys.path.insert(0, sys.argv[1]); "
                               "from hwct_suite import elf; print(elf.read(sys.argv[2]).interpreter)",
                               os.path.join(ROOT, "replayer", "suite"), replay], capture_output=True, text=True)
    loader = from_elf.stdout.strip()
    try:
        p = subprocess.run([loader, "--list", replay], capture_output=True, text=True)
    except OSError as exc:
        check(False, "%s --list: %s (is qemu-user registered? scripts/binfmt-qemu.sh)" % (loader, exc))
        return {}
    libs = {}
    for line in p.stdout.splitlines():
        m = re.match(r"\s*(\S+) => (/\S+)", line)
        if m:
            libs[m.group(1)] = os.path.realpath(m.group(2))
    return libs


def check_bundle(board):
    import tarfile
    want = loader_list(HWC_REPLAY_A64)
    with tarfile.open(os.path.join(board, "bundle.tar")) as t:
        names = t.getnames()
        got = {}
        for name in names:
            if name.startswith("usr/lib/hwct/") and t.getmember(name).isfile():
                got[os.path.basename(name)] = t.extractfile(name).read()
    check(len(want) > 3 and sorted(got) == sorted(want),
          "the aarch64 bundle's libraries are those its loader lists: %s" % sorted(got))
    same = all(open(want[n], "rb").read() == got[n] for n in want if n in got)
    check(same, "each is the file the loader would load")
    check("lib/ld-linux-aarch64.so.1" in names, "the aarch64 loader at its own path")


def write_suite(tmp):
    lines = ["name: arch", "timeout_minutes: 8", "case_timeout_seconds: 240", "replay_args: [--timing, fast]", "boards:"]
    for arch, board in BOARDS.items():
        d = "board-" + arch
        lines += ["  %s:" % board, "    device_type: qemu", "    arch: %s" % arch,
                  "    kernel: %s/kernel" % d, "    ramdisk: %s/ramdisk.cpio" % d,
                  "    modules: %s/modules.tar" % d, "    bundle: %s/bundle.tar" % d,
                  "    kernel_args: console=%s,115200 loglevel=6 hwct.vkms=enable_overlay=1,enable_writeback=1"
                  % CONSOLE[arch]]
    lines += ["traces:", "  - {name: %s, trace: %s, frames: 0-3}" % (CASE, os.path.join(ROOT, "traces", "video.zst"))]
    path = os.path.join(tmp, "suite.yaml")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


def run_suite(tmp, prepared):
    replays = {"amd64": HWC_REPLAY, "arm64": HWC_REPLAY_A64}
    for arch in BOARDS:
        board = os.path.join(tmp, "board-" + arch)
        p = run(HWC_SUITE, "board-files", "--from-vm", prepared[arch], "--replay", replays[arch], "-o", board)
        check("arch: %s\n" % arch in p.stdout, "board-files of the %s VM says arch %s" % (arch, arch))
    check_bundle(os.path.join(tmp, "board-arm64"))
    p = run(HWC_SUITE, "board-files", "--from-vm", prepared["arm64"], "--replay", HWC_REPLAY, "-o",
            os.path.join(tmp, "mixed"), status=2)
    check("x86-64 (amd64)" in p.stderr and "arm64" in p.stderr and HWC_REPLAY in p.stderr,
          "an amd64 hwc-replay for the arm64 VM is refused, naming both: %s" % p.stderr.strip())

    out = os.path.join(tmp, "out")
    p = run(HWC_SUITE, "jobs", write_suite(tmp), "-o", out)
    check(p.stdout.count("  valid\n") == 2, "two jobs, valid by LAVA's schema")
    manifest = json.load(open(os.path.join(out, "manifest.json")))
    check(sorted((j["board"], j["arch"]) for j in manifest["jobs"]) ==
          sorted((b, a) for a, b in BOARDS.items()), "one job per board, with its arch: %s" % manifest["jobs"])

    run(HWC_SUITE, "run", out, status=None)
    retry_hung(HWC_SUITE, out)
    for j in manifest["jobs"]:
        text = open(os.path.join(out, "runs", j["name"] + ".log")).read()
        arch = j["arch"]
        check("Boot command: /usr/bin/%s " % QEMU[arch] in text, "%s booted with %s" % (j["name"], QEMU[arch]))

    run(HWC_SUITE, "merge", out, "--hwc-trace", HWC_TRACE)
    report = json.load(open(os.path.join(out, "merged.json")))
    for j in report["jobs"]:
        check(j["result"] == "pass", "%s complete (%s s)" % (j["name"], j["seconds"]))
    rows = {r["board"]: r for r in report["cases"]}
    results = {}
    for arch, board in BOARDS.items():
        r = rows.get(board, {})
        check(r.get("verdict") == "pass" and r.get("lava_result") == "pass", "%s: %s passes" % (board, CASE))
        if r.get("results"):
            results[arch] = json.load(open(r["results"]))["frames"]
    if len(results) == 2:
        sums = {arch: [(f["frame"], f["checksum_source"], f["checksum"]) for f in frames]
                for arch, frames in results.items()}
        check(len(sums["amd64"]) == 4 and all(src == "writeback" for a in sums for _, src, _ in sums[a]),
              "four frames on each, every checksum from the writeback connector: %s" % sums)
        check(sums["arm64"] == sums["amd64"], "the arm64 checksums equal the amd64 ones, frame by frame")
    compared = report["boards_compared"]
    check(len(compared) == 1 and compared[0]["equal"] is True,
          "hwc-trace diff of the two boards' results: equal (%s)" % compared)


if __name__ == "__main__":
    sys.exit(main())
