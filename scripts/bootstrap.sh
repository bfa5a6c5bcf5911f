#!/usr/bin/env bash
# The README's first command: installs what is missing (Debian 12), builds
# hwctrace into build/, and runs the main job on a bundled reference trace.
set -eu
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh
[ -f build/build.ninja ] || meson setup build
ninja -C build

trace=traces/home.zst
echo
echo "== hwc-trace info $trace"
build/analyzers/hwc-trace info "$trace"
echo
echo "== hwc-trace dump $trace --frames 0-1 (first lines)"
build/analyzers/hwc-trace dump "$trace" --frames 0-1 | head -n 40
