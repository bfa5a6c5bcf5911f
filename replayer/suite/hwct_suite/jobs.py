"""LAVA job definitions of a suite (docs/fleet.md, "Jobs"): one job per board
and shard, each deploying the board's kernel, ramdisk (with modules, the
hwc-replay bundle and the job's data archive appended to it) and running one
lava-test-case per trace through /hwct/bin/hwct-case.

The jobs dict is LAVA's job schema (lava_common.schemas, checked by
schema.validate); write() also leaves a manifest.json that merge reads back.
"""

import json
import os
import shlex
import shutil

from . import SuiteError, artifacts, shard

PROMPT_TIMEOUT_MINUTES = 3
DEPLOY_TIMEOUT_MINUTES = 5


class Publisher:
    """Turns the local files a job names into URLs. Without a base URL, a file
    stays where it is (file://); with one, it is linked (or copied) into the
    output's artifacts folder, to be served under the base URL."""

    def __init__(self, artifacts_dir, base_url=None):
        self.dir = artifacts_dir
        self.base = base_url.rstrip("/") if base_url else None

    def url(self, location, name):
        """location: a path or a URL; name: the file name to publish it as."""
        if "://" in location:
            return location
        if not self.base:
            return "file://" + os.path.abspath(location)
        dest = os.path.join(self.dir, name)
        if os.path.abspath(location) != os.path.abspath(dest):
            if os.path.lexists(dest):
                os.unlink(dest)
            try:
                os.link(location, dest)
            except OSError:
                shutil.copyfile(location, dest)
        return "%s/%s" % (self.base, name)

    def own(self, name):
        """The URL of a file written into the artifacts folder."""
        if not self.base:
            return "file://" + os.path.abspath(os.path.join(self.dir, name))
        return "%s/%s" % (self.base, name)


def job_name(suite, board, k, n):
    return "%s-%s-%dof%d" % (suite.name, board.name, k, n)


def case_command(suite, board, case):
    """The test step that runs one case in the guest."""
    expect = artifacts.guest_expect(case) if artifacts.expectation(case, board) else "-"
    args = [artifacts.GUEST_CASE, case.name, artifacts.guest_trace(case), expect]
    args += board.target
    if case.frames:
        args += ["--frames", case.frames]
    args += suite.replay_args + case.args
    return "HWCT_CASE_TIMEOUT=%d %s" % (suite.case_timeout_seconds, " ".join(shlex.quote(a) for a in args))


def _board_file_name(board, key, location):
    return "%s.%s.%s" % (board.name, key, os.path.basename(location.rstrip("/")))


def _deploy(board, pub, data_url, minutes):
    f = board.files

    def url(key):
        return pub.url(f[key], _board_file_name(board, key, f[key]))

    overlays = {"lava": True}
    if "modules" in f:
        overlays["modules"] = {"url": url("modules"), "format": "tar", "path": "/"}
    overlays["hwct-bundle"] = {"url": url("bundle"), "format": "tar", "path": "/"}
    overlays["hwct-data"] = {"url": data_url, "format": "tar", "path": "/"}
    ramdisk = {"url": url("ramdisk"), "format": "cpio.newc", "overlays": overlays}
    deploy = {"timeout": {"minutes": minutes}, "to": board.deploy, "os": "oe"}
    if board.deploy == "tmpfs":
        append = "-append \"%s\"" % board.kernel_args if board.kernel_args else ""
        ramdisk["image_arg"] = "-initrd {ramdisk}"
        deploy["images"] = {
            "kernel": {"url": url("kernel"), "image_arg": ("-kernel {kernel} " + append).strip()},
            "ramdisk": ramdisk,
        }
    else:
        # tftp: LAVA installs its overlay into the ramdisk itself (and the modules,
        # from the modules archive), so only ours are appended.
        del overlays["lava"]
        overlays.pop("modules", None)
        deploy["kernel"] = {"url": url("kernel"), "type": "image"}
        deploy["ramdisk"] = ramdisk
        if "modules" in f:
            deploy["modules"] = {"url": url("modules")}
        if "dtb" in f:
            deploy["dtb"] = {"url": url("dtb")}
    return deploy


