#!/bin/sh
# SPDX-License-Identifier: MIT
# fusion latency on sim, where the time model makes every wake-up late by
# exactly the cost given (--sim-cost): each sample lands in the bucket
# that -B and -H say, and the gnuplot file names each bucket by its lower
# edge in microseconds.  Each bad option value stops it with one line on
# stderr and status 2.
#   usage: test_latency.sh BUILD_DIR
set -u

if [ $# -ne 1 ] || [ ! -x "$1/bin/fusion" ]; then
	echo "usage: $0 BUILD_DIR" >&2
	exit 2
fi
fusion=$(cd "$1/bin" && pwd)/fusion
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

fail()
{
	echo "FAIL: $*"
	failures=$((failures + 1))
}

# hist COST "OPTIONS" EXPECTED: the gnuplot file of one simulated second.
hist()
{
	# shellcheck disable=SC2086 # $2 is options
	"$fusion" latency --backend=sim --sim-cost="$1" -T 1 -q $2 \
		-g "$tmp/hist" >"$tmp/out" 2>"$tmp/err" ||
		fail "cost $1, $2: status $?: $(cat "$tmp/err")"
	printf '# fusion latency histogram: latency_us samples\n%s\n' "$3" \
		>"$tmp/want"
	cmp -s "$tmp/hist" "$tmp/want" ||
		fail "cost $1, $2: histogram '$(cat "$tmp/hist")', not '$3'"
}

hist 300ns "-H 3" "$(printf '0 1000\n1 0\n2 0\n3 0')"
hist 300ns "-B 250 -H 3" "$(printf '0.000 0\n0.250 1000\n0.500 0\n0.750 0')"
hist 300ns "-B 100 -H 4" "$(printf '0.000 0\n0.100 0\n0.200 0\n0.300 1000\n0.400 0')"
hist 300ns "-B 1 -H 301" "$(awk 'BEGIN { for (i = 0; i <= 301; i++)
	printf "%.3f %d\n", i / 1000, i == 300 ? 1000 : 0 }')"
# The last line counts all that is above: 1.1 us past 1 bucket of 1 us.
hist 1100ns "-H 1" "$(printf '0 0\n1 1000')"
hist 2us "-B 2000 -H 2" "$(printf '0 0\n2 1000\n4 0')"

# expect LINE OPTIONS...: status 2 and stderr exactly LINE.
expect()
{
	line=$1
	shift
	"$fusion" latency --backend=sim -T 1 -q "$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	[ "$got" -eq 2 ] || fail "$*: status $got, not 2"
	printf '%s\n' "$line" >"$tmp/want"
	cmp -s "$tmp/err" "$tmp/want" ||
		fail "$*: stderr '$(cat "$tmp/err")', not '$line'"
}

expect "fusion latency: -B 0: not a bucket size in ns (1..1000000000)" -B 0
expect "fusion latency: -B 10x: not a bucket size in ns (1..1000000000)" -B 10x
expect "fusion latency: -B 1000000001: not a bucket size in ns (1..1000000000)" -B 1000000001
expect "fusion latency: -B : not a bucket size in ns (1..1000000000)" -B ""
expect "fusion latency: -H 0: not a number of buckets (1..1000000)" -H 0
expect "fusion latency: -H 1000001: not a number of buckets (1..1000000)" -H 1000001
expect "fusion latency: -p 0: not a period in us (1..1000000)" -p 0
expect "fusion latency: -p 1ms: not a period in us (1..1000000)" -p 1ms
expect "fusion latency: -P 256: not a nucleus priority (1..255)" -P 256
expect "fusion latency: -P 0: not a nucleus priority (1..255)" -P 0
expect "fusion latency: -T -1: not a duration in s (0..1000000000)" -T -1
expect "fusion latency: -T 99999999999999999999: not a duration in s (0..1000000000)" -T 99999999999999999999

if [ "$failures" -ne 0 ]; then
	echo "$failures failed"
	exit 1
fi
echo "all passed"
