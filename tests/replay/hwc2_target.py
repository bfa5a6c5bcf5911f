#!/usr/bin/env python3
"""hwc-replay --hwc2 on the host, through the fake HWC2 module
(tests/recorder/fake_hwc2.c): one case per run.

  repeat          both reference traces, twice each: identical plans and
                  checksums; the plan is the module's (composition types,
                  'module' reason, planner "module")
  expect          --expect against its own results: 0; after one layer's
                  composition is edited in the known-good file: 1 naming it;
                  the same file with --compare pixels: 0
  errors          a module whose calls fail sometimes (FAKE_HWC2_MODE=errors):
                  the run completes, errors counted and reported, and no
                  frame after one whose validate failed waits out a
                  release fence that no present could signal
  null-functions  a module without the optional functions: the run completes
  missing         a required function missing: exit 4 naming it
  not-a-module    a shared library that is no HWC2 module, and a text file:
                  exit 4 with one line naming the file
  crash           hwcomposer.faulty.so aborting in presentDisplay of frame 5,
                  and crashing (SIGSEGV) in validateDisplay of frame 2: the
                  report names signal, frame and call; results.json holds
                  the earlier frames, complete false and the error; exit 5,
                  1 with --expect; no process of the module left, no
                  child hwc-replay did not reap (this test is their subreaper),
                  and no fd left open in hwc-replay at its exit beyond the
                  stdio it was given (fd-at-exit.so lists them; the good run
                  before is checked the same way)
  hang            the same module never returning from presentDisplay of
                  frame 2 (--hwc2-timeout 3, longer if a loaded machine makes a
                  healthy call look hung): killed, reported as a hang
                  naming frame and call, the same results, exit codes and fds
  crash-close     a crash in close() (--hwc2-end close): every frame's
                  results complete, the report names close after the last
                  frame, exit 5, no fd left open
  record-faults   the same faults through libhwc-record.so (the supervisor
                  ends a hung child with SIGTERM first): each recording is
                  finished and readable, holding every frame before the fault;
                  no fd left open in hwc-replay
  end-sequence    --hwc2-call-log: the end of a session as docs/hwc2-sequence.md
                  states it, by default (callbacks unregistered, layers
                  destroyed, one empty validate/accept/present, no close)
                  and with --hwc2-end close

Under emulation (HWCT_TEST_EMULATED=1: a cross build run through qemu-user,
tests/README.md) the module's display takes the traces' own size
(FAKE_HWC2_SIZE) instead of its 1080x2400: the same calls, plans, faults
and checks, without scaling every frame's reference picture up to four
times its pixels, on which an emulated run spends most of its time.

Usage: hwc2_target.py CASE (HWCT_REPLAY, HWCT_TEST_FAKE, HWCT_TRACES from meson)
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile

REPLAY, FAKE, TRACES = os.environ["HWCT_REPLAY"], os.environ["HWCT_TEST_FAKE"], os.environ["HWCT_TRACES"]
FAULTY = os.environ.get("HWCT_TEST_FAULTY")
RECORD, HWC_TRACE = os.environ.get("HWCT_RECORDER"), os.environ.get("HWCT_TRACE_TOOL")
FD_AT_EXIT = os.environ.get("HWCT_TEST_FD_AT_EXIT")
# --hwc2-timeout of the hang runs: the hang must be the one in frame 2, never a healthy call of the fake
# held up by a loaded machine. They return in well under a second, but no fixed limit holds on any
# machine: a run that reports a hang before frame 2's presentDisplay is run again with 4 times the
# limit, twice at most (3 s, 12 s, 48 s); the real hang costs each run its limit.
HANG_TIMEOUTS_S = (3, 12, 48)
# the reference traces' display (hwc-trace info traces/*.zst): the fake's under emulation
EMULATED_SIZE = {"FAKE_HWC2_SIZE": "540x1200"} if os.environ.get("HWCT_TEST_EMULATED") == "1" else {}


def hang_runs(run):
    """run(timeout) -> stderr of a hang run, called with a longer --hwc2-timeout while it reports
    a healthy call as the hang; returns (timeout, stderr) of the last run."""
    for t, longer in zip(HANG_TIMEOUTS_S, HANG_TIMEOUTS_S[1:] + (None,)):
        err = run(t)
        if "hung" not in err or ("frame 2" in err and "presentDisplay" in err) or longer is None:
            return t, err
        print("note: --hwc2-timeout %d took a healthy call for the hang (a loaded machine?): %s; again with %d s"
              % (t, err.strip()[-300:], longer))
    raise AssertionError("not reached")


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def with_fd_list(tmp, env):
    """env for a run under fd-at-exit.so (tests/replay/fd_at_exit.c), and the file it will list the fds in."""
    listing = os.path.join(tmp, "fds-at-exit.txt")
    if os.path.exists(listing):
        os.remove(listing)
    env = dict(env or {}, LD_PRELOAD=FD_AT_EXIT, HWCT_FD_AT_EXIT=listing)
    # a sanitizer runtime wants to be first in the library list; the preloaded lister is harmless before it
    asan = env.get("ASAN_OPTIONS", os.environ.get("ASAN_OPTIONS", ""))
    env["ASAN_OPTIONS"] = (asan + ":" if asan else "") + "verify_asan_link_order=0"
    return env, listing


def check_fds_at_exit(listing, what):
    """hwc-replay ends holding only what it was started with (subprocess passes 0, 1, 2 and closes the rest)."""
    if not os.path.exists(listing):
        fail("%s: fd-at-exit.so wrote no list: hwc-replay did not exit normally" % what)
    fds = [line.split(" ", 1) for line in open(listing).read().splitlines()]
    left = ["%s -> %s" % (fd, target) for fd, target in fds if int(fd) > 2]
    if left:
        fail("%s: hwc-replay left %d fd(s) open at exit: %s" % (what, len(left), ", ".join(left)))
    return len(fds)


def replay(tmp, trace, *args, env=None, results="r.json", status=0, module=FAKE, fds=False):
    """One hwc-replay --hwc2 run; fds: under fd-at-exit.so, checking that it leaks no descriptor."""
    path = os.path.join(tmp, results)
    if fds:
        env, listing = with_fd_list(tmp, env)
    run = subprocess.run([REPLAY, os.path.join(TRACES, trace + ".zst"), "--hwc2", module, "--timing", "fast",
                          "--results", path] + list(args), env=dict(os.environ, **EMULATED_SIZE, **(env or {})),
                         capture_output=True, text=True)
    if run.returncode != status:
        fail("hwc-replay %s %s: exit %d, expected %d: %s" % (trace, " ".join(args), run.returncode, status,
                                                             run.stderr.strip()[-600:]))
    if fds:
        check_fds_at_exit(listing, "hwc-replay %s %s" % (trace, " ".join(args)))
    return (json.load(open(path)) if os.path.exists(path) and status == 0 else None), run.stderr


def frames_key(r):
    return [(f["frame"], f["checksum"], f["checksum_source"],
             [(p["layer"], p["composition"], tuple(p["reasons"])) for p in f["plan"]]) for f in r["frames"]]


def case_repeat(tmp):
    for trace in ("home", "video"):
        a, _ = replay(tmp, trace, "--frames", "0-39", results="a.json")
        b, _ = replay(tmp, trace, "--frames", "0-39", results="b.json")
        if a["planner"] != "module" or a["target"]["kind"] != "hwc2":
            fail("%s: planner %r, target %r" % (trace, a["planner"], a["target"]))
        if len(a["frames"]) != 40:
            fail("%s: %d frames replayed of 40" % (trace, len(a["frames"])))
        if frames_key(a) != frames_key(b):
            diff = [(x, y) for x, y in zip(frames_key(a), frames_key(b)) if x != y][:1]
            fail("%s: two runs differ: %s" % (trace, diff))
        types = {p["composition"] for f in a["frames"] for p in f["plan"]}
        reasons = {r for f in a["frames"] for p in f["plan"] for r in p["reasons"]}
        if any(f["checksum"] is None for f in a["frames"]):
            fail("%s: a frame without checksum" % trace)
        if any(p["plane"] is not None for f in a["frames"] for p in f["plan"]):
            fail("%s: a plane id in a module's plan" % trace)
        print("%s: 40 frames twice, same checksums and plans; types %s, reasons %s, sources %s" % (
            trace, sorted(types), sorted(reasons), sorted({f["checksum_source"] for f in a["frames"]})))
    # the fake sends layers with plane alpha < 1 to CLIENT: home has some from frame 45
    r, _ = replay(tmp, "home", "--frames", "40-59")
    if not any("module" in p["reasons"] for f in r["frames"] for p in f["plan"]):
        fail("home 40-59: no layer the module moved to CLIENT")


def case_expect(tmp):
    good, _ = replay(tmp, "home", "--frames", "40-59", results="good.json")
    replay(tmp, "home", "--frames", "40-59", "--expect", os.path.join(tmp, "good.json"), results="same.json")
    edited = None
    for f in good["frames"]:
        for p in f["plan"]:
            if p["composition"] == "CLIENT" and edited is None:
                p["composition"], p["reasons"] = "DEVICE", []
                edited = (f["frame"], p["layer"])
    if edited is None:
        fail("no CLIENT layer in frames 40-59 to edit")
    with open(os.path.join(tmp, "edited.json"), "w") as out:
        json.dump(good, out)
    _, err = replay(tmp, "home", "--frames", "40-59", "--expect", os.path.join(tmp, "edited.json"),
                    results="regressed.json", status=1)
    want = "frame %d" % edited[0]
    if want not in err or "layer %d: expected DEVICE (no plane), got client (module)" % edited[1] not in err:
        fail("the regression message does not name frame %d layer %d: %s" % (edited[0], edited[1], err))
    replay(tmp, "home", "--frames", "40-59", "--expect", os.path.join(tmp, "edited.json"), "--compare", "pixels",
           results="pixels.json")
    print("expect: 0 against itself, 1 naming frame %d layer %d after an edit, 0 comparing pixels only" % edited)


def case_errors(tmp):
    r, err = replay(tmp, "home", "--frames", "0-29", env={"FAKE_HWC2_MODE": "errors"})
    t = r["totals"]
    if len(r["frames"]) != 30 or t["call_errors"] == 0 or t["noted_frames"] == 0:
        fail("errors: %d frames, totals %s" % (len(r["frames"]), t))
    noted = [f["module"] for f in r["frames"] if "module" in f]
    if not any("returned BAD_DISPLAY" in (m["note"] or "") for m in noted) or "returned" not in err:
        fail("errors: no validateDisplay error reported: %s / %s" % (noted[:3], err[-300:]))
    # a frame whose validate failed is not presented: the buffers it would have replaced stay on
    # screen, their release fences unsignalled until the next present; the next frame must not
    # wait out the 3 s limit for one (hwc-replay(1)), which its plan_ns would hold
    slow = [(f["frame"], f["timing"]["plan_ns"]) for f in r["frames"] if f["timing"]["plan_ns"] >= 3000000000]
    if slow:
        fail("errors: frames waited 3 s for a release fence no present could signal: %s" % slow)
    print("errors: 30 frames, %d call errors in %d frames, e.g. %r" % (t["call_errors"], t["noted_frames"],
                                                                       noted[0]["note"]))


def case_null_functions(tmp):
    r, _ = replay(tmp, "home", "--frames", "0-9", env={"FAKE_HWC2_MODE": "null-functions"})
    if len(r["frames"]) != 10:
        fail("null-functions: %d frames" % len(r["frames"]))
    print("null-functions: 10 frames without the optional functions")


def case_missing(tmp):
    # the fake gives NULL for getClientTargetSupport (optional) and the vendor one in null-functions
    # mode; a required one missing comes from FAKE_NULL_REQUIRED
    _, err = replay(tmp, "home", env={"FAKE_HWC2_MODE": "null-present"}, status=4)
    if "PRESENT_DISPLAY" not in err or "getFunction returned NULL" not in err:
        fail("missing: %s" % err)
    print("missing: exit 4: " + err.strip().splitlines()[-1])


def case_not_a_module(tmp):
    text = os.path.join(tmp, "hwcomposer.text.so")
    with open(text, "w") as f:
        f.write("not an ELF file\n")
    # libhwctrace.so of this build: a library hwc-replay can load (its architecture's, which
    # the machine's libc is not in a cross build) that has no HAL_MODULE_INFO_SYM
    lib = os.environ["HWCT_TEST_NOT_A_MODULE"]
    for path, words in ((lib, "not an HWC2 module"), (text, "cannot load the HWC2 module")):
        run = subprocess.run([REPLAY, os.path.join(TRACES, "home.zst"), "--hwc2", path, "--quiet"],
                             capture_output=True, text=True)
        lines = run.stderr.strip().splitlines()
        if run.returncode != 4 or len(lines) != 1 or path not in lines[0] or words not in lines[0]:
            fail("%s: exit %d, %r" % (path, run.returncode, run.stderr))
        print("%s: exit 4: %s" % (os.path.basename(path), lines[0]))


def become_subreaper():
    """Orphans of hwc-replay (a supervised child it did not reap) become this process's children."""
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(36, 1, 0, 0, 0) != 0:  # PR_SET_CHILD_SUBREAPER
        fail("prctl(PR_SET_CHILD_SUBREAPER): errno %d" % ctypes.get_errno())


