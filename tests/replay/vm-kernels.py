#!/usr/bin/env python3
"""vm-kernels.py HWC_REPLAY REPLAY_GEN VM_PREPARE VM_CACHE UNAVAILABLE_STATUS

The 'vm-kernels' test (docs/vm-tests.md, "Other kernels"): one generated trace
with a rotated ARGB8888 tile (replay-gen --rotate, 3 layers, 4 frames) replayed
with hwc-replay --vm on two real kernels, Debian's 6.1 (the default) and the
newest 6.12, then on 6.12 again booted as a kernel of one's own
(--kernel-image, --kernel-modules). Asserts:

- each results file names the kernel that ran (replay_environment.kernel);
- on 6.1 every frame puts the rotated tile on the client with the reason
  "rotation" (vkms 6.1 has no rotation property); on 6.12 every layer of every
  frame is on a plane of its own (vkms 6.12 has one);
- the writeback checksums of the two kernels are equal frame by frame (vkms
  6.12 rotating the tile on its plane and pixman rotating it for the client
  target agree), and --kernel-image gives 6.12's plans and checksums;
- the cache: a second vm-prepare --kernel 6.12 prepares nothing; the two
  kernels' folders are side by side (--kernel list); a prepared folder with a
  truncated file or without `complete`, and a left-over .work.* folder, are
  rebuilt or removed, never used.

Exit 0, 1 on a failed check, UNAVAILABLE_STATUS when no VM can be prepared or
booted here (or the archive has no 6.12).
"""
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

ROTATED = 101  # replay_gen.c: layer ids are 100 + index; the first tile is rotated


def fail(msg):
    print("vm-kernels: FAIL:", msg, file=sys.stderr)
    sys.exit(1)


def run(args, **kw):
    start = time.monotonic()
    p = subprocess.run(args, capture_output=True, text=True, **kw)
    return p, time.monotonic() - start


