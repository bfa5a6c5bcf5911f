#!/usr/bin/env python3
"""vm-replay-check.py OVERLAYS.out NO_OVERLAYS.out

The assertions of the 'vm-replay' test (vm-replay.sh) on what its two
boots printed: per replay a line "@@hwct-case NAME STATUS MILLISECONDS",
its results JSON, "@@hwct-stderr", its stderr, "@@hwct-end". Prints a
line per replay (status, frames, timings), then each failed check; exit 0
when every check holds, 1 otherwise.
"""
import json
import re
import sys

CHECKSUM = re.compile(r"^[0-9a-f]{32}$")
# what makes two replays of a frame the same (tests/replay/testlib.c's test_same_frame)
SAME = ("frame", "plan", "client_target_plane", "checksum", "missing_content", "efficiency")
# what --expect compares (docs/results.md, "comparison")
COMPARED = ("frame", "plan", "client_target_plane", "checksum")

# the prefixes of vm-replay.sh's target_cases: target kinds of results.json
TARGETS = ("kms", "hwc2")

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
    return ok


def load(path):
    """{name: {"case", "status", "ms", "stderr", "results"}} of one boot's output."""
    cases, current, part = {}, None, None
    with open(path, errors="replace") as f:
        for line in f:
            if line.startswith("@@hwct-case "):
                name, status, ms = line.split()[1:4]
                current = {"case": name, "status": int(status), "ms": int(ms), "json": [], "err": []}
                cases[name] = current
                part = "json"
            elif line.startswith("@@hwct-stderr") and current:
                part = "err"
            elif line.startswith("@@hwct-end") and current:
                try:
                    current["results"] = json.loads("".join(current["json"]))
                except ValueError:
                    current["results"] = None
                current["stderr"] = "".join(current["err"])
                current = None
            elif current:
                current[part].append(line)
    return cases


def said(c):
    """hwc-replay's own lines of a case's stderr (not Mesa's notes)."""
    return " | ".join(l for l in c["stderr"].splitlines() if l.startswith("hwc-replay:"))[-400:]


def get(boot, cases, name, status=0):
    """The case's results when it exited with status, else None (the failure noted)."""
    c = cases.get(name)
    if not check(c is not None and "stderr" in c, "%s: %s: not run" % (boot, name)):
        return None
    if not check(c["status"] == status, "%s: %s: exit %d, expected %d: %s" %
                 (boot, name, c["status"], status, said(c))):
        return None
    if not check(c["results"] is not None, "%s: %s: no results" % (boot, name)):
        return None
    return c["results"]


def replayed(boot, name, r, first=0, count=None):
    """Every frame of the range replayed on the device (target kind: the case's prefix, or kms),
    each with a writeback checksum."""
    frames = r["frames"]
    numbers = [f["frame"] for f in frames]
    count = r["trace"]["frames"] - first if count is None else count
    check(r["complete"] and r["error"] is None, "%s: %s: incomplete: %s" % (boot, name, r["error"]))
    kind = name.split("-")[0] if name.startswith(TARGETS) else "kms"
    check(r["target"]["kind"] == kind, "%s: %s: target %s, expected %s" % (boot, name, r["target"], kind))
    check(numbers == list(range(first, first + count)),
          "%s: %s: frames %s..., expected %d-%d" % (boot, name, numbers[:5], first, first + count - 1))
    bad = [f["frame"] for f in frames
           if f["checksum_source"] != "writeback" or not CHECKSUM.match(f["checksum"] or "")]
    check(not bad, "%s: %s: frames without a writeback checksum: %s" % (boot, name, bad[:10]))


def differing(a, b, members=SAME):
    """Numbers of b's frames that differ from a's frame of the same number (b may be a range of a)."""
    by_frame = {f["frame"]: f for f in a["frames"]}
    return [f["frame"] for f in b["frames"]
            if f["frame"] not in by_frame or any(by_frame[f["frame"]].get(m) != f.get(m) for m in members)]


def same_frames(boot, name, a, b, what):
    diff = differing(a, b)
    check(not diff, "%s: %s: frames %s differ from %s" % (boot, name, diff[:10], what))


def expect_verdict(boot, name, cases, reference, status):
    """--expect exited with status, and its comparison agrees with comparing the frames here."""
    r = get(boot, cases, name, status)
    if r is None or reference is None:
        return None
    cmp = r["comparison"]
    diff = differing(reference, r, COMPARED)
    check(cmp is not None and cmp["compared"] == len(r["frames"]) and cmp["differing"] == len(diff),
          "%s: %s: comparison %s, but %d frames differ here" % (boot, name, cmp, len(diff)))
    check((status == 1) == bool(diff), "%s: %s: exit %d with %d differing frames" % (boot, name, status, len(diff)))
    if diff:
        check("hwc-replay: regression: frame %d " % diff[0] in cases[name]["stderr"],
              "%s: %s: no regression line for frame %d: %s" % (boot, name, diff[0], said(cases[name])))
    return r


