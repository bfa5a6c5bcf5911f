"""The jobs sent to a LAVA server and followed there (docs/fleet.md, "Submitting
to a LAVA server"): through its REST API (/api/v0.2/), with an API token.

What was submitted is kept in OUTPUT/server.json, written again after each
submission, so that nothing is submitted twice and nothing is lost when a run
stops half way: per job of the manifest, the server's job id and the ids of
earlier tries. A finished job's log (the same entries lava-run writes) is kept
in OUTPUT/server/<job>.log, the folder `merge --server` reads.
"""

import json
import os
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

from . import SuiteError, jobs, lavalog

FINISHED = "Finished"
STATE = "server.json"
LOGS = "server"


def identity(name, path=None):
    """(url, username, token) of a lavacli identity (~/.config/lavacli.yaml)."""
    import yaml
    path = path or os.path.join(os.path.expanduser("~"), ".config", "lavacli.yaml")
    try:
        with open(path, encoding="utf-8") as f:
            conf = yaml.safe_load(f) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise SuiteError("%s: cannot read lavacli's identities: %s" % (path, exc)) from exc
    ident = conf.get(name)
    if not isinstance(ident, dict) or not ident.get("uri"):
        raise SuiteError("%s: no identity %r with a uri" % (path, name))
    uri = urllib.parse.urlsplit(str(ident["uri"]))
    base = urllib.parse.urlunsplit((uri.scheme, uri.netloc, "/", "", ""))
    return base, ident.get("username"), ident.get("token")


