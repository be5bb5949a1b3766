#!/bin/sh
# SPDX-License-Identifier: MIT
# LTTng-UST: a session of `lttng enable-event -u 'fusion:*'` records a
# live program run with FUSION_TRACE=lttng, and babeltrace2 reads
# Fusion's events from it: the PI boost with its cause, a mark, service
# calls, switches.  A session daemon is started for the test when none
# runs (and stopped after).  77: no lttng, lttng-sessiond, babeltrace2,
# or a build without the provider (no liblttng-ust-dev).
set -eu
. "$(dirname "$0")/need.sh"
need lttng lttng-sessiond babeltrace2
[ -e "$1/lib/libfusion-lttng.so" ] || {
	echo "built without liblttng-ust-dev: skipped"
	exit 77
}
export LTTNG_HOME="$dir"
daemon=
cleanup() {
	lttng destroy fusion-test >/dev/null 2>&1 || true
	[ -n "$daemon" ] && kill "$daemon" 2>/dev/null && wait "$daemon" 2>/dev/null
	rm -rf "$dir"
}
trap cleanup EXIT
if ! lttng list >/dev/null 2>&1; then
	lttng-sessiond >"$dir/sessiond.log" 2>&1 &
	daemon=$!
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		lttng list >/dev/null 2>&1 && break
		sleep 0.5
	done
	lttng list >/dev/null 2>&1 || {
		echo "cannot start lttng-sessiond: skipped"
		cat "$dir/sessiond.log"
		exit 77
	}
fi
lttng create fusion-test --output="$dir/trace" >/dev/null
lttng enable-event -u 'fusion:*' >/dev/null
lttng start >/dev/null
FUSION_BACKEND=live FUSION_TRACE=lttng "$bin/trace_app"
lttng stop >/dev/null
lttng destroy fusion-test >/dev/null
babeltrace2 "$dir/trace" >"$dir/out"
grep -q 'fusion:prio: .*thread = "owner", object = "lock", detail = "", arg = 31' "$dir/out"
grep -q 'fusion:mark: .*object = "urgent wants the lock"' "$dir/out"
grep -q 'fusion:alchemy: .*object = "rt_sem_p"' "$dir/out"
[ "$(grep -c 'fusion:switch:' "$dir/out")" -ge 6 ]
# Only the categories asked for.
lttng create fusion-test --output="$dir/marks" >/dev/null
lttng enable-event -u 'fusion:*' >/dev/null
lttng start >/dev/null
FUSION_BACKEND=live FUSION_TRACE=mark,lttng "$bin/trace_app"
lttng stop >/dev/null
lttng destroy fusion-test >/dev/null
babeltrace2 "$dir/marks" | sed 's/^.*\(fusion:[a-z_]*\):.*/\1/' | sort -u >"$dir/names"
[ "$(cat "$dir/names")" = "fusion:mark" ]
echo ok
