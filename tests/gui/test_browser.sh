#!/bin/sh
# SPDX-License-Identifier: MIT
# gui/browser: `fusion sim --gui` on examples/alchemy/inversion, driven
# by Playwright in Debian's chromium, headless (test_browser.mjs); then
# on a program that never ends, whose run the Pause button stops
# (test_pause.mjs).
# BUILD/gui-test/node_modules holds playwright-core (make test installs
# it); exit 77 when node, chromium or it is missing.
set -u
build=$1
here=$(dirname "$0")
chromium=${CHROMIUM:-/usr/bin/chromium}
modules=$build/gui-test/node_modules

missing=
# playwright-core's own floor (package-lock.json: engines).
if ! command -v node >/dev/null; then
	missing="$missing node (20 or later)"
elif [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 20 ]; then
	missing="$missing node 20 or later (this is $(node --version))"
fi
[ -x "$chromium" ] || missing="$missing chromium (apt-get install chromium)"
[ -d "$modules/playwright-core" ] ||
	missing="$missing playwright-core (npm ci in $build/gui-test; make test does it as root)"
if [ -n "$missing" ]; then
	echo "gui/browser skipped: missing$missing"
	exit 77
fi

work=$(mktemp -d)
gui=
trap '[ -n "$gui" ] && kill "$gui" 2>/dev/null; wait; rm -rf "$work"' EXIT

# session PROGRAM SCRIPT [ARGS...]: serve PROGRAM's debugger, drive it
# with the node SCRIPT, then end the server with SIGTERM, which must
# exit 0.
session() {
	program=$1
	shift
	# Not the previous session's URL.
	rm -f "$work/out"
	"$FUSION_TOOL" sim --gui -- "$program" >"$work/out" 2>"$work/err" &
	gui=$!
	url=
	for _ in $(seq 100); do
		url=$(grep -s -m1 -o 'http://127\.0\.0\.1:[0-9]*/[0-9a-f]*/' "$work/out")
		[ -n "$url" ] && break
		kill -0 "$gui" 2>/dev/null || break
		sleep 0.1
	done
	if [ -z "$url" ]; then
		echo "FAIL: fusion sim --gui printed no URL"
		cat "$work/out" "$work/err"
		return 1
	fi
	ret=0
	GUI_URL=$url CHROMIUM=$chromium PW_MODULES=$modules node "$@" || ret=$?
	kill -TERM "$gui"
	wait "$gui"
	end=$?
	gui=
	if [ "$end" != 0 ]; then
		echo "FAIL: fusion sim --gui exited with $end after SIGTERM"
		cat "$work/err"
		ret=1
	fi
	return $ret
}

status=0
SCREENSHOT=$build/sim-gui.png session "$GUI_APP" "$here/test_browser.mjs" || status=1
session "$GUI_FOREVER" "$here/test_pause.mjs" || status=1
exit $status