def unreaped_children():
    """Pids of children left to this (subreaper) process, reaped here: none when hwc-replay reaped its own."""
    pids = []
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return pids
        if pid == 0:
            return pids + ["(running)"]
        pids.append(pid)


def faulty_copy(tmp):
    """The faulty module under a path of this test's own, to find its processes by."""
    path = os.path.join(tmp, "hwcomposer.faulty.so")
    shutil.copy(FAULTY, path)
    return path


def processes_holding(path):
    """Pids of processes that have path mapped."""
    pids = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open("/proc/%s/maps" % pid) as f:
                if path in f.read():
                    pids.append(pid)
        except OSError:
            pass
    return pids


def check_failed_run(tmp, module, fault, frames, words, status=5, expect=None, extra=()):
    """A run of module failing as fault says: exit status, report naming words, frames kept."""
    args = ["--frames", "0-39", "--quiet"] + list(extra) + (["--expect", expect] if expect else [])
    r_path = "fault.json"
    # in a sanitizer build, ASan's own SIGSEGV handler would turn the module's crash into an abort
    asan = os.environ.get("ASAN_OPTIONS", "") + ":handle_segv=0:handle_sigbus=0:handle_sigfpe=0"

    def run(timeout):
        return replay(tmp, "home", *args, *(["--hwc2-timeout", str(timeout)] if timeout else []),
                      env={"FAKE_HWC2_FAULT": fault, "ASAN_OPTIONS": asan.lstrip(":")},
                      results=r_path, status=status, module=module, fds=True)[1]

    timeout, err = hang_runs(run) if fault.startswith("hang") else (None, run(None))
    words = [w.format(timeout=timeout) for w in words]
    # under qemu-user (a cross build's tests, tests/README.md) the emulator itself reports the
    # module's process dying of a signal: its line, not hwc-replay's
    lines = [ln for ln in err.strip().splitlines() if not ln.startswith("qemu: uncaught target signal")]
    if len(lines) != 1 or not all(w in lines[0] for w in words):
        fail("%s: the report does not name %s: %r" % (fault, words, err))
    r = json.load(open(os.path.join(tmp, r_path)))
    if [f["frame"] for f in r["frames"]] != list(range(frames)):
        fail("%s: frames kept %s, expected 0-%d" % (fault, [f["frame"] for f in r["frames"]], frames - 1))
    if r["totals"]["frames"] != frames:
        fail("%s: totals count %d frames" % (fault, r["totals"]["frames"]))
    if frames < 40 and (r["complete"] or lines[0].split("error: ", 1)[-1] != r["error"]):
        fail("%s: complete %r, error %r" % (fault, r["complete"], r["error"]))
    if expect and r["comparison"]["compared"] != frames:
        fail("%s: %r" % (fault, r["comparison"]))
    left = processes_holding(module)
    if left:
        fail("%s: processes still hold the module: %s" % (fault, left))
    left = unreaped_children()
    if left:
        fail("%s: hwc-replay left children it did not reap (zombies): %s" % (fault, left))
    print("%s: exit %d, %d frames kept: %s" % (fault, status, frames, lines[0]))
    return r


