#!/bin/sh
# Runs `drm_info -j NODE` into a scratch file, then COMMAND... --drm-info FILE:
# the snapshot case compares kms_snapshot with drm_info's dump of the same boot.
# Usage: drm-info-run.sh NODE COMMAND [ARG...]. Exits 77 (skip) without drm_info.
set -eu
node=$1
shift
if ! command -v drm_info >/dev/null 2>&1; then
	echo "drm-info-run: drm_info not installed (scripts/install-deps.sh kms)" >&2
	exit 77
fi
out=$(mktemp "${TMPDIR:-/tmp}/drm_info.XXXXXX")
trap 'rm -f "$out"' EXIT
drm_info -j "$node" > "$out"
"$@" --drm-info "$out"
