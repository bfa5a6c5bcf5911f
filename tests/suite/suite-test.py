#!/usr/bin/python3
"""Deviceless tests of hwc-suite (docs/fleet.md), one meson test per case:

  suite-test.py HWC_SUITE SOURCE_ROOT CASE [HWC_REPLAY HWC_TRACE]

shards      --fraction K/N for K = 1..N covers every trace exactly once, shard sizes
            differ by at most one (Mesa's every-Nth split), for N = 1..7 and 1..9 traces;
            the same through the jobs the program writes (the manifest and the test
            steps), fractions written by separate runs into one folder
schema      every job written validates with LAVA's own schema (lava-common, strict),
            with `jobs` and `validate`; a job with a field LAVA does not know, or
            without its timeouts, is refused naming the field
jobs        what a job holds: device type, context, kernel arguments, the ramdisk's
            overlays, one hwct-case step per trace with its range, expectation and
            options; per-board expectations; --artifacts-url publishes every file
errors      bad suite files and options: an error naming the file and the field, exit 2
bundle      hwc-suite bundle: hwc-replay, every library ldd names and the loader
elf         the ELF reader (hwct_suite.elf): hwc-replay's libraries and loader resolved from
            its ELF file equal ldd's (a cross build's: its own loader's --list under
            qemu-user); a tree of AArch64 files: DT_RUNPATH with $ORIGIN, the
            library path before DT_RUNPATH and after DT_RPATH, an x86-64 library of the same
            name passed over, the loader found and not listed as a library; a missing library
            or loader named with the program; not-ELF, truncated and corrupt files (class,
            program header count, DT_STRTAB outside the segments) refused naming the file;
            the folders of ld.so.conf and its includes under the root; `bundle -L` of an
            AArch64 program; arm64's libc of the multiarch folder read
arch        boards' architecture: an amd64 and an arm64 board give a job each, valid by LAVA's
            schema, context arch amd64 and arm64, arch in the manifest; a board whose bundle's
            hwc-replay is of another machine is refused naming both, as are an unknown arch,
            a context arch that contradicts it and a bundle that is not one
board-files board-files on stand-in vm-prepare folders: the arch of the modules' ELF machine,
            the VM's own static busybox in the ramdisk; a busybox of another machine or
            dynamically linked, modules of no board architecture, an hwc-replay of another
            architecture (naming both) refused
device      lava/qemu-hwct.yaml and qemu-hwct-arm64.yaml have the qemu program, machine, CPU
            and TCG that lava-server renders from lava/qemu-hwct.jinja2 for each arch
case-script lava/hwct-case under busybox sh with a stand-in hwc-replay and lava-test-case:
            exit status 0, 1 and 125 reported to LAVA as pass, fail and skip, the block read
            back by the merge's parser (status, stderr, results), a replay that outlives
            HWCT_CASE_TIMEOUT killed and reported as status 124 with its threads' stacks
merge       hwc-suite merge on job logs written as lava-run writes them (and as lavacli
            prints them): verdicts pass, fail (first differing frame from hwc-trace diff),
            infrastructure for a job LAVA ended early and for a missing log; kernel lines
            inside a case block are ignored; a block whose results do not match their
            md5sum, or are cut, keeps its verdict and says so; two boards' results of a
            trace compared by hwc-trace diff
server      merge --server with the server out of reach (a closed port of 127.0.0.1): a
            job whose log of its current try is kept merges from it, a job submitted
            again whose kept log is of an earlier try is pending (not the old verdict),
            a job never submitted is pending, each saying why; a damaged server.json
            and a bad --url are refused naming them

Exit 77 (skipped) when what a case needs is missing (lava-common for schema).
"""

import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile

HWC_SUITE, ROOT, CASE = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]), sys.argv[3]
HWC_REPLAY, HWC_TRACE = (sys.argv[4:6] + [None, None])[:2]
sys.path.insert(0, os.path.join(ROOT, "replayer", "suite"))

from hwct_suite import shard  # noqa: E402

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL: " + what)


def run(*args, status=0):
    p = subprocess.run([HWC_SUITE, *args], capture_output=True, text=True)
    if p.returncode != status:
        print(p.stdout + p.stderr)
    check(p.returncode == status, "hwc-suite %s: exit %d, expected %d" % (" ".join(args), p.returncode, status))
    return p


def make_elf(path, machine=62, bits=64, interp=None, needed=(), runpath=None, rpath=None, soname=None,
             flags=0, mode=0o755):
    """Writes a small ELF file as a linker lays one out for the loader: an ELF header,
    program headers (PT_LOAD of the whole file at 0x10000, PT_INTERP, PT_DYNAMIC), the
    interpreter's name, the dynamic string table and the dynamic section; machine 62 is
    x86-64, 183 AArch64, 40 ARM."""
    import struct
    strtab = b"\0"
    offsets = {}
    for text in list(needed) + [t for t in (runpath, rpath, soname) if t]:
        offsets[text] = len(strtab)
        strtab += text.encode() + b"\0"
    dyn = [(1, offsets[n]) for n in needed]
    dyn += [(tag, offsets[t]) for tag, t in ((29, runpath), (15, rpath), (14, soname)) if t]
    ehsize, phentsize = (64, 56) if bits == 64 else (52, 32)
    phnum = 3 if interp else 2
    interp_off = ehsize + phnum * phentsize
    interp_b = interp.encode() + b"\0" if interp else b""
    str_off = interp_off + len(interp_b)
    dyn_off = str_off + len(strtab)
    base = 0x10000
    dyn += [(5, base + str_off), (10, len(strtab)), (0, 0)]
    dyn_fmt = "<qQ" if bits == 64 else "<iI"
    dyn_b = b"".join(struct.pack(dyn_fmt, t, v) for t, v in dyn)
    size = dyn_off + len(dyn_b)
    ident = b"\x7fELF" + bytes([2 if bits == 64 else 1, 1, 1]) + bytes(9)
    hfmt = "<HHIQQQIHHHHHH" if bits == 64 else "<HHIIIIIHHHHHH"
    head = ident + struct.pack(hfmt, 3, machine, 1, 0, ehsize, 0, flags, ehsize, phentsize, phnum, 0, 0, 0)

    def ph(p_type, offset, filesz):
        if bits == 64:
            return struct.pack("<IIQQQQQQ", p_type, 4, offset, base + offset, base + offset, filesz, filesz, 8)
        return struct.pack("<IIIIIIII", p_type, offset, base + offset, base + offset, filesz, filesz, 4, 4)
    phs = ph(1, 0, size) + (ph(3, interp_off, len(interp_b)) if interp else b"") + ph(2, dyn_off, len(dyn_b))
    with open(path, "wb") as f:
        f.write(head + phs + interp_b + strtab + dyn_b)
    os.chmod(path, mode)
    return path


def make_bundle(path, machine=62):
    """A bundle whose hwc-replay is a stand-in ELF file of machine."""
    with tempfile.TemporaryDirectory() as tmp:
        make_elf(os.path.join(tmp, "hwc-replay"), machine, interp="/lib/ld.so", needed=["libc.so.6"])
        with tarfile.open(path, "w") as t:
            t.add(os.path.join(tmp, "hwc-replay"), "usr/bin/hwc-replay")
    return path


