#!/bin/sh
# SPDX-License-Identifier: MIT
# Framework options checked at start-up: each bad value, given to a
# program linked with the main() wrapper (periodic_queue) and to the
# fusion tool, stops it with exactly one line on stderr and status 2, as
# does each bad value of fusion latency's own options;
# `fusion [COMMAND] --help` prints usage and exits 0; an unknown option
# prints usage on stderr and exits 2.
#   usage: test_options.sh BUILD_DIR
set -u

if [ $# -ne 1 ] || [ ! -d "$1/bin" ]; then
	echo "usage: $0 BUILD_DIR" >&2
	exit 2
fi
bin=$(cd "$1/bin" && pwd)
. "$(dirname "$0")/checks.sh"

# expect STATUS LINE CMD...: the exit status, and stderr exactly LINE.
expect()
{
	status=$1
	line=$2
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	got=$?
	[ "$got" -eq "$status" ] || fail "$*: status $got, not $status"
	printf '%s\n' "$line" >"$tmp/want"
	cmp -s "$tmp/err" "$tmp/want" ||
		fail "$*: stderr '$(cat "$tmp/err")', not '$line'"
}

# An online CPU that is not ours to name, or none: the highest online + 1.
online=$(cat /sys/devices/system/cpu/online)
last=$(echo "$online" | tr ',-' '\n\n' | sort -n | tail -1)
absent=$((last + 1))

printf 'irq a at 1ms\nirq b every 1ns\n' >"$tmp/scenario"
printf 'irq a at soon\n' >"$tmp/syntax"

for prog in "$bin/periodic_queue" "$bin/fusion info"; do
	# shellcheck disable=SC2086 # $prog is a command and its argument
	set -- $prog
	expect 2 "fusion: FUSION_BACKEND=bogus: unknown backend (allowed: live, sim)" \
		env FUSION_BACKEND=bogus "$@"
	expect 2 "fusion: FUSION_WATCHDOG_MS=abc: not a number of milliseconds (0..3600000, 0: none)" \
		env FUSION_WATCHDOG_MS=abc "$@"
	expect 2 "fusion: FUSION_WATCHDOG_MS=-1: not a number of milliseconds (0..3600000, 0: none)" \
		env FUSION_WATCHDOG_MS=-1 "$@"
	expect 2 "fusion: FUSION_WATCHDOG_MS=3600001: not a number of milliseconds (0..3600000, 0: none)" \
		env FUSION_WATCHDOG_MS=3600001 "$@"
	expect 2 "fusion: FUSION_WATCHDOG_MS=18446744073709552: not a number of milliseconds (0..3600000, 0: none)" \
		env FUSION_WATCHDOG_MS=18446744073709552 "$@"
	expect 2 "fusion: FUSION_WATCHDOG_MS=1e3: not a number of milliseconds (0..3600000, 0: none)" \
		env FUSION_WATCHDOG_MS=1e3 "$@"
	expect 2 "fusion: FUSION_CPUS=0,$absent: CPU $absent is not online (online: $online)" \
		env FUSION_CPUS=0,$absent "$@"
	expect 2 "fusion: FUSION_CPUS=x: not a list of CPUs (e.g. 1, 0,1 or 2-3; below 1024)" \
		env FUSION_CPUS=x "$@"
	expect 2 "fusion: FUSION_CPUS=0,0: CPU 0 is listed twice" \
		env FUSION_CPUS=0,0 "$@"
	expect 2 "fusion: FUSION_SIM_LOG=/nonexistent/log: cannot create the file: No such file or directory" \
		env FUSION_SIM_LOG=/nonexistent/log "$@"
	expect 2 "fusion: FUSION_SIM_LOG=$tmp: a directory, not a file" \
		env FUSION_SIM_LOG="$tmp" "$@"
	expect 2 "fusion: FUSION_SIM_SCENARIO=/nonexistent/s: cannot read the file: No such file or directory" \
		env FUSION_SIM_SCENARIO=/nonexistent/s "$@"
	# A scenario's own error names FILE:LINE, and is the only line.
	expect 2 "fusion-sim: $tmp/scenario:2: period below 1us (no device interrupts faster)" \
		env FUSION_BACKEND=sim FUSION_SIM_SCENARIO="$tmp/scenario" "$@"
	expect 2 "fusion-sim: $tmp/syntax:1: bad time (an integer and ns, us, ms or s)" \
		env FUSION_BACKEND=sim FUSION_SIM_SCENARIO="$tmp/syntax" "$@"
	expect 2 "fusion-sim: $tmp: not a regular file (a directory)" \
		env FUSION_BACKEND=sim FUSION_SIM_SCENARIO="$tmp" "$@"
	expect 2 "fusion-sim: /dev/zero: not a regular file (a character device)" \
		env FUSION_BACKEND=sim FUSION_SIM_SCENARIO=/dev/zero "$@"
	expect 2 "fusion: FUSION_NO_RT=yes: not a boolean (allowed: 0, 1)" \
		env FUSION_NO_RT=yes "$@"
	expect 2 "fusion: FUSION_NO_SUD=2: not a boolean (allowed: 0, 1)" \
		env FUSION_NO_SUD=2 "$@"
	# The command-line forms, named as given.
	expect 2 "fusion: --backend=bogus: unknown backend (allowed: live, sim)" \
		"$@" --backend=bogus
	expect 2 "fusion: --backend=: a value is needed (--backend=live|sim)" \
		"$@" --backend=
	expect 2 "fusion: --cpu-affinity=$absent: CPU $absent is not online (online: $online)" \
		"$@" --cpu-affinity=$absent
	expect 2 "fusion: --sim-log=/nonexistent/log: cannot create the file: No such file or directory" \
		"$@" --sim-log=/nonexistent/log
	# The time model and fusion sim's channel (docs/sim-debugger.md).
	expect 2 "fusion: --sim-cost=2 us: not a duration (e.g. 2us, 500ns, 0: no cost) nor measured" \
		"$@" "--sim-cost=2 us"
	expect 2 "fusion: FUSION_SIM_COST=-1us: not a duration (e.g. 2us, 500ns, 0: no cost) nor measured" \
		env FUSION_SIM_COST=-1us "$@"
	expect 2 "fusion: FUSION_SIM_LIVELOCK=0: not a number of events (1 or more)" \
		env FUSION_SIM_LIVELOCK=0 "$@"
	expect 2 "fusion: FUSION_SIM_CONTROL=0: not a socket descriptor (fusion sim sets it)" \
		env FUSION_SIM_CONTROL=0 "$@"
	expect 2 "fusion: FUSION_SIM_CONTROL=x: not a socket descriptor (fusion sim sets it)" \
		env FUSION_SIM_CONTROL=x "$@"
done

# fusion latency's own numeric options: one line each, status 2.
lat="$bin/fusion latency --backend=sim -T 1 -q"
range_ns="(1..1000000000)"
# shellcheck disable=SC2086 # $lat is a command and its arguments
{
	expect 2 "fusion latency: -B 0: not a bucket size in ns $range_ns" $lat -B 0
	expect 2 "fusion latency: -B 10x: not a bucket size in ns $range_ns" $lat -B 10x
	expect 2 "fusion latency: -B 1000000001: not a bucket size in ns $range_ns" $lat -B 1000000001
	expect 2 "fusion latency: -B : not a bucket size in ns $range_ns" $lat -B ""
	expect 2 "fusion latency: -H 0: not a number of buckets (1..1000000)" $lat -H 0
	expect 2 "fusion latency: -H 1000001: not a number of buckets (1..1000000)" $lat -H 1000001
	expect 2 "fusion latency: -p 0: not a period in us (1..1000000)" $lat -p 0
	expect 2 "fusion latency: -p 1ms: not a period in us (1..1000000)" $lat -p 1ms
	expect 2 "fusion latency: -P 256: not a nucleus priority (1..255)" $lat -P 256
	expect 2 "fusion latency: -P 0: not a nucleus priority (1..255)" $lat -P 0
	expect 2 "fusion latency: -T -1: not a duration in s (0..1000000000)" $lat -T -1
	expect 2 "fusion latency: -T 99999999999999999999: not a duration in s (0..1000000000)" $lat -T 99999999999999999999
}

# --help of the tool and of each command: usage on stdout, status 0.
for cmd in "" latency switch info sim; do
	# shellcheck disable=SC2086 # an empty $cmd is no argument
	"$bin/fusion" $cmd --help >"$tmp/out" 2>"$tmp/err"
	got=$?
	[ "$got" -eq 0 ] || fail "fusion $cmd --help: status $got"
	grep -q "^usage: fusion" "$tmp/out" || fail "fusion $cmd --help: no usage"
	[ -s "$tmp/err" ] && fail "fusion $cmd --help: wrote to stderr"
done
# Unknown options: usage on stderr, status 2.
for cmd in "latency --bogus" "switch --bogus" "info --bogus" "sim --bogus" \
	"sim" "bogus" ""; do
	# shellcheck disable=SC2086 # $cmd is words
	"$bin/fusion" $cmd >"$tmp/out" 2>"$tmp/err"
	got=$?
	[ "$got" -eq 2 ] || fail "fusion $cmd: status $got, not 2"
	grep -q "^usage: fusion" "$tmp/err" || fail "fusion $cmd: no usage on stderr"
done

checks_end
echo "all passed"