def main():
    replay, gen, prepare, cache, unavailable = sys.argv[1:6]
    unavailable = int(unavailable)
    cache = os.path.realpath(cache)
    env = dict(os.environ, HWCT_VM_CACHE=cache)
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="vm-kernels."))
    try:
        check(replay, gen, prepare, cache, unavailable, env, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def prepare_kernel(prepare, cache, unavailable, args):
    p, secs = run([prepare, "--cache", cache] + args)
    if p.returncode == 125:
        print(p.stderr, end="", file=sys.stderr)
        print(f"vm-kernels: cannot prepare {' '.join(args)}: skipped", file=sys.stderr)
        sys.exit(unavailable)
    if p.returncode != 0:
        fail(f"vm-prepare {' '.join(args)} exited {p.returncode}: {p.stderr}")
    return p.stdout.strip(), p.stderr, secs


def replay_on(replay, trace, unavailable, env, tmp, name, kernel_args):
    out = tmp / f"{name}.json"
    p, secs = run([replay, str(trace), "--vm", *kernel_args, "--quiet", "--results", str(out)], env=env)
    print(f"vm-kernels: replay on {name}: exit {p.returncode}, {secs:.0f} s", file=sys.stderr)
    if p.returncode in (125, 77):
        print(p.stderr, end="", file=sys.stderr)
        sys.exit(unavailable)
    if p.returncode != 0:
        fail(f"hwc-replay on {name} exited {p.returncode}: {p.stderr}")
    return json.loads(out.read_text())


def frames(results, name, count):
    fr = results["frames"]
    if len(fr) != count:
        fail(f"{name}: {len(fr)} frames, not {count}")
    for f in fr:
        if f.get("checksum_source") != "writeback" or not f.get("checksum"):
            fail(f"{name} frame {f['frame']}: no writeback checksum ({f.get('checksum_source')})")
    return fr


def kernel_of(results):
    return (results.get("replay_environment") or {}).get("kernel") or ""


def check(replay, gen, prepare, cache, unavailable, env, tmp):
    trace = tmp / "rotated.zst"
    subprocess.run([gen, str(trace), "--layers", "3", "--frames", "4", "--rotate"], check=True)

    folder_612, log, secs = prepare_kernel(prepare, cache, unavailable, ["--kernel", "6.12"])
    print(f"vm-kernels: vm-prepare --kernel 6.12: {secs:.1f} s -> {folder_612}", file=sys.stderr)

    r61 = replay_on(replay, trace, unavailable, env, tmp, "6.1", [])
    r612 = replay_on(replay, trace, unavailable, env, tmp, "6.12", ["--kernel", "6.12"])
    k61, k612 = kernel_of(r61), kernel_of(r612)
    if not k61.startswith("6.1.") or not k612.startswith("6.12."):
        fail(f"results name the kernels '{k61}' and '{k612}', not 6.1.* and 6.12.*")
    print(f"vm-kernels: kernels: {k61} | {k612}", file=sys.stderr)

    f61, f612 = frames(r61, "6.1", 4), frames(r612, "6.12", 4)
    for a, b in zip(f61, f612):
        n = a["frame"]
        rot = [p for p in a["plan"] if p["layer"] == ROTATED]
        if len(rot) != 1 or rot[0]["composition"] != "CLIENT" or "rotation" not in rot[0]["reasons"]:
            fail(f"6.1 frame {n}: the rotated tile is not CLIENT for 'rotation': {a['plan']}")
        planes = [p["plane"] for p in b["plan"]]
        if any(p["composition"] != "DEVICE" for p in b["plan"]) or None in planes or \
                len(set(planes)) != len(planes) or len(planes) != 3:
            fail(f"6.12 frame {n}: not every layer on a plane of its own: {b['plan']}")
        if a["checksum"] != b["checksum"]:
            fail(f"frame {n}: writeback checksums differ: 6.1 {a['checksum']}, 6.12 {b['checksum']}")
    print("vm-kernels: 6.1 composes the rotated tile (%s), 6.12 scans every layer out on planes %s; "
          "checksums equal" % (",".join(f61[0]["plan"][1]["reasons"]),
                               "/".join(str(p["plane"]) for p in f612[0]["plan"])), file=sys.stderr)

    # cache: nothing prepared a second time, both kernels side by side
    again, log, secs = prepare_kernel(prepare, cache, unavailable, ["--kernel", "6.12"])
    if again != folder_612 or "prepared" in log or "downloading" in log:
        fail(f"a second vm-prepare --kernel 6.12 prepared again ({again}): {log}")
    print(f"vm-kernels: vm-prepare --kernel 6.12 from the cache: {secs:.2f} s", file=sys.stderr)
    p, _ = run([prepare, "--cache", cache, "--kernel", "list"])
    version = pathlib.Path(folder_612).name[len("kernel-"):].rsplit("-", 1)[0]
    rows = {line.split()[0]: line for line in p.stdout.splitlines()[1:] if line.strip()}
    if not rows.get(version, "").rstrip().endswith("yes"):
        fail(f"--kernel list does not show {version} prepared:\n{p.stdout}")
    if not any(r.rstrip().endswith("yes (the default)") and k.startswith("6.1.") for k, r in rows.items()):
        print("vm-kernels: note: the installed 6.1 is not in the archive's list", file=sys.stderr)
    if not list(pathlib.Path(cache).glob("prepared-*/complete")):
        fail("the default 6.1 folder is gone after preparing 6.12")

    # a kernel of one's own: 6.12's vmlinux and its modules taken out of its initramfs
    mods = tmp / "modules"
    mods.mkdir()
    with open(pathlib.Path(folder_612) / "initramfs.cpio", "rb") as f:
        subprocess.run(["cpio", "-id", "--quiet", "*.ko"], stdin=f, cwd=mods, check=True)
    image = tmp / "vmlinux"
    shutil.copy(pathlib.Path(folder_612) / "kernel", image)
    own_args = ["--kernel-image", str(image), "--kernel-modules", str(mods)]
    own_folder, log, secs = prepare_kernel(prepare, cache, unavailable, own_args)
    print(f"vm-kernels: vm-prepare --kernel-image: {secs:.1f} s -> {own_folder}", file=sys.stderr)
    rown = replay_on(replay, trace, unavailable, env, tmp, "own", own_args)
    if kernel_of(rown) != k612:
        fail(f"--kernel-image ran '{kernel_of(rown)}', not '{k612}'")
    for a, b in zip(frames(rown, "own", 4), f612):
        if a["plan"] != b["plan"] or a["checksum"] != b["checksum"]:
            fail(f"--kernel-image frame {a['frame']} differs from 6.12's")

    # half-made folders are rebuilt, never used; left-over work folders removed
    own = pathlib.Path(own_folder)
    leftover = pathlib.Path(cache) / ".work.left-over"
    leftover.mkdir(exist_ok=True)
    for damage in ("truncate", "no-complete"):
        if damage == "truncate":
            with open(own / "initramfs.cpio", "r+b") as f:
                f.truncate(1000)
        else:
            (own / "complete").unlink()
        again, log, _ = prepare_kernel(prepare, cache, unavailable, own_args)
        if again != own_folder or "prepared" not in log:
            fail(f"a {damage} folder was not rebuilt: {log}")
        sizes = dict(line.split()[1:] for line in (own / "complete").read_text().splitlines()
                     if line.startswith("size "))
        if str((own / "initramfs.cpio").stat().st_size) != sizes.get("initramfs.cpio"):
            fail(f"after a {damage} folder: sizes do not match complete")
    if leftover.exists():
        fail("a left-over .work.* folder was not removed")
    shutil.rmtree(own, ignore_errors=True)
    print("vm-kernels: all checks passed", file=sys.stderr)


if __name__ == "__main__":
    main()
