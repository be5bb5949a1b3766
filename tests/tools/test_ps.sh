#!/bin/sh
# SPDX-License-Identifier: MIT
# fusion ps lists a session, its members and its shared memory while two
# processes of examples/session share it, and the last one out removes it.
set -eu
bin="$1/bin"
name="ps$$"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# Each waits up to 2 s for the other: ps looks meanwhile.
FUSION_SESSION=$name "$bin/session_tally" 1000 >"$out" &
sleep 0.3
"$bin/fusion" ps | tee /dev/stderr | grep -q "^$name  *ready .* 1$"
"$bin/fusion" ps | grep -q "member [0-9]* *alive *session_tally"
"$bin/fusion" ps | grep -q "shm *count .* 1 holders"
FUSION_SESSION=$name "$bin/session_tally" 1000
wait
grep -q "total 2000 from 2 processes" "$out"
if "$bin/fusion" ps | grep -q "^$name "; then
	echo "session $name left behind" >&2
	exit 1
fi
"$bin/fusion" ps extra 2>/dev/null && exit 1
echo ok
