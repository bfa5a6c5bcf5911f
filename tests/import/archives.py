#!/usr/bin/env python3
"""`hwc-trace import` over archives and folders the test builds itself.

Usage: archives.py HWC_TRACE FIXTURES_DIR CASE

FIXTURES_DIR is tests/data/winscope (README.md there says where each file
came from). Each case builds its input in a temporary folder from those
fixtures (or from nothing, for the hostile ones), runs the import, and
checks what it prints, what it writes and, for the hostile archives, that
the error names the archive, the entry and the limit, and that the import
stayed within a memory bound (its peak RSS, from wait4).

Cases: bugreport, winscope-archive, nested, folder, use, other-kind,
transactions-only, perfetto-transactions, transactions-damaged,
zip-bomb, lying-bomb, million-entries, dotdot-names, deep-nesting,
truncated-directory, claims-4gib.
"""
import os
import resource
import struct
import subprocess
import sys
import tempfile
import time
import zipfile
import zlib

HWC_TRACE, FIXTURES, CASE = sys.argv[1], sys.argv[2], sys.argv[3]
LAYERS = os.path.join(FIXTURES, "elapsed_timestamp_SurfaceFlinger.pb")
LAYERS2 = os.path.join(FIXTURES, "elapsed_and_real_timestamp_SurfaceFlinger.pb")
TRANSACTIONS = os.path.join(FIXTURES, "elapsed_timestamp_Transactions.pb")
WMTRACE = "FS/data/misc/wmtrace/"
MIB = 1 << 20


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def check(cond, msg):
    if not cond:
        fail(msg)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def run(args):
    """Runs hwc-trace; returns (status, stdout, stderr, seconds, peak RSS bytes)."""
    start = time.monotonic()
    p = subprocess.Popen([HWC_TRACE] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = p.communicate()
    # the peak of every child so far: the hostile cases run one import each
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
    secs = time.monotonic() - start
    out, err = out.decode(errors="replace"), err.decode(errors="replace")
    print("$ hwc-trace %s\n%s%s(exit %d, %.2f s, peak RSS %.1f MiB)" %
          (" ".join(args), out, err, p.returncode, secs, rss / MIB))
    return p.returncode, out, err, secs, rss


def report_lines(out):
    """The import report after its first line's input name: what the layer importer said."""
    lines = out.splitlines()
    for i, line in enumerate(lines):
        if " -> " in line and "display frame" in line:
            return [line.split(": ", 1)[1]] + [l for l in lines[i + 1:] if not l.startswith("Wrote ")]
    fail("no import report in:\n" + out)


def direct_report(tmp, fixture):
    status, out, _, _, _ = run(["import", fixture, os.path.join(tmp, "direct.zst")])
    check(status == 0, "the fixture itself does not import")
    return report_lines(out)


def check_same_trace(tmp, out_path):
    """hwc-trace diff: the trace imported from the archive or folder against the fixture's own."""
    p = subprocess.run([HWC_TRACE, "diff", os.path.join(tmp, "direct.zst"), out_path], capture_output=True, text=True)
    check(p.returncode == 0 and "are equal" in p.stdout, "hwc-trace diff: the traces differ:\n" + p.stdout[-2000:])


def bugreport_zip(path, generated=True):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("main_entry.txt", "bugreport-test.txt")
        z.writestr("bugreport-test.txt", "== dumpstate ==\n" * 1000)
        z.writestr("proto/SurfaceFlinger_CRITICAL.proto", b"\x0a\x00")
        z.write(TRANSACTIONS, WMTRACE + "transactions_trace.winscope")
        if generated:
            z.write(LAYERS2, WMTRACE + "layers_trace_from_transactions.winscope")
        z.write(LAYERS, WMTRACE + "layers_trace.winscope")


def expect_error(status, err, *words):
    check(status == 1, "exit status %d, not 1" % status)
    for w in words:
        check(w in err, "the message does not say %r: %s" % (w, err))


def bound_rss(rss, input_bytes, what):
    limit = input_bytes + 96 * MIB
    check(rss < limit, "%s: peak RSS %.1f MiB, past the bound of %.1f MiB" % (what, rss / MIB, limit / MIB))


def case_bugreport(tmp):
    src = os.path.join(tmp, "bugreport.zip")
    bugreport_zip(src)
    want = direct_report(tmp, LAYERS)
    out_path = os.path.join(tmp, "out.zst")
    status, out, err, _, _ = run(["import", src, out_path])
    check(status == 0, "exit status %d: %s" % (status, err))
    for name, kind in (("layers_trace.winscope", "SurfaceFlinger layer trace (legacy, magic LYRTRACE)"),
                       ("transactions_trace.winscope", "SurfaceFlinger transaction trace (legacy, magic TNXTRACE)"),
                       ("layers_trace_from_transactions.winscope", "generated from transactions")):
        check("%s > %s%s: " % (src, WMTRACE, name) in out and kind in out, "%s not listed as %s" % (name, kind))
    check("3 other files passed over" in out, "the logs, main_entry.txt and proto/ not said passed over")
    check("Importing %s > %slayers_trace.winscope (layer trace): a layer trace SurfaceFlinger recorded" %
          (src, WMTRACE) in out, "the recorded layer trace not chosen, or why not said")
    check(report_lines(out) == want, "the import from the archive differs from the fixture's own:\n%s\n%s" %
          (report_lines(out), want))
    check_same_trace(tmp, out_path)
    check(os.path.getsize(out_path) > 0, "no trace written")


def case_use(tmp):
    src = os.path.join(tmp, "bugreport.zip")
    bugreport_zip(src)
    want = direct_report(tmp, LAYERS2)
    status, out, err, _, _ = run(["import", src, os.path.join(tmp, "g.zst"), "--use", "generated"])
    check_same_trace(tmp, os.path.join(tmp, "g.zst"))
    check(status == 0, "--use generated: exit %d: %s" % (status, err))
    check("Importing %s > %slayers_trace_from_transactions.winscope" % (src, WMTRACE) in out, "not the generated one")
    check(report_lines(out) == want, "--use generated: not the generated trace's import")
    # without a recorded layer trace the generated one comes first
    plain = os.path.join(tmp, "nolayers.zip")
    with zipfile.ZipFile(plain, "w") as z:
        z.write(TRANSACTIONS, WMTRACE + "transactions_trace.winscope")
        z.write(LAYERS2, WMTRACE + "layers_trace_from_transactions.winscope")
    status, out, err, _, _ = run(["import", plain, os.path.join(tmp, "g2.zst")])
    check(status == 0 and "no recorded layer trace; a layer trace generated from the transactions" in out,
          "the generated trace not chosen second")
    status, out, err, _, _ = run(["import", src, os.path.join(tmp, "t.zst"), "--use", "transactions",
                                  "--at", "850335483446"])
    check(status == 0 and "Importing %s > %stransactions_trace.winscope (transaction trace)" % (src, WMTRACE) in out,
          "--use transactions did not pick the transaction trace")
    check("4997 transaction entries" in out and "rebuilt into 1 layer stack at the --at times" in out,
          "the transaction trace not rebuilt")
    status, _, err, _, _ = run(["import", src, os.path.join(tmp, "n.zst"), "--use", "nothing-like-this.pb"])
    expect_error(status, err, "nothing there fits --use nothing-like-this.pb")


def case_winscope_archive(tmp):
    src = os.path.join(tmp, "winscope.zip")
    with zipfile.ZipFile(src, "w", zipfile.ZIP_DEFLATED) as z:
        z.write(LAYERS, "Surface Flinger/SurfaceFlinger.pb")
        z.writestr("Window Manager/wm_trace.winscope", b"\x09WINTRACE" + b"\x12\x00" * 4)
    want = direct_report(tmp, LAYERS)
    status, out, err, _, _ = run(["import", src, os.path.join(tmp, "w.zst")])
    check_same_trace(tmp, os.path.join(tmp, "w.zst"))
    check(status == 0, "exit %d: %s" % (status, err))
    check("Window Manager/wm_trace.winscope: window manager trace (legacy, magic WINTRACE)" in out,
          "the window manager trace not named")
    check("Importing %s > Surface Flinger/SurfaceFlinger.pb" % src in out, "SurfaceFlinger.pb not chosen")
    check(report_lines(out) == want, "the import differs from the fixture's own")


def case_nested(tmp):
    inner = os.path.join(tmp, "winscope.zip")
    with zipfile.ZipFile(inner, "w", zipfile.ZIP_DEFLATED) as z:
        z.write(LAYERS, "Surface Flinger/SurfaceFlinger.pb")
    src = os.path.join(tmp, "outer.zip")
    with zipfile.ZipFile(src, "w", zipfile.ZIP_STORED) as z:
        z.write(inner, "attachments/winscope.zip")
    want = direct_report(tmp, LAYERS)
    status, out, err, _, _ = run(["import", src, os.path.join(tmp, "n.zst")])
    check_same_trace(tmp, os.path.join(tmp, "n.zst"))
    check(status == 0, "exit %d: %s" % (status, err))
    check("Importing %s > attachments/winscope.zip > Surface Flinger/SurfaceFlinger.pb" % src in out,
          "the nested trace not found by its chain of names")
    check(report_lines(out) == want, "the import differs from the fixture's own")


def case_folder(tmp):
    root = os.path.join(tmp, "bugreport-folder")
    os.makedirs(os.path.join(root, WMTRACE))
    with open(os.path.join(root, WMTRACE, "transactions_trace.winscope"), "wb") as f:
        f.write(read(TRANSACTIONS))
    with open(os.path.join(root, WMTRACE, "layers_trace.winscope"), "wb") as f:
        f.write(read(LAYERS))
    with open(os.path.join(root, "main_entry.txt"), "w") as f:
        f.write("bugreport.txt")
    want = direct_report(tmp, LAYERS)
    status, out, err, _, _ = run(["import", root, os.path.join(tmp, "f.zst")])
    check_same_trace(tmp, os.path.join(tmp, "f.zst"))
    check(status == 0, "exit %d: %s" % (status, err))
    check("Importing %s/%slayers_trace.winscope" % (root, WMTRACE) in out, "the folder's layer trace not chosen")
    check(report_lines(out) == want, "the import differs from the fixture's own")


def packet(field, payload):
    def varint(v):
        b = bytearray()
        while True:
            b.append((v & 0x7f) | (0x80 if v > 0x7f else 0))
            v >>= 7
            if not v:
                return bytes(b)
    inner = varint(8 << 3) + varint(123456) + varint(field << 3 | 2) + varint(len(payload)) + payload
    return varint(1 << 3 | 2) + varint(len(inner)) + inner


def case_other_kind(tmp):
    src = os.path.join(tmp, "protolog.perfetto-trace")
    with open(src, "wb") as f:
        f.write(packet(105, b"\x0a\x02hi") + packet(104, b"\x08\x01") * 3 + packet(112, b"\x0a\x00"))
    status, _, err, _, _ = run(["import", src, os.path.join(tmp, "o.zst")])
    expect_error(status, err, src, "no SurfaceFlinger layers or transactions",
                 "3 protolog_message (field 104)", "1 protolog_viewer_config (field 105)", "winscope_extensions")
    check(not os.path.exists(os.path.join(tmp, "o.zst")), "an output was written")
    legacy = os.path.join(tmp, "wm.winscope")
    with open(legacy, "wb") as f:
        f.write(b"\x09WINTRACE\x12\x00")
    status, _, err, _, _ = run(["import", legacy, os.path.join(tmp, "o.zst")])
    expect_error(status, err, legacy, "window manager trace (legacy, magic WINTRACE)", "no SurfaceFlinger layers")


def case_transactions_only(tmp):
    """A bugreport without a layer trace: the transactions are rebuilt, and the same as from the file itself."""
    src = os.path.join(tmp, "bugreport.zip")
    with zipfile.ZipFile(src, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("main_entry.txt", "bugreport-test.txt")
        z.write(TRANSACTIONS, WMTRACE + "transactions_trace.winscope")
    at = "850335483446,850686322883"
    status, out, err, _, _ = run(["import", TRANSACTIONS, os.path.join(tmp, "direct.zst"), "--at", at])
    check(status == 0, "the transaction trace itself does not import: " + err)
    want = report_lines(out)
    status, out, err, _, _ = run(["import", src, os.path.join(tmp, "t.zst"), "--at", at])
    check(status == 0, "exit %d: %s" % (status, err))
    check("Importing %s > %stransactions_trace.winscope (transaction trace): no layer trace; the layer stacks are "
          "rebuilt from the transactions" % (src, WMTRACE) in out, "the transactions not chosen, or why not said")
    check("rebuilt into 2 layer stacks at the --at times" in out, "not rebuilt at the two times")
    check("Not in the transaction trace, so assumed: the physical display" in out, "what is assumed not said")
    check(report_lines(out) == want, "the import differs from the file's own")
    check_same_trace(tmp, os.path.join(tmp, "t.zst"))


def case_perfetto_transactions(tmp):
    """The same transaction entries as a legacy file and as Perfetto packets (field 94) rebuild the same."""
    seeds = os.path.join(FIXTURES, "..", "import")
    legacy = os.path.join(seeds, "transactions-head.winscope")
    perfetto = os.path.join(seeds, "transactions-head.perfetto-trace")
    status, out, err, _, _ = run(["import", legacy, os.path.join(tmp, "direct.zst")])
    check(status == 0, "legacy: " + err)
    want = report_lines(out)
    status, out, err, _, _ = run(["import", perfetto, os.path.join(tmp, "p.zst")])
    check(status == 0, "Perfetto: " + err)
    check("SurfaceFlinger transaction trace (Perfetto, 12 packets: 12 surfaceflinger_transactions (field 94))" in out,
          "the Perfetto transaction trace not recognised")
    check(report_lines(out) == want, "the Perfetto import differs from the legacy one")
    check_same_trace(tmp, os.path.join(tmp, "p.zst"))


def case_transactions_damaged(tmp):
    """Cut and damaged transaction traces: an error naming the file, the offset and the entry; no output."""
    seeds = os.path.join(FIXTURES, "..", "import")
    legacy = read(os.path.join(seeds, "transactions-head.winscope"))
    perfetto = read(os.path.join(seeds, "transactions-head.perfetto-trace"))
    flipped = bytearray(legacy)
    flipped[9] = 0x13  # the first entry's key: field 2, wire type 3
    garbled = bytearray(legacy)
    garbled[40] ^= 0xff  # inside the first entry
    for name, data, words in (("cut.winscope", legacy[:5000], ["offset 9", "transaction entry 0", "truncated"]),
                              ("flipped.winscope", bytes(flipped), ["offset 9", "wire type 3"]),
                              ("garbled.winscope", bytes(garbled), ["transaction entry 0", "not a valid TransactionTraceEntry"]),
                              ("cut.perfetto-trace", perfetto[:3000], ["offset", "Perfetto packet 0", "truncated"])):
        path = os.path.join(tmp, name)
        with open(path, "wb") as f:
            f.write(data)
        status, out, err, _, _ = run(["import", path, os.path.join(tmp, "x.zst")])
        expect_error(status, err, path, *words)
        check("transaction trace" in out, "%s: not recognised as a transaction trace" % name)
        check(not os.path.exists(os.path.join(tmp, "x.zst")), "%s: an output was written" % name)


# ---- hostile archives ----

def case_zip_bomb(tmp):
    """1.1 GiB of zeros deflated to ~1 MiB, under a trace's name: refused by its declared size.

    The deflate stream is one fully flushed block of 1 MiB of zeros repeated
    (a full flush ends on a byte boundary and forgets the history, so the
    copies concatenate), then an empty final block: a real stream of that
    size, made in a fraction of a second."""
    src = os.path.join(tmp, "bomb.zip")
    size = 1100 * MIB
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = c.compress(bytes(MIB)) + c.flush(zlib.Z_FULL_FLUSH)
    tail = zlib.compressobj(9, zlib.DEFLATED, -15).flush()
    crc = 0
    chunk = bytes(MIB)
    for _ in range(size // MIB):
        crc = zlib.crc32(chunk, crc)
    name = (WMTRACE + "layers_trace.winscope").encode()
    comp = len(block) * (size // MIB) + len(tail)
    with open(src, "wb") as f:
        f.write(struct.pack("<IHHHHHIIIHH", 0x04034b50, 20, 0, 8, 0, 0, crc, comp, size, len(name), 0) + name)
        for _ in range(size // MIB):
            f.write(block)
        f.write(tail)
        cd = struct.pack("<IHHHHHHIIIHHHHHII", 0x02014b50, 20, 20, 0, 8, 0, 0, crc, comp, size, len(name), 0, 0, 0, 0,
                         0, 0) + name
        f.write(cd + struct.pack("<IHHHHIIH", 0x06054b50, 0, 0, 1, 1, len(cd), 30 + len(name) + comp, 0))
    with zipfile.ZipFile(src) as z:  # a valid archive: the first MiB decompresses to zeros
        with z.open(z.infolist()[0]) as e:
            check(e.read(MIB) == bytes(MIB), "the bomb does not decompress to zeros")
    status, _, err, _, rss = run(["import", src, os.path.join(tmp, "b.zst")])
    expect_error(status, err, src, "layers_trace.winscope", "claims %d bytes" % size, "limit for one entry is 1073741824")
    bound_rss(rss, os.path.getsize(src), "zip bomb")


def local_and_central(name, data, method=0, declared=None, crc=None):
    """The local header + data and the central directory record of one entry, at offset 0 of its own."""
    comp = data
    if method == 8:
        c = zlib.compressobj(9, zlib.DEFLATED, -15)
        comp = c.compress(data) + c.flush()
    usize = len(data) if declared is None else declared
    crc = zlib.crc32(data) if crc is None else crc
    n = name.encode()
    local = struct.pack("<IHHHHHIIIHH", 0x04034b50, 20, 0, method, 0, 0, crc, len(comp), usize, len(n), 0) + n + comp
    central = lambda off: struct.pack("<IHHHHHHIIIHHHHHII", 0x02014b50, 20, 20, 0, method, 0, 0, crc, len(comp),
                                      usize, len(n), 0, 0, 0, 0, 0, off) + n
    return local, central


def case_lying_bomb(tmp):
    """An entry declaring 1000 bytes whose deflate stream holds 64 MiB: never more than declared is read."""
    src = os.path.join(tmp, "liar.zip")
    local, central = local_and_central(WMTRACE + "layers_trace.winscope", bytes(64 * MIB), 8, declared=1000,
                                       crc=0)
    cd = central(0)
    end = struct.pack("<IHHHHIIH", 0x06054b50, 0, 0, 1, 1, len(cd), len(local), 0)
    with open(src, "wb") as f:
        f.write(local + cd + end)
    status, _, err, _, rss = run(["import", src, os.path.join(tmp, "l.zst")])
    expect_error(status, err, src, "layers_trace.winscope")
    check("decompress" in err or "CRC" in err or "declares" in err, "the error does not say what is wrong: " + err)
    bound_rss(rss, os.path.getsize(src), "lying bomb")


def case_million_entries(tmp):
    src = os.path.join(tmp, "million.zip")
    count = 1000000
    cd, off = bytearray(), 0
    crc0 = zlib.crc32(b"")
    with open(src, "wb") as f:  # written as it goes: a forked child starts with this process's pages
        for i in range(count):
            n = b"%x" % i
            lh = struct.pack("<IHHHHHIIIHH", 0x04034b50, 20, 0, 0, 0, 0, crc0, 0, 0, len(n), 0) + n
            cd += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014b50, 45, 20, 0, 0, 0, 0, crc0, 0, 0, len(n), 0, 0, 0, 0,
                              0, off) + n
            f.write(lh)
            off += len(lh)
        z64 = struct.pack("<IQHHIIQQQQ", 0x06064b50, 44, 45, 45, 0, 0, count, count, len(cd), off)
        loc = struct.pack("<IIQI", 0x07064b50, 0, off + len(cd), 1)
        end = struct.pack("<IHHHHIIH", 0x06054b50, 0, 0, 0xffff, 0xffff, len(cd), off, 0)
        f.write(cd + z64 + loc + end)
    del cd
    status, _, err, secs, rss = run(["import", src, os.path.join(tmp, "m.zst")])
    expect_error(status, err, src, "lists 1000000 entries", "limit is 100000 entries")
    bound_rss(rss, os.path.getsize(src), "a million entries")


def case_dotdot_names(tmp):
    """Entries named ../ and / are names only: the import reads them and writes nothing but OUT."""
    work = os.path.join(tmp, "work")
    os.makedirs(work)
    src = os.path.join(work, "dots.zip")
    with zipfile.ZipFile(src, "w") as z:
        z.writestr("readme.txt", "x")
        info = zipfile.ZipInfo("../../escaped/layers_trace.winscope")
        z.writestr(info, read(LAYERS))
        z.writestr(zipfile.ZipInfo("/abs/transactions_trace.winscope"), read(TRANSACTIONS))
    with zipfile.ZipFile(src) as z:
        names = z.namelist()
    check("../../escaped/layers_trace.winscope" in names, "python normalized the name: %s" % names)
    before = sorted(os.path.join(d, f) for d, _, fs in os.walk(tmp) for f in fs)
    status, out, err, _, _ = run(["import", src, os.path.join(work, "d.zst")])
    check(status == 0, "exit %d: %s" % (status, err))
    check("%s > ../../escaped/layers_trace.winscope: SurfaceFlinger layer trace" % src in out, "the ../ name not kept")
    check("%s > /abs/transactions_trace.winscope: SurfaceFlinger transaction trace" % src in out,
          "the absolute name not kept")
    after = sorted(os.path.join(d, f) for d, _, fs in os.walk(tmp) for f in fs)
    check(after == sorted(before + [os.path.join(work, "d.zst")]), "files other than OUT appeared: %s" %
          sorted(set(after) - set(before)))
    check(not os.path.exists(os.path.join(tmp, "..", "escaped")), "an escaped folder was made")


def case_deep_nesting(tmp):
    data = read(LAYERS)
    name = "Surface Flinger/SurfaceFlinger.pb"
    for level in range(10):
        path = os.path.join(tmp, "n%d.zip" % level)
        with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
            z.writestr(name, data)
        data, name = read(path), "level%d.zip" % level
    src = os.path.join(tmp, "n9.zip")
    status, _, err, _, rss = run(["import", src, os.path.join(tmp, "deep.zst")])
    expect_error(status, err, src, "level8.zip > level7.zip > level6.zip > level5.zip",
                 "nested 5 deep; the limit is 4 archives")
    bound_rss(rss, 10 * os.path.getsize(src), "10-deep nesting")


def case_truncated_directory(tmp):
    full = os.path.join(tmp, "full.zip")
    bugreport_zip(full)
    data = read(full)
    cd = data.rfind(b"PK\x01\x02")
    src = os.path.join(tmp, "truncated.zip")
    with open(src, "wb") as f:
        f.write(data[:cd + 20])  # cut inside the last central directory record
    status, _, err, _, rss = run(["import", src, os.path.join(tmp, "t.zst")])
    expect_error(status, err, src, "not a readable zip archive", "no end of central directory record")
    bound_rss(rss, len(data), "truncated directory")


def case_claims_4gib(tmp):
    """A stored entry of 16 bytes whose zip64 fields claim 4 GiB."""
    name = (WMTRACE + "layers_trace.winscope").encode()
    data = bytes(16)
    crc = zlib.crc32(data)
    claim = 4 << 30
    extra_l = struct.pack("<HHQQ", 1, 16, claim, len(data))
    local = struct.pack("<IHHHHHIIIHH", 0x04034b50, 45, 0, 0, 0, 0, crc, 0xffffffff, 0xffffffff, len(name),
                        len(extra_l)) + name + extra_l + data
    extra_c = struct.pack("<HHQQ", 1, 16, claim, len(data))
    cd = struct.pack("<IHHHHHHIIIHHHHHII", 0x02014b50, 45, 45, 0, 0, 0, 0, crc, 0xffffffff, 0xffffffff, len(name),
                     len(extra_c), 0, 0, 0, 0, 0) + name + extra_c
    end = struct.pack("<IHHHHIIH", 0x06054b50, 0, 0, 1, 1, len(cd), len(local), 0)
    src = os.path.join(tmp, "claims.zip")
    with open(src, "wb") as f:
        f.write(local + cd + end)
    status, _, err, _, rss = run(["import", src, os.path.join(tmp, "c.zst")])
    expect_error(status, err, src, "layers_trace.winscope", "claims 4294967296 bytes", "limit for one entry")
    bound_rss(rss, 0, "4 GiB claim")


CASES = {
    "bugreport": case_bugreport, "use": case_use, "winscope-archive": case_winscope_archive,
    "nested": case_nested, "folder": case_folder, "other-kind": case_other_kind,
    "transactions-only": case_transactions_only, "perfetto-transactions": case_perfetto_transactions,
    "transactions-damaged": case_transactions_damaged,
    "zip-bomb": case_zip_bomb, "lying-bomb": case_lying_bomb, "million-entries": case_million_entries,
    "dotdot-names": case_dotdot_names, "deep-nesting": case_deep_nesting,
    "truncated-directory": case_truncated_directory, "claims-4gib": case_claims_4gib,
}

if __name__ == "__main__":
    with tempfile.TemporaryDirectory(prefix="hwct-import-") as d:
        CASES[CASE](d)
    print("ok")
