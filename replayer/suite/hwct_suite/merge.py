"""The jobs' results merged into one report (docs/fleet.md, "Merging"): per
board and trace, the verdict, the first differing frame and the agreement with
the recording; per trace, whether the boards agree. The comparing is
hwc-trace's (diff, and report for the HTML pages): nothing here compares
results itself.

Verdicts:
  pass            hwc-replay exited 0 (with an expectation: every frame as expected)
  fail            a regression: with an expectation, exit status 1 (a frame differs)
  skip            exit status 125: the trace cannot be tested on that board
  error           any other exit status (the trace or the target could not be used)
  infrastructure  the case never ran: the job stopped before (LAVA's error type and
                  message say why: a download, the boot, a timeout, the device) or
                  left no log. Not a regression.
  pending         (merge --server) no verdict yet: the job has not finished on the
                  server, or the server could not be asked; merging again completes it
"""

import json
import os
import shutil
import subprocess
import sys

from . import SuiteError, lavalog

VERDICTS = ("pass", "fail", "skip", "error", "infrastructure", "pending")
EXIT_FAIL = 1  # a regression or an error
EXIT_INFRA = 125  # no regression, but cases that did not run


def _hwc_trace(program):
    found = shutil.which(program or "hwc-trace")
    if not found:
        raise SuiteError("%s not found: give --hwc-trace" % (program or "hwc-trace"))
    return found


def _diff(hwc_trace, a, b):
    """hwc-trace diff A B --json: the parsed object, or None (with the error
    text) when it could not compare."""
    p = subprocess.run([hwc_trace, "diff", a, b, "--json"], capture_output=True, text=True)
    if p.returncode not in (0, 1):
        return None, (p.stderr.strip().splitlines() or ["exit status %d" % p.returncode])[-1]
    try:
        return json.loads(p.stdout), None
    except ValueError:
        return None, "hwc-trace diff printed no JSON"


def _first_difference(diff):
    d = diff.get("differences") or []
    if not d:
        return None
    return {k: d[0].get(k) for k in ("frame", "display", "category", "message")}


class Merge:
    def __init__(self, out_dir, logs_dir, hwc_trace, pending=None):
        self.out = out_dir
        self.pending = pending or {}  # job name -> why it has no log yet (merge --server)
        self.logs = logs_dir
        self.hwc_trace = hwc_trace
        self.results_dir = os.path.join(out_dir, "results")
        try:
            with open(os.path.join(out_dir, "manifest.json"), encoding="utf-8") as f:
                self.manifest = json.load(f)
        except (OSError, ValueError) as exc:
            raise SuiteError("%s: no manifest.json of hwc-suite jobs: %s" % (out_dir, exc)) from exc
        self.jobs = []
        self.cases = []

    def _case(self, job, log, case):
        row = {"board": job["board"], "case": case["name"], "job": job["name"], "trace": case["trace"],
               "frames": case["frames"], "expect": case["expect"], "verdict": None, "exit_status": None,
               "lava_result": None, "message": None, "results": None, "first_difference": None,
               "differing_frames": None, "agreement": None}
        block = log.cases.get(case["name"]) if log else None
        if log:
            row["lava_result"] = log.lava_cases.get(case["name"])
        if not log and job["name"] in self.pending:
            row["verdict"] = "pending"
            row["message"] = self.pending[job["name"]]
            return row
        if block is None or block.status is None:
            row["verdict"] = "infrastructure"
            end = (log.job if log else None) or {}
            if not log:
                row["message"] = "no job log"
            elif end.get("error_type"):
                row["message"] = "%s error: %s" % (end["error_type"], end.get("error_msg"))
            else:
                row["message"] = "the job ended before this case ran"
            return row
        status = row["exit_status"] = block.status
        if status == 0:
            row["verdict"] = "pass"
        elif status == 1 and case["expect"]:
            row["verdict"] = "fail"
        elif status == 125:
            row["verdict"] = "skip"
        else:
            row["verdict"] = "error"
        lines = [s for s in block.stderr if "regression:" in s or "error:" in s]
        row["message"] = (lines or block.stderr or [None])[0]
        path = os.path.join(self.results_dir, job["board"], case["name"] + ".json")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        try:
            if not block.write_results(path):
                return row
        except (SuiteError, OSError) as exc:
            row["message"] = str(exc)
            return row
        row["results"] = path
        if case["expect"]:
            diff, err = _diff(self.hwc_trace, case["expect"], path)
            if diff:
                row["first_difference"] = _first_difference(diff)
                row["differing_frames"] = (diff.get("summary") or {}).get("differing")
            elif not row["message"]:
                row["message"] = "hwc-trace diff: %s" % err
        agree, err = _diff(self.hwc_trace, case["trace"], path)
        if agree:
            row["agreement"] = {k: agree.get(k) for k in ("ratio", "agree", "counted", "frames_agreeing", "frames")}
        return row

    def run(self):
        for job in self.manifest["jobs"]:
            path = os.path.join(self.logs, job["name"] + ".log")
            log = lavalog.read(path) if os.path.isfile(path) else None
            end = (log.job if log else None) or {}
            self.jobs.append({
                "name": job["name"], "board": job["board"], "shard": "%d/%d" % tuple(job["shard"]),
                "log": path if log else None,
                "result": end.get("result") or ("incomplete" if log else
                                                 "pending" if job["name"] in self.pending else "no log"),
                "error_type": end.get("error_type"), "error_msg": end.get("error_msg"),
                "seconds": log.duration() if log else None, "cases": len(job["cases"]),
            })
            for case in job["cases"]:
                self.cases.append(self._case(job, log, case))
        return self.report()

    def boards_compared(self):
        """Per trace with results on several boards: each board against the
        first, as hwc-trace diff compares two results."""
        out = []
        by_case = {}
        for row in self.cases:
            if row["results"]:
                by_case.setdefault(row["case"], []).append(row)
        for name, rows in by_case.items():
            for other in rows[1:]:
                diff, err = _diff(self.hwc_trace, rows[0]["results"], other["results"])
                out.append({"case": name, "a": rows[0]["board"], "b": other["board"],
                            "equal": diff.get("equal") if diff else None,
                            "first_difference": _first_difference(diff) if diff else None,
                            "error": err})
        return out

    def report(self):
        summary = {v: sum(1 for r in self.cases if r["verdict"] == v) for v in VERDICTS}
        return {
            "suite": self.manifest.get("suite"),
            "jobs": self.jobs,
            "cases": self.cases,
            "boards_compared": self.boards_compared(),
            "summary": summary,
        }


