#!/usr/bin/env python3
"""vm-boards.py HWC_REPLAY HWC_TRACE SNAPSHOT_JSON VM_RUN VM_CACHE UNAVAILABLE_STATUS TRACE[,TRACE] BOARD... [WINSCOPE.pb]

The 'vm-boards' test (docs/vm-tests.md, "A current kernel's vkms" and "vkms shaped like a
board"), on the newest Debian kernel line (7.x, vkms built from its source):

1. vkms's default device (overlays, writeback), read back through the project's own KMS code
   (kms-snapshot-json, then hwc-trace board --json on the host): one CRTC; every plane takes
   Android's own formats ABGR8888 (AB24), XBGR8888, ARGB8888 and NV12, LINEAR only, and has a
   rotation property with every rotation and reflection, but no zpos, alpha or blend mode
   property; a writeback connector. Then the first frames of TRACE with --mode at the
   recording's size: every layer on a plane, nothing composed, no format substitution
   (the first TRACE).
2. for each BOARD (a drm_info dump): the vkms device hwc-replay --vm --board builds from it
   (hwc-trace board --vkms), read back the same way, has the dump's CRTC count and the dump's
   planes in the dump's order, each with the dump's type and possible CRTCs, and a writeback
   connector. Then the kernel checks the profile: frames 0-9 of each TRACE predicted by
   hwc-replay --profile BOARD and replayed through hwc-replay --vm --board BOARD (a
   writeback checksum every frame, planes named by the dump's ids), compared by hwc-trace
   diff, whose placement agreement is printed; every layer they place differently must be
   one that what vkms cannot copy explains (plane alpha, blend mode, zpos, scaling), and
   every frame's writeback checksum must equal the profile's pixman reference checksum (of
   the vkms YUV model, as the kernel's run composes a client NV12 layer).

3. WINSCOPE (a layer trace of two displays), imported, on vkms shaped like the first BOARD:
   both displays replayed at once, each on a CRTC of its own with writeback checksums.
4. with --hwc2-module=hwcomposer.kms.so --replay-gen=replay-gen: an unscaled NV12 layer
   (replay-gen --nv12), then a P010 one (--p010), each through the module (its buffer a
   udmabuf dma-buf the module imports) and through --device, put on a plane in every frame,
   each frame's writeback checksum equal to the pixman reference of the vkms YUV model
   (yuv_on_planes; one boot for the four replays).

One boot per replay. Exit 0, 1 on a failed check, UNAVAILABLE_STATUS when no VM can be
prepared or booted here.
"""
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

ANDROID_FORMATS = ["AB24", "XB24", "AR24", "NV12"]
ALL_ROTATIONS = ["rotate-0", "rotate-90", "rotate-180", "rotate-270", "reflect-x", "reflect-y"]
MARK = "=====HWCT-VM-BOARDS-RESULTS====="


def fail(msg):
    print("vm-boards: FAIL:", msg, file=sys.stderr)
    sys.exit(1)