def case_crash(tmp):
    become_subreaper()
    module = faulty_copy(tmp)
    replay(tmp, "home", "--frames", "0-39", results="good.json", fds=True)
    check_failed_run(tmp, module, "abort:presentDisplay:6", 5, ["crashed", "signal %d" % signal.SIGABRT,
                                                                  "frame 5", "presentDisplay"])
    check_failed_run(tmp, module, "abort:presentDisplay:6", 5, ["crashed", "frame 5", "presentDisplay"],
                     status=1, expect=os.path.join(tmp, "good.json"))
    check_failed_run(tmp, module, "crash:validateDisplay:3", 2, ["crashed", "signal %d" % signal.SIGSEGV,
                                                                   "frame 2", "validateDisplay"])


def case_hang(tmp):
    become_subreaper()
    module = faulty_copy(tmp)
    replay(tmp, "home", "--frames", "0-39", results="good.json", fds=True)
    check_failed_run(tmp, module, "hang:presentDisplay:3", 2, ["hung", "within {timeout} s", "frame 2",
                                                                      "presentDisplay"])
    check_failed_run(tmp, module, "hang:presentDisplay:3", 2, ["hung", "frame 2", "presentDisplay"],
                     status=1, expect=os.path.join(tmp, "good.json"))


def case_crash_close(tmp):
    become_subreaper()
    module = faulty_copy(tmp)
    r = check_failed_run(tmp, module, "crash:close:1", 40, ["crashed", "after the last frame", "in close"],
                         extra=["--hwc2-end", "close"])
    if not r["complete"] or r["error"] is not None:
        fail("crash-close: the results of a run whose frames all played: complete %r, error %r" % (
            r["complete"], r["error"]))


