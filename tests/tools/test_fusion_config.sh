#!/bin/sh
# SPDX-License-Identifier: MIT
# fusion-config and the fusion-API.pc files, used the way an
# application's Makefile uses them: compile runtime_app.c outside CMake,
# run it, and check what it saw; for the nucleus and every skin of
# skins.cmake, dynamically and statically linked.  First against the
# build tree, then against a tree installed into a temporary prefix,
# against which the Alchemy examples and the Xenomai-style programs of
# tests/alchemy/compat/ are built too, as their users build them, and
# run (the compat programs on sim and on live: each must exit 0).
#   usage: test_fusion_config.sh BUILD_DIR [SKIN:INCLUDE_SUBDIR...]
# (CMake passes every skin of the list with its include subdirectory.)
# $CFLAGS, if set, comes before fusion-config's flags in those user
# builds, as in a Makefile; CTest passes the project's warnings there.
set -eu

if [ $# -lt 1 ] || [ ! -d "$1" ]; then
	echo "usage: $0 BUILD_DIR [SKIN:INCLUDE_SUBDIR...]" >&2
	exit 2
fi
build=$(cd "$1" && pwd)
shift
skins="$*"
top=$(cd "$(dirname "$0")/../.." && pwd)
src=$top/tests/tools/runtime_app.c
. "$(dirname "$0")/checks.sh"

# expect_eq WHAT ACTUAL EXPECTED
expect_eq()
{
	if [ "$2" = "$3" ]; then
		pass "$1"
	else
		fail "$1: got '$2', expected '$3'"
	fi
}

# expect_prefix WHAT ACTUAL PREFIX: sanitized builds append their
# -fsanitize flags to fusion-config's.
expect_prefix()
{
	case $2 in
	"$3"*) pass "$1: $2" ;;
	*) fail "$1: got '$2', expected '$3...'" ;;
	esac
}

# expect_error WHAT ARGS...: exit status 1, a message on stderr, nothing
# on stdout.
expect_error()
{
	what=$1
	shift
	status=0
	"$@" >"$tmp/out" 2>"$tmp/err" || status=$?
	if [ "$status" -eq 1 ] && [ ! -s "$tmp/out" ] && [ -s "$tmp/err" ]; then
		pass "$what: exit 1, '$(cat "$tmp/err")'"
	else
		fail "$what: exit $status, stdout '$(cat "$tmp/out")'," \
			"stderr '$(cat "$tmp/err")'"
	fi
}

# build_app NAME CFLAGS LDFLAGS: compile runtime_app.c into $tmp/NAME.
# The flags are split on blanks, as $(shell fusion-config ...) is.
build_app()
{
	# shellcheck disable=SC2086
	if "$cc" $2 -o "$tmp/$1" "$src" $3 2>"$tmp/$1.log"; then
		return 0
	fi
	fail "$1: cannot compile: $(cat "$tmp/$1.log")"
	return 1
}

# user_build NAME SOURCE [SKIN]: compile and link SOURCE into $tmp/NAME
# with the installed tree's fusion-config, as a user does:
#   cc $CFLAGS $(fusion-config --skin=alchemy --cflags) SOURCE \
#      $(fusion-config --skin=alchemy --ldflags)
user_build()
{
	# shellcheck disable=SC2046,SC2086
	if "$cc" ${CFLAGS:-} $("$ifc" --skin="${3:-alchemy}" --cflags) \
		-o "$tmp/$1" "$2" $("$ifc" --skin="${3:-alchemy}" --ldflags) \
		2>"$tmp/$1.log"; then
		return 0
	fi
	fail "${2#"$top"/}: cannot build: $(cat "$tmp/$1.log")"
	return 1
}

# user_run WHAT COMMAND...: COMMAND must exit 0.  A time limit, so that
# a program that hangs fails under its own name instead of stopping the
# whole script at CTest's timeout.
user_run()
{
	what=$1
	shift
	status=0
	timeout 60 "$@" >"$tmp/run.out" 2>&1 || status=$?
	case $status in
	0) pass "$what" ;;
	124) fail "$what: still running after 60 s: $(tail -3 "$tmp/run.out")" ;;
	*) fail "$what: exit $status: $(tail -3 "$tmp/run.out")" ;;
	esac
}

