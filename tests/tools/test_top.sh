#!/bin/sh
# SPDX-License-Identifier: MIT
# fusion ps PID and fusion top PID on a running program (fusion latency):
# its threads, RT CPU and IRQs, refreshed; bad input; the page gone with
# the program, and a stale or foreign page in /dev/shm survived.
set -u
bin="$1/bin"
fail=0
check() { # what, then a command that must succeed
	what=$1
	shift
	if ! "$@" >/dev/null 2>&1; then
		echo "FAIL: $what"
		fail=1
	fi
}
out=$(mktemp)
trap 'rm -f "$out" /dev/shm/fusion-status.999999 /dev/shm/fusion-status.$$' EXIT

"$bin/fusion" latency -T 3 -q >/dev/null 2>&1 &
pid=$!
# The page appears as the program starts, before its sampler has run and
# its timer IRQ has fired: wait for the first tick to be on it.
for _ in 1 2 3 4 5 6 7 8 9 10; do
	"$bin/fusion" ps "$pid" >"$out" 2>&1 &&
		grep -qE "^ +0 head +[0-9]+ " "$out" && break
	sleep 0.2
done
cat "$out"
check "ps PID names the program" grep -q "^pid $pid (fusion), live backend, 1 RT CPU" "$out"
check "ps PID lists main" grep -qE "^ *$pid main +- +0 +0 +0 " "$out"
check "ps PID lists the sampler at 255" grep -qE " sampler +- +255 +255 +0 (sleeping|running|ready) " "$out"
check "ps PID lists the timer IRQ" grep -qE "^ +0 head +[0-9]+ " "$out"
check "ps lists it" sh -c "'$bin/fusion' ps | grep -qE '^$pid +fusion +live +2\$'"
# Its status thread answers off the RT CPU (the last one) when there is
# another: at the interrupt threads' priority, it would preempt them.
rt_cpu=$(($(nproc) - 1))
status_tid=$(grep -l "^fusion-status$" /proc/"$pid"/task/*/comm | cut -d/ -f5)
allowed=$(taskset -pc "$status_tid" | sed 's/.*: //')
echo "status thread $status_tid on CPUs $allowed, RT CPU $rt_cpu"
if [ "$rt_cpu" -gt 0 ]; then
	check "the status thread stays off the RT CPU" \
		test "$(echo "$allowed" | awk -v c="$rt_cpu" -F, '{
			for (i = 1; i <= NF; i++) {
				n = split($i, r, "-")
				if (c >= r[1] && c <= r[n]) print "on"
			} }')" = ""
fi
"$bin/fusion" top "$pid" -n 2 -d 0.2 >"$out" 2>&1
cat "$out"
check "top refreshed twice" test "$(grep -c '^RT CPU  LOAD' "$out")" -eq 2
check "top shows shares" grep -qE " sampler .* [0-9]+\.[0-9] +[0-9]+ +0$" "$out"
# Bad input: a usage (2) or a reason (1).
"$bin/fusion" ps 1 2>"$out"; rc=$?
check "ps of no Fusion program fails" test $rc -eq 1
check "...saying so" grep -q "no Fusion program runs there" "$out"
for args in "ps x" "ps 1 2" "top" "top x" "top $pid -d 0" "top $pid -n 0" "top $pid -z"; do
	# shellcheck disable=SC2086
	"$bin/fusion" $args >/dev/null 2>&1
	rc=$?
	check "fusion $args is a usage error" test $rc -eq 2
done
# A foreign page (another version's) is reported, never trusted, while
# its process lives; once it is gone, the page goes.
head -c 100 /dev/zero >/dev/shm/fusion-status.$$
head -c 100 /dev/zero >/dev/shm/fusion-status.999999
check "ps survives a foreign page" sh -c "'$bin/fusion' ps | grep -q 'fusion-status.$$: Protocol error'"
check "a gone program's foreign page goes" test ! -e /dev/shm/fusion-status.999999
wait "$pid"
"$bin/fusion" ps "$pid" >/dev/null 2>&1
check "the page went with the program" test $? -eq 1
check "no page left" test ! -e "/dev/shm/fusion-status.$pid"
[ $fail -eq 0 ] && echo ok
exit $fail
