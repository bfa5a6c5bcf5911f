#!/usr/bin/env python3
"""Small seeds for the board fuzz targets (tests/fuzz/seeds/), made from the
board dumps of tests/data/boards (where those came from: its README.md).

A dump of 20 to 80 KB costs the JSON or text parser milliseconds under
ASan+UBSan, and libFuzzer mutates whole inputs: seeds of the same structure
with most of the repetition cut run several times more inputs a minute and
reach the same code. Cut: planes beyond four (in JSON three, one of each type
kept), the modes of every connector but the first (text: two),
the blob and enum values and formats beyond the first few (XR24 and AR24,
which the fuzz targets' scenes use, are kept), and in JSON all white space.

Also the targets' libFuzzer dictionaries, tests/fuzz/fuzz-board-json.dict
(every member name of the JSON dumps) and tests/fuzz/fuzz-board-text.dict
(every label of the text dumps: what precedes ':' or '=' on a line, and
property names), so that mutations insert whole names instead of finding
them a byte at a time.

    scripts/fuzz-small-seeds.py        (writes tests/fuzz/seeds/* and the .dict files)
"""
import glob
import json
import os
import re

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
KEEP_FOURCC = {0x34325258, 0x34325241}  # XR24, AR24


def plane_type(plane):
    return json.dumps(plane.get("properties", {}).get("type", {}).get("raw_value"))


def cut_json(o, key=None):
    if key == "planes" and isinstance(o, list) and len(o) > 3:
        # one plane of each type first (primary, overlay, cursor), then the first ones, in their order
        first = {}
        for i, plane in enumerate(o):
            first.setdefault(plane_type(plane), i)
        keep = list(first.values())
        keep = sorted(keep + [i for i in range(len(o)) if i not in keep][:max(0, 3 - len(keep))])
        o = [o[i] for i in keep]
    if isinstance(o, dict):
        return {k: cut_json(v, k) for k, v in o.items()}
    if isinstance(o, list):
        if key == "formats" and all(isinstance(v, int) for v in o):
            kept = [v for v in o if v in KEEP_FOURCC]
            return kept + [v for v in o if v not in KEEP_FOURCC][:2]
        if key == "modes":
            o = o[:1]
        elif key in ("enums", "data", "modifiers", "compatible") and len(o) > 3:
            o = o[:3]
        return [cut_json(v, key) for v in o]
    return o


def cut_planes_text(lines, keep=4):
    """The subtrees of 'Plane N' beyond the first keep of each 'Planes' list left out; the last
    one kept then ends the list (└, and its lines lose the list's │)."""
    out, i = [], 0
    while i < len(lines):
        line = lines[i]
        out.append(line)
        m = re.match(r"^([│ ]*)[├└]───Planes$", line)
        i += 1
        if not m:
            continue
        col = len(m.group(1)) + 4  # where the planes' branch characters sit
        planes = []  # [start, end) of each plane's subtree
        while i < len(lines) and len(lines[i]) > col and lines[i][col] in "├└│":
            start = i
            i += 1
            # its lines: │ below a ├ plane, blank below the └ one, at the planes' column
            while i < len(lines) and len(lines[i]) > col and lines[i][col] in "│ " and lines[i][:col].strip(" │") == "":
                i += 1
            planes.append((start, i))
        kept = planes[:keep]
        for k, (a, b) in enumerate(kept):
            sub = lines[a:b]
            if k == len(kept) - 1 and len(planes) > keep:
                sub = [sub[0][:col] + "└" + sub[0][col + 1:]] + [l[:col] + " " + l[col + 1:] for l in sub[1:]]
            out.extend(sub)
    return out


