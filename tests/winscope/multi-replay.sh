#!/usr/bin/env bash
# multi-replay.sh HWC_TRACE HWC_REPLAY FIXTURE MULTI_CRTC_BOARD ONE_CRTC_BOARD
# A real layer trace of two displays (a panel and a virtual display
# hotplugged mid-trace), imported whole: `stats` reports each display;
# `--profile` on a board with several CRTCs replays every display on a CRTC
# of its own (every frame of each, as stats counts them); on a board with
# one CRTC the second display is reported and its frames skipped, never
# merged onto the first display's CRTC (and the results' totals say so);
# --display keeps one.
set -euo pipefail
hwc_trace=$1 hwc_replay=$2 fixture=$3 multi=$4 one=$5
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

"$hwc_trace" import-winscope "$fixture" "$dir/t.zst" >/dev/null
"$hwc_trace" stats "$dir/t.zst" --json >"$dir/stats.json"
"$hwc_replay" "$dir/t.zst" --profile "$multi" --no-pixels --results "$dir/multi.json" 2>"$dir/multi.err"
"$hwc_replay" "$dir/t.zst" --profile "$one" --no-pixels --results "$dir/one.json" 2>"$dir/one.err"
"$hwc_replay" "$dir/t.zst" --profile "$multi" --no-pixels --display 1 --results "$dir/only.json" 2>/dev/null
python3 - "$dir" <<'PY'
import collections, json, sys
d = sys.argv[1]
stats = json.load(open(d + "/stats.json"))["displays"]
frames = {s["id"]: s["frames"] for s in stats}
assert len(frames) >= 2, "the fixture should import as several displays: %s" % frames
def per_display(name):
    return collections.Counter(f["display"] for f in json.load(open(d + "/" + name))["frames"])
multi = per_display("multi.json")
assert dict(multi) == frames, "multi-CRTC board: replayed %s, the trace has %s" % (dict(multi), frames)
err = open(d + "/multi.err").read()
for disp in sorted(frames)[1:]:
    assert "display %d: planned on CRTC" % disp in err, err
one = per_display("one.json")
for t in json.load(open(d + "/one.json"))["totals"]["displays"]:
    if t["display"] == min(frames):
        assert t["crtc"] is not None and t["frames"] == frames[t["display"]] and not t["skipped_frames"], t
    else:
        assert t["crtc"] is None and t["frames"] == 0 and t["skipped_frames"] == frames[t["display"]], t
        assert "CRTC" in t["skipped_reason"], t
first = min(frames)
assert dict(one) == {first: frames[first]}, "one-CRTC board: replayed %s" % dict(one)
err = open(d + "/one.err").read()
for disp in sorted(frames)[1:]:
    assert "display %d: not replayed" % disp in err and "%d frame(s) skipped" % frames[disp] in err, err
only = per_display("only.json")
assert dict(only) == {1: frames[1]}, "--display 1: replayed %s" % dict(only)
print("displays %s: every frame replayed on its own CRTC of the multi-CRTC board; on the one-CRTC board "
      "display(s) %s reported and skipped" % (frames, sorted(frames)[1:]))
PY
