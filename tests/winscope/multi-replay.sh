#!/usr/bin/env bash
# multi-replay.sh HWC_TRACE HWC_REPLAY FIXTURE MULTI_CRTC_BOARD ONE_CRTC_BOARD
# A real layer trace of two displays (a panel and a virtual display
# hotplugged mid-trace), imported whole: `stats` reports each display;
# `--profile` on a board with several CRTCs replays every display on a CRTC
# of its own (every frame of each, as stats counts them); on a board with
# one CRTC the second display is reported and its frames skipped, never
# merged onto the first display's CRTC (and the results' totals say so);
# --display keeps one. `diff` compares each display's frames with that
# display's frames of the other trace or results (--display: one display);
# `export` gives each display its track; `extract` takes a second-display frame.
# With --display 1, `stats` has display 1's section alone, `export` its track
# alone, and `extract --frame 0` takes display 1's first frame.
set -euo pipefail
hwc_trace=$1 hwc_replay=$2 fixture=$3 multi=$4 one=$5
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

"$hwc_trace" import-winscope "$fixture" "$dir/t.zst" >/dev/null
"$hwc_trace" stats "$dir/t.zst" --json >"$dir/stats.json"
"$hwc_replay" "$dir/t.zst" --profile "$multi" --no-pixels --results "$dir/multi.json" 2>"$dir/multi.err"
"$hwc_replay" "$dir/t.zst" --profile "$one" --no-pixels --results "$dir/one.json" 2>"$dir/one.err"
"$hwc_replay" "$dir/t.zst" --profile "$multi" --no-pixels --display 1 --results "$dir/only.json" 2>/dev/null
# the first display alone, imported by its DisplayProto id: `diff` pairs each display's frames
first_id=$("$hwc_trace" import-winscope "$fixture" "$dir/x.zst" | sed -n 's/^  display 0: DisplayProto \([0-9]*\) .*/\1/p')
"$hwc_trace" import-winscope "$fixture" "$dir/first.zst" --display "$first_id" >/dev/null
status=0
"$hwc_trace" diff "$dir/t.zst" "$dir/first.zst" --json >"$dir/diff-all.json" || status=$?
[ "$status" -eq 1 ] || { echo "diff of the whole trace and its first display: exit $status, expected 1"; exit 1; }
"$hwc_trace" diff "$dir/t.zst" "$dir/first.zst" --display 0 --json >"$dir/diff-0.json"
# display 1 on its own CRTC against display 1 alone on the board's first CRTC: their planes may differ
"$hwc_trace" diff "$dir/multi.json" "$dir/only.json" --display 1 --json >"$dir/diff-results-1.json" || [ $? -eq 1 ]
# export: a track per display; extract: a frame of the second display
"$hwc_trace" export "$dir/t.zst" --format chrome-json "$dir/export.json" >/dev/null
second=$(python3 -c 'import json,sys; print([f["frame"] for f in json.load(sys.stdin)["frames"] if f["display"] == 1][0])' \
	<"$dir/multi.json")
"$hwc_trace" extract "$dir/t.zst" --frame "$second" "$dir/extract" --json >"$dir/extract.json"
"$hwc_trace" stats "$dir/t.zst" --json --display 1 >"$dir/stats-1.json"
"$hwc_trace" export "$dir/t.zst" --format chrome-json "$dir/export-1.json" --display 1 >/dev/null
"$hwc_trace" extract "$dir/t.zst" --display 1 --frame 0 "$dir/extract-1" --json >"$dir/extract-1.json"
python3 - "$dir" <<'PY'
import collections, json, sys
d = sys.argv[1]
stats = json.load(open(d + "/stats.json"))["displays"]
frames = {s["id"]: s["frames"] for s in stats}
assert len(frames) >= 2, "the fixture should import as several displays: %s" % frames
stats_1 = json.load(open(d + "/stats-1.json"))["displays"]
assert stats_1 == [s for s in stats if s["id"] == 1], "stats --display 1: %s" % stats_1
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
# diff: frame k of each display against frame k of that display, never across displays
whole = json.load(open(d + "/diff-all.json"))["summary"]
assert whole["categories"]["display"] == 0 and whole["differing"] == 0, whole
assert whole["compared"] == frames[min(frames)] and whole["only_in_a"] == sum(frames.values()) - frames[min(frames)], whole
first = json.load(open(d + "/diff-0.json"))
assert first["equal"] and first["summary"]["compared"] == frames[min(frames)], first
res = json.load(open(d + "/diff-results-1.json"))
res = res["summary"]
assert res["compared"] == frames[1] and res["only_in_a"] == 0 and res["only_in_b"] == 0, res
events = json.load(open(d + "/export.json"))
events = events["traceEvents"] if isinstance(events, dict) else events
tracks = {e["pid"]: e["args"]["name"] for e in events if e.get("ph") == "M" and e.get("name") == "process_name"}
framed = collections.Counter(tracks[e["pid"]].split(" (")[0] for e in events
                             if e.get("name", "").startswith("frame ") and e.get("pid") in tracks)
assert dict(framed) == {"display %d" % k: n for k, n in frames.items()}, "export: frames per track %s" % framed
extracted = json.load(open(d + "/extract.json"))
assert extracted["display"] == 1 and extracted["display_frame"] == 0 and extracted["layers"], extracted["display"]
assert json.load(open(d + "/extract-1.json")) == extracted, "extract --display 1 --frame 0"
events = json.load(open(d + "/export-1.json"))
events = events["traceEvents"] if isinstance(events, dict) else events
tracks = {e["pid"]: e["args"]["name"] for e in events if e.get("ph") == "M" and e.get("name") == "process_name"}
framed = collections.Counter(tracks[e["pid"]].split(" (")[0] for e in events
                             if e.get("name", "").startswith("frame ") and e.get("pid") in tracks)
assert dict(framed) == {"display 1": frames[1]}, "export --display 1: frames per track %s" % framed
print("displays %s: every frame replayed on its own CRTC of the multi-CRTC board; on the one-CRTC board "
      "display(s) %s reported and skipped" % (frames, sorted(frames)[1:]))
PY
