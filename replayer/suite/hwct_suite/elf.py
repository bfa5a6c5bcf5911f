"""What a dynamically linked program loads, read from its ELF file and not by running
it (docs/fleet.md, "Architectures"): ldd runs the dynamic loader, which cannot load a
program of another architecture, so the bundle of a cross-built hwc-replay is made
from its ELF headers instead.

read(path) gives an ELF file's class, byte order, machine (and the Debian architecture
of it), its program interpreter (PT_INTERP) and, from its dynamic section (PT_DYNAMIC),
DT_NEEDED, DT_SONAME, DT_RPATH and DT_RUNPATH. Only the program headers are used, as
the loader does: the dynamic string table is found through DT_STRTAB, an address
mapped to a file offset by the PT_LOAD segments. Every error names the file and what
is wrong with it.

closure(path, library_path) resolves every needed library, recursively, as the
loader's search order does (docs/fleet.md gives it): the object's DT_RPATH (when it
has no DT_RUNPATH) and the program's, the library_path folders (LD_LIBRARY_PATH's
place), the object's DT_RUNPATH, then the folders of /etc/ld.so.conf and the
architecture's multiarch and default folders. A candidate of another class or machine
is passed over, as the loader passes it over.
"""

import glob
import os
import struct

from . import SuiteError

# e_machine (the ELF machine numbers of the System V ABI's registry)
EM_386 = 3
EM_ARM = 40
EM_X86_64 = 62
EM_AARCH64 = 183
EM_RISCV = 243

EF_ARM_ABI_FLOAT_HARD = 0x400

PT_LOAD = 1
PT_DYNAMIC = 2
PT_INTERP = 3

DT_NULL = 0
DT_NEEDED = 1
DT_STRTAB = 5
DT_STRSZ = 10
DT_SONAME = 14
DT_RPATH = 15
DT_RUNPATH = 29

# Debian architecture -> (ELF class, machine, multiarch triplet)
ARCHES = {
    "amd64": (64, EM_X86_64, "x86_64-linux-gnu"),
    "arm64": (64, EM_AARCH64, "aarch64-linux-gnu"),
    "armhf": (32, EM_ARM, "arm-linux-gnueabihf"),
    "i386": (32, EM_386, "i386-linux-gnu"),
    "riscv64": (64, EM_RISCV, "riscv64-linux-gnu"),
}
MACHINE_NAMES = {EM_386: "i386", EM_ARM: "ARM", EM_X86_64: "x86-64", EM_AARCH64: "AArch64", EM_RISCV: "RISC-V"}

LD_SO_CONF = "/etc/ld.so.conf"
# no table is read whole past this size (the dynamic string table of the largest
# libraries is a few MiB): a header claiming more is corrupt
MAX_TABLE = 64 << 20


class ElfError(SuiteError):
    """A file that is not an ELF file, or a truncated or corrupt one."""


class Elf:
    """The parts of one ELF file the loader reads."""

    def __init__(self, path):
        self.path = path
        self.bits = None  # 32 or 64
        self.little = True
        self.machine = None  # e_machine
        self.flags = 0  # e_flags
        self.type = None  # e_type: 2 executable, 3 shared object (or PIE), 1 relocatable
        self.interpreter = None  # PT_INTERP, or None
        self.needed = []  # DT_NEEDED, in order
        self.soname = None
        self.rpath = []  # DT_RPATH folders, $ORIGIN not expanded
        self.runpath = []  # DT_RUNPATH folders

    @property
    def arch(self):
        """The Debian architecture of the file (amd64, arm64, ...), or None."""
        for name, (bits, machine, _) in ARCHES.items():
            if (bits, machine) == (self.bits, self.machine):
                if machine == EM_ARM and not self.flags & EF_ARM_ABI_FLOAT_HARD:
                    return "armel"
                return name
        return None

    @property
    def machine_name(self):
        """The machine as people name it, with the Debian architecture: 'AArch64 (arm64)'."""
        name = MACHINE_NAMES.get(self.machine, "machine %s" % self.machine)
        return "%s (%s)" % (name, self.arch) if self.arch else name

    def compatible(self, other):
        """Whether the loader of self would load other (same class, byte order, machine)."""
        return (self.bits, self.little, self.machine) == (other.bits, other.little, other.machine)


class _Reader:
    def __init__(self, path, f, size):
        self.path = path
        self.f = f
        self.size = size

    def fail(self, why):
        raise ElfError("%s: %s" % (self.path, why))

    def read(self, offset, length, what):
        if offset < 0 or offset + length > self.size:
            self.fail("truncated ELF: %s at bytes %d-%d, the file has %d" % (what, offset, offset + length, self.size))
        if length > MAX_TABLE:
            self.fail("corrupt ELF: %s of %d bytes" % (what, length))
        self.f.seek(offset)
        data = self.f.read(length)
        if len(data) != length:
            self.fail("truncated ELF: %s at bytes %d-%d, the file has %d" % (what, offset, offset + length, len(data)))
        return data


