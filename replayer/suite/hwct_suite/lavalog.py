"""A LAVA job log read back (docs/fleet.md, "Merging"): what lava-run writes on
its standard error, and what `lavacli jobs logs --raw ID` prints for a job of a
LAVA server. Both are YAML, one entry a line ({dt, lvl, msg}; lavacli puts
"- " before each).

From it: the job's own result (pass, or fail with LAVA's error type and
message), the test cases LAVA recorded, and the blocks /hwct/bin/hwct-case
printed on the console (lava/hwct-case describes them).
"""

import base64
import datetime
import gzip
import hashlib
import json
import re

from . import SuiteError

CASE_LINE = re.compile(r"HWCT-CASE (\S+) (begin|status|stderr|results|end)(?: (.*))?$")


class CaseBlock:
    """What one hwct-case printed."""

    def __init__(self, name):
        self.name = name
        self.status = None  # hwc-replay's exit status
        self.stderr = []
        self.chunks = []  # base64 lines of the gzip'd results
        self.end = None  # (md5 or "-", lines)

    def results(self):
        """The results JSON (a dict), None when the case wrote none; raises
        SuiteError when the block is cut or does not match its checksum."""
        if self.end is None:
            raise SuiteError("case %s: its block has no end line (the job stopped while it printed)" % self.name)
        digest, lines = self.end
        if digest == "-":
            return None
        if len(self.chunks) != lines:
            raise SuiteError("case %s: %d results lines, the block says %d" % (self.name, len(self.chunks), lines))
        try:
            data = base64.b64decode("".join(self.chunks), validate=True)
        except ValueError as exc:
            raise SuiteError("case %s: results are not base64: %s" % (self.name, exc)) from exc
        if hashlib.md5(data).hexdigest() != digest:
            raise SuiteError("case %s: results do not match their md5sum" % self.name)
        try:
            return json.loads(gzip.decompress(data))
        except (OSError, ValueError) as exc:
            raise SuiteError("case %s: results are not gzip'd JSON: %s" % (self.name, exc)) from exc


class JobLog:
    def __init__(self, path):
        self.path = path
        self.job = None  # {"result", "error_type", "error_msg"}: the job's end; None if cut short
        self.cases = {}  # name -> CaseBlock
        self.lava_cases = {}  # test case name -> LAVA's result (pass, fail, skip, unknown)
        self.first = None  # first and last entry times (datetime)
        self.last = None
        self.unreadable = 0  # lines that were not log entries

    def duration(self):
        """Seconds from the first entry to the last, or None."""
        if self.first and self.last:
            return (self.last - self.first).total_seconds()
        return None

    def _target(self, msg):
        m = CASE_LINE.search(msg)
        if not m:
            return
        name, kind, rest = m.group(1), m.group(2), m.group(3) or ""
        if kind == "begin":
            self.cases[name] = CaseBlock(name)
            return
        block = self.cases.get(name)
        if block is None:
            return
        if kind == "status" and rest.strip().isdigit():
            block.status = int(rest.strip())
        elif kind == "stderr":
            block.stderr.append(rest)
        elif kind == "results":
            block.chunks.append(rest.strip())
        elif kind == "end":
            words = rest.split()
            if len(words) == 2 and words[1].isdigit():
                block.end = (words[0], int(words[1]))

    def _results(self, msg):
        if not isinstance(msg, dict):
            return
        if msg.get("definition") == "lava":
            if msg.get("case") == "job":
                self.job = {k: msg.get(k) for k in ("result", "error_type", "error_msg")}
                if isinstance(self.job["error_msg"], str):
                    self.job["error_msg"] = self.job["error_msg"].strip()
            return
        if "case" in msg and "result" in msg:
            self.lava_cases[str(msg["case"])] = msg["result"]

    def add(self, entry):
        if not isinstance(entry, dict) or "lvl" not in entry:
            self.unreadable += 1
            return
        try:
            when = datetime.datetime.fromisoformat(str(entry.get("dt")))
            self.first = self.first or when
            self.last = when
        except ValueError:
            pass
        if entry["lvl"] == "target" and isinstance(entry.get("msg"), str):
            self._target(entry["msg"])
        elif entry["lvl"] == "results":
            self._results(entry.get("msg"))


def _loader():
    import yaml
    return yaml, getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read(path):
    """Reads a job log; raises SuiteError when the file cannot be read."""
    yaml, loader = _loader()
    log = JobLog(path)
    try:
        f = open(path, encoding="utf-8", errors="replace")
    except OSError as exc:
        raise SuiteError("%s: cannot read: %s" % (path, exc.strerror)) from exc
    with f:
        for line in f:
            line = line.strip()
            if line.startswith("- "):
                line = line[2:]
            if not line.startswith("{"):
                if line:
                    log.unreadable += 1
                continue
            try:
                log.add(yaml.load(line, Loader=loader))
            except yaml.YAMLError:
                log.unreadable += 1
    return log