# run_app WHAT NAME EXPECTED [ENV=VALUE...]: run `NAME --backend=sim
# keep` and compare its one line of output.
run_app()
{
	what=$1
	app=$2
	expected=$3
	shift 3
	status=0
	out=$(env "$@" "$tmp/$app" --backend=sim keep 2>"$tmp/$app.err") ||
		status=$?
	if [ "$status" -ne 0 ]; then
		fail "$what: exit $status: $out $(cat "$tmp/$app.err")"
		return
	fi
	expect_eq "$what" "$out" "$expected"
}

# The wrapper consumed --backend=sim (argc 2) and applied it before the
# instance existed: FUSION_BACKEND=live in the environment loses.
wrapped="self=main backend=sim argc=2 argv1=keep"
# Control: without the wrapper main sees every argument, so the check
# above does tell the wrapper's work apart.
unwrapped="self=main backend=sim argc=3 argv1=--backend=sim"

# run_api WHAT NAME API: run_app with what an app of API must print.
# Skins get the wrapper: --backend=sim wins over FUSION_BACKEND=live.
# The nucleus does not: FUSION_BACKEND=sim makes the run comparable.
run_api()
{
	if [ "$3" = nucleus ]; then
		run_app "$1" "$2" "$unwrapped" FUSION_BACKEND=sim
	else
		run_app "$1" "$2" "$wrapped" FUSION_BACKEND=live
	fi
}

# Blanks folded, so that two spellings of the same flags compare equal.
words()
{
	# shellcheck disable=SC2048,SC2086
	echo $*
}

# check_api TREE FUSION_CONFIG PKG_CONFIG_DIR API: build runtime_app
# with the flags of fusion-config and of fusion-API.pc, dynamically and
# statically, and run it.
check_api()
{
	tree=$1
	config=$2
	api=$4
	cflags=$("$config" --skin="$api" --cflags)
	ldflags=$("$config" --skin="$api" --ldflags)
	if build_app "$tree-$api" "$cflags" "$ldflags"; then
		run_api "$tree: fusion-config --skin=$api" "$tree-$api" "$api"
	fi
	case $ldflags in
	*-fsanitize*)
		echo "skip: $tree: --skin=$api, static: sanitized build"
		;;
	*)
		if [ -z "$static_ok" ]; then
			echo "skip: $tree: --skin=$api, static: no static C library"
		elif build_app "$tree-$api-static" "-static $cflags" "$ldflags"
		then
			run_api "$tree: fusion-config --skin=$api, static" \
				"$tree-$api-static" "$api"
		fi
		;;
	esac
	if [ -z "$pkg_config" ]; then
		return
	fi
	if ! pc_cflags=$(PKG_CONFIG_PATH=$3 pkg-config --cflags \
		"fusion-$api" 2>"$tmp/pc.err") ||
		! pc_libs=$(PKG_CONFIG_PATH=$3 pkg-config --libs \
			"fusion-$api" 2>"$tmp/pc.err"); then
		fail "$tree: pkg-config fusion-$api: $(cat "$tmp/pc.err")"
		return
	fi
	expect_eq "$tree: fusion-$api.pc gives fusion-config's flags" \
		"$(words "$pc_cflags" "$pc_libs")" "$(words "$cflags" "$ldflags")"
	if build_app "$tree-$api-pc" "$pc_cflags" "$pc_libs"; then
		run_api "$tree: pkg-config fusion-$api" "$tree-$api-pc" "$api"
	fi
	expect_eq "$tree: pkg-config --modversion fusion-$api" \
		"$(PKG_CONFIG_PATH=$3 pkg-config --modversion "fusion-$api")" \
		"$("$config" --version)"
}

