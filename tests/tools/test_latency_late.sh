#!/bin/sh
# SPDX-License-Identifier: MIT
# A late sample of fusion latency counts from the release it waited for,
# the missed ones too (overruns), as Xenomai's latency counts it: while
# the sampler (nucleus priority 10) runs its 1 ms period, a busy loop at
# SCHED_FIFO 50 holds its CPU for 20 ms.  The worst latency must then be
# 15 ms or more, with 10 overruns or more: lower bounds set by the loop,
# not by the machine's speed.  (The loop mostly catches the sampler in
# its wait, released but not running: that wait returns late by the
# whole stall, with the points passed meanwhile as its overruns.)  Exit
# status 77 where SCHED_FIFO is not permitted.
#   usage: test_latency_late.sh BUILD_DIR
set -u

if [ $# -ne 1 ] || [ ! -x "$1/bin/fusion" ]; then
	echo "usage: $0 BUILD_DIR" >&2
	exit 2
fi
fusion=$(cd "$1/bin" && pwd)/fusion
cpu=$(($(nproc) - 1))
chrt -f 1 true 2>/dev/null || { echo "no SCHED_FIFO here"; exit 77; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT

FUSION_CPUS=$cpu "$fusion" latency -P 10 -p 1000 -T 2 -q >"$out" 2>&1 &
sampler=$!
sleep 0.7
# timeout above the loop, or the loop would starve it.
taskset -c "$cpu" chrt -f 51 timeout 0.02 chrt -f 50 sh -c 'while :; do :; done'
wait $sampler
status=$?
cat "$out"
[ "$status" -eq 0 ] || { echo "FAIL: fusion latency: status $status"; exit 1; }
awk -F'|' '/^RTS/ {
	if ($4 + 0 < 15000 || $5 + 0 < 10) {
		printf "FAIL: max %s us, %s overruns (want >= 15000 us, >= 10)\n", $4 + 0, $5 + 0
		exit 1
	}
	found = 1
}
END { if (!found) { print "FAIL: no RTS line"; exit 1 } }' "$out" || exit 1
echo "all passed"
