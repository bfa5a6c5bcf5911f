#!/usr/bin/env python3
"""unplug.py HWC_TRACE HWC_REPLAY FIXTURE MULTI_CRTC_BOARD

A display unplugged mid-trace and plugged in again, made from a real layer
trace of two displays: a copy of FIXTURE whose entries FROM to TO-1 do not
list its second display (the DisplayProto, LayersTraceProto field 7, left
out; every other byte kept). `import-winscope` must turn the first entry
without it into a hotplug callback DISCONNECTED for that display (its layers
then destroyed), and the entry listing it again into a hotplug CONNECTED with
a Display record; the display has no frame in between, and its frames after
are those of a fresh display (new layers). `hwc-replay --profile` on a board
with several CRTCs replays every frame of both displays.
"""
import collections
import json
import os
import subprocess
import sys
import tempfile


def varint(data, pos):
    value = shift = 0
    while True:
        b = data[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return value, pos


def encode_varint(value):
    out = bytearray()
    while True:
        b = value & 0x7F
        value >>= 7
        out.append(b | (0x80 if value else 0))
        if not value:
            return bytes(out)


def fields(data):
    """(field number, wire type, value or payload, raw bytes of the whole field) of a message."""
    pos = 0
    while pos < len(data):
        start = pos
        key, pos = varint(data, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = varint(data, pos)
        elif wire == 1:
            value, pos = data[pos:pos + 8], pos + 8
        elif wire == 2:
            size, pos = varint(data, pos)
            value, pos = data[pos:pos + size], pos + size
        elif wire == 5:
            value, pos = data[pos:pos + 4], pos + 4
        else:
            raise ValueError("wire type %d at %d" % (wire, start))
        yield number, wire, value, data[start:pos]


def display_id(display):
    for number, wire, value, _ in fields(display):
        if number == 1 and wire == 0:
            return value
    return 0


def without_display(entry, gone):
    return b"".join(raw for number, wire, value, raw in fields(entry)
                    if not (number == 7 and wire == 2 and display_id(value) == gone))


def main():
    hwc_trace, hwc_replay, fixture, board = sys.argv[1:5]
    data = open(fixture, "rb").read()
    entries = [value for number, wire, value, _ in fields(data) if number == 2 and wire == 2]
    ids = []
    for e in entries:
        for number, wire, value, _ in fields(e):
            if number == 7 and wire == 2 and display_id(value) not in ids:
                ids.append(display_id(value))
    assert len(ids) >= 2 and len(entries) >= 8, "the fixture needs two displays and 8 entries: %s" % ids
    gone, first, last = ids[1], len(entries) // 3, 2 * len(entries) // 3
    listing = [i for i, e in enumerate(entries) if any(n == 7 and display_id(v) == gone for n, _, v, _ in fields(e))]
    assert first - 1 in listing and last in listing, "display %d listed at %s" % (gone, listing)
    out, index = bytearray(), 0
    for number, wire, value, raw in fields(data):
        if number == 2 and wire == 2:
            if first <= index < last:
                value = without_display(value, gone)
                raw = encode_varint(2 << 3 | 2) + encode_varint(len(value)) + value
            index += 1
        out += raw
    with tempfile.TemporaryDirectory() as d:
        variant, trace = os.path.join(d, "unplug.pb"), os.path.join(d, "t.zst")
        open(variant, "wb").write(out)
        report = subprocess.run([hwc_trace, "import-winscope", variant, trace], check=True,
                                capture_output=True, text=True).stdout
        assert "unplugged at entry %d" % first in report, report
        dump = subprocess.run([hwc_trace, "dump", trace, "--json", "--records", "callback,display,frame_end,call"],
                              check=True, capture_output=True, text=True).stdout
        records = [json.loads(line) for line in dump.splitlines()]
        # the entries played so far when each hotplug of display 1 comes, from the frames of display 0
        frames0, plugs, creates_after_replug, destroys_after_unplug = 0, [], 0, 0
        for r in records:
            if r["kind"] == "frame_end" and r["frame_end"]["display"] == 0:
                frames0 += 1
            elif r["kind"] == "callback" and r["callback"].get("descriptor") == 1 and \
                    r["callback"].get("display") == 1:
                plugs.append((r["callback"]["connection"], frames0))
            elif r["kind"] == "call" and r["call"].get("display") == 1 and len(plugs) >= 2:
                function = r["call"].get("function")
                creates_after_replug += len(plugs) == 3 and function == 2    # CREATE_LAYER
                destroys_after_unplug += len(plugs) == 2 and function == 4    # DESTROY_LAYER
        # entry e's frame of display 0 comes before display 1's (display order); the unplug is
        # written at the first entry without display 1, after that entry's display-0 frame
        expected = [(1, listing[0] + 1), (2, first + 1), (1, last + 1)]
        assert plugs == expected, "hotplugs of display 1 (connection, display-0 frames before): %s, " \
            "expected %s" % (plugs, expected)
        assert destroys_after_unplug > 0, "no layer of display 1 destroyed after its unplug"
        assert creates_after_replug > 0, "no layer created on display 1 after it came back"
        stats = json.loads(subprocess.run([hwc_trace, "stats", trace, "--json"], check=True, capture_output=True,
                                          text=True).stdout)
        frames = {s["id"]: s["frames"] for s in stats["displays"]}
        assert frames[1] == len(listing) - (last - first), "display 1: %s frames, listed %d" % (frames, len(listing))
        results = os.path.join(d, "r.json")
        subprocess.run([hwc_replay, trace, "--profile", board, "--no-pixels", "--results", results, "--quiet"],
                       check=True)
        replayed = collections.Counter(f["display"] for f in json.load(open(results))["frames"])
        assert dict(replayed) == frames, "replayed %s, the trace has %s" % (dict(replayed), frames)
    print("display %d unplugged at entry %d, back at entry %d: hotplugs %s; frames %s all replayed"
          % (gone, first, last, plugs, frames))


if __name__ == "__main__":
    main()