class Ctx:
    def __init__(self, argv):
        (self.replay, self.trace_tool, self.snapshot, self.vm_run, self.cache, unavailable,
         traces) = argv[1:8]
        self.traces = traces.split(",")
        self.trace = self.traces[0]
        rest = [a for a in argv[8:] if not a.startswith("--")]
        opts = dict(a[2:].split("=", 1) for a in argv[8:] if a.startswith("--"))
        self.boards = [b for b in rest if not b.endswith(".pb")]
        self.winscope = next((b for b in rest if b.endswith(".pb")), None)
        self.module = opts.get("hwc2-module")
        self.replay_gen = opts.get("replay-gen")
        self.unavailable = int(unavailable)
        self.tmp = pathlib.Path(tempfile.mkdtemp(prefix="vm-boards."))
        self.env = dict(os.environ, HWCT_VM_CACHE=os.path.realpath(self.cache), HWCT_VM_RUN=self.vm_run)

    def vm(self, extra, command):
        """Boots the newest kernel with vm-run's extra options, runs command (a list); returns
        its stdout. Exits with the unavailable status when the VM cannot be had."""
        args = [self.vm_run, "--cache", os.path.realpath(self.cache), "--unavailable-status",
                str(self.unavailable), "--kernel", "newest", "--timeout", "600"] + extra + ["--"] + command
        p = subprocess.run(args, capture_output=True, text=True, env=self.env)
        if p.returncode == self.unavailable:
            print("vm-boards: the VM cannot be had here:", p.stderr.strip()[-500:])
            sys.exit(self.unavailable)
        if p.returncode != 0:
            fail("vm-run %s exited %d:\n%s" % (" ".join(extra), p.returncode, p.stderr[-3000:]))
        return p.stdout

    def board_json(self, path):
        p = subprocess.run([self.trace_tool, "board", str(path), "--json"], capture_output=True, text=True)
        if p.returncode != 0:
            fail("hwc-trace board %s: %s" % (path, p.stderr.strip()))
        return json.loads(p.stdout)

    def read_back(self, extra, name):
        """The device vm-run boots with extra options, as hwc-trace board --json reads it."""
        out = self.vm(extra, [self.snapshot, "/dev/dri/card0"])
        path = self.tmp / (name + ".json")
        path.write_text(out)
        return self.board_json(path)


def default_device(ctx):
    out = ctx.vm(["--vkms-params", "enable_overlay=1 enable_writeback=1"],
                 ["/bin/sh", "-c", '"$1" /dev/dri/card0 && echo "$2" && "$3" "$4" --device /dev/dri/card0 '
                  '--frames 0-4 --mode 540x1200 --results - -q',
                  "sh", ctx.snapshot, MARK, ctx.replay, ctx.trace])
    snap, results = out.split(MARK + "\n", 1)
    (ctx.tmp / "default.json").write_text(snap)
    board = ctx.board_json(ctx.tmp / "default.json")
    if len(board["crtc_ids"]) != 1:
        fail("default device: %d CRTCs, expected 1" % len(board["crtc_ids"]))
    if not board.get("writeback_formats"):
        fail("default device: no writeback connector")
    kinds = [p["type"] for p in board["planes"]]
    print("default device: %d planes (%s), formats of plane 0: %s" % (
        len(kinds), ", ".join("%d %s" % (kinds.count(k), k) for k in ("primary", "overlay", "cursor")),
        " ".join(board["planes"][0]["formats"])))
    for p in board["planes"]:
        for f in ANDROID_FORMATS:
            if p["formats"].get(f) != ["0x0000000000000000"]:
                fail("plane %d: %s is %s, expected LINEAR only" % (p["id"], f, p["formats"].get(f)))
        if sorted(p["rotation"] or []) != sorted(ALL_ROTATIONS):
            fail("plane %d: rotation %s, expected %s" % (p["id"], p["rotation"], ALL_ROTATIONS))
        for prop in ("zpos", "alpha_max", "blend_modes"):
            if p[prop] is not None:
                fail("plane %d: has %s (%s), which vkms has not" % (p["id"], prop, p[prop]))
    try:
        plans = json.loads(results)["frames"]
    except (ValueError, KeyError) as e:
        fail("default device: results unreadable (%s):\n%s" % (e, results[-2000:]))
    if len(plans) != 5:
        fail("default device: %d frames replayed, expected 5:\n%s" % (len(plans), results[-2000:]))
    for f in plans:
        client = [(l["layer"], l["reasons"]) for l in f["plan"] if l.get("plane") is None]
        if client or f.get("format_substitutions"):
            fail("frame %d: layers not on planes %s, substitutions %s" % (
                f["frame"], client, f.get("format_substitutions")))
        if not f.get("checksum"):
            fail("frame %d: no writeback checksum" % f["frame"])
    print("default device: %s frames 0-4, every layer (%d a frame) on a plane in its own format" % (
        os.path.basename(ctx.trace), len(plans[0]["plan"])))


