#!/bin/sh
# SPDX-License-Identifier: MIT
# Fusion's gdb script (tools/gdb/fusion-gdb.py) on tests/tools/gdb_app.c,
# whose comment describes the state it stops in.
#   test_gdb.sh commands BACKEND APP
#       the script sourced by hand: the output of the info fusion
#       commands, APP stopped in a task on BACKEND (exact on sim but for
#       thread numbers, checked against gdb's; dates and switch counts
#       masked on live too); the one-line refusals; then APP runs to
#       completion under gdb (exit status 0), which the framework's
#       signals must not stop.
#   test_gdb.sh autoload BUILD_DIR APP
#       gdb loads the script by itself, as documented in the README:
#       from a tree installed into a temporary prefix, for gdb_app.c
#       linked with libfusion.so (the objfile-gdb.py name) and linked
#       statically (the .debug_gdb_scripts entry); and from the source
#       tree for the build tree's static APP.
# Exit status 77 (skipped) without gdb, its Python or ptrace.
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
script=$top/tools/gdb/fusion-gdb.py
. "$(dirname "$0")/checks.sh"
# LeakSanitizer cannot run under ptrace: it would fail every run.
ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export ASAN_OPTIONS

skip()
{
	echo "skip: $*"
	exit 77
}

# run_gdb OUT ARGS...: gdb in batch mode, without any init file, its
# output (both streams) in OUT; a time limit, so that a hang fails here.
run_gdb()
{
	out=$1
	shift
	timeout 240 gdb -batch -nx "$@" >"$out" 2>&1 </dev/null
}

# expect_text WHAT FILE: FILE holds exactly the text on stdin.
expect_text()
{
	cat >"$tmp/want"
	if cmp -s "$2" "$tmp/want"; then
		pass "$1"
	else
		fail "$1: got, expected:"
		diff "$2" "$tmp/want" | sed 's/^/    /'
	fi
}

# expect_line WHAT FILE LINE: FILE has LINE (gdb pads some with blanks).
expect_line()
{
	if sed 's/[[:space:]]*$//' "$2" | grep -qxF -- "$3"; then
		pass "$1"
	else
		fail "$1: no line '$3' in:"
		sed 's/^/    /' "$2"
	fi
}

# section NAME FILE: the lines after `echo @NAME`, up to the next @.
section()
{
	sed -n "/^@$1\$/,/^@/p" "$2" | sed '1d;$d'
}

command -v gdb >/dev/null || skip "gdb is not installed"
run_gdb "$tmp/probe" -ex 'python print("python ok")' -ex run \
	--args "$(command -v true)"
grep -qx "python ok" "$tmp/probe" || skip "gdb has no Python: $(head -1 "$tmp/probe")"
grep -q "exited normally" "$tmp/probe" ||
	skip "gdb cannot run a program here: $(tail -1 "$tmp/probe")"

# Collapse the table's padding and mask the instance's address, gdb's
# thread numbers and Linux thread ids (checked against info threads:
# live and the sanitizers create threads of their own) and, on live,
# what depends on timing: the dates and switch counts.
normalise()
{
	sed -E 's/^Fusion instance 0x[0-9a-f]+/Fusion instance ADDR/; s/ +/ /g;
		s/^(\*?) [0-9]+ [0-9]+ /\1 N LWP /' |
		if [ "$backend" = live ]; then
			sed -E 's/^(\*?) N LWP (([^ ]+ ){6})[0-9]+ [0-9]+/\1 N LWP \2S M/;
				s/timeout at [0-9]+/timeout at DATE/; s/^ [0-9]+ - / DATE - /'
		else
			cat
		fi
}

