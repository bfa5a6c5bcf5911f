#!/usr/bin/python3
"""server-suite: vm-suite's jobs sent to a real LAVA server started on this machine
(scripts/lava-local.sh: PostgreSQL, lava-server, its scheduler, a worker with two qemu
devices), followed and merged through the server's REST API (docs/fleet.md, "A local
LAVA server").

  server-suite.py HWC_SUITE HWC_REPLAY HWC_TRACE VM_PREPARE VM_CACHE SOURCE_ROOT

1. The instance starts (timed).
2. Known-good results: the four cases of vm-suite in two shards, with qemu-hwct-02 set
   offline (Maintenance): both jobs on one device, one after the other (timed).
3. vm-suite's suite (qemu-vkms in two shards with those expectations, one checksum of
   video's frame 21 changed; qemu-badkernel and qemu-nokernel) submitted with both
   devices online (timed); the merge from the server shows what vm-suite checks: one
   failing case, video-20-23 at frame 21, LAVA's Infrastructure and Job errors for the
   broken boards. The same job files are then run by lava-run (the path without a server)
   and merged: the verdicts, first differences and LAVA results must be the same.
4. Faults: qemu-hwct-02 offline again; shard 1 submitted once more and canceled while it
   runs: `wait` reports it Canceled with LAVA's reason, `merge` says its cases have no
   verdict and why; the server restarts; `submit --again`; the worker restarts while the
   new try runs; `merge` completes them, each case once, with the verdicts of step 3.
5. The instance stops: no process of it is left.

Exit 77 (skipped) without root, lava-server, lava-run or the VM.
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
from suitecheck import check, failures, print_hang, retry_hung, run  # noqa: E402
from suitecheck import skip as _skip  # noqa: E402
import urllib.request

HWC_SUITE, HWC_REPLAY, HWC_TRACE, VM_PREPARE, VM_CACHE, ROOT = sys.argv[1:7]
LAVA_LOCAL = os.path.join(ROOT, "scripts", "lava-local.sh")
WRONG_FRAME = 21
CASES = [("home-0-3", "home", "0-3"), ("video-0-3", "video", "0-3"),
         ("home-20-23", "home", "20-23"), ("video-20-23", "video", "20-23")]

times = {}
retried = []


def started(pid):
    """A process's start time (clock ticks after boot), None when it is gone or a zombie
    (dead, waiting for its parent, here often init, to collect it)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return None if fields[0] == "Z" else int(fields[19])
    except (OSError, IndexError, ValueError):
        return None


def settle(inst, out, status=0):
    """hwc-suite wait; a qemu-vkms job that did not complete (a guest that stalled under
    TCG on a loaded host, docs/fleet.md "Known limits") is submitted once more, as a lab
    does: `submit --again --job NAME`, and waited for."""
    p = run(HWC_SUITE, "wait", out, "--timeout", "900", "--interval", "2", status=None)
    state = json.load(open(os.path.join(out, "server.json")))
    manifest = json.load(open(os.path.join(out, "manifest.json")))
    redo = [j["name"] for j in manifest["jobs"] if j["board"] == "qemu-vkms" and
            inst.api("api/v0.2/jobs/%d/" % state["jobs"][j["name"]]["id"])["health"] != "Complete"]
    if redo:
        print("server-suite: %s did not complete; submitted once more" % ", ".join(redo))
        for name in redo:
            log = os.path.join(out, "server", name + ".log")
            if os.path.exists(log):
                print(name + ":")
                print_hang(open(log).read())
                os.replace(log, log + ".first-try")
        retried.extend(redo)
        run(HWC_SUITE, "submit", out, "--again", *[a for n in redo for a in ("--job", n)])
        inst.remember_pids()
        p = run(HWC_SUITE, "wait", out, "--timeout", "900", "--interval", "2", status=None)
    if p.returncode != status:
        check(False, "hwc-suite wait %s: exit status %d, expected %d" % (out, p.returncode, status))
    return p


