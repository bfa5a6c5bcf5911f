"""What the suite's VM script tests (vm-suite.py, server-suite.py,
arch-suite.py) share: a check that counts its failures, a command run that
prints what it ran and checks its exit status, a skip that meson counts.
"""

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
