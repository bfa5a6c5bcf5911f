#!/usr/bin/env bash
# bisect-cli.sh HWC_BISECT: hwc-bisect's command line, report and exit status
# with a stand-in hwc-replay (--replay) that answers from a table: for each
# kernel version S (matches), D (differs, with a results file whose
# "comparison" says what), K (cannot be tested: exit 125 and a vm-prepare
# message) or U (a usage error: exit 2). No VM.
set -euo pipefail

bisect=$(realpath "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

cat >fake-replay <<'FAKE'
#!/usr/bin/env bash
# the stand-in: records its arguments, answers from $FAKE_TRUTH ("V=S V=D ...")
echo "$*" >>"$FAKE_CALLS"
kernel= results=
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) kernel=$2; shift ;;
	--results) results=$2; shift ;;
	esac
	shift
done
answer=
for pair in $FAKE_TRUTH; do
	[ "${pair%%=*}" != "$kernel" ] || answer=${pair#*=}
done
case "$answer" in
S) echo '{"frames": [], "comparison": {"compared": 4, "differing": 0, "first_difference_frame": null, "first_difference": null}}' >"$results"; exit 0 ;;
D) echo '{"frames": [], "comparison": {"compared": 4, "differing": 4, "first_difference_frame": 0, "first_difference": "layer 101: expected client (rotation), got plane 35"}}' >"$results"; exit 1 ;;
U) echo "hwc-replay: unknown option --frobnicate" >&2; exit 2 ;;
*) echo "vm-prepare: cannot prepare the VM: kernel $kernel is not in the package archive" >&2; exit 125 ;;
esac
FAKE
chmod +x fake-replay
touch trace.zst good.json
export FAKE_CALLS=$tmp/calls

fail() {
	echo "bisect-cli: FAIL: $*" >&2
	echo "--- output:" >&2
	cat out.txt >&2 || true
	exit 1
}

# run STATUS TRUTH BUILDS... [-- OPTIONS]: hwc-bisect with the stand-in; its exit must be STATUS
run() {
	local want=$1 status=0
	export FAKE_TRUTH=$2
	shift 2
	: >"$FAKE_CALLS"
	"$bisect" trace.zst --good good.json --out out --replay ./fake-replay "$@" >out.txt 2>&1 || status=$?
	[ "$status" = "$want" ] || fail "exit $status, not $want: $*"
}

expect() {
	grep -qF -- "$1" out.txt || fail "no '$1' in the output"
}

# the vm-bisect list: 6.1, the first 6.12, a 6.12 that cannot be prepared, a later 6.12
run 0 "6.1.1=S 6.12.1=D 6.12.9=K 6.12.2=D" 6.1.1 6.12.1 6.12.9 6.12.2 -- --frames 0-3
expect "first differing build: kernel 6.12.1"
expect "first difference: frame 0: layer 101: expected client (rotation), got plane 35"
expect "the build before it matches: kernel 6.1.1"
expect "replays: 2 of 4 builds, skipped 1: kernel 6.12.9"
expect "[3/4] kernel 6.12.9: skipped"
expect "cannot be tested (exit 125): vm-prepare: cannot prepare the VM: kernel 6.12.9 is not in the package archive"
[ "$(wc -l <"$FAKE_CALLS")" -le 3 ] || fail "more than 3 replays"
grep -q -- '--vm --kernel 6.12.1 --expect good.json --results out/2-kernel_6.12.1.json --quiet --frames 0-3' \
	"$FAKE_CALLS" || fail "the replay's arguments: $(cat "$FAKE_CALLS")"
[ -f out/2-kernel_6.12.1.json ] && [ -f out/1-kernel_6.1.1.log ] || fail "no results or log per build"
grep -qF 'is not in the package archive' out/3-kernel_6.12.9.log || fail "the skipped build's log"

# nothing differs; everything differs
run 1 "1.1=S 1.2=S 1.3=S" 1.1 1.2 1.3
expect "no build differs from good.json"
[ "$(wc -l <"$FAKE_CALLS")" = 2 ] || fail "3 builds that match take 2 replays"
run 0 "1.1=D 1.2=D 1.3=D" 1.1 1.2 1.3
expect "it is the first build given"

# a skipped build next to the change leaves it open (git bisect's "only skipped commits left")
run 125 "1.1=S 1.2=K 1.3=D 1.4=D" 1.1 1.2 1.3 1.4
expect "skipped builds leave it open"
expect "kernel 1.2 (skipped)"

# --builds: one per line, comments and blanks ignored, before the command line's
printf '# kernels\n1.1\n\n  1.2  # the first to differ\n' >builds.txt
run 0 "1.1=S 1.2=D 1.3=D" --builds builds.txt 1.3
expect "first differing build: kernel 1.2"
expect "hwc-bisect: 3 builds"

# errors: a usage error of hwc-replay stops the search; bad command lines
run 2 "1.1=U 1.2=U" 1.1 1.2
expect "refused the replay (exit 2): hwc-replay: unknown option --frobnicate"
run 2 "" bzImage --good good.json
"$bisect" trace.zst 1.1 >out.txt 2>&1 && fail "no --good accepted"
expect "--good RESULTS.json is needed"
"$bisect" trace.zst --good missing.json 1.1 >out.txt 2>&1 && fail "a missing --good accepted"
expect "missing.json"
"$bisect" --help >out.txt 2>&1 || fail "--help"
expect "usage: hwc-bisect"
echo "bisect-cli: all checks passed"
