#!/bin/sh
# The LTTng-UST provider hwc2 (recorder/hwc2_tp.h): a private session daemon
# with its own LTTNG_HOME, a session enabling hwc2:*, the test client
# through libhwc-record.so, then babeltrace2: one call_entry and one
# call_exit per call the client logged, a present and a validate per frame,
# fence_signal events when the file trace runs too. Skips (77) without the
# LTTng tools. Root's session daemon is the system-wide one (/var/run/lttng),
# so as root everything runs as nobody to keep the daemon private.
# Then a replay through the wrapper (hwc-replay --hwc2): per function, as
# many call_entry and call_exit events as calls in the trace it recorded.
# As root, the programs nobody runs are copied into the private temp dir.
# Env: HWCT_TEST_CLIENT, HWCT_TEST_FAKE, HWCT_TEST_RECORDER; HWCT_REPLAY,
# HWCT_TRACE_TOOL, HWCT_REPLAY_TRACE for the replay (meson).
set -u

for p in lttng lttng-sessiond babeltrace2; do
	command -v "$p" >/dev/null 2>&1 || { echo "$p missing: skipped"; exit 77; }
done
as=""
tmp=$(mktemp -d /tmp/hwct-lttng-XXXXXX) || exit 2
if [ "$(id -u)" = 0 ]; then
	command -v setpriv >/dev/null 2>&1 || { echo "setpriv missing: skipped"; rm -rf "$tmp"; exit 77; }
	chown nobody:nogroup "$tmp" || exit 2
	as="setpriv --reuid=nobody --regid=nogroup --clear-groups"