def shaped_device(ctx, dump):
    name = pathlib.Path(dump).stem
    p = subprocess.run([ctx.trace_tool, "board", dump, "--vkms"], capture_output=True, text=True)
    if p.returncode != 0:
        fail("hwc-trace board %s --vkms: %s" % (dump, p.stderr.strip()))
    spec = ctx.tmp / (name + ".vkms")
    spec.write_text(p.stdout)
    want = ctx.board_json(dump)
    got = ctx.read_back(["--vkms-board", str(spec)], name)
    if len(got["crtc_ids"]) != len(want["crtc_ids"]):
        fail("%s: %d CRTCs read back, the dump has %d" % (name, len(got["crtc_ids"]), len(want["crtc_ids"])))
    shape = [(q["type"], q["possible_crtcs"]) for q in want["planes"]]
    back = [(q["type"], q["possible_crtcs"]) for q in got["planes"]]
    if back != shape:
        fail("%s: planes read back %s, the dump's %s" % (name, back, shape))
    if not got.get("writeback_formats"):
        fail("%s: no writeback connector read back" % name)
    print("%s: %d CRTCs and %d planes read back as in the dump: %s" % (
        name, len(got["crtc_ids"]), len(back), " ".join("%s@%s" % (t, ",".join(map(str, c)))
                                                          for t, c in back)))
    for trace in ctx.traces:
        check_profile(ctx, name, dump, trace)


# Reasons a kernel verdict may differ from the profile's for: what vkms cannot copy of a dump
# (board_vkms.c's "not emulated" list): a plane property vkms has not, or scaling.
NOT_EMULATED_REASONS = {"alpha-blend", "blend", "scaling", "zpos"}


def check_profile(ctx, name, dump, trace):
    """The same frames of trace predicted by --profile dump and replayed on vkms shaped like
    dump: hwc-trace diff's placement agreement, every disagreement one that the not-emulated
    list explains."""
    tname = pathlib.Path(trace).stem
    kernel = ctx.tmp / ("%s.%s.kernel.json" % (name, tname))
    profile = ctx.tmp / ("%s.%s.profile.json" % (name, tname))
    common = ["--frames", "0-9", "--mode", "540x1200"]
    r = subprocess.run([ctx.replay, trace, "--vm", "--kernel", "newest", "--board", dump, "--results",
                        str(kernel)] + common, capture_output=True, text=True, env=ctx.env)
    if r.returncode == ctx.unavailable or r.returncode == 4:
        sys.exit(ctx.unavailable)
    if r.returncode != 0:
        fail("%s: hwc-replay --vm --board exited %d:\n%s" % (name, r.returncode, r.stderr[-3000:]))
    if "not emulated: each plane's formats" not in r.stderr:
        fail("%s: hwc-replay did not say what the vkms board does not emulate:\n%s" % (name, r.stderr))
    # the kernel's run composes YUV by the vkms model (a vkms device's default): so does the profile's reference
    p = subprocess.run([ctx.replay, trace, "--profile", dump, "--yuv-model", "vkms", "--results", str(profile), "-q"]
                       + common,
                       capture_output=True, text=True)
    if p.returncode != 0:
        fail("%s: hwc-replay --profile exited %d: %s" % (name, p.returncode, p.stderr[-2000:]))
    k = json.loads(kernel.read_text())
    if not k.get("emulated_board") or len(k["frames"]) != 10 or not all(f.get("checksum") for f in k["frames"]):
        fail("%s %s: emulated_board %s, %d frames, checksums %s" % (
            name, tname, k.get("emulated_board"), len(k["frames"]), [f.get("checksum") for f in k["frames"]]))
    dump_planes = {q["id"] for q in ctx.board_json(dump)["planes"]}
    for f in k["frames"]:
        for l in f["plan"]:
            if l.get("plane") is not None and l["plane"] not in dump_planes:
                fail("%s %s frame %d: layer %d on plane %d, not a plane of the dump %s" % (
                    name, tname, f["frame"], l["layer"], l["plane"], sorted(dump_planes)))
    d = subprocess.run([ctx.trace_tool, "diff", str(profile), str(kernel)], capture_output=True, text=True)
    line = next((x for x in d.stdout.splitlines() if x.startswith("placement: ")), None)
    if d.returncode not in (0, 1) or not line:
        fail("%s %s: hwc-trace diff exited %d without a placement line:\n%s%s" % (
            name, tname, d.returncode, d.stdout[-2000:], d.stderr[-1000:]))
    pf = {f["frame"]: f for f in json.loads(profile.read_text())["frames"]}
    unexplained = []
    for f in k["frames"]:
        ours = {l["layer"]: l for l in pf[f["frame"]]["plan"]}
        for l in f["plan"]:
            o = ours.get(l["layer"])
            if o is None or o.get("plane") == l.get("plane"):
                continue
            if not NOT_EMULATED_REASONS & set(l["reasons"] + o["reasons"]):
                unexplained.append((f["frame"], l["layer"], o.get("plane"), l.get("plane"), l["reasons"]))
    sums = [(f["frame"], pf[f["frame"]].get("checksum"), f.get("checksum")) for f in k["frames"]
            if pf[f["frame"]].get("checksum") != f.get("checksum")]
    if sums:
        fail("%s %s: vkms's writeback and the profile's pixman reference differ (frame, profile, kernel): %s"
             % (name, tname, sums))
    if unexplained:
        fail("%s %s: kernel and profile disagree where nothing vkms lacks explains it "
             "(frame, layer, profile plane, kernel plane, kernel reasons): %s" % (name, tname, unexplained))
    print("%s %s frames 0-9: kernel vs profile %s" % (name, tname, line[len("placement: "):].split(":")[0]))


