#!/bin/sh
# SPDX-License-Identifier: MIT
# examples/rtai/periodic_mbx.c as RTAI programs are built: the sampler
# and the display in one process (on sim: every report, none late), and
# as two processes of one session on live, the sampler finding the
# display's mailbox by name: every report arrives.
set -eu
bin="$1/bin"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$bin/rtai_periodic_mbx" --backend=sim >"$out"
grep -q "1000 reports of 1000, 0 overruns, worst lateness 0 ns" "$out"
name="mbx$$"
"$bin/rtai_periodic_mbx" --backend=live --session=$name display >"$out" &
display=$!
"$bin/rtai_periodic_mbx" --backend=live --session=$name sampler
wait $display
cat "$out"
grep -q "1000 reports of 1000" "$out"
if "$bin/fusion" ps | grep -q "^$name "; then
	echo "session $name left behind" >&2
	exit 1
fi
echo ok