def ranged(boot, cases, name, full, first, count):
    r = get(boot, cases, name)
    if r is not None and full is not None:
        replayed(boot, name, r, first, count)
        same_frames(boot, name, full, r, "the full replay")
    return r


def device_cases(boot, cases, prefix):
    """target_cases of vm-replay.sh; returns the full replay's results."""
    gen = get(boot, cases, prefix + "-gen")
    if gen is None:
        return None
    replayed(boot, prefix + "-gen", gen)
    check(gen["totals"]["mean_efficiency"] == 1,
          "%s: %s-gen: not every layer on a plane (efficiency %s)" % (boot, prefix, gen["totals"]["mean_efficiency"]))
    again = expect_verdict(boot, prefix + "-gen-again", cases, gen, 0)
    if again is not None:
        same_frames(boot, prefix + "-gen-again", gen, again, "the first run")
    expect_verdict(boot, prefix + "-gen-search", cases, gen, 1)
    ranged(boot, cases, prefix + "-gen-20-29", gen, 20, 10)
    return gen


def summary(boot, cases):
    for c in cases.values():
        r = c.get("results") or {}
        frames = r.get("frames", [])
        means = []
        for t in ("plan_ns", "compose_ns", "commit_ns", "present_ns"):
            v = [f["timing"][t] for f in frames if f["timing"].get(t) is not None]
            means.append("%s %.1f" % (t[:-3], sum(v) / len(v) / 1e6) if v else "%s -" % t[:-3])
        print("%-12s %-18s exit %3d %6.1f s %4d frames  mean ms: %s" %
              (boot, c["case"], c["status"], c["ms"] / 1000, len(frames), ", ".join(means)))
        cmp = r.get("comparison")
        if cmp and cmp.get("first_difference"):
            print("%-12s %-18s %d of %d frames differ, first %d: %s" % ("", "", cmp["differing"], cmp["compared"],
                  cmp["first_difference_frame"], cmp["first_difference"]))


def hwc2_checks(overlays, no_overlays, home, video, kms_gen):
    """--hwc2 hwcomposer.kms.so: the same pictures as --device on the same driver (both are
    writeback checksums of the same compositor's output), other plans without overlays, and
    a recording through libhwc-record.so equal to the trace it replayed."""
    for name, kms, count in (("hwc2-home", home, 50), ("hwc2-video", video, 50), ("hwc2-gen", kms_gen, None)):
        r = get("overlays", overlays, name)
        if r is None:
            continue
        replayed("overlays", name, r, 0, count)
        if kms is not None:
            pixels = differing(kms, r, ("checksum",))
            check(not pixels, "overlays: %s: checksums differ from --device's in frames %s" % (name, pixels[:10]))
    on, off = overlays.get("hwc2-gen", {}).get("results"), get("no-overlays", no_overlays, "hwc2-gen")
    if on is not None and off is not None:
        replayed("no-overlays", "hwc2-gen", off)
        plans = differing(on, off, ("plan",))
        check(len(plans) == len(on["frames"]), "hwc2: overlays/no-overlays: only %d of %d plans differ" %
              (len(plans), len(on["frames"])))
        check(not differing(on, off, ("checksum",)), "hwc2: overlays/no-overlays: checksums differ")
    rec = get("overlays", overlays, "hwc2-gen-recorded")
    diff = overlays.get("hwc2-gen-recorded-diff")
    if rec is not None and check(diff is not None and diff.get("results") is not None,
                                 "overlays: hwc2-gen-recorded-diff: no hwc-trace diff output"):
        cats = diff["results"]["summary"]["categories"]
        check(diff["status"] in (0, 1), "overlays: hwc-trace diff exited %d: %s" % (diff["status"], diff["stderr"]))
        for cat in ("geometry", "properties", "pixels"):
            check(cats[cat] == 0, "overlays: the recording through libhwc-record.so differs from the trace in %s "
                  "in %d frames: %s" % (cat, cats[cat], [e["message"] for e in diff["results"]["differences"]
                                                         if e["category"] == cat][:2]))
        # decisions: the recording holds the module's, which may differ from the trace's; each
        # difference must be what the replay saw the module decide for that layer
        plans = {f["frame"]: {p["layer"]: p["composition"] for p in f["plan"]} for f in rec["frames"]}
        for e in diff["results"]["differences"]:
            if e["category"] != "decisions":
                continue
            m = re.match(r"layer (\d+)/\d+ final (\w+) vs (\w+)", e["message"])
            check(m is not None and plans.get(e["frame"], {}).get(int(m.group(1))) == m.group(3),
                  "overlays: frame %d: recorded decision %r is not what the replay saw the module decide (%s)" %
                  (e["frame"], e["message"], plans.get(e["frame"])))
        check(diff["results"]["summary"]["compared"] == rec["trace"]["frames"],
              "overlays: the recording has %d frames of %d" % (diff["results"]["summary"]["compared"],
                                                              rec["trace"]["frames"]))