def case_record_faults(tmp):
    """Through libhwc-record.so: the recording up to a crash or a hang is a finished, readable trace."""
    become_subreaper()
    module = faulty_copy(tmp)
    asan = os.environ.get("ASAN_OPTIONS", "") + ":handle_segv=0:handle_sigbus=0:handle_sigfpe=0"
    # the abort runs under the default time limit: the recorder's crash handler may take up to 3 s
    for fault, frames in (("abort:presentDisplay:6", 5), ("crash:validateDisplay:3", 2),
                          ("hang:presentDisplay:3", 2)):
        out = os.path.join(tmp, fault.replace(":", "-") + ".zst")

        def run(timeout):
            if os.path.exists(out):
                os.remove(out)
            return replay(tmp, "home", "--frames", "0-39", "--quiet",
                          *(["--hwc2-timeout", str(timeout)] if timeout else []),
                          results=fault.replace(":", "-") + ".json", status=5, module=RECORD, fds=True,
                          env={"HWCT_REAL_MODULE": module, "HWCT_OUTPUT": out, "FAKE_HWC2_FAULT": fault,
                               "ASAN_OPTIONS": asan.lstrip(":")})[1]

        if fault.startswith("hang"):
            hang_runs(run)
        else:
            run(None)
        run = subprocess.run([HWC_TRACE, "info", "--json", out], capture_output=True, text=True)
        if run.returncode != 0 or run.stderr.strip():
            fail("%s: hwc-trace info: exit %d: %s" % (fault, run.returncode, run.stderr.strip()))
        info = json.loads(run.stdout)
        if not info["complete"] or info["counts"]["display_frames"] != frames:
            fail("%s: the recording: complete %r, %d display frames, expected %d" % (
                fault, info["complete"], info["counts"]["display_frames"], frames))
        left = processes_holding(module) + unreaped_children()
        if left:
            fail("%s: processes left: %s" % (fault, left))
        print("%s: the recording is finished and holds %d frames" % (fault, frames))


