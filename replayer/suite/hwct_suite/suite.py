"""The suite file (docs/fleet.md, "Suite file"): traces and boards, read and
checked. Every error names the file and the field ("suite.yaml: boards.a.kernel:
missing"). Relative paths are taken from the suite file's folder; URLs
(http, https, file) are kept as they are.
"""

import json
import os
import re

from . import BOARD_ARCHES, SuiteError, artifacts

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
URL = re.compile(r"^(https?|file)://")
DEPLOYS = ("tmpfs", "tftp")
DEFAULT_PROMPT = "hwct-lava# "
DEFAULT_TARGET = ["--device", "/dev/dri/card0"]
# A board's architecture (Debian's name): its kernel, ramdisk and bundle are built for it,
# and LAVA's qemu device type takes it from the job context (qemu-system-x86_64 or
# qemu-system-aarch64).
ARCHES = BOARD_ARCHES
DEFAULT_ARCH = "amd64"
# LAVA's other names of them (a job context may say either)
ARCH_ALIASES = {"x86_64": "amd64", "aarch64": "arm64"}


class Board:
    """One board (a LAVA device type and what a job deploys on it)."""

    def __init__(self, name):
        self.name = name
        self.arch = DEFAULT_ARCH  # one of ARCHES
        self.device_type = None
        self.deploy = None  # "tmpfs" (qemu) or "tftp"
        self.boot = None  # the LAVA boot action's method and its settings
        self.context = {}
        self.tags = []
        self.files = {}  # kernel, ramdisk, modules, bundle, dtb: path or URL
        self.kernel_args = ""
        self.target = list(DEFAULT_TARGET)
        self.prompt = DEFAULT_PROMPT


class Case:
    """One trace entry: a replay with its own name, range and expectations."""

    def __init__(self, name):
        self.name = name
        self.trace = None  # path or URL
        self.frames = None  # "A-B" or None
        self.args = []
        self.expect = {}  # board name -> path; "*" for every board


class Suite:
    def __init__(self, path):
        self.path = path
        self.name = None
        self.shards = 1
        self.timeout_minutes = 20
        self.case_timeout_seconds = 300
        self.replay_args = []
        self.boards = []
        self.cases = []

    def board(self, name):
        for b in self.boards:
            if b.name == name:
                return b
        raise SuiteError("%s: no board %r (boards: %s)" %
                         (self.path, name, ", ".join(b.name for b in self.boards)))