def board_files(tmp):
    """Stand-ins for the board's files: jobs only name them, but for the bundle, whose
    hwc-replay's machine must be the board's arch (x86-64 for amd64, AArch64 for arm64)."""
    for name in ("kernel", "ramdisk.cpio", "modules.tar"):
        with open(os.path.join(tmp, name), "wb") as f:
            f.write(name.encode())
    make_bundle(os.path.join(tmp, "bundle.tar"))
    make_bundle(os.path.join(tmp, "bundle-arm64.tar"), 183)


def write_suite(tmp, traces, extra_board="", extra="", name="suite.yaml"):
    lines = ["name: t", "shards: 2", "replay_args: [--timing, fast]", extra, "boards:",
             "  qemu-vkms:", "    device_type: qemu", "    kernel: kernel",
             "    ramdisk: ramdisk.cpio", "    modules: modules.tar", "    bundle: bundle.tar",
             "    kernel_args: console=ttyS0 hwct.vkms=enable_overlay=1", extra_board, "traces:"]
    home = os.path.join(ROOT, "traces", "home.zst")
    for i in range(traces):
        lines.append("  - {name: c%d, trace: %s, frames: %d-%d}" % (i, home, i, i + 1))
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write("\n".join(line for line in lines if line) + "\n")
    return path


def load_yaml(path):
    import yaml
    with open(path) as f:
        return yaml.safe_load(f)


def case_shards():
    for n in range(1, 8):
        for m in range(0, 10):
            items = list(range(m))
            parts = [shard.select(items, k, n) for k in range(1, n + 1)]
            flat = sorted(x for p in parts for x in p)
            check(flat == items, "%d items in %d shards: every item once (%s)" % (m, n, parts))
            sizes = [len(p) for p in parts]
            check(max(sizes) - min(sizes) <= 1, "%d items in %d shards: sizes %s" % (m, n, sizes))
    for bad in ("0/2", "3/2", "1/0", "1", "a/b", "", "1/2/3"):
        try:
            shard.parse_fraction(bad)
            check(False, "fraction %r refused" % bad)
        except Exception as exc:
            check("fraction" in str(exc), "fraction %r: error names --fraction (%s)" % (bad, exc))

    with tempfile.TemporaryDirectory() as tmp:
        board_files(tmp)
        for n in (1, 2, 3, 5):
            suite = write_suite(tmp, 7)
            out = os.path.join(tmp, "out%d" % n)
            for k in range(1, n + 1):  # one run per fraction, as one CI node each
                run("jobs", suite, "-o", out, "--fraction", "%d/%d" % (k, n), "--no-validate")
            manifest = json.load(open(os.path.join(out, "manifest.json")))
            cases = [c["name"] for j in manifest["jobs"] for c in j["cases"]]
            check(sorted(cases) == sorted("c%d" % i for i in range(7)),
                  "%d fractions: manifest cases %s, every trace once" % (n, cases))
            steps = []
            for j in manifest["jobs"]:
                d = load_yaml(os.path.join(out, j["file"]))
                steps += d["actions"][2]["test"]["definitions"][0]["repository"]["run"]["steps"]
            names = sorted(s.split()[2] for s in steps)
            check(names == sorted("c%d" % i for i in range(7)),
                  "%d fractions: job steps %s, every trace once" % (n, names))
        out = os.path.join(tmp, "all")
        p = run("jobs", suite, "-o", out, "--shards", "9", "--no-validate")
        check(p.stdout.count("\n") == 7, "9 shards of 7 traces: 7 jobs, no empty one (%r)" % p.stdout)


def need_lava_common():
    """Skips the case (77) where LAVA's schemas are not installed."""
    try:
        from lava_common import schemas  # noqa: F401
    except ImportError:
        print("lava-common is not installed (scripts/install-deps.sh lava)")
        sys.exit(77)


def case_schema():
    need_lava_common()
    with tempfile.TemporaryDirectory() as tmp:
        board_files(tmp)
        suite = write_suite(tmp, 3)
        out = os.path.join(tmp, "out")
        p = run("jobs", suite, "-o", out)
        check(p.stdout.count("  valid\n") == 2, "jobs checked by LAVA's schema: %r" % p.stdout)
        jobs = sorted(os.path.join(out, "jobs", f) for f in os.listdir(os.path.join(out, "jobs")))
        check(len(jobs) == 2, "two job files")
        p = run("validate", *jobs)
        check(p.stdout.count(": valid") == 2, "validate: both valid")

        import yaml
        d = load_yaml(jobs[0])
        d["actions"][0]["deploy"]["images"]["ramdisk"]["overlays"]["hwct-data"]["frmat"] = "tar"
        bad = os.path.join(tmp, "bad-field.yaml")
        yaml.safe_dump(d, open(bad, "w"))
        p = run("validate", bad, status=1)
        check("not a valid LAVA job" in p.stderr and "bad-field.yaml" in p.stderr,
              "a misspelt field is refused, naming the file: %r" % p.stderr)
        d = load_yaml(jobs[0])
        del d["timeouts"]
        bad = os.path.join(tmp, "no-timeouts.yaml")
        yaml.safe_dump(d, open(bad, "w"))
        p = run("validate", bad, status=1)
        check("timeouts" in p.stderr, "a job without timeouts is refused, naming them: %r" % p.stderr)

        # a board of a farm: tftp deploy, u-boot boot
        farm = write_suite(tmp, 2, name="farm.yaml", extra_board="\n".join([
            "  rock-pi:", "    device_type: rk3399-rock-pi-4b", "    kernel: kernel",
            "    ramdisk: ramdisk.cpio", "    modules: modules.tar", "    bundle: bundle.tar",
            "    dtb: kernel", "    boot: {method: u-boot, commands: ramdisk}",
            "    target: [--device, /dev/dri/card1]"]))
        run("jobs", farm, "-o", os.path.join(tmp, "farm"), "--board", "rock-pi", "--shards", "1")
        d = load_yaml(os.path.join(tmp, "farm", "jobs", "t-rock-pi-1of1.yaml"))
        deploy = d["actions"][0]["deploy"]
        check(deploy["to"] == "tftp" and "modules" in deploy and "dtb" in deploy,
              "a farm board deploys with tftp, its modules and dtb: %s" % deploy)
        check(d["actions"][1]["boot"]["method"] == "u-boot", "its boot is the board's")

        # a job time limit below the deploy's and boot's own still validates: they shrink to it
        run("jobs", write_suite(tmp, 1, extra="timeout_minutes: 1", name="short.yaml"), "-o",
            os.path.join(tmp, "short"))