class Server:
    def __init__(self, url, token=None):
        if not url or not url.startswith(("http://", "https://")):
            raise SuiteError("--url %r: an http:// or https:// address of a LAVA server" % url)
        self.url = url.rstrip("/") + "/"
        self.token = token

    def _request(self, path, data=None, raw=False):
        headers = {"Accept": "application/json"}
        if self.token:
            headers["Authorization"] = "Token " + self.token
        body = None
        if data is not None:
            body = json.dumps(data).encode()
            headers["Content-Type"] = "application/json"
        req = urllib.request.Request(self.url + path, data=body, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                text = r.read().decode("utf-8", errors="replace")
        except urllib.error.HTTPError as exc:
            detail = exc.read().decode("utf-8", errors="replace")[:300]
            if exc.code == 404 and raw:
                return None
            raise SuiteError("%s%s: HTTP %d: %s" % (self.url, path, exc.code, detail)) from exc
        except (urllib.error.URLError, OSError) as exc:
            raise SuiteError("%s: unreachable: %s" % (self.url, getattr(exc, "reason", exc))) from exc
        if raw:
            return text
        try:
            return json.loads(text)
        except ValueError as exc:
            raise SuiteError("%s%s: not JSON: %s" % (self.url, path, text[:200])) from exc

    def submit(self, definition):
        """The id of the job the server made of a definition (YAML text)."""
        answer = self._request("api/v0.2/jobs/", {"definition": definition})
        ids = answer.get("job_ids") or []
        if len(ids) != 1:
            raise SuiteError("%s: the server answered %s" % (self.url, answer))
        return int(ids[0])

    def job(self, job_id):
        return self._request("api/v0.2/jobs/%d/" % job_id)

    def log(self, job_id):
        """The job's log (YAML text), or None when the server has none."""
        return self._request("api/v0.2/jobs/%d/logs/" % job_id, raw=True)

    def cancel(self, job_id):
        return self._request("api/v0.2/jobs/%d/cancel/" % job_id)


def load_state(out_dir):
    path = os.path.join(out_dir, STATE)
    if not os.path.exists(path):
        return {"url": None, "jobs": {}}
    try:
        with open(path, encoding="utf-8") as f:
            state = json.load(f)
        if not isinstance(state.get("jobs"), dict):
            raise ValueError("no jobs object")
        return state
    except (OSError, ValueError) as exc:
        raise SuiteError("%s: unreadable: %s" % (path, exc)) from exc


def save_state(out_dir, state):
    path = os.path.join(out_dir, STATE)
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        json.dump(state, f, indent=2)
        f.write("\n")
    os.replace(path + ".tmp", path)


def _connect(args, state):
    url, token = args.url, args.token
    if args.identity:
        url_i, _, token_i = identity(args.identity)
        url, token = url or url_i, token or token_i
    url = url or state.get("url")
    if not url:
        raise SuiteError("no server: give --url or --identity")
    if state.get("url") and state["url"].rstrip("/") != url.rstrip("/"):
        raise SuiteError("%s: its jobs went to %s, not %s" % (STATE, state["url"], url))
    return Server(url, token or os.environ.get("HWCT_LAVA_TOKEN"))


def submit(args):
    """Submits each job of the manifest that has no id on the server yet, and
    with --again those whose last try ended Incomplete or Canceled."""
    state = load_state(args.output)
    srv = _connect(args, state)
    state["url"] = srv.url
    for j in jobs.read_manifest(args.output, args.job):
        entry = state["jobs"].get(j["name"])
        if entry:
            if not args.again:
                print("%s: job %d already (--again submits a job that did not complete once more)"
                      % (j["name"], entry["id"]))
                continue
            info = srv.job(entry["id"])
            if info["state"] != FINISHED or info["health"] == "Complete":
                print("%s: job %d is %s %s: not submitted again" % (j["name"], entry["id"], info["state"], info["health"]))
                continue
        with open(os.path.join(args.output, j["file"]), encoding="utf-8") as f:
            job_id = srv.submit(f.read())
        tries = (entry or {}).get("tries", []) + ([entry["id"]] if entry else [])
        state["jobs"][j["name"]] = {"id": job_id, "tries": tries}
        save_state(args.output, state)
        print("%s: job %d %sjob/%d" % (j["name"], job_id, srv.url, job_id))
        sys.stdout.flush()
    return 0


def _reason(info, log):
    """LAVA's own reason for a job that did not complete: the error the log ends
    with, else the server's failure comment."""
    end = (log.job if log else None) or {}
    if end.get("error_type") or end.get("error_msg"):
        return "%s: %s" % (end.get("error_type"), end.get("error_msg"))
    return info.get("failure_comment") or "no reason given"


def fetch_log(srv, out_dir, name, job_id):
    """Keeps a finished job's log in OUTPUT/server/<name>.log; returns its path or None."""
    text = srv.log(job_id)
    if text is None:
        return None
    path = os.path.join(out_dir, LOGS, name + ".log")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(path + ".tmp", path)
    return path


def wait(args):
    """Follows the submitted jobs until each is finished (or --timeout): one line
    per change of state. Exit 0 when all completed, 125 otherwise."""
    state = load_state(args.output)
    srv = _connect(args, state)
    todo = {j["name"]: state["jobs"][j["name"]]["id"] for j in jobs.read_manifest(args.output, args.job)
            if j["name"] in state["jobs"]}
    if not todo:
        raise SuiteError("%s: no job submitted (hwc-suite submit)" % args.output)
    seen = {}
    status = 0
    start = time.monotonic()
    while todo:
        for name, job_id in list(todo.items()):
            info = srv.job(job_id)
            now = (info["state"], info["health"], info.get("actual_device"))
            if seen.get(name) == now:
                continue
            seen[name] = now
            if info["state"] != FINISHED:
                print("%s: job %d %s%s" % (name, job_id, info["state"],
                                           " on %s" % info["actual_device"] if info.get("actual_device") else ""))
                sys.stdout.flush()
                continue
            path = fetch_log(srv, args.output, name, job_id)
            state["jobs"][name]["log"] = job_id if path else None
            save_state(args.output, state)
            log = lavalog.read(path) if path else None
            took = log.duration() if log else None
            line = "%s: job %d %s%s" % (name, job_id, info["health"],
                                        " in %.0f s" % took if took is not None else "")
            if info["health"] != "Complete":
                line += " (%s)" % _reason(info, log)
                status = 125
            print(line)
            sys.stdout.flush()
            del todo[name]
        if todo:
            if args.timeout and time.monotonic() - start > args.timeout:
                print("hwc-suite: still not finished after %d s: %s" % (args.timeout, ", ".join(sorted(todo))))
                return 125
            time.sleep(args.interval)
    return status


def collect(args):
    """For merge --server: keeps the logs of finished jobs not kept yet; returns
    the logs folder and, per job without a log, why (its state on the server,
    or that the server cannot be reached)."""
    state = load_state(args.output)
    logs = os.path.join(args.output, LOGS)
    pending = {}
    try:
        srv = _connect(args, state)
    except SuiteError as exc:
        srv, unreachable = None, str(exc)
    for j in jobs.read_manifest(args.output, None):
        name = j["name"]
        entry = state["jobs"].get(name)
        if not entry:
            pending[name] = "never submitted (hwc-suite submit)"
            continue
        kept = os.path.isfile(os.path.join(logs, name + ".log")) and entry.get("log") == entry["id"]
        if kept:
            continue
        if srv is None:
            pending[name] = "job %d: %s" % (entry["id"], unreachable)
            continue
        try:
            info = srv.job(entry["id"])
            if info["state"] != FINISHED:
                pending[name] = "job %d is %s on %s (merge again when it ends)" % (
                    entry["id"], info["state"], info.get("actual_device") or "no device yet")
                continue
            if fetch_log(srv, args.output, name, entry["id"]):
                entry["log"] = entry["id"]
                save_state(args.output, state)
            else:
                pending[name] = "job %d %s without a log" % (entry["id"], info["health"])
        except SuiteError as exc:
            pending[name] = "job %d: %s" % (entry["id"], exc)
    # a log kept from an earlier try does not stand for the job now submitted
    for name in pending:
        stale = os.path.join(logs, name + ".log")
        if os.path.isfile(stale):
            os.replace(stale, stale + ".earlier")
    return logs, pending
