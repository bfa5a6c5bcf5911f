#!/usr/bin/env python3
"""Runs the README's examples exactly as written (test readme-examples).

Usage: readme-examples.py SOURCE_ROOT BUILD_ROOT

Every fenced ```sh block of README.md is run with bash (-e, -o pipefail), in
order, in one folder of its own that holds `build` (a link to BUILD_ROOT, the
build folder under test), and `traces`, `tests` and `scripts` (links into the
source tree), so that the commands read as a user types them from the source
folder and what they write stays in that folder. No HWCT_VM_RUN or
HWCT_VM_CACHE is passed: an uninstalled build must find its own VM harness.

The README's other code blocks are indented ones; each must be a set-up
command (the first and second command, the install line) or a block the README
itself marks as not run here with <!-- not run: REASON --> on the line before
it. Any other indented block fails the test: an example no test runs goes
stale. Exit 0 when every block ran, 1 on the first failure (its block, its
output), 77 when the build has no hwc-replay or hwc-trace. It is a test of the
VM suite (the examples boot it), defined only where the VM tests are.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

SETUP = (
    re.compile(r"^bash scripts/(bootstrap|test)\.sh$"),
    re.compile(r"^meson setup build --prefix \S+ && ninja -C build && meson install -C build$"),
)


def blocks(text):
    """(kind, first line number, body, note) for each code block: kind is
    'sh', 'fenced' (another language) or 'indented'; note is the
    <!-- not run: ... --> reason just before it, or None."""
    lines = text.split("\n")
    out = []
    i = 0
    in_list = False
    while i < len(lines):
        line = lines[i]
        prev = next((l for l in reversed(lines[:i]) if l.strip()), "")
        m = re.match(r"<!-- not run: (.+) -->$", prev.strip())
        note = m.group(1) if m else None
        if line.startswith("```"):
            lang = line[3:].strip()
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            if j == len(lines):
                sys.exit("README.md:%d: a code block that is never closed" % (i + 1))
            out.append(("sh" if lang == "sh" else "fenced", i + 1, "\n".join(lines[i + 1:j]), note))
            i = j + 1
            continue
        # an indented block: 4 spaces after a blank line, not inside a list item
        if line.startswith("    ") and i > 0 and not lines[i - 1].strip() and not in_list:
            j = i
            while j < len(lines) and (lines[j].startswith("    ") or not lines[j].strip()):
                j += 1
            body = "\n".join(l[4:] for l in lines[i:j]).strip("\n")
            out.append(("indented", i + 1, body, note))
            i = j
            continue
        if line.strip():
            in_list = bool(re.match(r"\s*([-*]|\d+\.) ", line)) or (in_list and line.startswith(" "))
        i += 1
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    source, build = (os.path.abspath(a) for a in sys.argv[1:])
    for prog in ("replayer/hwc-replay", "analyzers/hwc-trace"):
        if not os.access(os.path.join(build, prog), os.X_OK):
            print("skip: the build has no %s" % prog)
            return 77
    text = open(os.path.join(source, "README.md"), encoding="utf-8").read()
    found = blocks(text)
    to_run = [b for b in found if b[0] == "sh"]
    if not to_run:
        print("README.md has no sh block: nothing shows a user a first command")
        return 1
    for kind, line, body, note in found:
        if kind == "sh" and note:
            print("README.md:%d: an sh block marked not run (%s): mark it as another language" % (line, note))
            return 1
        if kind != "indented" or note:
            continue
        commands = [c for c in body.split("\n") if c.strip()]
        if not all(any(p.match(c.strip()) for p in SETUP) for c in commands):
            print("README.md:%d: an indented block that is neither a set-up command nor marked"
                  " <!-- not run: REASON -->; make it an sh block so that this test runs it:\n%s" % (line, body))
            return 1
    env = {k: v for k, v in os.environ.items() if not k.startswith("HWCT_VM_")}
    work = tempfile.mkdtemp(prefix="readme-examples.")
    try:
        os.symlink(build, os.path.join(work, "build"))
        for name in ("traces", "tests", "scripts"):
            os.symlink(os.path.join(source, name), os.path.join(work, name))
        for _, line, body, _ in to_run:
            start = time.monotonic()
            print("== README.md:%d" % line)
            print(body)
            proc = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", body], cwd=work, env=env,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            output = proc.stdout.rstrip("\n")
            print("\n".join("   | " + l for l in output.split("\n")[-40:]))
            if proc.returncode != 0:
                print("FAIL: README.md:%d exits %d after %.0f s" % (line, proc.returncode, time.monotonic() - start))
                return 1
            if not output:
                print("FAIL: README.md:%d printed nothing" % line)
                return 1
            print("ok: README.md:%d (%.0f s)" % (line, time.monotonic() - start))
        print("%d README blocks ran as written" % len(to_run))
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