def call_log(tmp, *args):
    """The calls of a 5-frame replay through the fake, one name an entry."""
    log = os.path.join(tmp, "calls.txt")
    replay(tmp, "home", "--frames", "0-4", "--hwc2-call-log", log, *args)
    with open(log) as f:
        return f.read().split()


def last_frame_end(calls, frames=5):
    """The index just past the last frame's release fences (before the end)."""
    i = [k for k, c in enumerate(calls) if c == "presentDisplay"][frames - 1]
    while calls[i + 1] == "getReleaseFences":
        i += 1
    return i + 1


def case_end_sequence(tmp):
    calls = call_log(tmp)
    created = calls.count("createLayer")
    end = calls[last_frame_end(calls):]
    two = ["getChangedCompositionTypes"] * 2 + ["getDisplayRequests"] * 2
    want = (["registerCallback"] * 3 + ["destroyLayer"] * (created - calls.count("destroyLayer") +
                                                           end.count("destroyLayer")) +
            ["validateDisplay"] + two + ["acceptDisplayChanges", "presentDisplay"] + ["getReleaseFences"] * 2)
    if end != want:
        fail("end-sequence: android end %s, expected %s" % (end, want))
    if "close" in calls or calls[:3] != ["open", "getFunction", "getFunction"]:
        fail("end-sequence: opening %s, close called: %s" % (calls[:3], "close" in calls))
    print("end-sequence: android: " + " ".join(end))
    calls = call_log(tmp, "--hwc2-end", "close")
    end = calls[last_frame_end(calls):]
    want = ["destroyLayer"] * end.count("destroyLayer") + ["setVsyncEnabled", "close"]
    if end != want or not end.count("destroyLayer"):
        fail("end-sequence: close end %s, expected %s" % (end, want))
    print("end-sequence: close: " + " ".join(end))


def main():
    case = sys.argv[1]
    with tempfile.TemporaryDirectory(dir=os.environ.get("MESON_BUILD_ROOT")) as tmp:
        globals()["case_" + case.replace("-", "_")](tmp)


if __name__ == "__main__":
    main()