commands()
{
	backend=$1
	app=$2
	out=$tmp/gdb.out
	# shellcheck disable=SC2016 # $_exitcode is gdb's
	FUSION_BACKEND=$backend run_gdb "$out" -ex "source $script" \
		-ex 'info fusion threads' \
		-ex 'break __wrap_main' -ex run -ex 'info fusion objects' \
		-ex delete -ex 'break gdb_app_stop' -ex continue \
		-ex 'echo @threads\n' -ex 'info fusion threads' \
		-ex 'echo @objects\n' -ex 'info fusion objects' \
		-ex 'echo @handles\n' \
		-ex 'printf "%#lx %#lx %#lx %#lx %#lx %#lx\n", lock.handle, done.handle, inbox.handle, tick.handle, owner.handle, waiter.handle' \
		-ex 'echo @time\n' -ex 'info fusion time' \
		-ex 'echo @gdb\n' -ex 'info threads' \
		-ex 'echo @exit\n' -ex delete -ex continue \
		-ex 'echo @status\n' -ex 'output $_exitcode' -ex 'echo \n@end\n' \
		"$app"

	expect_line "before run" "$out" "fusion: the program is not running"
	expect_line "before the runtime" "$out" \
		"fusion: the Fusion runtime is not created yet (runtime_nk is NULL)"

	section threads "$out" | normalise >"$tmp/threads"
	if [ "$backend" = live ]; then
		expect_text "info fusion threads" "$tmp/threads" <<'EOF'
Fusion instance ADDR, backend live: 1 RT CPU, 3 threads
 GDB LWP NAME SKINS CPU BASE CUR STATE SWITCHES MODESW WAITS FOR
 N LWP main alchemy 0 51 51 pending S M done (alchemy.sem)
* N LWP owner alchemy 0 11 21 current S M
 N LWP waiter alchemy 0 21 21 pending+delayed S M lock (alchemy.mutex) owned by owner, timeout at DATE
EOF
	else
		expect_text "info fusion threads" "$tmp/threads" <<'EOF'
Fusion instance ADDR, backend sim: 1 RT CPU, 3 threads
 GDB LWP NAME SKINS CPU BASE CUR STATE SWITCHES MODESW WAITS FOR
 N LWP main alchemy 0 51 51 pending 2 0 done (alchemy.sem)
* N LWP owner alchemy 0 11 21 current 2 0
 N LWP waiter alchemy 0 21 21 pending+delayed 1 0 lock (alchemy.mutex) owned by owner, timeout at 100001000000
EOF
	fi
	# Each row's gdb thread is the Linux thread it names, and the
	# marked row is gdb's selected thread.
	section threads "$out" | sed -E 's/ +/ /g' |
		sed -nE 's/^(\*?) ([0-9]+) ([0-9]+) ([^ ]+) .*/\1 \2 \3 \4/p' >"$tmp/rows"
	while read -r mark num lwp name; do
		if [ "$mark" != "*" ]; then
			name=$lwp
			lwp=$num
			num=$mark
			mark=" "
		fi
		if section gdb "$out" |
			grep -qE "^\\$mark +$num +Thread 0x[0-9a-f]+ \\(LWP $lwp\\)"; then
			pass "$name is gdb's thread $num, LWP $lwp"
		else
			fail "$name: no '$mark $num ... (LWP $lwp)' in info threads:"
			section gdb "$out" | sed 's/^/    /'
		fi
	done <"$tmp/rows"
	[ -s "$tmp/rows" ] || fail "no thread rows"

	section objects "$out" | normalise >"$tmp/objects"
	expect_text "info fusion objects" "$tmp/objects" <<EOF
Fusion instance ADDR, backend $backend: 7 objects in the registry
alchemy:
 CLASS NAME HANDLE STATE
 task - 0x100001000 thread main
 mutex lock 0x300001001 owner owner, depth 1, waiters waiter
 sem done 0x200001002 count 0, waiters main
 queue inbox 0x600001003 no waiters
 alarm tick 0x900001004
 task owner 0x100001006 thread owner
 task waiter 0x100001008 thread waiter
EOF
	section handles "$out" >"$tmp/handles"
	expect_text "the handles are the descriptors'" "$tmp/handles" <<'EOF'
0x300001001 0x200001002 0x600001003 0x900001004 0x100001006 0x100001008
EOF

	section time "$out" | normalise >"$tmp/time"
	if [ "$backend" = live ]; then
		expect_text "info fusion time" "$tmp/time" <<'EOF'
Fusion instance ADDR, backend live: dates in ns of CLOCK_MONOTONIC
cpu0: 2 timers
 DATE PERIOD TIMER
 DATE - tick
 DATE - timeout of waiter
EOF
	else
		expect_text "info fusion time" "$tmp/time" <<'EOF'
Fusion instance ADDR, backend sim: virtual date 1000000 ns
cpu0: 2 timers
 DATE IN PERIOD TIMER
 1001000000 +1000000000 - tick
 100001000000 +100000000000 - timeout of waiter
EOF
	fi
	timeout=$(section threads "$out" | sed -nE 's/.*timeout at ([0-9]+)$/\1/p')
	timer=$(section time "$out" | sed -nE 's/^ +([0-9]+) .*timeout of waiter$/\1/p')
	if [ -n "$timeout" ] && [ "$timeout" = "$timer" ]; then
		pass "the waiter's timeout is its timer's date"
	else
		fail "the waiter's timeout '$timeout' is not its timer's '$timer'"
	fi

	section status "$out" >"$tmp/status"
	expect_text "runs to completion under gdb, exit status 0" "$tmp/status" <<'EOF'
0
EOF
	if grep "received signal" "$out" >"$tmp/signals"; then
		fail "gdb stopped on a signal: $(cat "$tmp/signals")"
	else
		pass "gdb stopped on no signal"
	fi

	run_gdb "$tmp/other" -ex "source $script" -ex 'info fusion threads' \
		"$(command -v sh)"
	expect_line "another program" "$tmp/other" \
		"fusion: not a Fusion program (no runtime_nk in the debug information)"
}

