#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What tracing costs on a context switch (issue 14), in instructions
# counted by callgrind on sim: bench_nucleus sem-pingpong (the round
# trip of `fusion switch -m sem`: two gives, two takes, two switches)
# run by the same binary with FUSION_TRACE unset (tracepoints compiled
# in, off), then recording every category, then in flight mode with a
# buffer that overflows.  The off run's reference is the same count
# minus what its disabled tracepoints execute: each is a compare of
# nk->trace with zero and a branch not taken (2 instructions; see
# bench/README.md), times the events one round trip fires (the on run
# counts them).  Then `fusion switch` on live, off, recording everything
# and in flight mode with a 4 MiB ring (which stays in the caches), in
# wall-clock time: noisy on a shared VM, so the median of 5 runs each.
# usage: bench/trace-overhead.sh BUILD_DIR [ITER]
set -euo pipefail

build=${1:?usage: $0 BUILD_DIR [ITER]}
iter=${2:-20000}
bench=$build/bin/bench_nucleus
fusion=$build/bin/fusion
command -v valgrind >/dev/null || {
	echo "valgrind not found: sudo apt-get install valgrind" >&2
	exit 1
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ir_per_op [ENV...]: collected Ir / ops of one callgrind run.
ir_per_op() {
	env "$@" valgrind --tool=callgrind --toggle-collect='bench_op_*' \
		--callgrind-out-file="$tmp/cg" "$bench" sem-pingpong "$iter" \
		>"$tmp/out" 2>"$tmp/err"
	local ops ir
	ops=$(sed -n 's/^RESULT .* ops=\([0-9]*\) .*/\1/p' "$tmp/out")
	ir=$(sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$tmp/cg")
	[ -n "$ir" ] || ir=$(sed -n 's/^totals: *\([0-9]*\).*/\1/p' "$tmp/cg")
	awk -v a="$ir" -v b="$ops" 'BEGIN { printf "%.1f", a / b }'
}

off=$(ir_per_op FUSION_BACKEND=sim)
on=$(ir_per_op FUSION_BACKEND=sim "FUSION_TRACE=all,size=64,out=$tmp/on")
events=$("$fusion" trace report "$tmp/on" | sed -n 's/^\([0-9]*\) events.*/\1/p')
per_op=$(awk -v e="$events" -v n="$iter" 'BEGIN { printf "%.1f", e / n }')
flight=$(ir_per_op FUSION_BACKEND=sim "FUSION_TRACE=all,size=1,flight,out=$tmp/fl")
ref=$(awk -v o="$off" -v e="$per_op" 'BEGIN { printf "%.1f", o - 2 * e }')

echo "sem-pingpong round trip on sim, $iter iterations, Ir per round trip"
printf '  %-44s %8s\n' "reference: off minus its disabled tracepoints" "$ref"
printf '  %-44s %8s  %+.2f %% over the reference\n' "tracing compiled in, off" "$off" \
	"$(awk -v a="$off" -v r="$ref" 'BEGIN { print (a / r - 1) * 100 }')"
printf '  %-44s %8s  %+.2f %% over off\n' "FUSION_TRACE=all" "$on" \
	"$(awk -v a="$on" -v r="$off" 'BEGIN { print (a / r - 1) * 100 }')"
printf '  %-44s %8s  %+.2f %% over off\n' "FUSION_TRACE=all,flight (overflowing)" "$flight" \
	"$(awk -v a="$flight" -v r="$off" 'BEGIN { print (a / r - 1) * 100 }')"
echo "  events per round trip: $per_op"

echo
echo "fusion switch on live, 200000 round trips, median of 5 runs taken in turn"
echo "(wall clock: noisy on a shared VM)"
configs=("" "--trace=all,size=256,out=$tmp/live" "--trace=all,flight,size=4,out=$tmp/fl4")
labels=(off "--trace=all,size=256" "--trace=all,flight,size=4")
for run in 1 2 3 4 5; do
	for i in 0 1 2; do
		"$fusion" switch -n 200000 ${configs[$i]} 2>/dev/null |
			sed -n 's/.*, \([0-9.]*\) ns per switch/\1/p' >>"$tmp/live.$i"
	done
done
median() { sort -n "$1" | sed -n 3p; }
base=$(median "$tmp/live.0")
for i in 0 1 2; do
	m=$(median "$tmp/live.$i")
	printf '  %-44s %8s ns  %+.1f %%\n' "${labels[$i]}" "$m" \
		"$(awk -v a="$m" -v r="$base" 'BEGIN { print (a / r - 1) * 100 }')"
done