def html_pages(report, hwc_trace, html_dir):
    """One hwc-trace report page per trace, of every board's results."""
    os.makedirs(html_dir, exist_ok=True)
    pages = {}
    by_case = {}
    for row in report["cases"]:
        if row["results"]:
            by_case.setdefault(row["case"], (row["trace"], []))[1].append(row["results"])
    for name, (trace, results) in by_case.items():
        page = os.path.join(html_dir, name + ".html")
        p = subprocess.run([hwc_trace, "report", trace, *results, "-o", page], capture_output=True, text=True)
        pages[name] = page if p.returncode == 0 else None
    return pages


def _frame(d):
    return "frame %s (%s)" % (d["frame"], d["category"]) if d else "-"


def _agreement(agree):
    if not agree:
        return "-"
    if agree.get("ratio") is None:  # no layer decision to compare (a results without decisions)
        return "- (%s/%s layers)" % (agree.get("agree"), agree.get("counted"))
    return "%.3f (%s/%s layers)" % (agree["ratio"], agree["agree"], agree["counted"])


def print_table(report, out=sys.stdout):
    print("%-16s %-20s %-14s %-22s %s" % ("board", "trace", "verdict", "first difference", "agreement"), file=out)
    for r in report["cases"]:
        agree = r["agreement"]
        print("%-16s %-20s %-14s %-22s %s" % (
            r["board"], r["case"], r["verdict"], _frame(r["first_difference"]),
            _agreement(agree)), file=out)
        if r["verdict"] != "pass" and r["message"]:
            print("    %s" % r["message"], file=out)
    for c in report["boards_compared"]:
        print("%s: %s against %s: %s" % (c["case"], c["b"], c["a"], "equal" if c["equal"] else
                                         "differ from %s" % _frame(c["first_difference"]) if c["equal"] is False
                                         else "not compared: %s" % c["error"]), file=out)
    jobs = report["jobs"]
    print("jobs: %d, %d complete; %s" % (len(jobs), sum(1 for j in jobs if j["result"] == "pass"),
                                        ", ".join("%s %.0f s" % (j["name"], j["seconds"]) for j in jobs
                                                  if j["seconds"] is not None)), file=out)
    print("cases: " + ", ".join("%d %s" % (n, v) for v, n in report["summary"].items() if n), file=out)


def main(args):
    hwc_trace = _hwc_trace(args.hwc_trace)
    pending = None
    if getattr(args, "server", False):
        from . import server
        logs, pending = server.collect(args)
    else:
        logs = args.logs or os.path.join(args.output, "runs")
    report = Merge(args.output, logs, hwc_trace, pending).run()
    if args.html:
        report["html"] = html_pages(report, hwc_trace, args.html)
    path = args.report or os.path.join(args.output, "merged.json")
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        json.dump(report, f, indent=2)
        f.write("\n")
    os.replace(path + ".tmp", path)
    print_table(report)
    print("report: %s" % path)
    s = report["summary"]
    if s["fail"] or s["error"]:
        return EXIT_FAIL
    if s["infrastructure"] or s["pending"]:
        return EXIT_INFRA
    return 0
