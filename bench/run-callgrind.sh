#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Nucleus cost per operation on sim, in instructions counted by callgrind
# (stable on a noisy machine), then the 10,000-thread / 100,000-timer
# scale run.  usage: bench/run-callgrind.sh BUILD_DIR   (make bench)
#
# Each bench_nucleus mode runs its ITER operations inside functions named
# bench_op_*; callgrind collects only inside those (--toggle-collect), so
# setup and teardown are not counted.  Ir/op = collected Ir / ops.  The
# wall column comes from a separate native run pinned to one CPU (sim
# runs one thread at a time anyway; unpinned, every switch is a
# cross-CPU wake-up and costs 5-30x more on a VM): informative only, it
# moves with the machine's load.
set -euo pipefail

build=${1:?usage: $0 BUILD_DIR}
nucleus=$build/bin/bench_nucleus
alchemy=$build/bin/bench_alchemy
scale=$build/bin/bench_scale

if ! command -v valgrind >/dev/null; then
	echo "valgrind not found; install it with: sudo apt-get install valgrind" >&2
	exit 1
fi
if [ ! -x "$nucleus" ] || [ ! -x "$alchemy" ] || [ ! -x "$scale" ]; then
	echo "$nucleus, $alchemy or $scale missing: build first (make)" >&2
	exit 1
fi
build_type=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$build/CMakeCache.txt" 2>/dev/null || true)
sanitize=$(sed -n 's/^FUSION_SANITIZE:[A-Z]*=//p' "$build/CMakeCache.txt" 2>/dev/null || true)
if [ -n "$sanitize" ]; then
	echo "$build is a sanitizer build ($sanitize): valgrind cannot run it; use build/" >&2
	exit 1
fi

pin=()
if command -v taskset >/dev/null; then
	pin=(taskset -c "$(($(nproc) - 1))")
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "fusion nucleus bench, $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "machine: $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
echo "build: $build (${build_type:-unknown})$([ "$build_type" = Debug ] && echo ', NK_DEBUG assertions included in the counts')"
echo "$(valgrind --version), counts are user-space instructions (Ir)"
echo "native runs: ${pin[*]:-not pinned (no taskset)}"
echo

# The inclusive Ir of function $2 in callgrind output $1.
inclusive() {
	callgrind_annotate --inclusive=yes --threshold=100 "$1" 2>/dev/null |
		awk -v fn=":$2 [" 'index($0, fn) { gsub(",", "", $1); print $1; exit }'
}

printf '%-46s %9s  %-30s %10s\n' "operation" "Ir/op" "split (Ir/op)" "wall ns/op"
printf '%-46s %9s  %-30s %10s\n' "---------" "-----" "-------------" "----------"

# row LABEL "FN1 [FN2]" MODE ARGS...: one line of the table, from $bench
# (bench_nucleus unless set otherwise).  FN1 and FN2
# name two functions whose inclusive costs split the figure; FN1 alone, a
# part of it worth showing; "-", nothing.
row() {
	local label=$1 fn1 fn2 out ops ir per split="" wall
	read -r fn1 fn2 <<<"$2"
	shift 2
	out=$tmp/cg.out
	valgrind --tool=callgrind --toggle-collect='bench_op_*' \
		--callgrind-out-file="$out" "$bench" "$@" >"$tmp/stdout" 2>"$tmp/stderr" || {
		echo "$bench $* failed under callgrind:" >&2
		cat "$tmp/stdout" "$tmp/stderr" >&2
		exit 1
	}
	ops=$(sed -n 's/^RESULT .* ops=\([0-9]*\) .*/\1/p' "$tmp/stdout")
	ir=$(sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$out")
	[ -n "$ir" ] || ir=$(sed -n 's/^totals: *\([0-9]*\).*/\1/p' "$out")
	per=$(awk -v a="$ir" -v b="$ops" 'BEGIN { printf "%.1f", a / b }')
	if [ "$fn1" = "-" ] || ! command -v callgrind_annotate >/dev/null; then
		:
	elif [ -z "$fn2" ]; then
		split=$(awk -v a="$(inclusive "$out" "$fn1")" -v n="$ops" -v f1="$fn1" \
			'BEGIN { printf "incl. %s %.0f", f1, a / n }')
	else
		split=$(awk -v a="$(inclusive "$out" "$fn1")" -v b="$(inclusive "$out" "$fn2")" \
			-v n="$ops" -v f1="$fn1" -v f2="$fn2" \
			'BEGIN { printf "%s %.0f + %s %.0f", f1, a / n, f2, b / n }')
		split=${split//nk_timer_/}
		split=${split//nk_thread_/}
		split=${split//nk_sem_/}
	fi
	wall=$(sed -n 's/^RESULT .* wall_ns_per_op=\([0-9.]*\).*/\1/p' <<<"$("${pin[@]}" "$bench" "$@")")
	printf '%-46s %9s  %-30s %10s\n' "$label" "$per" "$split" "$wall"
}

bench=$nucleus
row "switch (yield, pick next), 0 other ready" sim_switch_to switch 0 20000
row "switch (yield, pick next), 100 other ready" sim_switch_to switch 100 20000
row "ready/block (suspend+resume), 1 ready" "nk_thread_suspend nk_thread_resume" ready-block 1 100000
row "ready/block (suspend+resume), 10 ready" "nk_thread_suspend nk_thread_resume" ready-block 10 100000
row "ready/block (suspend+resume), 100 ready" "nk_thread_suspend nk_thread_resume" ready-block 100 100000
row "sem give (no waiter) + take (count > 0)" "nk_sem_give nk_sem_take" sem 100000
row "sem give/take round trip (2 switches)" sim_switch_to sem-pingpong 10000
row "timer insert+remove, _locked, 10 armed" "nk_timer_start_locked nk_timer_stop_locked" timer 10 100000
row "timer insert+remove, _locked, 1k armed" "nk_timer_start_locked nk_timer_stop_locked" timer 1000 100000
row "timer insert+remove, _locked, 100k armed" "nk_timer_start_locked nk_timer_stop_locked" timer 100000 100000
row "timer insert+remove, public API, 10 armed" "nk_timer_start nk_timer_stop" timer-api 10 100000
row "timer insert+remove, public API, 1k armed" "nk_timer_start nk_timer_stop" timer-api 1000 100000
row "timer insert+remove, public API, 100k armed" "nk_timer_start nk_timer_stop" timer-api 100000 100000
# The Alchemy skin on the common object layer, on the process runtime.
bench=$alchemy
export FUSION_BACKEND=sim
row "alchemy rt_sem_v (no waiter) + rt_sem_p" "nk_sem_give_locked nk_sem_take_locked" sem 100000
row "alchemy rt_sem_v on a deleted semaphore" - sem-bad 100000

echo
echo "Switches on sim hand a baton between OS threads through futexes: the"
echo "kernel side of those system calls is not in the Ir figures (it is in"
echo "the wall column)."
echo
echo "scale: $scale (10,000 threads, 100,000 timers, one sim instance)"
"${pin[@]}" "$scale"