# check_headers TREE FUSION_CONFIG SKIN INCLUDE_DIR: every header of
# the skin compiles by its bare name (#include <task.h>) with the
# skin's --cflags, as ported code includes it.
check_headers()
{
	for h in "$4"/*.h; do
		echo "#include <${h##*/}>" >"$tmp/header.c"
		# shellcheck disable=SC2046
		if "$cc" $("$2" --skin="$3" --cflags) -Werror -c \
			-o "$tmp/header.o" "$tmp/header.c" 2>"$tmp/header.log"
		then
			pass "$1: #include <${h##*/}> with --skin=$3 --cflags"
		else
			fail "$1: #include <${h##*/}>: $(cat "$tmp/header.log")"
		fi
	done
}

# check_tree TREE FUSION_CONFIG PKG_CONFIG_DIR INCLUDE_DIR
check_tree()
{
	cc=$("$2" --cc)
	check_api "$1" "$2" "$3" nucleus
	for s in $skins; do
		check_api "$1" "$2" "$3" "${s%%:*}"
		check_headers "$1" "$2" "${s%%:*}" "$4/${s#*:}"
	done
}

pkg_config=y
if ! command -v pkg-config >/dev/null; then
	echo "skip: pkg-config is not installed"
	pkg_config=
fi

fc=$build/bin/fusion-config
if [ ! -x "$fc" ]; then
	echo "FAIL: no $fc"
	exit 1
fi

# A static link needs every library libfusion.a uses (-lm for one).  It
# is not possible with sanitizers, nor without a static C library.
static_ok=
if printf 'int main(void) { return 0; }\n' |
	"$("$fc" --cc)" -static -x c -o "$tmp/static-probe" - 2>/dev/null; then
	static_ok=y
fi

# The options.
expect_eq "--skin=fusion is --skin=nucleus" \
	"$("$fc" --skin=fusion --ldflags)" "$("$fc" --skin=nucleus --ldflags)"
include=$top/include
libs="-L$build/lib -Wl,-rpath,$build/lib"
expect_prefix "--skin=nucleus --cflags" "$("$fc" --skin=nucleus --cflags)" \
	"-I$include -D_GNU_SOURCE -pthread"
expect_prefix "--skin=nucleus --ldflags" "$("$fc" --skin=nucleus --ldflags)" \
	"$libs -lfusion -lpthread -lm"
for s in $skins; do
	skin=${s%%:*}
	expect_prefix "--skin=$skin --cflags" "$("$fc" --skin="$skin" --cflags)" \
		"-I$include -I$include/${s#*:} -D_GNU_SOURCE -pthread"
	expect_prefix "--skin=$skin --ldflags" \
		"$("$fc" --skin="$skin" --ldflags)" \
		"-Wl,--wrap=main $libs -lfusion-bootstrap -lfusion -lpthread -lm"
	expect_eq "--$skin is --skin=$skin" "$("$fc" "--$skin" --ldflags)" \
		"$("$fc" --skin="$skin" --ldflags)"
	expect_eq "--skin=$skin --no-auto-init is --skin=nucleus" \
		"$("$fc" --skin="$skin" --no-auto-init --ldflags)" \
		"$("$fc" --skin=nucleus --ldflags)"
	expect_eq "--skin=nucleus --auto-init is --skin=$skin" \
		"$("$fc" --auto-init --ldflags --skin=nucleus)" \
		"$("$fc" --skin="$skin" --ldflags)"
	if "$fc" --help | grep -q "^ *${skin}[ ,]"; then
		pass "--help lists $skin"
	else
		fail "--help does not list $skin"
	fi
done
expect_eq "--skin=native is --skin=alchemy" \
	"$("$fc" --skin=native --cflags --ldflags)" \
	"$("$fc" --skin=alchemy --cflags --ldflags)"
expect_eq "one line per option, in order" \
	"$("$fc" --libdir --ldflags --prefix --skin=nucleus | sed 's/ .*//')" \
	"$(printf '%s\n' "$build/lib" "-L$build/lib" "$build")"