def main():
    overlays, no_overlays = load(sys.argv[1]), load(sys.argv[2])
    summary("overlays", overlays)
    summary("no-overlays", no_overlays)
    boot = "overlays"

    # 1. the reference traces, every frame with a writeback checksum
    home, video = get(boot, overlays, "home"), get(boot, overlays, "video")
    for name, r in (("home", home), ("video", video)):
        if r is not None:
            replayed(boot, name, r)
            check(r["trace"]["frames"] == 120, "%s: %s: %d frames in the trace" % (boot, name, r["trace"]["frames"]))
    # 4. frames from the middle equal the same frames of the full replay; 1. the same replay
    # twice gives the same frames; 2. --expect 0 against known-good results
    part = ranged(boot, overlays, "home-20-29", home, 20, 10)
    again = expect_verdict(boot, "home-20-29-again", overlays, home, 0)
    if part is not None and again is not None:
        same_frames(boot, "home-20-29-again", part, again, "the first run")

    # --format-fallback equivalent: the ABGR8888 layers on planes as ARGB8888, and the
    # writeback picture equal to the pixman composition of the recorded content
    fallback, reference = get(boot, overlays, "home-fallback"), get(boot, overlays, "home-reference")
    if fallback is not None and reference is not None:
        replayed(boot, "home-fallback", fallback, 0, 10)
        placed = sum(1 for f in fallback["frames"] for l in f["plan"] if l["plane"] is not None)
        subs = [s for f in fallback["frames"] for s in f.get("format_substitutions", [])]
        check(placed > len(fallback["frames"]), "%s: home-fallback: only %d layers on planes" % (boot, placed))
        check(subs and all(s["from"] == "AB24" and s["to"] == "AR24" for s in subs),
              "%s: home-fallback: substitutions %s" % (boot, subs[:4]))
        check(not any("assumed" in l for f in fallback["frames"] for l in f["plan"]),
              "%s: home-fallback: a device's decisions carry profile assumptions" % boot)
        check(all(f["checksum_source"] == "reference" for f in reference["frames"]),
              "%s: home-reference: not the compositor's picture" % boot)
        check(reference["totals"]["format_only_client_layers"] > 0,
              "%s: home-reference: no layer refused for its format" % boot)
        pixels = differing(fallback, reference, ("checksum",))
        check(not pixels, "%s: home-fallback: writeback differs from the pixman reference in frames %s"
              % (boot, pixels[:10]))

    # the generated trace: the same again, 2. --expect 1 after a plan perturbation, 125 with no device
    gen_on = device_cases(boot, overlays, "kms")
    for prefix in TARGETS[1:]:
        if prefix + "-gen" in overlays:
            device_cases(boot, overlays, prefix)
    c = overlays.get("kms-missing-device")
    if check(c is not None and "stderr" in c, "%s: kms-missing-device: not run" % boot):
        check(c["status"] == 125 and "/dev/dri/card9" in c["stderr"],
              "%s: kms-missing-device: exit %d: %s" % (boot, c["status"], said(c)))

    # 3. overlays off: other plans, the same pixels
    boot = "no-overlays"
    gen_off = get(boot, no_overlays, "kms-gen")
    if gen_off is not None:
        replayed(boot, "kms-gen", gen_off)
        ranged(boot, no_overlays, "kms-gen-20-29", gen_off, 20, 10)
    if gen_on is not None and gen_off is not None:
        plans = differing(gen_on, gen_off, ("plan",))
        pixels = differing(gen_on, gen_off, ("checksum",))
        check(len(plans) == len(gen_on["frames"]) == len(gen_off["frames"]),
              "overlays/no-overlays: only %d of %d plans differ" % (len(plans), len(gen_on["frames"])))
        check(not pixels, "overlays/no-overlays: checksums differ in frames %s" % pixels[:10])
        check(gen_off["totals"]["mean_efficiency"] < 1,
              "no-overlays: kms-gen: efficiency %s, expected < 1" % gen_off["totals"]["mean_efficiency"])

    hwc2_checks(overlays, no_overlays, home, video, gen_on)

    for f in failures:
        print("FAIL: " + f, file=sys.stderr)
    print("vm-replay-check: %d failed checks" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