def job(suite, board, k, n, cases, pub, data_url):
    """The LAVA job (a dict) of shard k of n of board."""
    boot = dict(board.boot)
    # LAVA refuses an action timeout longer than the job's
    boot.setdefault("timeout", {"minutes": min(PROMPT_TIMEOUT_MINUTES, suite.timeout_minutes)})
    boot.setdefault("prompts", [board.prompt])
    steps = [case_command(suite, board, c) for c in cases]
    d = {
        "job_name": "hwct %s %s %d/%d" % (suite.name, board.name, k, n),
        "device_type": board.device_type,
        "visibility": "public",
        "priority": "medium",
        "timeouts": {
            "job": {"minutes": suite.timeout_minutes},
            "action": {"minutes": suite.timeout_minutes},
            "connection": {"minutes": min(2, suite.timeout_minutes)},
        },
        "metadata": {
            "hwct.suite": suite.name,
            "hwct.board": board.name,
            "hwct.arch": board.arch,
            "hwct.shard": "%d/%d" % (k, n),
            "hwct.cases": ",".join(c.name for c in cases),
        },
        "actions": [
            {"deploy": _deploy(board, pub, data_url, min(DEPLOY_TIMEOUT_MINUTES, suite.timeout_minutes))},
            {"boot": boot},
            {"test": {
                "timeout": {"minutes": suite.timeout_minutes},
                "definitions": [{
                    "from": "inline",
                    "name": "hwct-replay",
                    "path": "inline/hwct-replay.yaml",
                    "repository": {
                        "metadata": {
                            "format": "Lava-Test Test Definition 1.0",
                            "name": "hwct-replay",
                            "description": "hwc-replay of %d trace(s) of suite %s" % (len(cases), suite.name),
                        },
                        "run": {"steps": steps},
                    },
                }],
            }},
        ],
    }
    if board.context:
        d["context"] = dict(board.context)
    if board.tags:
        d["tags"] = list(board.tags)
    return d


def _dump(data):
    try:
        import yaml
    except ImportError:
        return json.dumps(data, indent=2) + "\n"
    return yaml.safe_dump(data, sort_keys=False, width=1000)


def write(suite, out_dir, fractions, boards, base_url=None):
    """Writes out_dir/jobs/<name>.yaml, out_dir/artifacts/<name>.data.tar and
    out_dir/manifest.json for every board of boards and every (k, n) of
    fractions. Returns the manifest (a dict; "written" names the jobs this
    call wrote, the manifest may hold earlier ones too)."""
    jobs_dir = os.path.join(out_dir, "jobs")
    art_dir = os.path.join(out_dir, "artifacts")
    os.makedirs(jobs_dir, exist_ok=True)
    os.makedirs(art_dir, exist_ok=True)
    pub = Publisher(art_dir, base_url)
    manifest = {"suite": suite.name, "suite_file": os.path.abspath(suite.path), "jobs": []}
    written = set()
    for board in boards:
        for k, n in fractions:
            cases = shard.select(suite.cases, k, n)
            if not cases:
                continue  # more shards than traces
            name = job_name(suite, board, k, n)
            data = name + ".data.tar"
            artifacts.data_archive(os.path.join(art_dir, data), board, cases)
            d = job(suite, board, k, n, cases, pub, pub.own(data))
            path = os.path.join(jobs_dir, name + ".yaml")
            with open(path + ".tmp", "w", encoding="utf-8") as f:
                f.write(_dump(d))
            os.replace(path + ".tmp", path)
            written.add(name)
            manifest["jobs"].append({
                "name": name,
                "file": os.path.relpath(path, out_dir),
                "board": board.name,
                "arch": board.arch,
                "device_type": board.device_type,
                "shard": [k, n],
                "cases": [{
                    "name": c.name,
                    "trace": c.trace,
                    "frames": c.frames,
                    "expect": artifacts.expectation(c, board),
                } for c in cases],
            })
    # Fractions written by earlier runs into the same folder (one CI node per
    # fraction) stay in the manifest.
    path = os.path.join(out_dir, "manifest.json")
    earlier = _read_manifest(path)
    if earlier and earlier.get("suite") == suite.name:
        kept = [j for j in earlier.get("jobs", []) if j.get("name") not in written]
        manifest["jobs"] = kept + manifest["jobs"]
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=2)
        f.write("\n")
    os.replace(path + ".tmp", path)
    manifest["written"] = sorted(written)
    return manifest


def _read_manifest(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def read_manifest(out_dir, only):
    """The jobs of out_dir/manifest.json (only: those names, each of which must be there)."""
    try:
        with open(os.path.join(out_dir, "manifest.json"), encoding="utf-8") as f:
            manifest = json.load(f)
    except (OSError, ValueError) as exc:
        raise SuiteError("%s: no manifest.json of hwc-suite jobs: %s" % (out_dir, exc)) from exc
    names = [j["name"] for j in manifest["jobs"]]
    for name in only or []:
        if name not in names:
            raise SuiteError("no job %r in %s (jobs: %s)" % (name, out_dir, ", ".join(names)))
    return [j for j in manifest["jobs"] if not only or j["name"] in only]
