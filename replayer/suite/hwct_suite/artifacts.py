"""What a job deploys besides its board's kernel (docs/fleet.md, "Artifacts"):

- the job's data archive: /hwct/bin/hwct-case, the traces and the board's
  expectations of the job's cases (data_archive);
- a bundle: hwc-replay with every library it loads and the dynamic loader, for a
  ramdisk without a distribution (bundle), of any architecture: the libraries
  are read from its ELF file (elf.py), not from ldd;
- the qemu board's kernel, ramdisk and modules, made from the project's VM
  preparation (tests/vm/vm-prepare), so that LAVA boots the kernel and vkms the
  VM tests boot (vm_board_files).

Archives are plain tar (LAVA appends them to the ramdisk), with files owned by
root and a fixed time, so that the same inputs give the same bytes.
"""

import hashlib
import io
import os
import shutil
import subprocess
import tarfile
import tempfile

from . import BOARD_ARCHES, SuiteError, elf

HERE = os.path.dirname(os.path.abspath(__file__))
# lava/ beside the package in the source tree; the installed layout keeps it so too.
LAVA_DIR = os.path.join(os.path.dirname(HERE), "lava")
CASE_SCRIPT = "hwct-case"
GUEST_CASE = "/hwct/bin/hwct-case"
BUNDLE_REPLAY = "usr/bin/hwc-replay"


def guest_trace(case):
    """Where a case's trace is in the guest: named by its content, so a trace that
    several cases replay is there once."""
    return "/hwct/traces/%s-%s" % (file_digest(case.trace)[:12], os.path.basename(case.trace))


def guest_expect(case):
    return "/hwct/expect/%s.json" % case.name


