#!/bin/sh
# SPDX-License-Identifier: MIT
# fusion latency's histogram on sim, where the time model makes every
# wake-up late by exactly the cost given (--sim-cost): each sample lands
# in the bucket that -B and -H say, and the gnuplot file names each
# bucket by its lower edge in microseconds.  (Its bad option values are
# checked in test_options.sh.)
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
echo "all passed"
