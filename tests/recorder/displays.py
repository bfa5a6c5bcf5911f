#!/usr/bin/env python3
"""displays.py CLIENT RECORDER FAKE HWC_TRACE HWC_REPLAY BOARD

A recorded session of several displays: the test client (displays_client.c)
drives the fake HWC2 module with FAKE_HWC2_MODE=displays (two physical
displays hotplugged, one virtual display created) through libhwc-record.so,
as the HAL wrapper and under LD_PRELOAD. The trace must hold every display
with every frame the client presented on it (`hwc-trace stats`), the
hotplugs and Display records of the physical ones and the
createVirtualDisplay call of the virtual one, with a Display record of its
size made from that call; `hwc-replay --profile` on a
real board with three CRTCs (BOARD) must replay every frame of every
display, each display on a CRTC of its own; `hwc-replay --hwc2` replays
each on a display of the module's own: with one module display the first
and the others reported, never merged; with two (FAKE_HWC2_MODE=displays,
recorded by libhwc-record.so around it) both physical displays, each on
the module's display of the same id, and the virtual one reported.
"""
import json
import os
import subprocess
import sys
import tempfile

FRAMES = 6
HWC2_CALLBACK_HOTPLUG = 1


def hwc2_replay(hwc_replay, recorder, fake, hwc_trace, trace, d, shown):
    """--hwc2: each display of the trace on a display of the module's own, in order; the rest reported."""
    results = os.path.join(d, "hwc2.json")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HWCT_", "FAKE_HWC2"))}
    # in a sanitizer build, no LeakSanitizer at the exit of hwc-replay's forked module child: its thread
    # registry still lists the parent's threads, and its tracer crashed reading them (signal 11, then the
    # child aborted); leaks of --hwc2 replays are checked by the replay-hwc2-* tests
    if "ASAN_OPTIONS" in env:
        env["ASAN_OPTIONS"] += ":detect_leaks=0"
    order = sorted(shown)   # the client presents on its displays in id order, the virtual one last
    # a module of one display: the first display replayed, the others reported, never merged onto it
    subprocess.run([hwc_replay, trace, "--hwc2", fake, "--no-pixels", "--quiet", "--timing", "fast",
                    "--results", results], check=True, env=env)
    r = json.load(open(results))
    first = r["frames"][0]["display"]
    assert first == order[0] and {f["display"] for f in r["frames"]} == {first}, [f["display"] for f in r["frames"]]
    skipped = {t["display"]: t["skipped_frames"] for t in r["totals"]["displays"] if t["display"] != first}
    assert skipped == {i: FRAMES for i in shown if i != first}, r["totals"]["displays"]
    reasons = {t["skipped_reason"] for t in r["totals"]["displays"] if t["display"] != first}
    assert reasons == {"%s: no display left for it: the module hotplugged 1 (%d), which show the trace's "
                       "earlier displays" % (fake, first)}, reasons

    # a module of two displays (FAKE_HWC2_MODE=displays), recorded by libhwc-record.so around it: both
    # physical displays replayed, each on its own module display, and the virtual one reported
    physical = [i for i in order if shown[i][0] == "physical"]
    virtual = [i for i in order if shown[i][0] == "virtual"]
    want = {i: (FRAMES, 0) for i in physical}
    want.update({i: (0, FRAMES) for i in virtual})
    env.update(FAKE_HWC2_MODE="displays", HWCT_REAL_MODULE=fake, HWCT_OUTPUT=os.path.join(d, "hwc2.zst"))
    subprocess.run([hwc_replay, trace, "--hwc2", recorder, "--no-pixels", "--quiet", "--timing", "fast",
                    "--results", results], check=True, env=env)
    r = json.load(open(results))
    replayed = {t["display"]: (t["frames"], t["skipped_frames"]) for t in r["totals"]["displays"]}
    assert replayed == want, replayed
    assert [f["display"] for f in r["frames"]][:2 * len(physical)] == physical * 2, [f["display"] for f in r["frames"]]
    # what the module was given: every frame on the display of the same size, and the end's empty frame
    stats = json.loads(subprocess.run([hwc_trace, "stats", env["HWCT_OUTPUT"], "--json"], check=True,
                                      capture_output=True, text=True).stdout)
    given = {s["id"]: s["frames"] for s in stats["displays"]}
    assert given == {i: FRAMES + 1 for i in physical}, "the module presented %s, the trace's physical displays " \
        "are %s" % (given, physical)

    # the second display hotplugged by a thread of the module's once the replayer waits for it (the
    # fake sees it blocked in a timed wait, tests/recorder/fake_late.h): still found, the replayer
    # waits up to 1 s for a display after the first
    env = {k: v for k, v in env.items() if not k.startswith("HWCT_")}
    env.update(FAKE_HWC2_MODE="displays,late-hotplug")
    subprocess.run([hwc_replay, trace, "--hwc2", fake, "--no-pixels", "--quiet", "--timing", "fast",
                    "--results", results], check=True, env=env)
    r = json.load(open(results))
    replayed = {t["display"]: (t["frames"], t["skipped_frames"]) for t in r["totals"]["displays"]}
    assert replayed == want, "late hotplug: %s" % replayed