def case_jobs():
    with tempfile.TemporaryDirectory() as tmp:
        board_files(tmp)
        with open(os.path.join(tmp, "good.json"), "w") as f:
            f.write("{}")
        suite = write_suite(tmp, 2, extra="")
        # c1 gets an expectation for the board
        text = open(suite).read().replace("frames: 1-2}", "frames: 1-2, args: [--planner, search], "
                                          "expect: {qemu-vkms: good.json}}")
        open(suite, "w").write(text)
        out = os.path.join(tmp, "out")
        run("jobs", suite, "-o", out, "--shards", "1", "--no-validate")
        d = load_yaml(os.path.join(out, "jobs", "t-qemu-vkms-1of1.yaml"))
        check(d["device_type"] == "qemu" and d["context"] == {"arch": "amd64"}, "qemu job, context arch")
        images = d["actions"][0]["deploy"]["images"]
        check('-append "console=ttyS0 hwct.vkms=enable_overlay=1"' in images["kernel"]["image_arg"],
              "kernel arguments on qemu's -append: %s" % images["kernel"]["image_arg"])
        overlays = images["ramdisk"]["overlays"]
        check(images["ramdisk"]["format"] == "cpio.newc" and overlays.get("lava") is True,
              "LAVA's overlay goes into the cpio ramdisk")
        check(set(overlays) == {"lava", "modules", "hwct-bundle", "hwct-data"}, "overlays %s" % sorted(overlays))
        check(overlays["modules"]["url"] == "file://" + os.path.join(tmp, "modules.tar"), "modules in place")
        steps = d["actions"][2]["test"]["definitions"][0]["repository"]["run"]["steps"]
        check(len(steps) == 2 and all(s.startswith("HWCT_CASE_TIMEOUT=300 /hwct/bin/hwct-case c") for s in steps),
              "one step per trace, with the case time limit: %s" % steps)
        check(steps[0].endswith(" - --device /dev/dri/card0 --frames 0-1 --timing fast"),
              "no expectation: '-', target, range, suite options: %s" % steps[0])
        check(" /hwct/expect/c1.json --device /dev/dri/card0 --frames 1-2 --timing fast --planner search"
              in steps[1], "expectation, then the case's own options: %s" % steps[1])
        with tarfile.open(os.path.join(out, "artifacts", "t-qemu-vkms-1of1.data.tar")) as t:
            names = t.getnames()
        check("hwct/bin/hwct-case" in names and "hwct/expect/c1.json" in names, "data archive: %s" % names)
        check(len([n for n in names if n.startswith("hwct/traces/")]) == 1, "one trace replayed twice is there once")

        out = os.path.join(tmp, "pub")
        run("jobs", suite, "-o", out, "--shards", "1", "--no-validate", "--artifacts-url", "https://files.example/s1/")
        d = load_yaml(os.path.join(out, "jobs", "t-qemu-vkms-1of1.yaml"))
        images = d["actions"][0]["deploy"]["images"]
        urls = [images["kernel"]["url"], images["ramdisk"]["url"]] + \
            [o["url"] for k, o in images["ramdisk"]["overlays"].items() if k != "lava"]
        check(all(u.startswith("https://files.example/s1/") for u in urls), "every URL published: %s" % urls)
        published = os.listdir(os.path.join(out, "artifacts"))
        check(all(u.rsplit("/", 1)[1] in published for u in urls), "every published file is in artifacts/")


def case_errors():
    with tempfile.TemporaryDirectory() as tmp:
        board_files(tmp)
        good = open(write_suite(tmp, 2)).read()
        cases = [
            (good.replace("    kernel: kernel\n", ""), "boards.qemu-vkms.kernel: missing"),
            (good.replace("kernel: kernel", "kernel: nothing-here"), "boards.qemu-vkms.kernel:"),
            (good.replace("name: t\n", "name: t\ncolour: red\n"), "colour: unknown field"),
            (good.replace("name: c1,", "name: c0,"), "traces[1].name: 'c0' is used twice"),
            (good.replace("frames: 1-2", "frames: one"), "traces[1].frames"),
            (good.replace("shards: 2", "shards: 0"), "shards: must be at least 1"),
            (good.replace("name: t\n", "name: 't t'\n"), "name: 't t'"),
            (good.replace("device_type: qemu", "device_type: qemu\n    deploy: nfs"), "deploy: 'nfs'"),
            (good.replace("traces:", "traces: []\nx:"), "x: unknown field"),
            ("[1, 2", "not valid YAML"),
        ]
        for i, (text, want) in enumerate(cases):
            path = os.path.join(tmp, "bad%d.yaml" % i)
            open(path, "w").write(text)
            p = run("jobs", path, "-o", os.path.join(tmp, "o"), "--no-validate", status=2)
            check(want in p.stderr and path in p.stderr, "%s: error %r names %r and the file" % (path, p.stderr, want))
        suite = os.path.join(tmp, "suite.yaml")
        for args in (["--fraction", "3/2"], ["--fraction", "1/2", "--shards", "2"], ["--board", "nope"]):
            p = run("jobs", suite, "-o", os.path.join(tmp, "o"), *args, status=2)
            check("error" in p.stderr, "%s refused: %r" % (args, p.stderr))
        run("jobs", os.path.join(tmp, "missing.yaml"), "-o", os.path.join(tmp, "o"), status=2)


def case_bundle():
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "b.tar")
        run("bundle", "/bin/ls", "-o", out)
        with tarfile.open(out) as t:
            names = t.getnames()
            mode = t.getmember("usr/bin/hwc-replay").mode
        libs = subprocess.run(["ldd", "/bin/ls"], capture_output=True, text=True).stdout
        want = [line.split("=>")[1].split()[0] for line in libs.splitlines() if "=> /" in line]
        check(mode & 0o111 and all("usr/lib/hwct/" + os.path.basename(w) in names for w in want),
              "the program and every library: %s" % names)
        check("lib64/ld-linux-x86-64.so.2" in names or any("ld-linux" in n for n in names), "the loader")
        run("bundle", os.path.join(tmp, "nothing"), "-o", out, status=2)