def multi_display(ctx, dump, winscope):
    """A real Winscope trace of two displays (a panel and a screen recorder's virtual display)
    on vkms shaped like dump: each display on a CRTC of its own, each frame of both with a
    writeback checksum of its own CRTC."""
    zst = ctx.tmp / "two-displays.zst"
    p = subprocess.run([ctx.trace_tool, "import-winscope", winscope, str(zst)], capture_output=True, text=True)
    if p.returncode != 0:
        fail("import-winscope %s: %s" % (winscope, p.stderr[-2000:]))
    results = ctx.tmp / "two-displays.json"
    r = subprocess.run([ctx.replay, str(zst), "--vm", "--kernel", "newest", "--board", dump, "--frames", "0-5",
                        "--mode", "1080x2400", "--results", str(results)], capture_output=True, text=True, env=ctx.env)
    if r.returncode == ctx.unavailable or r.returncode == 4:
        sys.exit(ctx.unavailable)
    if r.returncode != 0:
        fail("two displays: hwc-replay exited %d:\n%s" % (r.returncode, r.stderr[-3000:]))
    frames = json.loads(results.read_text())["frames"]
    per = {}
    for f in frames:
        per.setdefault(f["display"], []).append(f)
    if sorted(per) != [0, 1]:
        fail("two displays: frames of displays %s, expected 0 and 1:\n%s" % (sorted(per), r.stderr[-2000:]))
    for d, fs in sorted(per.items()):
        bad = [(f["frame"], f.get("checksum"), f.get("checksum_source")) for f in fs
               if not f.get("checksum") or f.get("checksum_source") != "writeback"]
        if bad:
            fail("two displays: display %d frames without a writeback checksum: %s" % (d, bad))
        print("two displays on %s: display %d, %d frames, a writeback checksum each (first %s)" % (
            pathlib.Path(dump).stem, d, len(fs), fs[0]["checksum"]))


