"""What the suite's VM script tests (vm-suite.py, server-suite.py,
arch-suite.py) share: a check that counts its failures, a command run that
prints what it ran and checks its exit status, a skip that meson counts.
"""

import json
import os
import subprocess
import sys
import time

failures = []


def check(cond, what):
    """Prints ok/FAIL and what; a failure is counted in `failures`."""
    print(("ok: " if cond else "FAIL: ") + what)
    sys.stdout.flush()
    if not cond:
        failures.append(what)


def run(*args, status=0, name=None, **kw):
    """Runs args (output captured, then printed after the command line and
    its time); checks the exit status unless status is None; the failure
    names the command by name, else by its program's file name and first
    argument."""
    start = time.monotonic()
    p = subprocess.run(list(args), capture_output=True, text=True, **kw)
    print("$ %s  (exit %d, %.1f s)" % (" ".join(args), p.returncode, time.monotonic() - start))
    sys.stdout.write(p.stdout)
    sys.stderr.write(p.stderr)
    sys.stdout.flush()
    if status is not None and p.returncode != status:
        check(False, "%s: exit status %d, expected %d" % (name or " ".join([os.path.basename(args[0])] + list(args[1:2])), p.returncode, status))
    return p


def skip(test, why):
    """Ends the test as skipped (meson's 77), saying why."""
    print("%s: skipped: %s" % (test, why))
    sys.exit(77)


def print_hang(log_text):
    """Prints what a LAVA log of a job that stalled says: its cases' errors and exit
    statuses (the lines of a case that ended, so the one missing is the one that hung),
    and LAVA's errors."""
    print("  what its log says:")
    for line in log_text.splitlines():
        if "HWCT-CASE" in line and (" stderr " in line or " status " in line) or '"error"' in line:
            print("  " + line[:300])


def retry_hung(hwc_suite, out, boards=None):
    """After `hwc-suite run OUT`: a job (of one of boards, else any) that did not
    complete, or with a case at its time limit (status 124), runs once more, as
    vm-run boots a stalled VM again: a guest has stalled in the middle of a replay
    under TCG on a loaded host (docs/fleet.md, "Known limits"). Its first log is
    kept as runs/<job>.first-try and what it says about the hang is printed.
    Returns the names of the jobs run again."""
    manifest = json.load(open(os.path.join(out, "manifest.json")))
    again = []
    for j in manifest["jobs"]:
        if boards is not None and j["board"] not in boards:
            continue
        log = os.path.join(out, "runs", j["name"] + ".log")
        text = open(log).read() if os.path.exists(log) else ""
        if " status 124" not in text and '"case": "job", "definition": "lava", "result": "pass"' in text:
            continue
        print("%s: a case hung or the job did not complete; once more" % j["name"])
        print_hang(text)
        if os.path.exists(log):
            os.replace(log, log + ".first-try")
        run(hwc_suite, "run", out, "--job", j["name"], status=None)
        again.append(j["name"])
    return again
