#!/usr/bin/env python3
"""no_pixels.py HWC_TRACE FIXTURE...

`hwc-trace import-winscope --no-pixels` of each real layer trace: the trace
says pixels off and holds no blob, and its records are those of the import
with pixels record for record, but for the content references (`content=`)
that the pixels would have given: the same calls, layers, buffers, fences,
decisions and frames. It also takes a fraction of the time and memory
(printed, not checked: the machine is shared).
"""
import os
import re
import subprocess
import sys
import tempfile
import time

CONTENT = re.compile(r" content=[0-9a-f]+…")


def run(*args):
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("%s failed (%d): %s" % (" ".join(args), p.returncode, p.stderr))
    return p.stdout


def main():
    hwc_trace, fixtures = sys.argv[1], sys.argv[2:]
    with tempfile.TemporaryDirectory() as tmp:
        for fixture in fixtures:
            name = os.path.basename(fixture)
            with_px, without = os.path.join(tmp, "px.zst"), os.path.join(tmp, "nopx.zst")
            t0 = time.monotonic()
            run(hwc_trace, "import-winscope", fixture, with_px)
            t1 = time.monotonic()
            run(hwc_trace, "import-winscope", fixture, without, "--no-pixels")
            t2 = time.monotonic()
            info = run(hwc_trace, "info", without)
            if "pixels off" not in info:
                sys.exit("%s: --no-pixels trace does not say pixels off:\n%s" % (name, info))
            a = run(hwc_trace, "dump", with_px).splitlines()
            b = run(hwc_trace, "dump", without).splitlines()
            blobs = [line for line in b if line.startswith("blob ")]
            if blobs:
                sys.exit("%s: --no-pixels trace holds %d blobs: %s" % (name, len(blobs), blobs[0]))
            if not any(line.startswith("blob ") for line in a):
                sys.exit("%s: the import with pixels holds no blob: the comparison proves nothing" % name)
            a = [CONTENT.sub("", line) for line in a if not line.startswith("blob ")]
            if a != b:
                for i, (x, y) in enumerate(zip(a, b)):
                    if x != y:
                        sys.exit("%s: record %d differs:\n  pixels:    %s\n  no pixels: %s" % (name, i, x, y))
                sys.exit("%s: %d records with pixels, %d without" % (name, len(a), len(b)))
            print("%s: %d records the same; import %.2f s with pixels, %.2f s without" %
                  (name, len(b), t1 - t0, t2 - t1))


if __name__ == "__main__":
    main()
