#!/bin/sh
# SPDX-License-Identifier: MIT
# The Debian packages of `make deb`, used as their users use them: the
# four are unpacked into a temporary root, their contents and relations
# checked, then an Alchemy example (from fusion-doc) is built against
# that root three ways, with pkg-config, with CMake's find_package and
# with fusion-config, and each program runs on sim.
#   usage: test_packages.sh DIR   (DIR: where make deb left the .deb)
# `make test-packages` runs it after `make deb`; it is no CTest test
# since the packages take minutes to build.
#
# The root is made with dpkg -x, not debootstrap: no root privilege, no
# network and seconds instead of minutes, at the cost of using the
# host's compiler and C library.  Paths are moved into the root the way
# each tool allows: pkg-config --define-variable=prefix, CMake's
# CMAKE_PREFIX_PATH (its package files are relative to themselves), and
# /usr replaced in fusion-config's output; ldd then checks that the
# programs load libfusion.so.0 from the root, not from the host.
set -eu

if [ $# -ne 1 ] || [ ! -d "$1" ]; then
	echo "usage: $0 DIR" >&2
	exit 2
fi
debs=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root
failures=0

# result ok|FAIL WHAT: one line per check; a FAIL fails the test.
result()
{
	echo "$1: $2"
	[ "$1" = ok ] || failures=$((failures + 1))
}

# The one .deb of package $1.
deb()
{
	set -- "$debs/$1"_*.deb
	[ $# -eq 1 ] && [ -e "$1" ] || return 1
	echo "$1"
}

for package in libfusion0 libfusion-dev fusion-tools fusion-doc; do
	if file=$(deb "$package"); then
		dpkg -x "$file" "$root"
		result ok "unpacked $package"
	else
		result FAIL "no single ${package}_*.deb in $debs"
	fi
done
[ "$failures" -eq 0 ] || exit 1

version=$(dpkg-deb -f "$(deb libfusion0)" Version)
ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
libdir=usr/lib/$ma
for f in "$libdir/libfusion.so.0" "$libdir/libfusion.so.0.1.0" \
	"$libdir/libfusion.so" "$libdir/libfusion.a" \
	"$libdir/libfusion-bootstrap.a" "$libdir/pkgconfig/fusion-nucleus.pc" \
	"$libdir/pkgconfig/fusion-alchemy.pc" \
	"$libdir/cmake/Fusion/FusionConfig.cmake" \
	"$libdir/cmake/Fusion/FusionConfigVersion.cmake" \
	usr/include/fusion/fusion.h usr/include/alchemy/task.h \
	usr/bin/fusion-config usr/bin/fusion \
	usr/share/gdb/auto-load/fusion-gdb.py \
	"usr/share/gdb/auto-load/$libdir/libfusion.so.0.1.0-gdb.py" \
	usr/share/doc/fusion-doc/examples/alchemy/periodic_queue.c; do
	if [ -e "$root/$f" ]; then
		result ok "/$f"
	else
		result FAIL "no /$f"
	fi
done
# The runtime package holds the library alone, so that a later SONAME's
# package can be installed beside it.
others=$(dpkg-deb -c "$(deb libfusion0)" | awk '{print $6}' |
	grep -v -e '/$' -e "^\./$libdir/libfusion\.so\.0" \
		-e '^\./usr/share/doc/libfusion0/' || true)
if [ -z "$others" ]; then
	result ok "libfusion0 holds the library only"
else
	result FAIL "libfusion0 also holds: $others"
fi
depends=$(dpkg-deb -f "$(deb libfusion-dev)" Depends)
case ", $depends," in
*", libfusion0 (= $version),"*) result ok "libfusion-dev depends on libfusion0 (= $version)" ;;
*) result FAIL "libfusion-dev depends on '$depends'" ;;
esac

example=$root/usr/share/doc/fusion-doc/examples/alchemy/periodic_queue.c
expected="producer: 2000 samples sent every 1000 us, 0 dropped, 0 overruns
worker:   2000 received, 0 out of order, delay avg 0 ns, worst 0 ns"

