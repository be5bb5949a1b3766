#!/bin/sh
# SPDX-License-Identifier: MIT
# fusion ps lists a session, its members (a killed one as dead) and its
# shared memory while processes of examples/session share it, and the
# last one out removes it; a member with a nucleus (tools_ps_app) shows
# its threads and skin objects, and its instance's block in the session.
set -eu
bin="$1/bin"
name="ps$$"
out=$(mktemp)
# The background program goes with the script: a check failing while
# it waits (a server for its client) fails the test, not its timeout.
bg=""
trap 'rm -f "$out"; [ -z "$bg" ] || kill $bg 2>/dev/null || true' EXIT
# fusion ps into $out until it shows $1 (5 s at most): fails if never.
ps_until() {
	for i in $(seq 50); do
		"$bin/fusion" ps >"$out"
		grep -q "$1" "$out" && return 0
		sleep 0.1
	done
	return 1
}
# Each waits up to 2 s for the other: ps looks meanwhile.
FUSION_SESSION=$name "$bin/session_tally" 1000 >"$out" &
bg=$!
sleep 0.3
"$bin/fusion" ps | tee /dev/stderr | grep -q "^$name  *ready .* 1$"
"$bin/fusion" ps | grep -q "member [0-9]* *alive *session_tally"
"$bin/fusion" ps | grep -q "shm *count .* 1 holders"
FUSION_SESSION=$name "$bin/session_tally" 1000
wait
bg=""
grep -q "total 2000 from 2 processes" "$out"
if "$bin/fusion" ps | grep -q "^$name "; then
	echo "session $name left behind" >&2
	exit 1
fi
# A member killed shows dead until another one finds it gone (at its
# join or leave): the last one out removes the session all the same.
FUSION_SESSION=$name "$bin/session_tally" 2000000000 >/dev/null &
victim=$!
sleep 0.3
kill -9 $victim
wait $victim 2>/dev/null || true
"$bin/fusion" ps | grep -q "member $victim *dead"
FUSION_SESSION=$name "$bin/session_tally" 10 >/dev/null
if "$bin/fusion" ps | grep -q "^$name "; then
	echo "session $name left behind by the survivor" >&2
	exit 1
fi
# A member with a nucleus: its threads and skin objects under it, read
# from its status page: "waiter" (Alchemy priority 20: nucleus 21)
# pends on "gate", which counts it.
FUSION_SESSION=$name "$bin/tools_ps_app" 4000 &
app=$!
bg=$app
ps_until "waiting *gate"
cat "$out" >&2
grep -q "member $app *alive *tools_ps_app" "$out"
# Its nucleus instance is the session's (it is the one member with one).
grep -q "nucleus of member $app " "$out"
grep -qE "^ *[0-9]+ waiter +alchemy +21 +21 +0 +waiting +gate " "$out"
grep -qE "^ *[0-9]+ main " "$out"
grep -qE "^alchemy +sem +gate +0 +- +- +1 +0$" "$out"
# A member that does not answer (here its page is gone; a stopped or
# stuck program's goes unanswered the same): its threads are read from
# the session's instance itself, without the Linux ids its page tells.
rm -f "/dev/shm/fusion-status.$app"
"$bin/fusion" ps >"$out"
cat "$out" >&2
grep -q "no answer; its threads in the session's instance:" "$out"
grep -qE "^ *0 waiter +alchemy +21 +21 +0 +waiting +gate " "$out"
grep -qE "^ *0 main " "$out"
wait $app
bg=""
# Two programs in one instance (examples/session/session_echo.c): the
# server's task is listed under the server, waiting for a message; the
# client, another process, binds it and gets its answers.
FUSION_SESSION=$name "$bin/session_echo" server &
server=$!
bg=$server
# Listed dormant from its creation, it waits once started: a slow
# start (ThreadSanitizer) is seen dormant first.
ps_until "echo  *alchemy .*waiting"
cat "$out" >&2
grep -qE "^ *[0-9]+ echo +alchemy +51 +51 .*waiting" "$out"
FUSION_SESSION=$name "$bin/session_echo" client >"$out"
wait $server
bg=""
cat "$out" >&2
grep -qx "hello -> HELLO" "$out"
grep -qx "process -> PROCESS" "$out"
grep -qx "bye -> BYE" "$out"
if "$bin/fusion" ps | grep -q "^$name "; then
	echo "session $name left behind by session_echo" >&2
	exit 1
fi
# A tool joins a session with --session, and its instance is the
# session's as a program's is.
"$bin/fusion" latency --session=$name -T 2 -q >/dev/null &
tool=$!
bg=$tool
ps_until "nucleus of member $tool "
wait $tool
bg=""
if "$bin/fusion" ps | grep -q "^$name "; then
	echo "session $name left behind by fusion latency" >&2
	exit 1
fi
"$bin/fusion" ps extra 2>/dev/null && exit 1
echo ok