def cut_text(text):
    """drm_info text: at most two lines of each run of modes and of formats (XR24 and AR24 kept);
    the last line kept of a run ends the tree branch (└) as the run's last line did."""
    lines = cut_planes_text(text.splitlines())
    keys = []
    for line in lines:
        prefix = re.match(r"^[│ ]*", line).group(0)
        body = line[len(prefix):]
        if re.match(r"[├└]───\d+x\d+@", body):
            keys.append((len(prefix), "mode"))
        elif re.match(r"[├└]───[A-Z0-9_]+ \(0x[0-9a-f]{8}\)$", body):
            keys.append((len(prefix), "format"))
        else:
            keys.append(None)
    out, i = [], 0
    while i < len(lines):
        j = i + 1
        while keys[i] and j < len(lines) and keys[j] == keys[i]:
            j += 1
        run = lines[i:j]
        if keys[i] and len(run) > 2:
            kept = [line for k, line in enumerate(run) if k < 2 or "XRGB8888 " in line or "ARGB8888 " in line]
            n = keys[i][0]
            kept = [line[:n] + "├" + line[n + 1:] for line in kept]
            kept[-1] = kept[-1][:n] + run[-1][n] + kept[-1][n + 1:]
            run = kept
        out.extend(run)
        i = j
    return "\n".join(out) + "\n"


def json_keys(o, keys):
    if isinstance(o, dict):
        for k, v in o.items():
            keys.add(k)
            json_keys(v, keys)
    elif isinstance(o, list):
        for v in o:
            json_keys(v, keys)


def text_labels(text, labels):
    for line in text.splitlines():
        body = re.sub(r"^[│├└─ ]*", "", line)
        m = re.match(r"([A-Za-z_][A-Za-z0-9_ ./-]*?)\s*[:=]", body)
        if m and len(m.group(1)) > 2:
            labels.add(m.group(1))
        labels.update(re.findall(r'"[A-Za-z_][A-Za-z0-9_ -]*"', body))
        labels.update(w for w in re.findall(r"\b(?:enum|range|srange|bitmask|blob|object|immutable|atomic)\b", body))


def write_dict(path, entries, what):
    with open(path, "w", encoding="utf-8") as f:
        f.write("# libFuzzer dictionary: %s (scripts/fuzz-small-seeds.py wrote it)\n" % what)
        for e in sorted(entries):
            f.write('"%s"\n' % e.replace("\\", "\\\\").replace('"', '\\"'))
    print("%s: %d entries" % (path, len(entries)))


def main():
    boards = os.path.join(ROOT, "tests", "data", "boards")
    dest = os.path.join(ROOT, "tests", "fuzz", "seeds")
    os.makedirs(os.path.join(dest, "fuzz-board-json"), exist_ok=True)
    os.makedirs(os.path.join(dest, "fuzz-board-text"), exist_ok=True)
    keys, labels = set(), set()
    for path in sorted(glob.glob(os.path.join(boards, "*.json"))):
        with open(path, encoding="utf-8") as f:
            data = cut_json(json.load(f))
        json_keys(data, keys)
        out = os.path.join(dest, "fuzz-board-json", os.path.basename(path))
        with open(out, "w", encoding="utf-8") as f:
            json.dump(data, f, separators=(",", ":"))
        print("%s: %d -> %d bytes" % (out, os.path.getsize(path), os.path.getsize(out)))
    texts = sorted(glob.glob(os.path.join(boards, "*.txt")) + glob.glob(os.path.join(boards, "real", "*.txt")) +
                   glob.glob(os.path.join(boards, "fixtures", "*.txt")))
    for path in texts:
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            text = cut_text(f.read())
        text_labels(text, labels)
        out = os.path.join(dest, "fuzz-board-text", os.path.basename(path))
        with open(out, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(text)
        print("%s: %d -> %d bytes" % (out, os.path.getsize(path), os.path.getsize(out)))
    write_dict(os.path.join(ROOT, "tests", "fuzz", "fuzz-board-json.dict"), ['"%s"' % k for k in keys],
               "the member names of the drm_info JSON dumps of tests/data/boards")
    write_dict(os.path.join(ROOT, "tests", "fuzz", "fuzz-board-text.dict"), labels,
               "the labels of the drm_info text dumps of tests/data/boards")


if __name__ == "__main__":
    main()