# check_program HOW PROGRAM [ENV...]: PROGRAM loads the root's library
# and prints the example's exact summary on sim.
check_program()
{
	how=$1
	program=$2
	shift 2
	loaded=$(env "$@" ldd "$program" | awk '$1 == "libfusion.so.0" {print $3}')
	if [ "$loaded" = "$root/$libdir/libfusion.so.0" ]; then
		result ok "$how: libfusion.so.0 from the root"
	else
		result FAIL "$how: libfusion.so.0 from '$loaded'"
	fi
	if out=$(env "$@" FUSION_BACKEND=sim "$program" 2>"$tmp/stderr"); then
		if [ "$out" = "$expected" ]; then
			result ok "$how: runs on sim"
		else
			result FAIL "$how: printed '$out'"
		fi
	else
		result FAIL "$how: exit status $?: $(cat "$tmp/stderr")"
	fi
}

# pkg-config, its search path limited to the root.
pc()
{
	PKG_CONFIG_LIBDIR=$root/$libdir/pkgconfig pkg-config \
		--define-variable=prefix="$root/usr" "$@"
}
# shellcheck disable=SC2046 # flags: words, split on purpose
if cc $(pc --cflags fusion-alchemy) "$example" $(pc --libs fusion-alchemy) \
	-o "$tmp/by-pkg-config" 2>"$tmp/cc.log"; then
	check_program pkg-config "$tmp/by-pkg-config"
else
	result FAIL "pkg-config build: $(cat "$tmp/cc.log")"
fi

# CMake's find_package, with the root first in the search path.
if cmake -S "$here/consumer" -B "$tmp/cmake" -DCMAKE_PREFIX_PATH="$root/usr" \
	-DFUSION_COMPONENTS="nucleus;alchemy" -DFUSION_EXAMPLE="$example" \
	>"$tmp/cmake.log" 2>&1 &&
	cmake --build "$tmp/cmake" >>"$tmp/cmake.log" 2>&1; then
	check_program "CMake find_package(Fusion COMPONENTS nucleus alchemy)" \
		"$tmp/cmake/example"
else
	result FAIL "CMake build: $(cat "$tmp/cmake.log")"
fi
# A component the package lacks fails the configuration, naming it.
if cmake -S "$here/consumer" -B "$tmp/cmake-bogus" \
	-DCMAKE_PREFIX_PATH="$root/usr" -DFUSION_COMPONENTS=bogus \
	-DFUSION_EXAMPLE="$example" >"$tmp/bogus.log" 2>&1; then
	result FAIL "find_package(Fusion COMPONENTS bogus) succeeded"
elif grep -q "Fusion has no component 'bogus'" "$tmp/bogus.log"; then
	result ok "find_package(Fusion COMPONENTS bogus) fails, naming it"
else
	result FAIL "find_package(Fusion COMPONENTS bogus): $(cat "$tmp/bogus.log")"
fi

# fusion-config names /usr: its output is moved into the root.
fc()
{
	"$root/usr/bin/fusion-config" --skin=alchemy "$@" |
		sed "s#\(^\|[ ,IL]\)/usr/#\1$root/usr/#g"
}
libs=$(fc --libdir)
if [ "$libs" = "$root/$libdir" ]; then
	result ok "fusion-config --libdir: /$libdir"
else
	result FAIL "fusion-config --libdir: $libs"
fi
# shellcheck disable=SC2046 # as above
if cc $(fc --cflags) "$example" $(fc --ldflags) -o "$tmp/by-fusion-config" \
	2>"$tmp/cc.log"; then
	check_program fusion-config "$tmp/by-fusion-config"
else
	result FAIL "fusion-config build: $(cat "$tmp/cc.log")"
fi

# The fusion command of fusion-tools runs from the root.
if "$root/usr/bin/fusion" --help >/dev/null 2>&1; then
	result ok "fusion --help"
else
	result FAIL "fusion --help: exit status $?"
fi

if [ "$failures" -ne 0 ]; then
	echo "$failures failure(s)"
	exit 1
fi
echo "all passed"
