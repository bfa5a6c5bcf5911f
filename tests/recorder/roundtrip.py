#!/usr/bin/env python3
"""The recorder's round trip: a reference trace T is replayed with
`hwc-replay --hwc2` into the fake HWC2 module wrapped by libhwc-record.so
(as its HAL wrapper, or under LD_PRELOAD), which records T'. T' must equal
T in its calls, layer stacks, composition decisions and pixel hashes.

The fake module decides with the rule T was recorded with (the scenarios'
device rule, read from T's environment) on a display of T's size, so the
decisions are the module's own, not copied from T.

What is compared, frame by frame (frame k: the calls after FrameEnd k-1 up
to FrameEnd k):
  - `hwc-trace diff T T'`: no difference in geometry, properties,
    decisions or pixels, and the same frames;
  - the frame's calls of the per-frame families (layers, setLayer*,
    validate and its queries, client target, present, release fences) as a
    multiset: function, error, and every argument and output, with
    T's display, layer and buffer ids mapped to T''s (each mapping must stay
    one-to-one over the whole trace).
What is left out, and why:
  - ids themselves (the module and the allocator make them), timestamps,
    threads, fd numbers of fences, buffer slots and capture status;
  - acquire fences: hwc-replay writes a buffer before handing it over and
    passes none (documented in hwc-replay(1));
  - the counting half of a two-call pattern (the query with NULL arrays):
    the scenario writer synthesizes only the call that fills the arrays,
    a real client (and hwc-replay) makes both and the recorder records both;
  - the boot queries before the first layer (display attributes, power):
    the scenario writer and hwc-replay ask different ones;
  - the end of the session: T has none, so T' is recorded with
    `--hwc2-end close` (Android's end would add one empty frame).

Usage: roundtrip.py TRACE hal|preload  (paths of the programs from the
environment: HWCT_REPLAY, HWCT_TRACE_TOOL, HWCT_TEST_RECORDER, HWCT_TEST_FAKE)
"""
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

PER_FRAME = re.compile(r"^(CREATE_LAYER|DESTROY_LAYER|SET_LAYER_.*|VALIDATE_DISPLAY|GET_CHANGED_COMPOSITION_TYPES|"
                       r"GET_DISPLAY_REQUESTS|ACCEPT_DISPLAY_CHANGES|SET_CLIENT_TARGET|PRESENT_DISPLAY|"
                       r"GET_RELEASE_FENCES)$")
