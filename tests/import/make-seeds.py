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


# The first entries of the real transaction trace (its starting state and
# what follows), as a legacy file and as a Perfetto trace (fuzz-transactions seeds).
def varint(v):
    out = bytearray()
    while True:
        out.append((v & 0x7f) | (0x80 if v > 0x7f else 0))
        v >>= 7
        if not v:
            return bytes(out)


def read_varint(b, i):
    v, shift = 0, 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7f) << shift
        shift += 7
        if not c & 0x80:
            return v, i


with open(os.path.join(root, "winscope", "elapsed_timestamp_Transactions.pb"), "rb") as f:
    tnx = f.read()
assert tnx[:9] == b"\x09TNXTRACE"
entries, i = [], 9
while i < len(tnx) and len(entries) < 12:
    key, i = read_varint(tnx, i)
    if key >> 3 == 2 and key & 7 == 2:
        n, i = read_varint(tnx, i)
        entries.append(tnx[i:i + n])
        i += n
    elif key & 7 == 1:
        i += 8
    else:
        raise SystemExit("unexpected field %d in the transaction trace" % (key >> 3))
with open(os.path.join(out, "transactions-head.winscope"), "wb") as f:
    f.write(tnx[:9] + b"".join(b"\x12" + varint(len(e)) + e for e in entries))
with open(os.path.join(out, "transactions-head.perfetto-trace"), "wb") as f:
    for e in entries:
        packet = b"\x40" + varint(1000 + len(e)) + varint(94 << 3 | 2) + varint(len(e)) + e
        f.write(b"\x0a" + varint(len(packet)) + packet)