class Instance:
    def __init__(self, folder):
        self.dir = folder
        self.url = self.token = None
        self.pids = set()

    def start(self):
        p = run(LAVA_LOCAL, "start", self.dir, "2")
        if p.returncode != 0:
            raise SystemExit(1)
        conf = dict(line.split("=", 1) for line in p.stdout.split() if "=" in line)
        self.url, self.token = conf["url"], conf["token"]
        times["instance start"] = float(conf["start_seconds"])
        os.environ["HWCT_LAVA_TOKEN"] = self.token

    def remember_pids(self):
        """The instance's processes now, each with its start time (a pid is reused)."""
        p = subprocess.run([LAVA_LOCAL, "status", self.dir], capture_output=True, text=True)
        last = p.stdout.strip().splitlines()[-1]
        for pid in last.split(":", 2)[2].split():
            self.pids.add((int(pid), started(int(pid))))

    def device(self, name, health):
        run(LAVA_LOCAL, "manage", self.dir, "devices", "update", "--health", health, name)

    def api(self, path):
        req = urllib.request.Request(self.url + path, headers={"Authorization": "Token " + self.token})
        with urllib.request.urlopen(req, timeout=60) as r:
            return json.load(r)

    def stop(self):
        run(LAVA_LOCAL, "stop", self.dir, status=None)
        alive = sorted(p for p, t in self.pids if t is not None and started(p) == t)
        check(not alive, "no process of the instance left (of %d seen): %s" % (len(self.pids), [
            "%d %s" % (p, open("/proc/%d/cmdline" % p, "rb").read().replace(b"\0", b" ").decode()[:120])
            for p in alive]))
        p = subprocess.run([LAVA_LOCAL, "status", self.dir], capture_output=True, text=True)
        check(p.stdout.strip().endswith("processes: 0:"), "lava-local status finds none either")


def skip(why):
    _skip("server-suite", why)


def main():
    if os.geteuid() != 0:
        skip("lava-run runs as root only")
    for prog, pkg in (("lava-run", "lava-dispatcher"), ("lava-server", "lava-server"), ("gunicorn3", "lava-server")):
        if not shutil.which(prog):
            skip("%s not found (scripts/install-deps.sh lava: %s)" % (prog, pkg))
    p = subprocess.run([VM_PREPARE, "--cache", VM_CACHE, "--quiet"], capture_output=True, text=True)
    if p.returncode == 125:
        skip("the VM cannot be prepared: " + p.stderr.strip())
    if p.returncode != 0:
        print(p.stderr)
        return 1
    prepared = p.stdout.strip()
    begin = time.monotonic()
    tmp = tempfile.mkdtemp(prefix="server-suite.")
    os.chmod(tmp, 0o755)  # the instance's PostgreSQL runs as the postgres user
    inst = Instance(os.path.join(tmp, "lava"))
    try:
        inst.start()
        inst.remember_pids()
        suite_run(tmp, prepared, inst)
    finally:
        inst.stop()
        print("times: " + ", ".join("%s %.0f s" % kv for kv in times.items()))
        if retried:
            print("server-suite: submitted once more (did not complete the first time): %s" % ", ".join(retried))
        print("server-suite: %.0f s in all" % (time.monotonic() - begin))
        if not failures:
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            print("server-suite: kept %s" % tmp)
    return 1 if failures else 0


def wall(inst, out, board="qemu-vkms"):
    """Seconds from the first start to the last end of the board's jobs, by the server."""
    import datetime
    state = json.load(open(os.path.join(out, "server.json")))
    manifest = json.load(open(os.path.join(out, "manifest.json")))
    spans = []
    for j in manifest["jobs"]:
        if j["board"] != board:
            continue
        info = inst.api("api/v0.2/jobs/%d/" % state["jobs"][j["name"]]["id"])
        spans.append((datetime.datetime.fromisoformat(info["start_time"].replace("Z", "+00:00")),
                      datetime.datetime.fromisoformat(info["end_time"].replace("Z", "+00:00"))))
        times["%s job %s" % (os.path.basename(out), j["name"])] = (spans[-1][1] - spans[-1][0]).total_seconds()
    return (max(e for _, e in spans) - min(s for s, _ in spans)).total_seconds()


def suite_file(path, name, tmp, cases_expect, broken):
    files = "    ramdisk: board/ramdisk.cpio\n    modules: board/modules.tar\n    bundle: board/bundle.tar\n"
    args = "    kernel_args: console=ttyS0,115200 loglevel=6 hwct.vkms=enable_overlay=1,enable_writeback=1\n"
    text = ("name: %s\nshards: 2\ntimeout_minutes: 2\ncase_timeout_seconds: 60\nreplay_args: [--timing, fast]\n"
            "boards:\n  qemu-vkms:\n    device_type: qemu\n    kernel: board/kernel\n" % name) + files + args
    if broken:
        text += ("  qemu-badkernel:\n    device_type: qemu\n    kernel: board/not-a-kernel\n" + files + args +
                 "  qemu-nokernel:\n    device_type: qemu\n    kernel: file://%s/board/no-such-kernel\n" % tmp +
                 files + args)
    text += "traces:\n"
    traces = os.path.join(ROOT, "traces")
    for case, trace, frames in CASES:
        text += "  - {name: %s, trace: %s/%s.zst, frames: %s%s}\n" % (
            case, traces, trace, frames, ", expect: %s" % cases_expect[case] if cases_expect else "")
    with open(path, "w") as f:
        f.write(text)