fi
chmod 755 "$tmp"
# nobody may not be able to enter the checkout (a clone in a private 0700
# folder): what it runs, the libraries those load from outside the system
# folders (found by LD_LIBRARY_PATH) and the trace it replays are copied
# into $tmp first.
libpath=""
if [ -n "$as" ]; then
	mkdir "$tmp/bin" "$tmp/lib" || exit 2
	for v in HWCT_TEST_CLIENT HWCT_TEST_FAKE HWCT_TEST_RECORDER HWCT_REPLAY HWCT_REPLAY_TRACE; do
		eval "src=\${$v:-}"
		[ -n "$src" ] || continue
		cp "$src" "$tmp/bin/" || exit 2
		eval "$v=\"\$tmp/bin/\$(basename \"\$src\")\""
		[ "$v" = HWCT_REPLAY_TRACE ] && continue
		for lib in $(ldd "$src" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// { print $3 }'); do
			case "$lib" in
			/lib/* | /lib64/* | /usr/*) ;;
			*) cp "$lib" "$tmp/lib/" || exit 2 ;;
			esac
		done
	done
	chmod -R a+rX "$tmp/bin" "$tmp/lib"
	libpath="$tmp/lib"
fi

run() {
	$as env LTTNG_HOME="$tmp" ${libpath:+LD_LIBRARY_PATH="$libpath"} "$@"
}

cleanup() {
	pidfile="$tmp/.lttng/lttng-sessiond.pid"
	if [ -f "$pidfile" ]; then
		kill "$(cat "$pidfile")" 2>/dev/null
		sleep 1
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

run lttng-sessiond --daemonize >"$tmp/sessiond.log" 2>&1 || {
	echo "cannot start a session daemon: skipped"; cat "$tmp/sessiond.log"; exit 77; }

# Every traced process waits for its registration with the session daemon
# without a limit (LTTNG_UST_REGISTER_TIMEOUT=-1, lttng-ust(3)): with a limit,
# a loaded host could let it run untraced, and the event counts would miss.
# meson's timeout bounds a daemon that never answers.

# $1: session name, $2: HWCT_OUTPUT
record() {
	run lttng create "$1" --output="$tmp/$1" >/dev/null || fail "lttng create"
	run lttng enable-event -u 'hwc2:*' >/dev/null || fail "lttng enable-event"
	run lttng start >/dev/null || fail "lttng start"
	run env HWCT_REAL_MODULE="$HWCT_TEST_FAKE" HWCT_OUTPUT="$2" HWCT_CAPTURE_WAIT_MS=5000 \
		LTTNG_UST_REGISTER_TIMEOUT=-1 \
		"$HWCT_TEST_CLIENT" --module "$HWCT_TEST_RECORDER" --log "$tmp/$1.log" \
		|| fail "client ($1)"
	run lttng stop >/dev/null || fail "lttng stop"
	run lttng destroy >/dev/null || fail "lttng destroy"
	babeltrace2 "$tmp/$1" >"$tmp/$1.txt" 2>"$tmp/$1.err" || fail "babeltrace2: $(cat "$tmp/$1.err")"
}

# $1: session name, $2: whether fence_signal events are expected
check() {
	# FUNCTION_100 is the fake's vendor function: handed out unwrapped, its calls are not seen
	calls=$(grep -v '^#' "$tmp/$1.log" | grep -vc '^FUNCTION_')
	entries=$(grep -c 'hwc2:call_entry:' "$tmp/$1.txt")
	exits=$(grep -c 'hwc2:call_exit:' "$tmp/$1.txt")
	presents=$(grep -c 'hwc2:present:' "$tmp/$1.txt")
	validates=$(grep -c 'hwc2:validate:' "$tmp/$1.txt")
	fences=$(grep -c 'hwc2:fence_signal:' "$tmp/$1.txt")
	echo "$1: $calls calls; call_entry $entries, call_exit $exits, present $presents," \
		"validate $validates, fence_signal $fences"
	[ "$calls" -gt 0 ] || fail "$1: the client logged no calls"
	[ "$entries" = "$calls" ] || fail "$1: $entries call_entry events for $calls calls"
	[ "$exits" = "$calls" ] || fail "$1: $exits call_exit events for $calls calls"
	[ "$presents" = 8 ] || fail "$1: $presents present events for 8 frames"
	[ "$validates" = 8 ] || fail "$1: $validates validate events for 8 frames"
	grep 'hwc2:validate:' "$tmp/$1.txt" | head -1 | grep -q 'client = 1' ||
		fail "$1: the first validate does not count the client layer"
	if [ "$2" = yes ]; then
		[ "$fences" -gt 0 ] || fail "$1: no fence_signal events"
	fi
}

# A replay through the wrapper: hwc-replay --hwc2 libhwc-record.so (fake
# module behind it) recording a trace; per function, call_entry and
# call_exit events equal the calls in that trace.
replay() {
	run lttng create replay --output="$tmp/replay" >/dev/null || fail "lttng create"
	run lttng enable-event -u 'hwc2:*' >/dev/null || fail "lttng enable-event"
	run lttng start >/dev/null || fail "lttng start"
	# In a sanitizer build, LeakSanitizer's stop-the-world tracer crashes at the exit of the
	# supervised replay child while LTTng-UST's listener threads run (seen: "Tracer caught
	# signal 11"); the other --hwc2 tests check the replay for leaks without LTTng.
	run env HWCT_REAL_MODULE="$HWCT_TEST_FAKE" HWCT_OUTPUT="$tmp/out/replay.zst" \
		LTTNG_UST_REGISTER_TIMEOUT=-1 ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		"$HWCT_REPLAY" "$HWCT_REPLAY_TRACE" --hwc2 "$HWCT_TEST_RECORDER" --frames 0-29 --timing fast \
		--quiet >"$tmp/replay.out" 2>&1 || fail "hwc-replay: $(cat "$tmp/replay.out")"
	run lttng stop >/dev/null || fail "lttng stop"
	run lttng destroy >/dev/null || fail "lttng destroy"
	babeltrace2 "$tmp/replay" >"$tmp/replay.txt" 2>"$tmp/replay.err" || fail "babeltrace2: $(cat "$tmp/replay.err")"
	"$HWCT_TRACE_TOOL" dump "$tmp/out/replay.zst" --json --records call --no-blob-data >"$tmp/replay.calls" ||
		fail "hwc-trace dump of the replay's trace"
	python3 - "$tmp/replay.txt" "$tmp/replay.calls" <<'PY' || fail "replay: events and trace calls differ"
import collections, json, re, sys
events = {"call_entry": collections.Counter(), "call_exit": collections.Counter()}
for line in open(sys.argv[1]):
    m = re.search(r"hwc2:(call_entry|call_exit):.*\bfunction = (-?\d+)", line)
    if m:
        events[m.group(1)][int(m.group(2))] += 1
calls = collections.Counter(json.loads(l)["call"]["function"] for l in open(sys.argv[2]) if l.strip())
names = {json.loads(l)["call"]["function"]: json.loads(l)["call"].get("function_name") for l in open(sys.argv[2])
         if l.strip()}
ok = bool(calls)
for kind, got in events.items():
    for f in sorted(set(calls) | set(got)):
        if got[f] != calls[f]:
            print("FAIL: %s: %d %s events, %d calls in the trace" % (names.get(f, f), got[f], kind, calls[f]))
            ok = False
print("replay: %d calls of %d functions in the trace, as many call_entry and call_exit events each" % (
    sum(calls.values()), len(calls)))
sys.exit(0 if ok else 1)
PY
}

mkdir "$tmp/out" && chmod 777 "$tmp/out"
record alone none
check alone no
record with-file "$tmp/out"
check with-file yes
ls "$tmp/out"/hwctrace-*.zst >/dev/null 2>&1 || fail "no trace file beside the LTTng session"
if [ -n "${HWCT_REPLAY:-}" ]; then
	replay
fi
echo "ok"
