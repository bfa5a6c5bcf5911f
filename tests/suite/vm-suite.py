#!/usr/bin/python3
"""vm-suite: a suite of the reference traces as LAVA jobs, run by LAVA's own dispatcher
(lava-run) on this machine's qemu with the project VM's kernel and vkms, and merged
(docs/fleet.md, "The CI suite").

  vm-suite.py HWC_SUITE HWC_REPLAY HWC_TRACE VM_PREPARE VM_CACHE SOURCE_ROOT

The suite: four cases (frames 0-3 and 20-23 of traces/home.zst and video.zst) in two
shards on the board qemu-vkms, with expectations from a first run of the same cases (one
job without expectations: the known-good results), one checksum of video's frame 21
changed on purpose.
Two more boards, one shard each: qemu-badkernel, whose kernel file is not a kernel (qemu
cannot boot it), and qemu-nokernel, whose kernel URL names no file.

Checks: both qemu-vkms jobs complete; the merge shows exactly one failing case,
video-20-23, first differing frame 21 (checksum), LAVA's own result of it fail and of the
other three pass; the cases of the two broken boards are infrastructure failures (LAVA's
error types Infrastructure and Job), not regressions; the same verdicts come from the
logs rewritten as `lavacli jobs logs --raw` prints them; an hwc-trace report page per
trace. Prints the merged table and each job's time.

A qemu-vkms job in which a replay hung (a case at its time limit) or that did not complete
runs once more (docs/fleet.md, "Known limits"); the first try's log is printed.

Exit 77 (skipped) without root (lava-run runs as root only), lava-run or the VM.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from suitecheck import check, failures, retry_hung, run  # noqa: E402
from suitecheck import skip as _skip  # noqa: E402

HWC_SUITE, HWC_REPLAY, HWC_TRACE, VM_PREPARE, VM_CACHE, ROOT = sys.argv[1:7]
WRONG_FRAME = 21


def skip(why):
    _skip("vm-suite", why)


def main():
    if os.geteuid() != 0:
        skip("lava-run runs as root only")
    if not shutil.which("lava-run"):
        skip("lava-run not found (scripts/install-deps.sh lava)")
    p = subprocess.run([VM_PREPARE, "--cache", VM_CACHE, "--quiet"], capture_output=True, text=True)
    if p.returncode == 125:
        skip("the VM cannot be prepared: " + p.stderr.strip())
    if p.returncode != 0:
        print(p.stderr)
        return 1
    prepared = p.stdout.strip()
    begin = time.monotonic()

    tmp = tempfile.mkdtemp(prefix="vm-suite.")
    try:
        return suite_run(tmp, prepared, begin)
    finally:
        if not failures:
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            print("vm-suite: kept %s" % tmp)


def suite_run(tmp, prepared, begin):
    board = os.path.join(tmp, "board")
    run(HWC_SUITE, "board-files", "--from-vm", prepared, "--replay", HWC_REPLAY, "-o", board)
    with open(os.path.join(board, "not-a-kernel"), "w") as f:
        f.write("this is not a kernel\n")

    files = "    ramdisk: board/ramdisk.cpio\n    modules: board/modules.tar\n    bundle: board/bundle.tar\n"
    args = "    kernel_args: console=ttyS0,115200 loglevel=6 hwct.vkms=enable_overlay=1,enable_writeback=1\n"
    head = "shards: 2\ntimeout_minutes: 4\ncase_timeout_seconds: 60\nreplay_args: [--timing, fast]\nboards:\n"
    vkms = "  qemu-vkms:\n    device_type: qemu\n    kernel: board/kernel\n" + files + args
    traces = os.path.join(ROOT, "traces")
    cases = [("home-0-3", "home", "0-3"), ("video-0-3", "video", "0-3"),
             ("home-20-23", "home", "20-23"), ("video-20-23", "video", "20-23")]

    # The known-good results: a first run of the four cases in one job, without expectations
    # (a farm takes them from a run of the known-good build the same way).
    bless = os.path.join(tmp, "bless.yaml")
    with open(bless, "w") as f:
        f.write("name: bless\n" + head + vkms + "traces:\n" + "".join(
            "  - {name: %s, trace: %s/%s.zst, frames: %s}\n" % (name, traces, t, r) for name, t, r in cases))
    blessed = os.path.join(tmp, "bless")
    run(HWC_SUITE, "jobs", bless, "-o", blessed, "--shards", "1")
    run(HWC_SUITE, "run", blessed)
    retry_hung(HWC_SUITE, blessed)
    run(HWC_SUITE, "merge", blessed, "--hwc-trace", HWC_TRACE)
    expect = os.path.join(blessed, "results", "qemu-vkms")
    with open(os.path.join(expect, "video-20-23.json")) as f:
        video = json.load(f)
    frame = [fr for fr in video["frames"] if fr["frame"] == WRONG_FRAME][0]
    frame["checksum"] = "0" * len(frame["checksum"])
    with open(os.path.join(expect, "video-20-23-wrong.json"), "w") as f:
        json.dump(video, f)

    suite = os.path.join(tmp, "suite.yaml")
    with open(suite, "w") as f:
        f.write("name: ci\n" + head + vkms +
                "  qemu-badkernel:\n    device_type: qemu\n    kernel: board/not-a-kernel\n" + files + args +
                "  qemu-nokernel:\n    device_type: qemu\n    kernel: file://%s/board/no-such-kernel\n" % tmp +
                files + args + "traces:\n" + "".join(
                    "  - {name: %s, trace: %s/%s.zst, frames: %s, expect: %s/%s.json}\n"
                    % (name, traces, t, r, expect, name + ("-wrong" if name == "video-20-23" else ""))
                    for name, t, r in cases))

    out = os.path.join(tmp, "out")
    run(HWC_SUITE, "jobs", suite, "-o", out, "--board", "qemu-vkms")
    run(HWC_SUITE, "jobs", suite, "-o", out, "--board", "qemu-badkernel", "--board", "qemu-nokernel",
        "--fraction", "2/2")
    manifest = json.load(open(os.path.join(out, "manifest.json")))
    names = [j["name"] for j in manifest["jobs"]]
    check(names == ["ci-qemu-vkms-1of2", "ci-qemu-vkms-2of2", "ci-qemu-badkernel-2of2", "ci-qemu-nokernel-2of2"],
          "four jobs: %s" % names)
    check([c["name"] for c in manifest["jobs"][0]["cases"]] == ["home-0-3", "home-20-23"] and
          [c["name"] for c in manifest["jobs"][1]["cases"]] == ["video-0-3", "video-20-23"],
          "shard 1/2: home's two ranges, 2/2: video's")
    p = run(HWC_SUITE, "validate", *[os.path.join(out, j["file"]) for j in manifest["jobs"]])
    check(p.stdout.count(": valid") == 4, "every job valid by LAVA's schema")

    run(HWC_SUITE, "run", out, status=125)
    retry_hung(HWC_SUITE, out, ("qemu-vkms",))

    p = run(HWC_SUITE, "merge", out, "--hwc-trace", HWC_TRACE, "--html", os.path.join(out, "html"), status=1)
    report = json.load(open(os.path.join(out, "merged.json")))
    check_report(report, out)

    # the same logs as `lavacli jobs logs --raw ID` prints them ("- " before each entry)
    raw = os.path.join(tmp, "lavacli-logs")
    os.mkdir(raw)
    for name in names:
        with open(os.path.join(out, "runs", name + ".log")) as src, open(os.path.join(raw, name + ".log"), "w") as dst:
            for line in src:
                dst.write("- " + line if line.startswith("{") else line)
    run(HWC_SUITE, "merge", out, "--hwc-trace", HWC_TRACE, "--logs", raw, "--report",
        os.path.join(tmp, "merged-raw.json"), status=1)
    again = json.load(open(os.path.join(tmp, "merged-raw.json")))
    verdicts = lambda r: [(c["board"], c["case"], c["verdict"], c["first_difference"]) for c in r["cases"]]  # noqa
    check(verdicts(again) == verdicts(report), "the logs as lavacli prints them merge the same")

    print("vm-suite: %.0f s from the prepared VM to the end of the merges" % (time.monotonic() - begin))
    return 1 if failures else 0


def check_report(report, out):
    jobs = {j["name"]: j for j in report["jobs"]}
    for name in ("ci-qemu-vkms-1of2", "ci-qemu-vkms-2of2"):
        check(jobs[name]["result"] == "pass", "%s complete (%s s)" % (name, jobs[name]["seconds"]))
    bad, no = jobs["ci-qemu-badkernel-2of2"], jobs["ci-qemu-nokernel-2of2"]
    check(bad["result"] == "fail" and bad["error_type"] == "Infrastructure",
          "a kernel qemu cannot boot: LAVA's Infrastructure error (%s: %s)" % (bad["error_type"], bad["error_msg"]))
    check(no["result"] == "fail" and no["error_type"] == "Job",
          "a kernel URL that names no file: LAVA's Job error (%s: %s)" % (no["error_type"], no["error_msg"]))

    cases = {(c["board"], c["case"]): c for c in report["cases"]}
    fails = [k for k, c in cases.items() if c["verdict"] == "fail"]
    check(fails == [("qemu-vkms", "video-20-23")], "exactly one failing case, video-20-23: %s" % fails)
    wrong = cases[("qemu-vkms", "video-20-23")]
    first = wrong["first_difference"] or {}
    check(first.get("frame") == WRONG_FRAME and first.get("category") == "checksum" and wrong["differing_frames"] == 1,
          "its first differing frame is %d, a checksum, the only one: %s" % (WRONG_FRAME, first))
    check(wrong["lava_result"] == "fail" and wrong["exit_status"] == 1, "LAVA recorded it as failed, exit status 1")
    for name in ("home-0-3", "home-20-23", "video-0-3"):
        c = cases[("qemu-vkms", name)]
        check(c["verdict"] == "pass" and c["lava_result"] == "pass" and c["first_difference"] is None,
              "%s passes in LAVA and in the merge" % name)
        check(c["agreement"] is not None and c["agreement"]["counted"] > 0,
              "%s: agreement with the recording %s" % (name, c["agreement"]))
    for board in ("qemu-badkernel", "qemu-nokernel"):
        rows = [c for (b, _), c in cases.items() if b == board]
        check(len(rows) == 2 and all(c["verdict"] == "infrastructure" and c["lava_result"] is None for c in rows),
              "%s: its two cases are infrastructure failures: %s" % (board, [c["message"] for c in rows]))
    s = report["summary"]
    check(s == {"pass": 3, "fail": 1, "skip": 0, "error": 0, "infrastructure": 4, "pending": 0}, "summary %s" % s)
    pages = report.get("html") or {}
    check(sorted(pages) == ["home-0-3", "home-20-23", "video-0-3", "video-20-23"] and
          all(p and os.path.getsize(p) > 0 for p in pages.values()), "a report page per trace: %s" % pages)


if __name__ == "__main__":
    sys.exit(main())