def verdicts(report):
    return sorted((c["board"], c["case"], c["verdict"], c["lava_result"], json.dumps(c["first_difference"]))
                  for c in report["cases"])


def suite_run(tmp, prepared, inst):
    board = os.path.join(tmp, "board")
    run(HWC_SUITE, "board-files", "--from-vm", prepared, "--replay", HWC_REPLAY, "-o", board)
    with open(os.path.join(board, "not-a-kernel"), "w") as f:
        f.write("this is not a kernel\n")

    # 2. known-good results on one device (the other offline)
    inst.device("qemu-hwct-02", "MAINTENANCE")
    suite_file(os.path.join(tmp, "bless.yaml"), "bless", tmp, None, False)
    blessed = os.path.join(tmp, "bless")
    run(HWC_SUITE, "jobs", os.path.join(tmp, "bless.yaml"), "-o", blessed)
    run(HWC_SUITE, "submit", blessed, "--url", inst.url)
    inst.remember_pids()
    settle(inst, blessed)
    times["one device, two shards"] = wall(inst, blessed)
    run(HWC_SUITE, "merge", blessed, "--server", "--hwc-trace", HWC_TRACE)
    expect = os.path.join(blessed, "results", "qemu-vkms")
    with open(os.path.join(expect, "video-20-23.json")) as f:
        video = json.load(f)
    frame = [fr for fr in video["frames"] if fr["frame"] == WRONG_FRAME][0]
    frame["checksum"] = "0" * len(frame["checksum"])
    with open(os.path.join(expect, "video-20-23-wrong.json"), "w") as f:
        json.dump(video, f)

    # 3. vm-suite's suite with both devices online
    inst.device("qemu-hwct-02", "GOOD")
    exp = {c: os.path.join(expect, c + ("-wrong" if c == "video-20-23" else "") + ".json") for c, _, _ in CASES}
    suite_file(os.path.join(tmp, "suite.yaml"), "ci", tmp, exp, True)
    out = os.path.join(tmp, "out")
    run(HWC_SUITE, "jobs", os.path.join(tmp, "suite.yaml"), "-o", out, "--board", "qemu-vkms")
    run(HWC_SUITE, "jobs", os.path.join(tmp, "suite.yaml"), "-o", out, "--board", "qemu-badkernel",
        "--board", "qemu-nokernel", "--fraction", "2/2")
    start = time.monotonic()
    run(HWC_SUITE, "submit", out, "--url", inst.url)
    inst.remember_pids()
    p = settle(inst, out, status=125)
    times["whole suite, two devices (submit to last end)"] = time.monotonic() - start
    times["two devices, two shards"] = wall(inst, out)
    check(re.search(r"^ci-qemu-badkernel-2of2: job \d+ Incomplete in \d+ s \(Infrastructure: Connection closed\)$",
                    p.stdout, re.M) is not None,
          "wait reports the bad kernel's job Incomplete with LAVA's Infrastructure error")
    p = run(HWC_SUITE, "merge", out, "--server", "--hwc-trace", HWC_TRACE, "--report",
            os.path.join(tmp, "merged-server.json"), status=1)
    server = json.load(open(os.path.join(tmp, "merged-server.json")))
    print("merged from the server:\n" + p.stdout)
    cases = {(c["board"], c["case"]): c for c in server["cases"]}
    fails = [k for k, c in cases.items() if c["verdict"] == "fail"]
    check(fails == [("qemu-vkms", "video-20-23")], "exactly one failing case, video-20-23: %s" % fails)
    first = cases[("qemu-vkms", "video-20-23")]["first_difference"] or {}
    check(first.get("frame") == WRONG_FRAME and first.get("category") == "checksum",
          "its first difference: frame %d, checksum: %s" % (WRONG_FRAME, first))
    check(server["summary"] == {"pass": 3, "fail": 1, "skip": 0, "error": 0, "infrastructure": 4, "pending": 0},
          "summary %s" % server["summary"])
    jobs = {j["name"]: j for j in server["jobs"]}
    check(jobs["ci-qemu-badkernel-2of2"]["error_type"] == "Infrastructure" and
          jobs["ci-qemu-nokernel-2of2"]["error_type"] == "Job", "the broken boards: LAVA's Infrastructure and Job errors")
    # every try counts: a job submitted once more may run where its sibling ran
    devices = {inst.api("api/v0.2/jobs/%d/" % i)["actual_device"]
               for s in json.load(open(os.path.join(out, "server.json")))["jobs"].values()
               for i in [s["id"]] + s.get("tries", [])}
    check(devices == {"qemu-hwct-01", "qemu-hwct-02"}, "the jobs ran on both devices: %s" % sorted(devices))

    # the same job files by lava-run, merged as before: the same verdicts
    start = time.monotonic()
    run(HWC_SUITE, "run", out, status=125)
    retried.extend("%s (lava-run)" % n for n in retry_hung(HWC_SUITE, out, ("qemu-vkms",)))
    times["whole suite, lava-run (one after the other)"] = time.monotonic() - start
    p = run(HWC_SUITE, "merge", out, "--hwc-trace", HWC_TRACE, "--report", os.path.join(tmp, "merged-local.json"),
            status=1)
    print("merged from lava-run:\n" + p.stdout)
    local = json.load(open(os.path.join(tmp, "merged-local.json")))
    check(verdicts(local) == verdicts(server), "lava-run and the server: the same verdicts, first differences "
          "and LAVA results")

    # 4. faults: a device offline, a job canceled, a server restart before the merge
    inst.device("qemu-hwct-02", "MAINTENANCE")
    again = os.path.join(tmp, "again")
    run(HWC_SUITE, "jobs", os.path.join(tmp, "suite.yaml"), "-o", again, "--board", "qemu-vkms", "--fraction", "1/2")
    run(HWC_SUITE, "submit", again, "--url", inst.url)
    job_id = json.load(open(os.path.join(again, "server.json")))["jobs"]["ci-qemu-vkms-1of2"]["id"]
    deadline = time.monotonic() + 300
    while inst.api("api/v0.2/jobs/%d/" % job_id)["state"] != "Running" and time.monotonic() < deadline:
        time.sleep(1)
    time.sleep(3)
    inst.remember_pids()
    check(inst.api("api/v0.2/jobs/%d/cancel/" % job_id).get("message") is not None, "job %d canceled" % job_id)
    p = run(HWC_SUITE, "wait", again, "--timeout", "300", "--interval", "2", status=125)
    check("Canceled" in p.stdout and "(Canceled: " in p.stdout, "wait reports it Canceled, with LAVA's reason")
    p = run(HWC_SUITE, "merge", again, "--server", "--hwc-trace", HWC_TRACE, status=125)
    report = json.load(open(os.path.join(again, "merged.json")))
    check([c["verdict"] for c in report["cases"]] == ["infrastructure", "infrastructure"] and
          all("Canceled" in (c["message"] or "") for c in report["cases"]),
          "its cases have no verdict, and say why: %s" % [c["message"] for c in report["cases"]])
    run(LAVA_LOCAL, "restart", inst.dir, "server")
    inst.remember_pids()
    inst.device("qemu-hwct-02", "GOOD")
    run(HWC_SUITE, "submit", again, "--again")
    p = run(HWC_SUITE, "merge", again, "--server", "--hwc-trace", HWC_TRACE, status=125)
    check("pending" in p.stdout, "merged before the new try ends: pending, not the canceled try's verdict")
    # the worker restarts while the new try runs: lava-run goes on, the new worker takes it up
    new_id = json.load(open(os.path.join(again, "server.json")))["jobs"]["ci-qemu-vkms-1of2"]["id"]
    deadline = time.monotonic() + 300
    while inst.api("api/v0.2/jobs/%d/" % new_id)["state"] != "Running" and time.monotonic() < deadline:
        time.sleep(1)
    inst.remember_pids()
    run(LAVA_LOCAL, "restart", inst.dir, "worker")
    inst.remember_pids()
    settle(inst, again)
    run(HWC_SUITE, "merge", again, "--server", "--hwc-trace", HWC_TRACE)
    report = json.load(open(os.path.join(again, "merged.json")))
    state = json.load(open(os.path.join(again, "server.json")))["jobs"]["ci-qemu-vkms-1of2"]
    check(state["tries"] == [job_id] and state["id"] != job_id, "the canceled try is kept as an earlier try: %s" % state)
    check(verdicts(report) == [v for v in verdicts(server) if v[1] in ("home-0-3", "home-20-23")],
          "merged again: shard 1's two cases, once each, with the verdicts of the full run")


if __name__ == "__main__":
    sys.exit(main())