expect_eq "--help" "$("$fc" --help | head -1)" "Usage: fusion-config OPTIONS"
expect_error "unknown option" "$fc" --skin=alchemy --cflags --frobnicate
expect_error "unknown skin" "$fc" --skin=posix --cflags
expect_error "--ldflags without a skin" "$fc" --ldflags
expect_error "--skin without a name" "$fc" --skin

check_tree build "$fc" "$build/lib/pkgconfig" "$include"

# An installed tree.  cmake --install writes only the manifest and
# the install-time variants of fusion-config and the .pc into the build
# tree.
start=$(date +%s)
prefix=$tmp/prefix
if ! "${CMAKE:-cmake}" --install "$build" --prefix "$prefix" \
	>"$tmp/install.log" 2>&1; then
	fail "cmake --install: $(cat "$tmp/install.log")"
else
	pass "cmake --install --prefix $prefix ($(($(date +%s) - start)) s)"
	for f in bin/fusion-config bin/fusion lib/pkgconfig/fusion-nucleus.pc \
		lib/libfusion.so lib/libfusion.a lib/libfusion-bootstrap.a \
		include/fusion/fusion.h include/fusion/runtime.h; do
		[ -e "$prefix/$f" ] || fail "installed tree: no $f"
	done
	for s in $skins; do
		for f in "lib/pkgconfig/fusion-${s%%:*}.pc" "include/${s#*:}"; do
			[ -e "$prefix/$f" ] || fail "installed tree: no $f"
		done
	done
	ifc=$prefix/bin/fusion-config
	expect_eq "installed --prefix --libdir --cflags" \
		"$("$ifc" --prefix --libdir --cflags | sed 's/ .*//')" \
		"$(printf '%s\n' "$prefix" "$prefix/lib" "-I$prefix/include")"
	expect_prefix "installed --skin=nucleus --ldflags" \
		"$("$ifc" --skin=nucleus --ldflags)" \
		"-L$prefix/lib -Wl,-rpath,$prefix/lib -lfusion -lpthread -lm"
	check_tree installed "$ifc" "$prefix/lib/pkgconfig" "$prefix/include"
	# Programs written from the Alchemy documentation alone build
	# against the installed tree and run unchanged (here on sim).
	for ex in periodic_queue pipe_reader; do
		if user_build "$ex" "$top/examples/alchemy/$ex.c"; then
			user_run "examples/alchemy/$ex.c on sim (--backend=sim)" \
				"$tmp/$ex" --backend=sim
		fi
	done
	if user_build sampler "$top/examples/psos/sampler.c" psos; then
		user_run "examples/psos/sampler.c on sim (--backend=sim)" \
			"$tmp/sampler" --backend=sim
	fi
	# VxWorks entry points are FUNCPTR, which casts every task body:
	# GCC warns of the casts that VxWorks code is made of.
	for ex in sensor_logger mixed_alchemy; do
		if CFLAGS="${CFLAGS:-} -Wno-cast-function-type" \
			user_build "vx-$ex" "$top/examples/vxworks/$ex.c" vxworks; then
			user_run "examples/vxworks/$ex.c on sim (--backend=sim)" \
				"$tmp/vx-$ex" --backend=sim
		fi
	done
	# Xenomai 3 programs, unmodified, on both backends.  Live without
	# SCHED_FIFO falls back (the backend says so on stderr) and keeps
	# the order of events these programs check: they must pass there
	# too, as the live tests do in their FUSION_NO_RT=1 runs.
	for prog in "$top"/tests/alchemy/compat/*.c; do
		name=${prog##*/}
		name=compat-${name%.c}
		if user_build "$name" "$prog"; then
			for backend in sim live; do
				user_run "${prog#"$top"/} on $backend" \
					env FUSION_BACKEND="$backend" "$tmp/$name"
			done
		fi
	done
	echo "install test: $(($(date +%s) - start)) s"
fi

checks_end
echo "all passed"
