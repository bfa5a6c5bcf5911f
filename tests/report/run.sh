#!/bin/sh
# Runs one browser test case of report_test.js with Node; skips (exit 77,
# one line) when Node is missing. The test itself skips without chromium.
node=$(command -v node || command -v nodejs) || {
	echo "SKIP: no node or nodejs (scripts/install-deps.sh browser installs it)"
	exit 77
}
exec "$node" "$(dirname "$0")/report_test.js" "$@"
