#!/bin/sh
# SPDX-License-Identifier: MIT
# fusion latency's histogram on sim, where the time model makes every
# wake-up late by exactly the cost given (--sim-cost): each sample lands
# in the bucket that -B and -H say, and the gnuplot file names each
# bucket by its lower edge in microseconds.  Then a sampler late at
# every period (a cost above it), which never blocks and so never lets
# main run: -T and SIGTERM still end the run, with its summary.  (Its
# bad option values are checked in test_options.sh.)
#   usage: test_latency.sh BUILD_DIR
set -u

if [ $# -ne 1 ] || [ ! -x "$1/bin/fusion" ]; then
	echo "usage: $0 BUILD_DIR" >&2
	exit 2
fi
fusion=$(cd "$1/bin" && pwd)/fusion
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# hist COST "OPTIONS" EXPECTED: the gnuplot file of one simulated second.
hist()
{
	# shellcheck disable=SC2086 # $2 is options
	"$fusion" latency --backend=sim --sim-cost="$1" -T 1 -q $2 \
		-g "$tmp/hist" >/dev/null 2>"$tmp/err" || {
		echo "FAIL: cost $1, $2: status $?: $(cat "$tmp/err")"
		exit 1
	}
	printf '# fusion latency histogram: latency_us samples\n%s\n' "$3" \
		>"$tmp/want"
	cmp -s "$tmp/hist" "$tmp/want" || {
		echo "FAIL: cost $1, $2: histogram '$(cat "$tmp/hist")', not '$3'"
		exit 1
	}
}

hist 300ns "-H 3" "$(printf '0 1000\n1 0\n2 0\n3 0')"
hist 300ns "-B 250 -H 3" "$(printf '0.000 0\n0.250 1000\n0.500 0\n0.750 0')"
hist 300ns "-B 100 -H 4" "$(printf '0.000 0\n0.100 0\n0.200 0\n0.300 1000\n0.400 0')"
hist 300ns "-B 1 -H 301" "$(awk 'BEGIN { for (i = 0; i <= 301; i++)
	printf "%.3f %d\n", i / 1000, i == 300 ? 1000 : 0 }')"
# The last line counts all that is above: 1.1 us past 1 bucket of 1 us.
hist 1100ns "-H 1" "$(printf '0 0\n1 1000')"
hist 2us "-B 2000 -H 2" "$(printf '0 0\n2 1000\n4 0')"

# The same two simulated seconds every time: 668 samples, 1,332 overruns.
late="--backend=sim --sim-cost=1500us -p 1000 -q"
# shellcheck disable=SC2086 # $late is options
timeout -k 1 30 "$fusion" latency $late -T 2 >"$tmp/out" 2>"$tmp/err" || {
	echo "FAIL: late sampler, -T 2: status $?: $(cat "$tmp/err")"
	exit 1
}
grep -q '^RTS|   2000.000|   3997.001|   4000.000|    1332|     0|' \
	"$tmp/out" || {
	echo "FAIL: late sampler, -T 2: $(cat "$tmp/out")"
	exit 1
}
# shellcheck disable=SC2086
"$fusion" latency $late >"$tmp/out" 2>"$tmp/err" &
pid=$!
# Signalled once its sampler runs (slow to start under qemu-user).
waited=0
until grep -qx sampler /proc/"$pid"/task/*/comm 2>/dev/null ||
	[ "$waited" -ge 300 ]; do
	sleep 0.1
	waited=$((waited + 1))
done
sleep 0.2
kill -TERM "$pid"
waited=0
while kill -0 "$pid" 2>/dev/null && [ "$waited" -lt 300 ]; do
	sleep 0.1
	waited=$((waited + 1))
done
if kill -0 "$pid" 2>/dev/null; then
	kill -KILL "$pid"
	echo "FAIL: late sampler: still running 30 s after SIGTERM"
	exit 1
fi
wait "$pid" || {
	echo "FAIL: late sampler, SIGTERM: status $?: $(cat "$tmp/err")"
	exit 1
}
awk -F'|' '/^RTS/ && $4 + 0 == 4000 && $5 + 0 > 0 { found = 1 }
END { exit !found }' "$tmp/out" || {
	echo "FAIL: late sampler, SIGTERM: no summary of its samples: $(cat "$tmp/out")"
	exit 1
}
echo "all passed"
