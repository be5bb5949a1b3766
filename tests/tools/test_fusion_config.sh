#!/bin/sh
# fusion-config and fusion-alchemy.pc, used the way an application's
# Makefile uses them: compile runtime_app.c outside CMake, run it, and
# check what it saw.  First against the build tree, then against a tree
# installed into a temporary prefix.
#   usage: test_fusion_config.sh BUILD_DIR
set -eu

if [ $# -ne 1 ] || [ ! -d "$1" ]; then
	echo "usage: $0 BUILD_DIR" >&2
	exit 2
fi
build=$(cd "$1" && pwd)
src=$(cd "$(dirname "$0")" && pwd)/runtime_app.c
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

fail()
{
	echo "FAIL: $*"
	failures=$((failures + 1))
}

pass()
{
	echo "ok: $*"
}

# expect_eq WHAT ACTUAL EXPECTED
expect_eq()
{
	if [ "$2" = "$3" ]; then
		pass "$1"
	else
		fail "$1: got '$2', expected '$3'"
	fi
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

# check_tree TREE FUSION_CONFIG PKG_CONFIG_DIR
check_tree()
{
	tree=$1
	fc=$2
	cc=$("$fc" --cc)
	if build_app "$tree-alchemy" "$("$fc" --skin=alchemy --cflags)" \
		"$("$fc" --skin=alchemy --ldflags)"; then
		run_app "$tree: fusion-config --skin=alchemy" "$tree-alchemy" \
			"$wrapped" FUSION_BACKEND=live
	fi
	# Control: without the wrapper main sees every argument, so the
	# check above does tell the wrapper's work apart.
	if build_app "$tree-nucleus" "$("$fc" --skin=nucleus --cflags)" \
		"$("$fc" --skin=nucleus --ldflags)"; then
		run_app "$tree: fusion-config --skin=nucleus" "$tree-nucleus" \
			"self=main backend=sim argc=3 argv1=--backend=sim" \
			FUSION_BACKEND=sim
	fi
	if ! command -v pkg-config >/dev/null; then
		echo "skip: $tree: pkg-config is not installed"
		return
	fi
	if ! pc=$(PKG_CONFIG_PATH=$3 pkg-config --cflags --libs \
		fusion-alchemy 2>"$tmp/pc.err"); then
		fail "$tree: pkg-config fusion-alchemy: $(cat "$tmp/pc.err")"
		return
	fi
	if build_app "$tree-pc" "$pc" ""; then
		run_app "$tree: pkg-config fusion-alchemy" "$tree-pc" \
			"$wrapped" FUSION_BACKEND=live
	fi
	expect_eq "$tree: pkg-config --modversion" \
		"$(PKG_CONFIG_PATH=$3 pkg-config --modversion fusion-alchemy)" \
		"$("$fc" --version)"
}

fc=$build/bin/fusion-config
if [ ! -x "$fc" ]; then
	echo "FAIL: no $fc"
	exit 1
fi

# The options.
expect_eq "--skin=native is --skin=alchemy" \
	"$("$fc" --skin=native --cflags --ldflags)" \
	"$("$fc" --skin=alchemy --cflags --ldflags)"
expect_eq "--skin=fusion is --skin=nucleus" \
	"$("$fc" --skin=fusion --ldflags)" "$("$fc" --skin=nucleus --ldflags)"
# Sanitized builds append their -fsanitize flags.
include=$(cd "$(dirname "$src")/../../include" && pwd)
cflags=$("$fc" --skin=alchemy --cflags)
case $cflags in
"-I$include -D_GNU_SOURCE -pthread"*)
	pass "--cflags: $cflags"
	;;
*)
	fail "--cflags: $cflags"
	;;
esac
ld=$("$fc" --skin=alchemy --ldflags)
case $ld in
"-Wl,--wrap=main -L$build/lib -Wl,-rpath,$build/lib -lfusion-bootstrap -lfusion -lpthread"*)
	pass "--skin=alchemy --ldflags: $ld"
	;;
*)
	fail "--skin=alchemy --ldflags: $ld"
	;;
esac
expect_eq "--skin=alchemy --no-auto-init is --skin=nucleus" \
	"$("$fc" --skin=alchemy --no-auto-init --ldflags)" \
	"$("$fc" --skin=nucleus --ldflags)"
expect_eq "--skin=nucleus --auto-init is --skin=alchemy" \
	"$("$fc" --auto-init --ldflags --skin=nucleus)" \
	"$("$fc" --skin=alchemy --ldflags)"
expect_eq "one line per option, in order" \
	"$("$fc" --libdir --ldflags --prefix --skin=nucleus | sed 's/ .*//')" \
	"$(printf '%s\n' "$build/lib" "-L$build/lib" "$build")"
expect_eq "--help" "$("$fc" --help | head -1)" "Usage: fusion-config OPTIONS"
expect_error "unknown option" "$fc" --skin=alchemy --cflags --frobnicate
expect_error "unknown skin" "$fc" --skin=posix --cflags
expect_error "--ldflags without a skin" "$fc" --ldflags
expect_error "--skin without a name" "$fc" --skin

check_tree build "$fc" "$build/lib/pkgconfig"

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
	for f in bin/fusion-config bin/fusion lib/pkgconfig/fusion-alchemy.pc \
		lib/libfusion.so lib/libfusion.a lib/libfusion-bootstrap.a \
		include/fusion/fusion.h include/fusion/runtime.h; do
		[ -e "$prefix/$f" ] || fail "installed tree: no $f"
	done
	ifc=$prefix/bin/fusion-config
	expect_eq "installed --prefix --libdir --cflags" \
		"$("$ifc" --prefix --libdir --cflags | sed 's/ .*//')" \
		"$(printf '%s\n' "$prefix" "$prefix/lib" "-I$prefix/include")"
	case $("$ifc" --skin=alchemy --ldflags) in
	"-Wl,--wrap=main -L$prefix/lib -Wl,-rpath,$prefix/lib -lfusion-bootstrap -lfusion -lpthread"*)
		pass "installed --ldflags"
		;;
	*)
		fail "installed --ldflags: $("$ifc" --skin=alchemy --ldflags)"
		;;
	esac
	check_tree installed "$ifc" "$prefix/lib/pkgconfig"
	# Programs written from the Alchemy documentation alone build
	# against the installed tree and run unchanged (here on sim).
	exdir=$(cd "$(dirname "$0")/../../examples/alchemy" && pwd)
	for ex in periodic_queue pipe_reader; do
		# shellcheck disable=SC2046
		if ! "$cc" $("$ifc" --skin=alchemy --cflags) -o "$tmp/$ex" \
			"$exdir/$ex.c" $("$ifc" --skin=alchemy --ldflags) \
			2>"$tmp/$ex.log"; then
			fail "examples/alchemy/$ex.c: $(cat "$tmp/$ex.log")"
		elif "$tmp/$ex" --backend=sim >"$tmp/$ex.out" 2>&1; then
			pass "examples/alchemy/$ex.c built with fusion-config runs"
		else
			fail "examples/alchemy/$ex.c: $(tail -3 "$tmp/$ex.out")"
		fi
	done
	echo "install test: $(($(date +%s) - start)) s"
fi

if [ "$failures" -ne 0 ]; then
	echo "$failures failure(s)"
	exit 1
fi
echo "all passed"