def read_header(path, data):
    """An Elf with class, byte order, type, machine and flags from the first bytes of a
    file (at least 52 for 32-bit, 64 for 64-bit), or raises ElfError naming path."""
    e = Elf(path)
    if len(data) < 16 or data[:4] != b"\x7fELF":
        raise ElfError("%s: not an ELF file (it starts with %r)" % (path, bytes(data[:4])))
    if data[4] not in (1, 2):
        raise ElfError("%s: corrupt ELF: class %d (1 is 32-bit, 2 is 64-bit)" % (path, data[4]))
    if data[5] not in (1, 2):
        raise ElfError("%s: corrupt ELF: byte order %d (1 is little, 2 is big endian)" % (path, data[5]))
    e.bits = 32 if data[4] == 1 else 64
    e.little = data[5] == 1
    fmt = ("<" if e.little else ">") + ("HHIIIIIHHHHHH" if e.bits == 32 else "HHIQQQIHHHHHH")
    need = 16 + struct.calcsize(fmt)
    if len(data) < need:
        raise ElfError("%s: truncated ELF: its header has %d of %d bytes" % (path, len(data), need))
    fields = struct.unpack_from(fmt, data, 16)
    e.type, e.machine, e.flags = fields[0], fields[1], fields[6]
    e._phoff, e._phentsize, e._phnum = fields[4], fields[8], fields[9]
    return e


def read(path):
    """The Elf of the file at path, or raises ElfError naming it and what is wrong."""
    try:
        f = open(path, "rb")
    except OSError as exc:
        raise ElfError("%s: cannot read: %s" % (path, exc.strerror)) from exc
    with f:
        size = os.fstat(f.fileno()).st_size
        e = read_header(path, f.read(64))
        r = _Reader(path, f, size)
        return _read_segments(e, r)


def _read_segments(e, r):
    end = "<" if e.little else ">"
    ph = end + ("IIIIIIII" if e.bits == 32 else "IIQQQQQQ")
    if e._phnum == 0:
        return e  # a relocatable object (a kernel module): no program headers
    if e._phentsize < struct.calcsize(ph):
        r.fail("corrupt ELF: program header entries of %d bytes" % e._phentsize)
    table = r.read(e._phoff, e._phentsize * e._phnum, "program header table")
    loads, dynamic = [], None
    for i in range(e._phnum):
        v = struct.unpack_from(ph, table, i * e._phentsize)
        if e.bits == 32:
            p_type, p_offset, p_vaddr, _, p_filesz = v[:5]
        else:
            p_type, _, p_offset, p_vaddr, _, p_filesz = v[:6]
        if p_type == PT_LOAD:
            loads.append((p_vaddr, p_offset, p_filesz))
        elif p_type == PT_DYNAMIC:
            dynamic = (p_offset, p_filesz)
        elif p_type == PT_INTERP:
            e.interpreter = _string(r, r.read(p_offset, p_filesz, "program interpreter (PT_INTERP)"), 0,
                                    "program interpreter (PT_INTERP)")
    if dynamic:
        _read_dynamic(e, r, loads, dynamic)
    return e


def _string(r, data, offset, what):
    if offset >= len(data):
        r.fail("corrupt ELF: %s at offset %d of a string table of %d bytes" % (what, offset, len(data)))
    nul = data.find(b"\0", offset)
    if nul < 0:
        r.fail("corrupt ELF: %s: no end to its string" % what)
    try:
        return data[offset:nul].decode()
    except UnicodeDecodeError:
        r.fail("corrupt ELF: %s is not text" % what)


def _read_dynamic(e, r, loads, dynamic):
    fmt = ("<" if e.little else ">") + ("iI" if e.bits == 32 else "qQ")
    entry = struct.calcsize(fmt)
    data = r.read(dynamic[0], dynamic[1] - dynamic[1] % entry, "dynamic section (PT_DYNAMIC)")
    tags = []
    for i in range(0, len(data), entry):
        tag, val = struct.unpack_from(fmt, data, i)
        if tag == DT_NULL:
            break
        tags.append((tag, val))
    values = dict(tags)
    if DT_STRTAB not in values:
        if any(t in (DT_NEEDED, DT_SONAME, DT_RPATH, DT_RUNPATH) for t, _ in tags):
            r.fail("corrupt ELF: a dynamic section with names but no string table (DT_STRTAB)")
        return
    addr, strsz = values[DT_STRTAB], values.get(DT_STRSZ, 0)
    for vaddr, offset, filesz in loads:
        if vaddr <= addr < vaddr + filesz:
            strtab = r.read(offset + addr - vaddr, min(strsz, vaddr + filesz - addr), "dynamic string table")
            break
    else:
        r.fail("corrupt ELF: its dynamic string table (DT_STRTAB 0x%x) is in no loaded segment" % addr)
    for tag, val in tags:
        if tag == DT_NEEDED:
            e.needed.append(_string(r, strtab, val, "a needed library (DT_NEEDED)"))
        elif tag == DT_SONAME:
            e.soname = _string(r, strtab, val, "DT_SONAME")
        elif tag == DT_RPATH:
            e.rpath += [p for p in _string(r, strtab, val, "DT_RPATH").split(":") if p]
        elif tag == DT_RUNPATH:
            e.runpath += [p for p in _string(r, strtab, val, "DT_RUNPATH").split(":") if p]