def read_document(path):
    """The suite file as a Python value: YAML when PyYAML is there (JSON is
    YAML too), else JSON."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as exc:
        raise SuiteError("%s: cannot read: %s" % (path, exc.strerror)) from exc
    try:
        import yaml
    except ImportError:
        yaml = None
    try:
        if yaml:
            return yaml.safe_load(text)
        return json.loads(text)
    except ValueError as exc:  # json.JSONDecodeError and yaml.YAMLError's parents
        raise SuiteError("%s: not valid %s: %s" % (path, "YAML" if yaml else "JSON", exc)) from exc
    except Exception as exc:  # yaml.YAMLError
        raise SuiteError("%s: not valid YAML: %s" % (path, exc)) from exc


class _Fields:
    """Reads one mapping of the document, naming the field in errors and
    refusing keys it does not know."""

    def __init__(self, path, where, value, known):
        self.path = path
        self.where = where
        if not isinstance(value, dict):
            self.fail("", "must be a mapping")
        unknown = sorted(str(k) for k in value if k not in known)
        if unknown:
            self.fail(unknown[0], "unknown field (known: %s)" % ", ".join(known))
        self.value = value

    def fail(self, key, why):
        field = ".".join(p for p in (self.where, key) if p)
        raise SuiteError("%s: %s: %s" % (self.path, field or "(top)", why))

    def get(self, key, kind, default=None, required=False):
        if key not in self.value or self.value[key] is None:
            if required:
                self.fail(key, "missing")
            return default
        v = self.value[key]
        if kind is int and (isinstance(v, bool) or not isinstance(v, int)):
            self.fail(key, "must be an integer")
        if kind is str and isinstance(v, (int, float)) and not isinstance(v, bool):
            v = str(v)  # frames: 3
        if not isinstance(v, kind):
            self.fail(key, "must be a %s" % {str: "string", list: "list", dict: "mapping", int: "integer"}[kind])
        return v

    def name(self, key, required=True):
        v = self.get(key, str, required=required)
        if v is not None and not NAME.match(v):
            self.fail(key, "%r: letters, digits, '.', '_' and '-' only" % v)
        return v

    def strings(self, key):
        v = self.get(key, list, [])
        for i, item in enumerate(v):
            if not isinstance(item, (str, int)) or isinstance(item, bool):
                self.fail("%s[%d]" % (key, i), "must be a string")
        return [str(item) for item in v]

    def location(self, key, required=False, local=False):
        """A path (made absolute from the suite's folder) or, unless local, a
        URL. Traces and expectations are local: they go into each job's data
        archive."""
        v = self.get(key, str, required=required)
        if v is None:
            return None
        if URL.match(v) and not local:
            return v
        if local and "://" in v:
            self.fail(key, "%r: a file of this machine (it goes into the job's data archive)" % v)
        if "://" in v:
            self.fail(key, "%r: URLs must be http, https or file" % v)
        full = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(self.path)), v))
        if not os.path.isfile(full):
            self.fail(key, "%s: no such file" % full)
        return full


def _board(path, name, value):
    f = _Fields(path, "boards." + name, value,
                ("device_type", "arch", "deploy", "boot", "context", "tags", "kernel", "kernel_args",
                 "ramdisk", "modules", "bundle", "dtb", "target", "prompt"))
    b = Board(name)
    b.device_type = f.name("device_type")
    b.arch = f.get("arch", str, DEFAULT_ARCH)
    if b.arch not in ARCHES:
        f.fail("arch", "%r: one of %s" % (b.arch, ", ".join(ARCHES)))
    qemu = b.device_type == "qemu"
    b.deploy = f.get("deploy", str, "tmpfs" if qemu else "tftp")
    if b.deploy not in DEPLOYS:
        f.fail("deploy", "%r: one of %s" % (b.deploy, ", ".join(DEPLOYS)))
    if b.deploy == "tmpfs" and not qemu:
        f.fail("deploy", "tmpfs is the qemu device type's; a board deploys with tftp")
    b.boot = f.get("boot", dict, {"method": "qemu", "media": "tmpfs"} if qemu else None)
    if b.boot is None:
        f.fail("boot", "missing: the LAVA boot action of this device type, e.g. "
               "{method: u-boot, commands: ramdisk}")
    if "method" not in b.boot:
        f.fail("boot.method", "missing")
    b.context = dict(f.get("context", dict, {}))
    if qemu:
        # LAVA's qemu device type needs the architecture in the job context
        given = b.context.setdefault("arch", b.arch)
        if ARCH_ALIASES.get(given, given) != b.arch:
            f.fail("context.arch", "%r, but the board's arch is %s" % (given, b.arch))
    b.tags = f.strings("tags")
    for key in ("kernel", "ramdisk", "bundle"):
        b.files[key] = f.location(key, required=True)
    for key in ("modules", "dtb"):
        loc = f.location(key)
        if loc:
            b.files[key] = loc
    if "://" not in b.files["bundle"]:
        _check_bundle(f, b)
    b.kernel_args = f.get("kernel_args", str, "")
    if '"' in b.kernel_args:
        f.fail("kernel_args", "no double quotes (the qemu command line quotes them)")
    if "target" in value:
        b.target = f.strings("target")
    b.prompt = f.get("prompt", str, DEFAULT_PROMPT)
    return b


def _check_bundle(f, board):
    """A bundle of this machine must hold an hwc-replay of the board's architecture."""
    try:
        replay = artifacts.bundle_elf(board.files["bundle"])
    except SuiteError as exc:
        f.fail("bundle", str(exc))
    if replay.arch != board.arch:
        f.fail("bundle", "%s holds an hwc-replay for %s, but the board's arch is %s" %
               (board.files["bundle"], replay.machine_name, board.arch))


def _case(path, index, value, boards):
    f = _Fields(path, "traces[%d]" % index, value, ("name", "trace", "frames", "args", "expect"))
    c = Case(f.name("name"))
    c.trace = f.location("trace", required=True, local=True)
    frames = f.get("frames", str)
    if frames is not None and not re.fullmatch(r"[0-9]*-?[0-9]*", frames):
        f.fail("frames", "%r: A-B, A-, -B or N as hwc-replay --frames takes" % frames)
    c.frames = frames
    c.args = f.strings("args")
    expect = value.get("expect")
    if isinstance(expect, dict):
        e = _Fields(path, f.where + ".expect", expect, list(boards))
        for board in expect:
            c.expect[board] = e.location(board, local=True)
    elif expect is not None:
        c.expect["*"] = f.location("expect", local=True)
    return c


def load(path):
    """Reads and checks the suite file; returns a Suite or raises SuiteError."""
    doc = read_document(path)
    f = _Fields(path, "", doc, ("name", "shards", "timeout_minutes", "case_timeout_seconds", "replay_args",
                                "boards", "traces"))
    s = Suite(path)
    s.name = f.name("name")
    s.shards = f.get("shards", int, 1)
    if s.shards < 1:
        f.fail("shards", "must be at least 1")
    s.timeout_minutes = f.get("timeout_minutes", int, 20)
    if s.timeout_minutes < 1:
        f.fail("timeout_minutes", "must be at least 1")
    s.case_timeout_seconds = f.get("case_timeout_seconds", int, 300)
    if s.case_timeout_seconds < 1:
        f.fail("case_timeout_seconds", "must be at least 1")
    s.replay_args = f.strings("replay_args")
    boards = f.get("boards", dict, required=True)
    if not boards:
        f.fail("boards", "empty")
    for name, value in boards.items():
        if not isinstance(name, str) or not NAME.match(name):
            f.fail("boards", "%r: a board name has letters, digits, '.', '_' and '-' only" % name)
        s.boards.append(_board(path, name, value))
    traces = f.get("traces", list, required=True)
    if not traces:
        f.fail("traces", "empty")
    seen = set()
    for i, value in enumerate(traces):
        c = _case(path, i, value, boards)
        if c.name in seen:
            f.fail("traces[%d].name" % i, "%r is used twice" % c.name)
        seen.add(c.name)
        s.cases.append(c)
    return s
