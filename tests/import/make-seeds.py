#!/usr/bin/env python3
"""Writes the small zip archives of tests/data/import/ (the fuzz-archive seeds,
tests/fuzz/seeds.txt) from tests/data/winscope/elapsed_timestamp_dump_SurfaceFlinger.pb
(a real one-entry layer trace; README.md there says where it came from).

Usage: tests/import/make-seeds.py   (from anywhere; rewrites the files)
"""
import io
import os
import zipfile

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data")
with open(os.path.join(root, "winscope", "elapsed_timestamp_dump_SurfaceFlinger.pb"), "rb") as f:
    dump = f.read()
out = os.path.join(root, "import")
os.makedirs(out, exist_ok=True)
FIXED = (2024, 1, 1, 0, 0, 0)  # fixed times: the same bytes each run


def write(z, name, data):
    z.writestr(zipfile.ZipInfo(name, FIXED), data, compress_type=z.compression)


def bugreport(buf):
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        write(z, "main_entry.txt", b"bugreport.txt")
        write(z, "FS/data/misc/wmtrace/layers_trace.winscope", dump)
        write(z, "FS/data/misc/wmtrace/transactions_trace.winscope", b"\x09TNXTRACE")
        write(z, "../odd/name.pb", b"\x0a\x02\xa2\x05")


def winscope(buf):
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:
        write(z, "Surface Flinger/SurfaceFlinger.pb", dump)
        write(z, "Window Manager/wm_trace.winscope", b"\x09WINTRACE")


with open(os.path.join(out, "bugreport.zip"), "wb") as f:
    bugreport(f)
inner = io.BytesIO()
winscope(inner)
with open(os.path.join(out, "winscope.zip"), "wb") as f:
    f.write(inner.getvalue())
with open(os.path.join(out, "nested.zip"), "wb") as f:
    with zipfile.ZipFile(f, "w", zipfile.ZIP_STORED) as z:
        write(z, "inner/winscope.zip", inner.getvalue())