def file_digest(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _info(name, size=0, mode=0o644, kind=tarfile.REGTYPE):
    ti = tarfile.TarInfo(name)
    ti.size = size
    ti.mode = mode
    ti.type = kind
    ti.uid = ti.gid = 0
    ti.uname = ti.gname = "root"
    ti.mtime = 0
    return ti


class _Archive:
    """A tar written in a fixed order with fixed owners and times."""

    def __init__(self, path):
        self.tar = tarfile.open(path, "w", format=tarfile.GNU_FORMAT)
        self.dirs = set()

    def _parents(self, name):
        parts = name.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            d = "/".join(parts[:i])
            if d not in self.dirs:
                self.dirs.add(d)
                self.tar.addfile(_info(d, mode=0o755, kind=tarfile.DIRTYPE))

    def add_file(self, name, source, mode=0o644):
        self._parents(name)
        with open(source, "rb") as f:
            self.tar.addfile(_info(name, os.fstat(f.fileno()).st_size, mode), f)

    def add_bytes(self, name, data, mode=0o644):
        self._parents(name)
        self.tar.addfile(_info(name, len(data), mode), io.BytesIO(data))

    def close(self):
        self.tar.close()


def data_archive(path, board, cases):
    """Writes the data archive of one job: the case script, the traces and
    this board's expectations of cases (paths as guest_trace/guest_expect)."""
    a = _Archive(path)
    a.add_file(GUEST_CASE.lstrip("/"), os.path.join(LAVA_DIR, CASE_SCRIPT), 0o755)
    done = set()
    for case in cases:
        name = guest_trace(case).lstrip("/")
        if name not in done:
            done.add(name)
            a.add_file(name, case.trace, 0o644)
        expect = expectation(case, board)
        if expect:
            a.add_file(guest_expect(case).lstrip("/"), expect, 0o644)
    a.close()


def expectation(case, board):
    """The expected results of case on board (a path), or None."""
    return case.expect.get(board.name, case.expect.get("*"))


def bundle(path, replay, library_path=()):
    """Writes the bundle: hwc-replay as usr/bin/hwc-replay, its libraries in
    usr/lib/hwct (hwct-case sets LD_LIBRARY_PATH to it) and the dynamic loader
    at its own path. The libraries are those its ELF file names, resolved for its
    architecture (elf.closure; library_path: folders searched before the system's,
    as LD_LIBRARY_PATH). Returns the Elf of hwc-replay."""
    if not os.path.isfile(replay) or not os.access(replay, os.X_OK):
        raise SuiteError("%s: not an executable hwc-replay" % replay)
    c = elf.closure(replay, library_path)
    a = _Archive(path)
    a.add_file(BUNDLE_REPLAY, replay, 0o755)
    for name in sorted(c.libraries):
        a.add_file("usr/lib/hwct/" + name, os.path.realpath(c.libraries[name]), 0o755)
    if c.loader:
        a.add_file(c.loader[0].lstrip("/"), os.path.realpath(c.loader[1]), 0o755)
    a.close()
    return c.program


def bundle_elf(path):
    """The Elf of the hwc-replay in the bundle at path (its header only); raises
    SuiteError naming the bundle when it is not one."""
    try:
        with tarfile.open(path) as t:
            try:
                member = t.getmember(BUNDLE_REPLAY)
            except KeyError:
                raise SuiteError("%s: not an hwc-suite bundle: no %s in it" % (path, BUNDLE_REPLAY)) from None
            f = t.extractfile(member)
            if f is None:
                raise SuiteError("%s: %s is not a file" % (path, BUNDLE_REPLAY))
            head = f.read(64)
    except (tarfile.TarError, OSError) as exc:
        raise SuiteError("%s: not an hwc-suite bundle (a tar archive): %s" % (path, exc)) from exc
    return elf.read_header("%s: %s" % (path, BUNDLE_REPLAY), head)


def vm_board_files(prepared, out_dir, busybox="/bin/busybox", check_arch=None):
    """From a folder of tests/vm/vm-prepare (kernel, initramfs.cpio), writes to
    out_dir: kernel (the VM's: an ELF vmlinux, booted by qemu's PVH entry, on
    amd64; an Image on arm64), modules.tar (lib/modules/hwct/: the VM's modules
    and their load-order) and ramdisk.cpio (busybox and lava/init). The
    architecture is the modules' (their ELF machine); busybox is the VM's own
    (bin/busybox of its initramfs), else the one given, and must be a static
    program of that architecture. check_arch(arch), when given, may refuse the
    architecture by raising. Nothing is written to out_dir before every check
    passed. Returns (the paths by name, the architecture)."""
    kernel = os.path.join(prepared, "kernel")
    initramfs = os.path.join(prepared, "initramfs.cpio")
    for p in (kernel, initramfs):
        if not os.path.isfile(p):
            raise SuiteError("%s: not found (is %s a vm-prepare folder?)" % (p, prepared))
    files = {name: os.path.join(out_dir, name) for name in ("kernel", "ramdisk.cpio", "modules.tar")}

    with tempfile.TemporaryDirectory() as work:
        unpack = os.path.join(work, "initramfs")
        os.mkdir(unpack)
        with open(initramfs, "rb") as f:
            subprocess.run(["cpio", "-id", "--quiet", "lib/modules/*", "bin/busybox"], stdin=f, cwd=unpack,
                           check=True)
        mods = os.path.join(unpack, "lib", "modules")
        kos = sorted(n for n in os.listdir(mods) if n.endswith(".ko")) if os.path.isdir(mods) else []
        if not kos:
            raise SuiteError("%s: no kernel modules (lib/modules/*.ko) in it" % initramfs)
        module = elf.read(os.path.join(mods, "vkms.ko" if "vkms.ko" in kos else kos[0]))
        arch = module.arch
        if arch not in BOARD_ARCHES:
            raise SuiteError("%s: modules of %s, not of a board architecture (%s)" %
                             (initramfs, module.machine_name, ", ".join(BOARD_ARCHES)))
        own = os.path.join(unpack, "bin", "busybox")
        if os.path.isfile(own) and not os.path.islink(own):
            busybox = own
        elif not os.path.isfile(busybox):
            raise SuiteError("%s: not found (package busybox-static), and %s has no bin/busybox" % (busybox, initramfs))
        box = elf.read(busybox)
        if not module.compatible(box) or box.interpreter:
            raise SuiteError("%s: busybox for the ramdisk must be a static program of the modules' "
                             "architecture, %s; it is %s%s" % (
                                 busybox, module.machine_name, box.machine_name,
                                 ", dynamically linked" if box.interpreter else ""))
        if check_arch:
            check_arch(arch)

        os.makedirs(out_dir, exist_ok=True)
        shutil.copyfile(kernel, files["kernel"] + ".tmp")
        os.replace(files["kernel"] + ".tmp", files["kernel"])
        a = _Archive(files["modules.tar"] + ".tmp")
        for name in sorted(os.listdir(mods)):
            a.add_file("lib/modules/hwct/" + name, os.path.join(mods, name), 0o644)
        a.close()
        os.replace(files["modules.tar"] + ".tmp", files["modules.tar"])

        root = os.path.join(work, "ramdisk")
        for d in ("bin", "dev", "proc", "sys", "tmp", "run", "root", "etc"):
            os.makedirs(os.path.join(root, d))
        shutil.copyfile(busybox, os.path.join(root, "bin", "busybox"))
        os.chmod(os.path.join(root, "bin", "busybox"), 0o755)
        shutil.copyfile(os.path.join(LAVA_DIR, "init"), os.path.join(root, "init"))
        os.chmod(os.path.join(root, "init"), 0o755)
        names = subprocess.run(["find", "."], cwd=root, check=True, capture_output=True,
                               text=True, env={"LC_ALL": "C", "PATH": os.environ.get("PATH", "/usr/bin:/bin")}).stdout
        listing = "\n".join(sorted(names.split("\n")[:-1])) + "\n"
        with open(files["ramdisk.cpio"] + ".tmp", "wb") as out:
            subprocess.run(["cpio", "-o", "-H", "newc", "-R", "0:0", "--quiet"], cwd=root,
                           input=listing.encode(), stdout=out, check=True)
        os.replace(files["ramdisk.cpio"] + ".tmp", files["ramdisk.cpio"])
    return files, arch