def case_elf():
    """The ELF reader and the library resolution (hwct_suite.elf)."""
    from hwct_suite import elf
    if not HWC_REPLAY:
        print("needs hwc-replay")
        sys.exit(77)
    # hwc-replay: the same libraries and loader as ldd's; a cross build's (run by qemu-user)
    # as its own loader's --list, which is what ldd runs
    c = elf.closure(HWC_REPLAY)
    native = c.program.arch == elf.read(sys.executable).arch
    lister = ["ldd", HWC_REPLAY] if native else [c.program.interpreter, "--list", HWC_REPLAY]
    try:
        out = subprocess.run(lister, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as exc:
        check(False, "%s: %s (a cross build's loader runs under qemu-user: scripts/binfmt-qemu.sh)" % (lister, exc))
        out = ""
    want, loader = {}, None
    for line in out.splitlines():
        words = line.split()
        if "=>" in words and words[2].startswith("/"):
            want[words[0]] = os.path.realpath(words[2])
        elif words and words[0].startswith("/"):
            loader = words[0]
    got = {name: os.path.realpath(path) for name, path in c.libraries.items()}
    check(len(want) > 3 and got == want, "hwc-replay's libraries as %s's: %s, %s" % (lister[0], got, want))
    check(c.loader and c.loader[0] == loader, "its loader as %s's: %s, %s" % (lister[0], c.loader, loader))
    if c.program.machine == 62:
        check(c.program.arch == "amd64" and c.program.machine_name == "x86-64 (amd64)", "x86-64: amd64")

    with tempfile.TemporaryDirectory() as tmp:
        def path(*parts):
            p = os.path.join(tmp, *parts)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            return p
        a64, x64, multi = 183, 62, ("usr", "lib", "aarch64-linux-gnu")
        loader = "/lib/ld-linux-aarch64.so.1"
        prog = make_elf(path("app", "prog"), a64, interp=loader, needed=["libA.so.1", "libc.so.6"],
                        runpath="$ORIGIN/../libs")
        make_elf(path("libs", "libA.so.1"), a64, needed=["libB.so.2"], soname="libA.so.1")
        make_elf(path("extra", "libB.so.2"), x64)  # another machine: passed over
        make_elf(path("extra", "libA.so.1"), a64, needed=["libB.so.2"])
        make_elf(path(*multi, "libB.so.2"), a64, needed=["libc.so.6"])
        make_elf(path(*multi, "libc.so.6"), a64, needed=["ld-linux-aarch64.so.1"], soname="libc.so.6")
        make_elf(path("lib", "ld-linux-aarch64.so.1"), a64, soname="ld-linux-aarch64.so.1")
        c = elf.closure(prog, [os.path.join(tmp, "extra")], root=tmp)
        check(c.program.arch == "arm64" and c.program.interpreter == loader and
              c.program.runpath == ["$ORIGIN/../libs"], "an AArch64 program read: %s %s" % (
                  c.program.machine_name, c.program.interpreter))
        check(c.libraries == {"libA.so.1": path("extra", "libA.so.1"), "libB.so.2": path(*multi, "libB.so.2"),
                              "libc.so.6": path(*multi, "libc.so.6")},
              "the library path before DT_RUNPATH; an x86-64 libB passed over for the multiarch "
              "folder's; the loader not a library: %s" % c.libraries)
        check(c.loader == (loader, path("lib", "ld-linux-aarch64.so.1")), "the loader: %s" % (c.loader,))
        c = elf.closure(prog, root=tmp)
        check(c.libraries["libA.so.1"] == path("libs", "libA.so.1"), "$ORIGIN of DT_RUNPATH: %s" % c.libraries)
        rprog = make_elf(path("app", "rprog"), a64, interp=loader, needed=["libA.so.1"], rpath=path("libs"))
        c = elf.closure(rprog, [os.path.join(tmp, "extra")], root=tmp)
        check(c.libraries["libA.so.1"] == path("libs", "libA.so.1"), "DT_RPATH before the library path")

        # the folders of the loader's configuration (under the root, its includes followed)
        with open(path("etc", "ld.so.conf"), "w") as f:
            f.write("# comment\ninclude /etc/ld.so.conf.d/*.conf\n")
        with open(path("etc", "ld.so.conf.d", "a64.conf"), "w") as f:
            f.write("/opt/a64\n")
        make_elf(path("opt", "a64", "libC.so.3"), a64)
        cprog = make_elf(path("app", "cprog"), a64, interp=loader, needed=["libC.so.3"])
        c = elf.closure(cprog, root=tmp)
        check(c.libraries == {"libC.so.3": path("opt", "a64", "libC.so.3")},
              "a folder of ld.so.conf's include: %s" % c.libraries)

        lost = make_elf(path("app", "lost"), a64, interp=loader, needed=["libA.so.1"], runpath="$ORIGIN/../libs")
        os.unlink(path(*multi, "libB.so.2"))
        try:
            elf.closure(lost, root=tmp)
            check(False, "a missing library is an error")
        except elf.ElfError as exc:
            msg = str(exc)
            check(lost in msg and "libB.so.2" in msg and "needed by libA.so.1" in msg and "AArch64 (arm64)" in msg,
                  "a missing library names the program, the library and who needs it: %s" % msg)
        noload = make_elf(path("app", "noload"), a64, interp="/lib/ld-nothere.so.1")
        try:
            elf.closure(noload, root=tmp)
            check(False, "a missing loader is an error")
        except elf.ElfError as exc:
            check(noload in str(exc) and "/lib/ld-nothere.so.1" in str(exc), "a missing loader: %s" % exc)

        # 32-bit ARM hard-float and i386 headers
        check(elf.read(make_elf(path("armhf"), 40, bits=32, flags=0x5000400)).arch == "armhf", "ARM hard-float: armhf")
        check(elf.read(make_elf(path("i386"), 3, bits=32, needed=["libc.so.6"])).needed == ["libc.so.6"], "i386")

        # bad files: every error names the file and what is wrong
        data = open(HWC_REPLAY, "rb").read()
        bad = []

        def write(name, content):
            with open(path(name), "wb") as f:
                f.write(content)
            os.chmod(path(name), 0o755)
            return path(name)
        bad.append((write("text", b"#!/bin/sh\necho hi\n"), "not an ELF file"))
        bad.append((write("cut-header", data[:40]), "truncated ELF: its header has 40 of 64 bytes"))
        bad.append((write("cut-body", data[:2000]), "truncated ELF: dynamic section"))
        bad.append((write("class", data[:4] + b"\x07" + data[5:]), "corrupt ELF: class 7"))
        import struct
        # a small file: hwc-replay of a sanitized build is large enough to hold 60000 headers
        phnum = bytearray(open(make_elf(path("phnum-base"), a64, needed=["libz.so.1"]), "rb").read())
        struct.pack_into("<H", phnum, 56, 60000)  # e_phnum
        bad.append((write("phnum", bytes(phnum)), "truncated ELF: program header table"))
        strtab = make_elf(path("strtab"), a64, needed=["libz.so.1"])
        raw = bytearray(open(strtab, "rb").read())
        at = raw.rfind(struct.pack("<q", 5))  # DT_STRTAB's entry: its address far away
        struct.pack_into("<Q", raw, at + 8, 0x7fff0000)
        bad.append((write("strtab", bytes(raw)), "DT_STRTAB 0x7fff0000) is in no loaded segment"))
        for p, want in bad:
            try:
                elf.read(p)
                check(False, "%s: refused" % p)
            except elf.ElfError as exc:
                check(str(exc).startswith(p + ": ") and want in str(exc), "%s: %r in %r" % (p, want, str(exc)))
        r = run("bundle", path("cut-body"), "-o", path("b.tar"), status=2)
        check(path("cut-body") in r.stderr and "truncated ELF" in r.stderr, "bundle of a cut file: %r" % r.stderr)

        # hwc-suite bundle of the AArch64 program (its loader at a path of this machine), with -L
        own = make_elf(path("app", "own"), a64, interp=path("lib", "ld-linux-aarch64.so.1"), needed=["libA.so.1"])
        os.rename(path("extra", "libB.so.2"), path("extra", "libB-x86.so.2"))
        make_elf(path(*multi, "libB.so.2"), a64, needed=["libc.so.6"])
        r = run("bundle", own, "-o", path("own.tar"), "-L", path("libs"), "-L", path(*multi), status=0)
        check("(arm64)" in r.stdout, "bundle says the architecture: %r" % r.stdout)
        with tarfile.open(path("own.tar")) as t:
            names = sorted(n for n in t.getnames() if t.getmember(n).isfile())
        check(names == sorted(["usr/bin/hwc-replay", "usr/lib/hwct/libA.so.1", "usr/lib/hwct/libB.so.2",
                               "usr/lib/hwct/libc.so.6", path("lib", "ld-linux-aarch64.so.1").lstrip("/")]),
              "the bundle of an AArch64 program: %s" % names)

    # a library of the arm64 multiarch folders, when the cross group installed them
    libc = "/usr/lib/aarch64-linux-gnu/libc.so.6"
    if os.path.exists(libc):
        e = elf.read(libc)
        check(e.arch == "arm64" and e.soname == "libc.so.6" and "ld-linux-aarch64.so.1" in e.needed,
              "%s: %s, %s, %s" % (libc, e.machine_name, e.soname, e.needed))
    else:
        print("note: %s not here (scripts/install-deps.sh cross): the synthetic AArch64 files only" % libc)


def arch_suite(tmp, boards, name="arch.yaml"):
    """A suite file of boards: (name, arch or None, bundle file, more lines)."""
    lines = ["name: t", "traces:", "  - {name: c0, trace: %s, frames: 0-1}" % os.path.join(ROOT, "traces", "home.zst"),
             "boards:"]
    for board, arch, bundle, more in boards:
        lines += ["  %s:" % board, "    device_type: qemu", "    kernel: kernel", "    ramdisk: ramdisk.cpio",
                  "    bundle: %s" % bundle] + (["    arch: %s" % arch] if arch else []) + more
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


def case_arch():
    need_lava_common()
    with tempfile.TemporaryDirectory() as tmp:
        board_files(tmp)
        suite = arch_suite(tmp, [("qemu-vkms", None, "bundle.tar", []),
                                 ("qemu-arm64", "arm64", "bundle-arm64.tar", ["    kernel_args: console=ttyAMA0"])])
        out = os.path.join(tmp, "out")
        p = run("jobs", suite, "-o", out)
        check(p.stdout.count("  valid\n") == 2, "an amd64 and an arm64 board: two jobs valid by LAVA's schema: %r"
              % p.stdout)
        manifest = json.load(open(os.path.join(out, "manifest.json")))
        check([(j["board"], j["arch"]) for j in manifest["jobs"]] == [("qemu-vkms", "amd64"), ("qemu-arm64", "arm64")],
              "the manifest names each job's arch: %s" % manifest["jobs"])
        for board, arch in (("qemu-vkms", "amd64"), ("qemu-arm64", "arm64")):
            d = load_yaml(os.path.join(out, "jobs", "t-%s-1of1.yaml" % board))
            check(d["context"] == {"arch": arch} and d["metadata"]["hwct.arch"] == arch,
                  "%s: context %s, metadata %s" % (board, d["context"], d["metadata"]))
        p = run("validate", os.path.join(out, "jobs", "t-qemu-arm64-1of1.yaml"))
        check(": valid" in p.stdout, "validate: the arm64 job is valid")
        # a context that says the architecture in LAVA's other words is kept
        suite = arch_suite(tmp, [("a", "arm64", "bundle-arm64.tar", ["    context: {arch: aarch64, cpu: max}"])],
                           name="alias.yaml")
        run("jobs", suite, "-o", os.path.join(tmp, "alias"))
        d = load_yaml(os.path.join(tmp, "alias", "jobs", "t-a-1of1.yaml"))
        check(d["context"] == {"arch": "aarch64", "cpu": "max"}, "the board's own context: %s" % d["context"])

        with open(os.path.join(tmp, "not-a-tar"), "w") as f:
            f.write("bundle")
        cases = [
            ([("qemu-arm64", "arm64", "bundle.tar", [])],
             ["boards.qemu-arm64.bundle", "bundle.tar", "x86-64 (amd64)", "the board's arch is arm64"]),
            ([("qemu-vkms", None, "bundle-arm64.tar", [])],
             ["boards.qemu-vkms.bundle", "bundle-arm64.tar", "AArch64 (arm64)", "the board's arch is amd64"]),
            ([("b", "mips", "bundle.tar", [])], ["boards.b.arch: 'mips': one of amd64, arm64"]),
            ([("b", "arm64", "bundle-arm64.tar", ["    context: {arch: amd64}"])],
             ["boards.b.context.arch: 'amd64', but the board's arch is arm64"]),
            ([("b", None, "not-a-tar", [])], ["boards.b.bundle", "not-a-tar", "not an hwc-suite bundle"]),
            ([("b", None, "kernel", [])], ["boards.b.bundle", "not an hwc-suite bundle"]),
        ]
        for i, (boards, wants) in enumerate(cases):
            path = arch_suite(tmp, boards, name="bad%d.yaml" % i)
            p = run("jobs", path, "-o", os.path.join(tmp, "o"), status=2)
            check(path in p.stderr and all(w in p.stderr for w in wants),
                  "%s: error %r names %s" % (os.path.basename(path), p.stderr.strip(), wants))
        # a bundle whose hwc-replay is not an ELF file
        with tarfile.open(os.path.join(tmp, "script.tar"), "w") as t:
            t.add(os.path.join(tmp, "not-a-tar"), "usr/bin/hwc-replay")
        path = arch_suite(tmp, [("b", None, "script.tar", [])], name="script.yaml")
        p = run("jobs", path, "-o", os.path.join(tmp, "o"), status=2)
        check("script.tar: usr/bin/hwc-replay: not an ELF file" in p.stderr, "%r" % p.stderr.strip())


def fake_vm(folder, module_machine, busybox_machine=None, busybox_dynamic=False):
    """A folder as vm-prepare writes one: kernel, and initramfs.cpio with stand-in modules
    of module_machine and, unless busybox_machine is None, a stand-in bin/busybox."""
    root = os.path.join(folder, "root")
    os.makedirs(os.path.join(root, "lib", "modules"))
    os.makedirs(os.path.join(root, "bin"))
    for name in ("drm", "vkms"):
        make_elf(os.path.join(root, "lib", "modules", name + ".ko"), module_machine)
    with open(os.path.join(root, "lib", "modules", "load-order"), "w") as f:
        f.write("drm\nvkms\n")
    if busybox_machine:
        make_elf(os.path.join(root, "bin", "busybox"), busybox_machine,
                 interp="/lib/ld.so" if busybox_dynamic else None, needed=["libc.so.6"] if busybox_dynamic else ())
    with open(os.path.join(folder, "kernel"), "wb") as f:
        f.write(b"kernel")
    names = subprocess.run(["find", "."], cwd=root, capture_output=True, text=True, check=True).stdout
    with open(os.path.join(folder, "initramfs.cpio"), "wb") as out:
        subprocess.run(["cpio", "-o", "-H", "newc", "--quiet"], cwd=root, input=names.encode(), stdout=out, check=True)
    return folder


def case_board_files():
    """board-files on stand-in vm-prepare folders: the architecture from the modules' ELF
    machine, the VM's own busybox (static, of that architecture) in the ramdisk, and an
    hwc-replay of another architecture refused; a refusal writes nothing."""
    if not shutil.which("cpio"):
        print("cpio not found (scripts/install-deps.sh vm)")
        sys.exit(77)
    with tempfile.TemporaryDirectory() as tmp:
        arm = fake_vm(os.path.join(tmp, "arm"), 183, 183)
        out = os.path.join(tmp, "out-arm")
        p = run("board-files", "--from-vm", arm, "-o", out)
        check("arch: arm64\n" in p.stdout, "an arm64 VM's board files say arm64: %r" % p.stdout)
        listing = subprocess.run(["cpio", "-it", "--quiet"], stdin=open(os.path.join(out, "ramdisk.cpio"), "rb"),
                                 capture_output=True, text=True).stdout.split()
        subprocess.run(["cpio", "-id", "--quiet", "bin/busybox"], stdin=open(os.path.join(out, "ramdisk.cpio"), "rb"),
                       cwd=tmp, check=True)
        check("bin/busybox" in listing and "init" in listing and
              open(os.path.join(tmp, "bin", "busybox"), "rb").read() ==
              open(os.path.join(arm, "root", "bin", "busybox"), "rb").read(),
              "the ramdisk has the VM's own busybox and init: %s" % listing)
        with tarfile.open(os.path.join(out, "modules.tar")) as t:
            check(sorted(t.getnames())[-3:] == ["lib/modules/hwct/drm.ko", "lib/modules/hwct/load-order",
                                                "lib/modules/hwct/vkms.ko"], "the modules: %s" % t.getnames())
        if HWC_REPLAY:
            # this build's hwc-replay with a VM of its machine, and with one of the other
            from hwct_suite import elf
            replay = elf.read(HWC_REPLAY)
            same = fake_vm(os.path.join(tmp, "same"), replay.machine, replay.machine)
            p = run("board-files", "--from-vm", same, "--replay", HWC_REPLAY, "-o", os.path.join(tmp, "same-out"))
            check("arch: %s\n" % replay.arch in p.stdout and
                  os.path.isfile(os.path.join(tmp, "same-out", "bundle.tar")),
                  "hwc-replay of the VM's architecture, %s: bundle.tar written" % replay.arch)
            other, other_arch = (62, "amd64") if replay.arch == "arm64" else (183, "arm64")
            vm = fake_vm(os.path.join(tmp, "other"), other, other)
            refused = os.path.join(tmp, "refused-out")
            p = run("board-files", "--from-vm", vm, "--replay", HWC_REPLAY, "-o", refused, status=2)
            check(HWC_REPLAY in p.stderr and replay.machine_name in p.stderr and "are %s" % other_arch in p.stderr,
                  "an hwc-replay of %s for an %s VM is refused, naming both: %r" % (replay.arch, other_arch, p.stderr))
            check(not os.path.exists(refused), "the refusal left %s: %s" % (
                refused, os.listdir(refused) if os.path.isdir(refused) else "a file"))
        for name, vm, want in (
                ("x86-busybox", fake_vm(os.path.join(tmp, "x86bb"), 183, 62), "x86-64 (amd64)"),
                ("dynamic-busybox", fake_vm(os.path.join(tmp, "dyn"), 183, 183, True), "dynamically linked"),
                ("riscv", fake_vm(os.path.join(tmp, "riscv"), 243, 243), "RISC-V (riscv64), not of a board")):
            p = run("board-files", "--from-vm", vm, "-o", os.path.join(tmp, "o"), status=2)
            check(want in p.stderr, "%s: refused: %r" % (name, p.stderr))
            check(not os.path.exists(os.path.join(tmp, "o")), "%s: the refusal left files in its -o folder" % name)
        p = run("board-files", "--from-vm", os.path.join(tmp, "nothing"), "-o", os.path.join(tmp, "o"), status=2)
        check("is %s a vm-prepare folder" % os.path.join(tmp, "nothing") in p.stderr, "no VM folder: %r" % p.stderr)


def case_device():
    """The device dictionaries of this machine's qemu (lava/qemu-hwct*.yaml) are what
    lava-server renders from lava/qemu-hwct.jinja2 with each architecture's job context:
    the same qemu program, machine, CPU and TCG."""
    templates = "/usr/share/lava-server/device-types"
    try:
        import yaml
        from jinja2 import FileSystemLoader
        from jinja2.sandbox import SandboxedEnvironment
    except ImportError:
        print("jinja2 or PyYAML not installed (scripts/install-deps.sh lava)")
        sys.exit(77)
    if not os.path.isfile(os.path.join(templates, "qemu.jinja2")):
        print("lava-server's device types are not installed (scripts/install-deps.sh lava)")
        sys.exit(77)
    lava = os.path.join(ROOT, "replayer", "suite", "lava")
    # as lava-server's device environment (lava_scheduler_app/environment.py) renders
    env = SandboxedEnvironment(loader=FileSystemLoader([lava, templates]), autoescape=False, trim_blocks=True)

    def qemu_args(params):
        words = " ".join(params.get("options", []) + params.get("extra", [])).split()
        pairs = {(a, b) for a, b in zip(words, words[1:]) if a.startswith("-") and not b.startswith("-")}
        return params["command"], {k: v for k, v in pairs if k in ("-cpu", "-machine", "-accel")}

    for arch, local, want in (("amd64", "qemu-hwct.yaml", ("qemu-system-x86_64", {"-cpu": "qemu64", "-accel": "tcg"})),
                              ("arm64", "qemu-hwct-arm64.yaml", ("qemu-system-aarch64", {
                                  "-cpu": "cortex-a72", "-machine": "virt", "-accel": "tcg"}))):
        rendered = yaml.safe_load(env.get_template("qemu-hwct.jinja2").render(arch=arch))
        server = qemu_args(rendered["actions"]["boot"]["methods"]["qemu"]["parameters"])
        here = yaml.safe_load(open(os.path.join(lava, local)))
        mine = qemu_args(here["actions"]["boot"]["methods"]["qemu"]["parameters"])
        check(server == want, "%s: lava-server renders %s" % (arch, server))
        check(mine == want, "%s: %s has %s" % (arch, local, mine))
        check(arch in rendered["available_architectures"] and arch in here["available_architectures"],
              "%s: an architecture of both" % arch)
        check(here["actions"]["boot"]["methods"]["qemu"]["parameters"]["options"].count("-nographic") == 1,
              "%s: no display" % local)
    # a job's context may choose another CPU
    rendered = yaml.safe_load(env.get_template("qemu-hwct.jinja2").render(arch="arm64", cpu="max"))
    check(qemu_args(rendered["actions"]["boot"]["methods"]["qemu"]["parameters"])[1].get("-cpu") == "max",
          "arm64: a job's context cpu is taken")


def block_lines(name, status, results, stderr=(), corrupt=False, cut=False):
    """The console lines lava/hwct-case prints for one case."""
    import base64
    import gzip
    import hashlib
    data = gzip.compress(json.dumps(results).encode())
    b64 = base64.encodebytes(data).decode().split()
    digest = hashlib.md5(data).hexdigest()
    if corrupt:
        digest = "0" * 32
    mark = "HWCT-CASE %s " % name
    out = [mark + "begin", mark + "status %d" % status] + [mark + "stderr " + e for e in stderr]
    for i, line in enumerate(b64):
        out.append(mark + "results " + line)
        if i == 0:  # a kernel message in the middle of the block
            out.append("[   12.345678] vkms_vblank_simulate: vblank timer overrun")
    if cut:
        return out[:-1]
    out.append(mark + "end %s %d" % (digest, len(b64)))
    out.append("<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=%s RESULT=%s>" % (name, "pass" if status == 0 else "fail"))
    return out


def write_log(path, target_lines, cases, end, raw=False):
    import yaml
    entries = [{"dt": "2026-01-01T10:00:00.000000", "lvl": "info", "msg": "start: 0 validate"}]
    entries += [{"dt": "2026-01-01T10:00:05.000000", "lvl": "target", "msg": m} for m in target_lines]
    entries += [{"dt": "2026-01-01T10:00:06.000000", "lvl": "results",
                 "msg": {"case": c, "definition": "0_hwct-replay", "result": r}} for c, r in cases]
    entries.append({"dt": "2026-01-01T10:00:30.500000", "lvl": "results",
                    "msg": dict(end, case="job", definition="lava")})
    with open(path, "w") as f:
        for e in entries:
            line = yaml.safe_dump(e, default_flow_style=True, default_style='"', width=10**6).strip()
            f.write(("- " if raw else "") + line + "\n")


def case_merge():
    if not (HWC_REPLAY and HWC_TRACE):
        print("needs hwc-replay and hwc-trace")
        sys.exit(77)
    with tempfile.TemporaryDirectory() as tmp:
        board_files(tmp)
        good = os.path.join(tmp, "good.json")
        subprocess.run([HWC_REPLAY, os.path.join(ROOT, "traces", "home.zst"), "--profile",
                        os.path.join(ROOT, "tests", "data", "boards", "vkms-6.1-overlays.json"),
                        "--frames", "0-4", "--results", good, "--quiet"], check=True)
        results = json.load(open(good))
        bad = json.loads(json.dumps(results))
        [fr for fr in bad["frames"] if fr["frame"] == 2][0]["checksum"] = "0" * 32
        suite = write_suite(tmp, 4, extra_board="\n".join([
            "  qemu-b:", "    device_type: qemu", "    kernel: kernel", "    ramdisk: ramdisk.cpio",
            "    bundle: bundle.tar"]))
        text = open(suite).read()
        for i in range(4):
            text = text.replace("frames: %d-%d}" % (i, i + 1), "frames: 0-4, expect: good.json}")
        open(suite, "w").write(text)
        out = os.path.join(tmp, "out")
        run("jobs", suite, "-o", out, "--no-validate", "--shards", "3")  # c0 c3 | c1 | c2, per board
        runs = os.path.join(out, "runs")
        os.mkdir(runs)
        regression = "hwc-replay: regression: frame 2 (display 0, its frame 2): checksum: expected x, got y"
        lines1 = ["hwct-lava# [6n/lava-1/bin/lava-test-runner /lava-1/0"] + \
            block_lines("c0", 0, results) + block_lines("c3", 1, bad, stderr=["note", regression])
        write_log(os.path.join(runs, "t-qemu-vkms-1of3.log"), lines1, [("c0", "pass"), ("c3", "fail")],
                  {"result": "pass"})
        write_log(os.path.join(runs, "t-qemu-vkms-2of3.log"), ["Booting from ROM.."], [],
                  {"result": "fail", "error_type": "Infrastructure", "error_msg": "Connection closed\n"})
        # board qemu-b: c0 differs from qemu-vkms's at frame 3 (no expectation is broken: its
        # status is 0 as a board that was never blessed would give); its other jobs left no log
        other = json.loads(json.dumps(results))
        [fr for fr in other["frames"] if fr["frame"] == 3][0]["checksum"] = "1" * 32
        write_log(os.path.join(runs, "t-qemu-b-1of3.log"), block_lines("c0", 0, other), [("c0", "pass")],
                  {"result": "pass"})
        # no log of qemu-vkms 3of3
        p = run("merge", out, "--hwc-trace", HWC_TRACE, status=1)
        report = json.load(open(os.path.join(out, "merged.json")))
        compared = report["boards_compared"]
        check(len(compared) == 1 and compared[0]["case"] == "c0" and (compared[0]["a"], compared[0]["b"]) ==
              ("qemu-vkms", "qemu-b") and compared[0]["equal"] is False and
              compared[0]["first_difference"]["frame"] == 3, "boards compared by hwc-trace diff: %s" % compared)
        check("c0: qemu-b against qemu-vkms: differ from frame 3 (checksum)" in p.stdout, "the table says so")
        report["cases"] = [r for r in report["cases"] if r["board"] == "qemu-vkms"]
        rows = {r["case"]: r for r in report["cases"]}
        check(rows["c0"]["verdict"] == "pass" and rows["c0"]["first_difference"] is None and
              rows["c0"]["lava_result"] == "pass", "c0 passes: %s" % rows["c0"])
        c3 = rows["c3"]
        check(c3["verdict"] == "fail" and c3["exit_status"] == 1 and (c3["first_difference"] or {}).get("frame") == 2
              and c3["differing_frames"] == 1 and c3["message"] == regression,
              "c3 fails at frame 2, the regression line its message: %s" % c3)
        check(c3["agreement"] and c3["agreement"]["counted"] == 20, "agreement from hwc-trace diff: %s" % c3["agreement"])
        check(json.load(open(c3["results"]))["frames"][2]["checksum"] == "0" * 32, "c3's results written back")
        check(open(c3["results"]).read() == json.dumps(bad), "the results written back are the bytes the case sent")
        check(rows["c1"]["verdict"] == "infrastructure" and rows["c1"]["message"] == "Infrastructure error: Connection closed",
              "c1: LAVA ended the job: %s" % rows["c1"]["message"])
        check(rows["c2"]["verdict"] == "infrastructure" and rows["c2"]["message"] == "no job log",
              "c2: no log: %s" % rows["c2"]["message"])
        check(report["summary"] == {"pass": 2, "fail": 1, "skip": 0, "error": 0, "infrastructure": 5, "pending": 0},
              "summary over both boards %s" % report["summary"])
        jobs = {j["name"]: j for j in report["jobs"]}
        check(jobs["t-qemu-vkms-1of3"]["seconds"] == 30.5, "a job's time from its log: %s" % jobs["t-qemu-vkms-1of3"])
        check("c3" in p.stdout and "frame 2 (checksum)" in p.stdout, "the table names the failing frame")

        # the same logs as lavacli jobs logs --raw prints them
        raw = os.path.join(tmp, "raw")
        os.mkdir(raw)
        write_log(os.path.join(raw, "t-qemu-vkms-1of3.log"), lines1, [("c0", "pass"), ("c3", "fail")],
                  {"result": "pass"}, raw=True)
        run("merge", out, "--hwc-trace", HWC_TRACE, "--logs", raw, "--report", os.path.join(tmp, "r.json"), status=1)
        again = {r["case"]: r["verdict"] for r in json.load(open(os.path.join(tmp, "r.json")))["cases"]
                 if r["board"] == "qemu-vkms"}
        check(again == {"c0": "pass", "c3": "fail", "c1": "infrastructure", "c2": "infrastructure"},
              "lavacli's raw logs: %s" % again)

        # a damaged block keeps its verdict and says why it has no results; exit 125 without failures
        lines = block_lines("c0", 0, results, corrupt=True) + block_lines("c3", 0, results, cut=True)
        write_log(os.path.join(runs, "t-qemu-vkms-1of3.log"), lines, [], {"result": "pass"})
        os.unlink(os.path.join(runs, "t-qemu-b-1of3.log"))
        run("merge", out, "--hwc-trace", HWC_TRACE, status=125)
        rows = {r["case"]: r for r in json.load(open(os.path.join(out, "merged.json")))["cases"]
                if r["board"] == "qemu-vkms"}
        check(rows["c0"]["verdict"] == "pass" and rows["c0"]["results"] is None and
              "md5sum" in rows["c0"]["message"], "a block that does not match its md5sum: %s" % rows["c0"]["message"])
        check(not os.path.exists(os.path.join(out, "results", "qemu-vkms", "c0.json")),
              "the results an earlier merge wrote for c0 are gone")
        from hwct_suite import SuiteError, lavalog
        log = lavalog.JobLog("-")
        for line in block_lines("c9", 0, "not an object"):
            log.add({"dt": "2026-01-01T00:00:00", "lvl": "target", "msg": line})
        try:
            log.cases["c9"].write_results(os.path.join(tmp, "c9.json"))
            check(False, "a block of something else than a results object is refused")
        except SuiteError as exc:
            check("c9: results are not a JSON object" in str(exc) and not os.path.exists(os.path.join(tmp, "c9.json")),
                  "a block of something else than a results object: %s" % exc)
        check(rows["c3"]["verdict"] == "pass" and "no end line" in rows["c3"]["message"],
              "a block without its end: %s" % rows["c3"]["message"])


def case_server():
    if not (HWC_REPLAY and HWC_TRACE):
        print("needs hwc-replay and hwc-trace")
        sys.exit(77)
    import socket
    with tempfile.TemporaryDirectory() as tmp:
        board_files(tmp)
        suite = write_suite(tmp, 3)
        out = os.path.join(tmp, "out")
        run("jobs", suite, "-o", out, "--no-validate", "--shards", "3")  # c0 | c1 | c2
        good = os.path.join(tmp, "good.json")
        subprocess.run([HWC_REPLAY, os.path.join(ROOT, "traces", "home.zst"), "--profile",
                        os.path.join(ROOT, "tests", "data", "boards", "vkms-6.1-overlays.json"),
                        "--frames", "0-1", "--results", good, "--quiet"], check=True)
        results = json.load(open(good))
        logs = os.path.join(out, "server")
        os.mkdir(logs)
        write_log(os.path.join(logs, "t-qemu-vkms-1of3.log"), block_lines("c0", 0, results), [("c0", "pass")],
                  {"result": "pass"}, raw=True)
        write_log(os.path.join(logs, "t-qemu-vkms-2of3.log"), block_lines("c1", 0, results), [("c1", "pass")],
                  {"result": "pass"}, raw=True)
        s = socket.socket()
        s.bind(("127.0.0.1", 0))  # a port nothing listens on: bound, never listening
        url = "http://127.0.0.1:%d/" % s.getsockname()[1]
        state = {"url": url, "jobs": {"t-qemu-vkms-1of3": {"id": 5, "tries": [], "log": 5},
                                      "t-qemu-vkms-2of3": {"id": 8, "tries": [6], "log": 6}}}
        with open(os.path.join(out, "server.json"), "w") as f:
            json.dump(state, f)
        p = run("merge", out, "--server", "--hwc-trace", HWC_TRACE, status=125)
        s.close()
        rows = {r["case"]: r for r in json.load(open(os.path.join(out, "merged.json")))["cases"]}
        check(rows["c0"]["verdict"] == "pass" and rows["c0"]["results"], "c0: from the kept log of its job: %s" % rows["c0"])
        check(rows["c1"]["verdict"] == "pending" and "job 8" in rows["c1"]["message"] and
              "unreachable" in rows["c1"]["message"], "c1: submitted again, the server out of reach: %s" % rows["c1"])
        check(os.path.exists(os.path.join(logs, "t-qemu-vkms-2of3.log.earlier")) and
              not os.path.exists(os.path.join(logs, "t-qemu-vkms-2of3.log")), "the earlier try's log set aside")
        check(rows["c2"]["verdict"] == "pending" and "never submitted" in rows["c2"]["message"],
              "c2: never submitted: %s" % rows["c2"]["message"])
        check("pending" in p.stdout and "unreachable" in p.stdout, "the table says which and why")
        with open(os.path.join(out, "server.json"), "w") as f:
            f.write("{not json")
        p = run("merge", out, "--server", "--hwc-trace", HWC_TRACE, status=2)
        check("server.json: unreadable" in p.stderr, "a damaged server.json is named: %s" % p.stderr.strip())
        os.unlink(os.path.join(out, "server.json"))
        p = run("submit", out, "--url", "ftp://x/", status=2)
        check("--url 'ftp://x/'" in p.stderr, "a bad --url is named: %s" % p.stderr.strip())
        p = run("wait", out, "--url", url, status=2)
        check("no job submitted" in p.stderr, "wait without a submission: %s" % p.stderr.strip())


FAKE_REPLAY = """#!/bin/sh
results=
while [ $# -gt 0 ]; do
	[ "$1" = --results ] && results=$2
	shift
done
case "$FAKE" in
hang) exec sleep 1000 ;;
skip) exit 125 ;;
esac
printf '{"frames": [{"frame": 2, "checksum": "%s"}]}' "$FAKE" >"$results"
[ "$FAKE" = regress ] || exit 0
echo "hwc-replay: regression: frame 2 (display 0, its frame 2): checksum" >&2
exit 1
"""


def case_case_script():
    from hwct_suite import lavalog
    busybox = shutil.which("busybox") or "/bin/busybox"
    if not os.path.exists(busybox):
        print("busybox not found")
        sys.exit(77)
    script = os.path.join(ROOT, "replayer", "suite", "lava", "hwct-case")
    with tempfile.TemporaryDirectory() as tmp:
        bindir = os.path.join(tmp, "bin")
        os.mkdir(bindir)
        with open(os.path.join(bindir, "hwc-replay"), "w") as f:
            f.write(FAKE_REPLAY)
        with open(os.path.join(bindir, "lava-test-case"), "w") as f:
            f.write('#!/bin/sh\necho "$*" >>"$TMPDIR/lava-test-case.log"\n')
        for name in os.listdir(bindir):
            os.chmod(os.path.join(bindir, name), 0o755)
        for fake, status, verdict in (("pass", 0, "pass"), ("regress", 1, "fail"), ("skip", 125, "skip"),
                                      ("hang", 124, "fail")):
            # a 2 s limit for the hung fake only: the others, which answer at once, keep the default
            # (300 s), so that a loaded machine cannot make them look hung
            env = dict(os.environ, PATH=bindir + ":" + os.environ["PATH"], TMPDIR=tmp, FAKE=fake)
            env.pop("HWCT_CASE_TIMEOUT", None)
            if fake == "hang":
                env["HWCT_CASE_TIMEOUT"] = "2"
            # the hung fake sleeps 1000 s: a case that did not kill it at its 2 s limit runs into this timeout
            try:
                p = subprocess.run([busybox, "sh", script, "case-" + fake, "t.zst", "/e.json", "--frames", "0-3"],
                                   env=env, capture_output=True, text=True, timeout=120)
            except subprocess.TimeoutExpired:
                check(False, "%s: hwct-case still running after 120 s: its replay was not killed" % fake)
                continue
            log = lavalog.JobLog("-")
            for line in p.stdout.splitlines():
                log.add({"dt": "2026-01-01T00:00:00", "lvl": "target", "msg": line})
            block = log.cases.get("case-" + fake)
            check(block is not None and block.status == status, "%s: block with status %d: %r" % (fake, status, p.stdout))
            calls = open(os.path.join(tmp, "lava-test-case.log")).read().splitlines()
            check(calls[-1] == "case-%s --result %s" % (fake, verdict), "%s: lava-test-case %s" % (fake, calls[-1:]))
            if fake in ("pass", "regress"):
                out = os.path.join(tmp, fake + ".json")
                check(block.write_results(out) and json.load(open(out)) == {"frames": [{"frame": 2, "checksum": fake}]},
                      "%s: results read back" % fake)
            if fake == "regress":
                check(any("regression: frame 2" in e for e in block.stderr), "regress: stderr in the block")
            if fake == "hang":
                text = "\n".join(block.stderr)
                check("still running after 2 s" in text and "thread " in text,
                      "hang: killed after the limit, with its threads: %s" % text)
                check(block.write_results(os.path.join(tmp, "hang.json")) is False and
                      not os.path.exists(os.path.join(tmp, "hang.json")), "hang: no results")


CASES = {"merge": case_merge, "case-script": case_case_script, "shards": case_shards, "schema": case_schema,
         "jobs": case_jobs, "errors": case_errors, "bundle": case_bundle, "server": case_server, "elf": case_elf,
         "arch": case_arch, "device": case_device, "board-files": case_board_files}
CASES[CASE]()
if failures:
    print("%d check(s) failed" % len(failures))
    sys.exit(1)
print("ok")