TWO_CALL = {"GET_CHANGED_COMPOSITION_TYPES", "GET_DISPLAY_REQUESTS", "GET_RELEASE_FENCES"}
IGNORED_KEYS = {"seq", "thread", "t_enter_ns", "t_exit_ns", "fence", "present_fence", "fences", "slot", "capture",
                "function"}


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def records(tool, trace, kinds):
    out = subprocess.run([tool, "dump", trace, "--json", "--no-blob-data", "--records", kinds],
                         check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def fake_env(tool, trace):
    """FAKE_HWC2_RULES and FAKE_HWC2_SIZE from T's environment (written by hwct-scenario)."""
    env = {}
    for r in records(tool, trace, "environment"):
        for kv in r["environment"].get("extra", []):
            env[kv["key"]] = kv["value"]
    rule, mode = env.get("device-rule"), env.get("display-mode")
    if not rule or not mode:
        fail("%s has no device-rule/display-mode in its environment (not a hwct-scenario trace)" % trace)
    planes = re.search(r"(\d+) planes", rule)
    size = re.match(r"(\d+)x(\d+)", mode)
    if not planes or not size:
        fail("cannot read the device rule %r or mode %r" % (rule, mode))
    return {
        "FAKE_HWC2_RULES": "planes=%s,solid-color=%d,yuv=%d" % (
            planes.group(1), "SOLID_COLOR on a plane" in rule, "YUV on a plane" in rule),
        "FAKE_HWC2_SIZE": "%sx%s" % size.groups(),
    }


def frames_of_calls(tool, trace):
    """Per frame, the list of per-frame-family calls, counting halves of two-call patterns left out."""
    frames, current = [], []
    started = False
    for r in records(tool, trace, "call,frame_end"):
        if r["kind"] == "frame_end":
            frames.append(current)
            current = []
            continue
        c = r["call"]
        name = c.get("function_name", "")
        if name == "CREATE_LAYER":
            started = True
        if not started or not PER_FRAME.match(name):
            continue
        if name == "GET_RELEASE_FENCES" and not current and frames:
            # the recorder ends a frame when presentDisplay returns, the
            # scenario writer after getReleaseFences: they belong to the present
            frames[-1].append(c)
            continue
        current.append(c)
    for frame in frames:
        keep = []
        for i, c in enumerate(frame):
            nxt = frame[i + 1] if i + 1 < len(frame) else None
            counting = (c["function_name"] in TWO_CALL and nxt is not None and
                        nxt["function_name"] == c["function_name"] and nxt.get("display") == c.get("display"))
            if not counting:
                keep.append(c)
        frame[:] = keep
    return frames


class IdMap:
    """A one-to-one mapping of T's ids to T''s, learnt as the calls pair up."""

    def __init__(self, what):
        self.what, self.fwd, self.back = what, {}, {}

    def pair(self, a, b):
        if a in self.fwd and self.fwd[a] != b or b in self.back and self.back[b] != a:
            fail("%s %s of T maps to %s and %s of T'" % (self.what, a, self.fwd.get(a), b))
        self.fwd[a], self.back[b] = b, a


def normalize(c, layer_of):
    """A hashable form of the call, ids replaced by T's (through layer_of for T')."""
    def walk(key, v):
        if key in IGNORED_KEYS:
            return None
        if isinstance(v, dict):
            return tuple(sorted((k, walk(k, x)) for k, x in v.items() if walk(k, x) is not None))
        if isinstance(v, list):
            if key == "layers":
                return tuple(layer_of(x) for x in v)
            return tuple(walk(None, x) for x in v)
        if key in ("layer",):
            return layer_of(v)
        if key in ("buffer", "display"):
            return None  # compared through the id maps
        return v
    if c["function_name"] == "CREATE_LAYER":
        c = dict(c, value={"value": layer_of(c["value"]["value"])})
    return walk(None, c)


def compare_calls(tool, t, t2):
    fa, fb = frames_of_calls(tool, t), frames_of_calls(tool, t2)
    if len(fa) != len(fb):
        fail("T has %d frames, T' %d" % (len(fa), len(fb)))
    layers, buffers, displays = IdMap("layer"), IdMap("buffer"), IdMap("display")
    counts = collections.Counter()
    for k, (a, b) in enumerate(zip(fa, fb)):
        # pair ids: created layers in order, then every call's (display, layer, buffer) in order of
        # (function, layer position) — the per-layer calls of a frame come in stack order in both
        ca = [c for c in a if c["function_name"] == "CREATE_LAYER"]
        cb = [c for c in b if c["function_name"] == "CREATE_LAYER"]
        if len(ca) != len(cb):
            fail("frame %d: T creates %d layers, T' %d" % (k, len(ca), len(cb)))
        for x, y in zip(ca, cb):
            layers.pair(x["value"]["value"], y["value"]["value"])
            displays.pair(x["display"], y["display"])
        for x in a + b:
            if "layer" in x and x["layer"] not in layers.fwd and x["layer"] not in layers.back:
                fail("frame %d: %s on layer %s, which no createLayer made" % (k, x["function_name"], x["layer"]))
        for x, y in zip([c for c in a if c["function_name"] == "SET_LAYER_BUFFER"],
                        [c for c in b if c["function_name"] == "SET_LAYER_BUFFER"]):
            if layers.fwd.get(x["layer"]) != y["layer"]:
                break  # order differs; the multiset comparison below reports it
            buffers.pair(x["buffer"]["buffer"], y["buffer"]["buffer"])
        na = collections.Counter(normalize(c, lambda v: v) for c in a)
        nb = collections.Counter(normalize(c, lambda v: layers.back.get(v, ("unknown", v))) for c in b)
        if na != nb:
            only_a, only_b = na - nb, nb - na
            fail("frame %d: calls differ:\n  only in T:  %s\n  only in T': %s" % (
                k, list(only_a.elements())[:3], list(only_b.elements())[:3]))
        counts.update(c["function_name"] for c in a)
    return len(fa), counts, len(layers.fwd), len(buffers.fwd)


def compare_models(tool, t, t2):
    out = subprocess.run([tool, "diff", t, t2, "--json"], capture_output=True, text=True)
    if out.returncode not in (0, 1):
        fail("hwc-trace diff: %s" % out.stderr.strip())
    report = json.loads(out.stdout)
    summary = report["summary"]
    for cat in ("geometry", "properties", "decisions", "pixels"):
        n = summary["categories"][cat]
        if n:
            first = [e["message"] for e in report["differences"] if e["category"] == cat][:2]
            fail("%d frames differ in %s: %s" % (n, cat, first))
    # display and layers differ only by ids: check that nothing else is said there
    for e in report["differences"]:
        if e["category"] == "display" and not re.fullmatch(r"display \d+ vs \d+", e["message"]):
            fail("frame %d: %s" % (e["frame"], e["message"]))
        if e["category"] == "layers":
            m = re.fullmatch(r"A has (\d+) layers \[.*\], B has (\d+) \[.*\]", e["message"])
            if not m or m.group(1) != m.group(2):
                fail("frame %d: %s" % (e["frame"], e["message"]))
    if summary["only_in_a"] or summary["only_in_b"]:
        fail("frames in one trace only: %d / %d" % (summary["only_in_a"], summary["only_in_b"]))
    return summary["compared"]


def main():
    trace, way = sys.argv[1], sys.argv[2]
    replay, tool = os.environ["HWCT_REPLAY"], os.environ["HWCT_TRACE_TOOL"]
    recorder, fake = os.environ["HWCT_TEST_RECORDER"], os.environ["HWCT_TEST_FAKE"]
    with tempfile.TemporaryDirectory(dir=os.environ.get("MESON_BUILD_ROOT")) as tmp:
        t2 = os.path.join(tmp, "recorded.zst")
        # a loaded machine may take longer than the default 4 ms to copy a layer: the
        # round trip is about what is recorded, so the recorder may hold the release
        # fences until every capture is done (never a capture-late frame)
        env = dict(os.environ, HWCT_OUTPUT=t2, HWCT_CAPTURE_WAIT_MS="10000", **fake_env(tool, trace))
        if way == "hal":
            env["HWCT_REAL_MODULE"] = fake
            module = recorder
        elif way == "preload":
            env["LD_PRELOAD"] = recorder
            # sanitizer builds: a preloaded instrumented library comes before the runtime, and
            # the fake and the recorder both define HMI (as every HWC2 module and the wrapper do)
            asan = os.environ.get("ASAN_OPTIONS", "")
            env["ASAN_OPTIONS"] = (asan + ":" if asan else "") + "verify_asan_link_order=0:detect_odr_violation=0"
            module = fake
        else:
            fail("way must be hal or preload")
        # --hwc2-end close: T has no end of session, and Android's (the default) adds its
        # empty validate/present frame to T' (docs/hwc2-sequence.md)
        run = subprocess.run([replay, trace, "--hwc2", module, "--timing", "fast", "--quiet", "--hwc2-end", "close",
                              "--results", os.path.join(tmp, "r.json")], env=env, capture_output=True, text=True)
        if run.returncode != 0:
            fail("hwc-replay exited %d: %s" % (run.returncode, run.stderr.strip()))
        if not os.path.exists(t2):
            fail("the recorder wrote no trace (%s)" % run.stderr.strip())
        results = json.load(open(os.path.join(tmp, "r.json")))
        agreement = results["totals"]["recorded_agreement"]
        if agreement["agree"] != agreement["layers"]:
            fail("the module decided otherwise than the recording: %s" % agreement)
        compared = compare_models(tool, trace, t2)
        frames, counts, nlayers, nbuffers = compare_calls(tool, trace, t2)
        print("%s through the recorder (%s): %d frames, %s frame models equal (ids aside); "
              "%d calls per frame families equal, %d layers and %d buffers mapped one to one" % (
                  os.path.basename(trace), way, frames, compared, sum(counts.values()), nlayers, nbuffers))
        print("  calls: " + ", ".join("%s %d" % kv for kv in sorted(counts.items())))


if __name__ == "__main__":
    main()