def yuv_on_planes(ctx):
    """Unscaled video frames, NV12 and P010 (replay-gen --nv12, --p010: chroma different in
    every sample), on the newest kernel's vkms, in one boot: each through hwcomposer.kms.so (the
    layer's buffer a udmabuf dma-buf the module imports: gbm on kms_swrast allocates neither
    format) and through hwc-replay --device with the project's planner (what --vm runs). In
    every run the YUV layer is on a plane in every frame, and every frame's writeback checksum
    equals the pixman reference of --profile with --yuv-model vkms (docs/yuv-models.md), and
    differs from the bilinear model's (the check can fail: chroma sampling and matrix show in
    the picture)."""
    mode = "1024x768"
    traces = {}
    for fmt in ("nv12", "p010"):
        traces[fmt] = ctx.tmp / ("%s.zst" % fmt)
        g = subprocess.run([ctx.replay_gen, str(traces[fmt]), "--layers", "3", "--frames", "4", "--" + fmt],
                           capture_output=True, text=True)
        if g.returncode != 0:
            fail("replay-gen --%s: %s" % (fmt, g.stderr))
    # $1 hwc-replay, $2 and $3 the traces, $4 the module, $5 the separator, $6 the mode
    script = ('"$1" "$2" --hwc2 "$4" --results - -q && echo "$5" && '
              '"$1" "$2" --device /dev/dri/card0 --mode "$6" --results - -q && echo "$5" && '
              '"$1" "$3" --hwc2 "$4" --results - -q && echo "$5" && '
              '"$1" "$3" --device /dev/dri/card0 --mode "$6" --results - -q')
    out = ctx.vm(["--vkms-params", "enable_overlay=1 enable_writeback=1", "--env", "HWCT_KMS_MODE=" + mode],
                 ["/bin/sh", "-c", script, "sh", ctx.replay, str(traces["nv12"]), str(traces["p010"]), ctx.module,
                  MARK, mode])
    parts = out.split(MARK + "\n")
    if len(parts) != 4:
        fail("yuv: %d results in the VM's output, expected 4:\n%s" % (len(parts), out[-2000:]))
    runs = dict(zip([(f, t) for f in ("nv12", "p010") for t in ("hwc2", "device")], (json.loads(x) for x in parts)))
    refs = {}
    for fmt, trace in traces.items():
        for model in ("vkms", "bilinear"):
            path = ctx.tmp / ("%s-%s.json" % (fmt, model))
            p = subprocess.run([ctx.replay, str(trace), "--profile", ctx.boards[0], "--mode", mode, "--yuv-model",
                                model, "--results", str(path), "-q"], capture_output=True, text=True)
            if p.returncode != 0:
                fail("%s: hwc-replay --profile --yuv-model %s: %s" % (fmt, model, p.stderr[-2000:]))
            refs[fmt, model] = {f["frame"]: f["checksum"] for f in json.loads(path.read_text())["frames"]}
    for (fmt, name), r in runs.items():
        frames = r["frames"]
        if len(frames) != 4:
            fail("%s %s: %d frames, expected 4" % (fmt, name, len(frames)))
        for f in frames:
            video = next((l for l in f["plan"] if l["layer"] == 101), None)
            on_plane = video and (video.get("composition") == "DEVICE" if name == "hwc2" else video.get("plane"))
            if not on_plane or f.get("checksum_source") != "writeback":
                fail("%s %s frame %d: the video layer is %s, checksum from %s" % (
                    fmt, name, f["frame"], video, f.get("checksum_source")))
            if f["checksum"] != refs[fmt, "vkms"][f["frame"]]:
                fail("%s %s frame %d: writeback %s, the vkms model's pixman reference %s" % (
                    fmt, name, f["frame"], f["checksum"], refs[fmt, "vkms"][f["frame"]]))
            if f["checksum"] == refs[fmt, "bilinear"][f["frame"]]:
                fail("%s %s frame %d: the bilinear model gives the same picture: the check shows nothing" % (
                    fmt, name, f["frame"]))
        print("%s %s: the video layer on a plane in all %d frames, each writeback checksum equal to the vkms "
              "model's pixman reference (first %s), not the bilinear model's" % (
                  fmt.upper(), "through hwcomposer.kms.so" if name == "hwc2" else "with --device (drmhwc)",
                  len(frames), frames[0]["checksum"][:8]))


def main():
    ctx = Ctx(sys.argv)
    try:
        default_device(ctx)
        if ctx.module and ctx.replay_gen:
            yuv_on_planes(ctx)
        for dump in ctx.boards:
            shaped_device(ctx, dump)
        if ctx.winscope:
            multi_display(ctx, ctx.boards[0], ctx.winscope)
    finally:
        shutil.rmtree(ctx.tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
