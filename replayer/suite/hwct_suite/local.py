"""Jobs run here by LAVA's own dispatcher (docs/fleet.md, "Running locally"):
`lava-run` (package lava-dispatcher) on a rendered device dictionary: the one
given, else this machine's qemu of the job's board architecture
(lava/qemu-hwct.yaml for amd64, lava/qemu-hwct-arm64.yaml for arm64). Each job's
log goes to OUTPUT/runs/<job>.log, the file `merge` reads, and lava-run's output
folder to OUTPUT/runs/<job>.d.
"""

import os
import shutil
import subprocess
import sys
import time

from . import SuiteError, artifacts, jobs, lavalog

# this machine's qemu device dictionary of each board architecture
DEVICES = {"amd64": "qemu-hwct.yaml", "arm64": "qemu-hwct-arm64.yaml"}


def device_of(arch):
    """The rendered device dictionary of this machine's qemu for arch."""
    if arch not in DEVICES:
        raise SuiteError("no qemu device dictionary here for arch %r (%s)" % (arch, ", ".join(DEVICES)))
    return os.path.join(artifacts.LAVA_DIR, DEVICES[arch])


def run_all(out_dir, device=None, only=None):
    """Runs the jobs of out_dir's manifest (those named in only, if given) one
    after the other, on device (a rendered device dictionary) or, without one, on
    device_of each job's architecture. Returns 0 when every job ended well, 125
    when one did not (an infrastructure or job error: its cases are not
    regressions)."""
    if shutil.which("lava-run") is None:
        raise SuiteError("lava-run not found (apt-get install lava-dispatcher)")
    if os.geteuid() != 0:
        raise SuiteError("lava-run runs as root only")
    if device and not os.path.isfile(device):
        raise SuiteError("%s: no such device dictionary" % device)
    manifest_jobs = jobs.read_manifest(out_dir, only)
    devices = {j["name"]: device or device_of(j.get("arch", "amd64")) for j in manifest_jobs}
    runs = os.path.join(out_dir, "runs")
    os.makedirs(runs, exist_ok=True)
    status = 0
    for i, j in enumerate(manifest_jobs):
        log_path = os.path.join(runs, j["name"] + ".log")
        # lava-run keeps its files in /var/lib/lava/dispatcher/tmp/<id>: an id of this
        # process, so that runs at the same time do not meet
        job_id = str(os.getpid() * 100 + i % 100)
        start = time.monotonic()
        with open(log_path, "w", encoding="utf-8") as log:
            p = subprocess.run(["lava-run", "--job-id", job_id, "--output-dir", os.path.join(runs, j["name"] + ".d"),
                                "--device", devices[j["name"]], os.path.join(out_dir, j["file"])],
                               stdout=log, stderr=subprocess.STDOUT)
        took = time.monotonic() - start
        end = lavalog.read(log_path).job or {"result": "incomplete"}
        ok = p.returncode == 0 and end.get("result") == "pass"
        detail = "" if ok else " (%s: %s)" % (end.get("error_type") or "lava-run exit %d" % p.returncode,
                                              end.get("error_msg") or "no end of job in the log")
        print("%s: %s in %.0f s%s; log %s" % (j["name"], "complete" if ok else "INCOMPLETE", took, detail, log_path))
        sys.stdout.flush()
        if not ok:
            status = 125
    return status