def ld_so_conf(path=LD_SO_CONF, root="/", seen=None):
    """The folders of the loader's configuration file path (its include lines followed,
    absolute ones under root), in order."""
    seen = set() if seen is None else seen
    if path in seen:
        return []
    seen.add(path)
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return []
    dirs = []
    for line in lines:
        line = line.split("#", 1)[0].strip()
        words = line.split(None, 1)
        if words and words[0] == "include":
            pattern = words[1] if len(words) > 1 else ""
            if os.path.isabs(pattern):
                pattern = os.path.join(root, pattern.lstrip("/"))
            else:
                pattern = os.path.join(os.path.dirname(path), pattern)
            for conf in sorted(glob.glob(pattern)):
                dirs += ld_so_conf(conf, root, seen)
        elif line:
            dirs.append(line)
    return dirs


def system_dirs(arch, root="/"):
    """The folders the loader of arch searches last: /etc/ld.so.conf's, the multiarch
    ones, then the default ones; each under root."""
    bits, _, triplet = ARCHES.get(arch, (None, None, None))
    dirs = ld_so_conf(os.path.join(root, LD_SO_CONF.lstrip("/")), root)
    if triplet:
        dirs += ["/lib/" + triplet, "/usr/lib/" + triplet]
    if bits == 64:
        dirs += ["/lib64", "/usr/lib64"]
    dirs += ["/lib", "/usr/lib"]
    return _unique(os.path.join(root, d.lstrip("/")) for d in dirs)


def _unique(items):
    out = []
    for item in items:
        if item not in out:
            out.append(item)
    return out


class Closure:
    """What a program loads: the program's Elf, its libraries (needed name -> host path,
    in the order the loader meets them) and its loader (the path the program names, the
    host file that is it), None for a static program."""

    def __init__(self, program):
        self.program = program
        self.libraries = {}
        self.loader = None


def _expand(folder, obj):
    origin = os.path.dirname(os.path.realpath(obj.path))
    return folder.replace("${ORIGIN}", origin).replace("$ORIGIN", origin)


def _find(name, obj, program, library_path, defaults):
    """The paths the loader tries, in order, for the library name that obj needs."""
    if "/" in name:
        return [os.path.normpath(name)]
    dirs = []
    if not obj.runpath:
        dirs += [_expand(d, obj) for d in obj.rpath]
        if obj is not program and not program.runpath:
            dirs += [_expand(d, program) for d in program.rpath]
    dirs += list(library_path)
    dirs += [_expand(d, obj) for d in obj.runpath]
    dirs += defaults
    return [os.path.normpath(os.path.join(d, name)) for d in dirs]


def closure(path, library_path=(), root="/"):
    """The Closure of the program at path (a static program has no libraries and no
    loader); raises ElfError for a file that is not ELF, or is cut short or corrupt, of
    a machine not known here, and for a library or loader that cannot be found (naming
    the program, the library, the object that needs it and the folders searched)."""
    program = read(path)
    c = Closure(program)
    if program.arch is None and program.machine not in MACHINE_NAMES:
        raise ElfError("%s: an ELF file of machine %d, which hwc-suite does not know" % (path, program.machine))
    defaults = system_dirs(program.arch, root)
    if program.interpreter:
        c.loader = (program.interpreter, _loader_file(program, defaults, root))
    loader_name = os.path.basename(program.interpreter) if program.interpreter else None
    queue = [program]
    while queue:
        obj = queue.pop(0)
        for name in obj.needed:
            if name in c.libraries or name == loader_name:
                continue
            found = None
            candidates = _find(name, obj, program, library_path, defaults)
            for cand in candidates:
                if not os.path.isfile(cand):
                    continue
                lib = read(cand)
                if program.compatible(lib):
                    found = lib
                    break
            if found is None:
                dirs = _unique(os.path.dirname(p) for p in candidates)
                raise ElfError("%s: library %s (needed by %s) not found for %s in %s" % (
                    path, name, os.path.basename(obj.path) if obj is not program else "the program",
                    program.machine_name, ":".join(dirs)))
            c.libraries[name] = found.path
            queue.append(found)
    return c


def _loader_file(program, defaults, root):
    """The host file of the program's interpreter: at its own path when that is one of
    the program's machine, else by its name in the architecture's folders."""
    name = program.interpreter
    tried = [os.path.join(root, name.lstrip("/"))] + [os.path.join(d, os.path.basename(name)) for d in defaults]
    for cand in tried:
        if os.path.isfile(cand):
            try:
                if program.compatible(read(cand)):
                    return cand
            except ElfError:
                continue
    raise ElfError("%s: its dynamic loader %s for %s not found here (looked in %s)" % (
        program.path, name, program.machine_name, ", ".join(_unique(os.path.dirname(t) for t in tried))))