# loads WHAT OUT: gdb auto-loaded the script and its command worked.
loads()
{
	if sed -E 's/ +/ /g' "$2" |
		grep -qxF " mutex lock 0x300001001 owner owner, depth 1, waiters waiter"
	then
		pass "$1: info fusion objects"
	else
		fail "$1: info fusion objects did not work:"
		sed 's/^/    /' "$2"
	fi
}

# autoload_run OUT APP GDB-ARGS...: stop APP (on sim) in the task, list
# the auto-loaded scripts and the objects.
autoload_run()
{
	out=$1
	app=$2
	shift 2
	FUSION_BACKEND=sim run_gdb "$out" -iex 'set auto-load safe-path /' "$@" \
		-ex 'break gdb_app_stop' -ex run \
		-ex 'info auto-load python-scripts' -ex 'info fusion objects' \
		-ex kill "$app"
}

autoload()
{
	build=$1
	app=$2
	prefix=$tmp/prefix
	if ! "${CMAKE:-cmake}" --install "$build" --prefix "$prefix" \
		>"$tmp/install.log" 2>&1; then
		fail "cmake --install: $(cat "$tmp/install.log")"
		return
	fi
	prefix=$(cd "$prefix" && pwd -P)
	ifc=$prefix/bin/fusion-config
	version=$("$ifc" --version)
	scripts=$prefix/share/gdb/auto-load
	for f in "lib/libfusion.so.$version" lib/libfusion.so.0 \
		"share/gdb/auto-load$prefix/lib/libfusion.so.$version-gdb.py" \
		share/gdb/auto-load/fusion-gdb.py; do
		if [ -e "$prefix/$f" ]; then
			pass "installed: $f"
		else
			fail "installed tree: no $f"
		fi
	done

	cc=$("$ifc" --cc)
	cflags=$("$ifc" --skin=alchemy --cflags)
	ldflags=$("$ifc" --skin=alchemy --ldflags)
	# shellcheck disable=SC2086 # flags: words, split on purpose
	if "$cc" -g $cflags -o "$tmp/dynamic" "$top/tests/tools/gdb_app.c" \
		$ldflags 2>"$tmp/cc.log"; then
		autoload_run "$tmp/dynamic.out" "$tmp/dynamic" \
			-iex "set auto-load scripts-directory $scripts"
		expect_line "linked with libfusion.so: its objfile script" \
			"$tmp/dynamic.out" \
			"$(printf 'Yes     %s' "$scripts$prefix/lib/libfusion.so.$version-gdb.py")"
		loads "linked with libfusion.so" "$tmp/dynamic.out"
	else
		fail "cannot build gdb_app.c: $(cat "$tmp/cc.log")"
	fi

	case $ldflags in
	*-fsanitize*)
		echo "skip: static link: sanitized build"
		;;
	*)
		# shellcheck disable=SC2086
		if ! printf 'int main(void) { return 0; }\n' |
			"$cc" -static -x c -o "$tmp/probe" - 2>/dev/null; then
			echo "skip: static link: no static C library"
		elif "$cc" -static -g $cflags -o "$tmp/static" \
			"$top/tests/tools/gdb_app.c" $ldflags 2>"$tmp/cc.log"; then
			autoload_run "$tmp/static.out" "$tmp/static" \
				-iex "directory $scripts"
			expect_line "linked statically: the section's script" \
				"$tmp/static.out" \
				"$(printf '\tfull name: %s' "$scripts/fusion-gdb.py")"
			loads "linked statically" "$tmp/static.out"
		else
			fail "cannot link gdb_app.c statically: $(cat "$tmp/cc.log")"
		fi
		;;
	esac

	autoload_run "$tmp/tree.out" "$app" -iex "directory $top/tools/gdb"
	expect_line "build tree: the section's script from the source tree" \
		"$tmp/tree.out" "$(printf '\tfull name: %s' "$script")"
	loads "build tree" "$tmp/tree.out"
}

case ${1:-} in
commands)
	[ $# -eq 3 ] || exit 2
	commands "$2" "$3"
	;;
autoload)
	[ $# -eq 3 ] || exit 2
	autoload "$2" "$3"
	;;
*)
	echo "usage: $0 commands BACKEND APP | autoload BUILD_DIR APP" >&2
	exit 2
	;;
esac

checks_end
echo "all passed"
