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
import os
import re
import zlib

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

    def write_results(self, path):
        """Writes the results JSON, as hwc-replay wrote it (a frame a line), to
        path: False when the case wrote none. Decoded and inflated a line at
        a time, so that memory follows the compressed block, not the results
        (a replay of 100 000 frames is ~100 MB of JSON). Raises SuiteError
        when the block is cut, damaged or does not match its checksum; path
        is then left absent."""
        if self.end is None:
            raise SuiteError("case %s: its block has no end line (the job stopped while it printed)" % self.name)
        digest, lines = self.end
        if digest == "-":
            return False
        if len(self.chunks) != lines:
            raise SuiteError("case %s: %d results lines, the block says %d" % (self.name, len(self.chunks), lines))
        md5 = hashlib.md5()
        inflate = zlib.decompressobj(wbits=31)  # gzip
        first = b""
        tmp = path + ".tmp"
        try:
            with open(tmp, "wb") as f:
                for n, chunk in enumerate(self.chunks):
                    try:
                        data = base64.b64decode(chunk, validate=True)
                    except ValueError as exc:
                        raise SuiteError("case %s: results line %d is not base64: %s" % (self.name, n + 1, exc)) from exc
                    md5.update(data)
                    try:
                        out = inflate.decompress(data)
                    except zlib.error as exc:
                        raise SuiteError("case %s: results are not gzip'd (line %d): %s" % (self.name, n + 1, exc)) from exc
                    if len(first) < 1 and out:
                        first = out.lstrip()[:1]
                    f.write(out)
                if md5.hexdigest() != digest:
                    raise SuiteError("case %s: results do not match their md5sum" % self.name)
                if not inflate.eof:
                    raise SuiteError("case %s: results are not gzip'd: the stream ends early" % self.name)
                if first != b"{":
                    raise SuiteError("case %s: results are not a JSON object" % self.name)
            os.replace(tmp, path)
        except BaseException:
            for stale in (tmp, path):  # no results of an earlier merge stay in their place
                if os.path.exists(stale):
                    os.unlink(stale)
            raise
        return True


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
