#!/bin/sh
# SPDX-License-Identifier: MIT
# The FUSION_PGO build option (cmake/pgo.cmake): a bad value, and "use"
# with no profile, stop the configuration with one message naming what
# is wrong; "generate" builds an instrumented library whose programs
# write a profile (the fusion tool's latency test on sim here), and
# "use" builds the library again from it.
#   usage: test_pgo.sh SOURCE_DIR
set -u

if [ $# -ne 1 ] || [ ! -f "$1/cmake/pgo.cmake" ]; then
	echo "usage: $0 SOURCE_DIR" >&2
	exit 2
fi
src=$1
cmake=${CMAKE:-cmake}
. "$(dirname "$0")/checks.sh"

# refused NAME TEXT ARGS...: configuring with ARGS fails and says TEXT.
refused()
{
	name=$1 text=$2
	shift 2
	if "$cmake" -S "$src" -B "$tmp/$name" "$@" >"$tmp/$name.log" 2>&1; then
		fail "$name: configured"
	elif ! grep -q "$text" "$tmp/$name.log"; then
		fail "$name: no \"$text\" in: $(cat "$tmp/$name.log")"
	else
		pass "$name refused"
	fi
}

refused bogus "FUSION_PGO=bogus: generate, use or empty" -DFUSION_PGO=bogus
refused no-profile "FUSION_PGO=use: no profile in $tmp/none" \
	-DFUSION_PGO=use -DFUSION_PGO_DIR="$tmp/none"

b=$tmp/build
stage()
{
	"$cmake" -S "$src" -B "$b" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DFUSION_PGO="$1" >"$tmp/$1.log" 2>&1 &&
		"$cmake" --build "$b" --target fusion -j2 >>"$tmp/$1.log" 2>&1
}

if ! stage generate; then
	fail "generate: $(tail -20 "$tmp/generate.log")"
else
	FUSION_BACKEND=sim "$b/bin/fusion" latency --backend=sim -T 1 -q \
		>/dev/null 2>&1 || fail "the instrumented fusion latency failed"
	if ls "$b/pgo" | grep -q 'nucleus#sched\.c\.gcda$'; then
		pass "the training run wrote the nucleus's profile"
	else
		fail "no profile of src/nucleus/sched.c in $b/pgo"
	fi
	if ! stage use; then
		fail "use: $(tail -20 "$tmp/use.log")"
	elif ! grep -q -- "-fprofile-use=$b/pgo" "$b/compile_commands.json"; then
		fail "use: the library was not compiled with the profile"
	else
		pass "the library built again from the profile"
	fi
fi

checks_end