def main():
    client, recorder, fake, hwc_trace, hwc_replay, board = sys.argv[1:7]
    for way in ("hal", "preload"):
        with tempfile.TemporaryDirectory() as d:
            trace = os.path.join(d, "t.zst")
            env = {k: v for k, v in os.environ.items() if not k.startswith("HWCT_") and k != "LD_PRELOAD"}
            env.update(FAKE_HWC2_MODE="displays", HWCT_OUTPUT=trace)
            if way == "hal":
                env["HWCT_REAL_MODULE"] = fake
                module = recorder
            else:
                env["LD_PRELOAD"] = recorder
                # sanitizer builds: the preloaded instrumented recorder comes before the runtime,
                # and the fake and the recorder both define HMI (as roundtrip.py says)
                asan = os.environ.get("ASAN_OPTIONS", "")
                env["ASAN_OPTIONS"] = (asan + ":" if asan else "") + "verify_asan_link_order=0:detect_odr_violation=0"
                module = fake
            out = subprocess.run([client, module, str(FRAMES)], env=env, check=True, capture_output=True,
                                 text=True).stdout
            shown = {}
            for line in out.splitlines():
                _, ident, kind, size, frames = line.split()
                shown[int(ident)] = (kind, size, int(frames))
            kinds = sorted(k for k, _, _ in shown.values())
            assert kinds == ["physical", "physical", "virtual"], "%s: the client drove %s" % (way, shown)
            assert all(n == FRAMES for _, _, n in shown.values()), shown

            stats = json.loads(subprocess.run([hwc_trace, "stats", trace, "--json"], check=True,
                                              capture_output=True, text=True).stdout)
            recorded = {s["id"]: s["frames"] for s in stats["displays"]}
            assert recorded == {i: FRAMES for i in shown}, "%s: recorded %s, the client drove %s" % (
                way, recorded, shown)

            dump = subprocess.run([hwc_trace, "dump", trace, "--json", "--no-blob-data", "--records",
                                   "callback,display,call"], check=True, capture_output=True, text=True).stdout
            records = [json.loads(line) for line in dump.splitlines()]
            physical = {i for i, (k, _, _) in shown.items() if k == "physical"}
            virtual = {i for i, (k, _, _) in shown.items() if k == "virtual"}
            plugged = {r["callback"]["display"] for r in records if r["kind"] == "callback" and
                       r["callback"].get("descriptor") == HWC2_CALLBACK_HOTPLUG}
            described = {r["display"]["id"] for r in records if r["kind"] == "display"}
            created = {r["call"]["virtual_display"]["display"] for r in records if r["kind"] == "call" and
                       r["call"].get("function_name") == "CREATE_VIRTUAL_DISPLAY"}
            assert plugged == physical and physical <= described, "%s: hotplugs %s, Display records %s, " \
                "physical displays %s" % (way, plugged, described, physical)
            assert created == virtual, "%s: createVirtualDisplay gave %s, the client drove %s" % (
                way, created, virtual)
            sizes = {r["display"]["id"]: [(c["width"], c["height"]) for c in r["display"].get("configs", [])]
                     for r in records if r["kind"] == "display"}
            for i in virtual:
                assert sizes.get(i) == [tuple(int(n) for n in shown[i][1].split("x"))], \
                    "%s: the virtual display's Display record: %s" % (way, sizes.get(i))

            results = os.path.join(d, "r.json")
            subprocess.run([hwc_replay, trace, "--profile", board, "--no-pixels", "--quiet", "--results", results],
                           check=True)
            totals = json.load(open(results))["totals"]["displays"]
            replayed = {t["display"]: t["frames"] for t in totals}
            crtcs = [t["crtc"] for t in totals]
            assert replayed == recorded, "%s: replayed %s, recorded %s" % (way, replayed, recorded)
            assert None not in crtcs and len(set(crtcs)) == len(crtcs), "%s: CRTCs %s" % (way, crtcs)
            if way == "hal":
                hwc2_replay(hwc_replay, recorder, fake, hwc_trace, trace, d, shown)
            print("%s: displays %s recorded with %d frames each, replayed on CRTCs %s" % (
                way, sorted(shown), FRAMES, crtcs))


if __name__ == "__main__":
    main()
