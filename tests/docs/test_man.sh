#!/bin/sh
# SPDX-License-Identifier: MIT
# The man pages render without a warning, and say what the tools
# answer: a section per command of `fusion --help`, each option of
# `fusion COMMAND --help` and of `fusion-config --help`.  Skipped (77)
# without groff.
# Usage: test_man.sh MAN-FOLDER BIN-FOLDER
set -u
man=$1
bin=$2
command -v groff >/dev/null 2>&1 || { echo "no groff: skipped"; exit 77; }
fail=0
for page in "$man"/*.1; do
	out=$(groff -man -ww -z "$page" 2>&1)
	if [ -n "$out" ]; then
		echo "$page: $out"
		fail=1
	fi
done
# The text of a page, with roff's escaped hyphens plain and no font
# changes.
text() {
	sed 's/\\-/-/g; s/\\f[BIRP]//g' "$man/$1"
}

# Every option word (-x, --name, after a space, "[" or ",") of a usage
# text must be in the page.
check_options() {
	page=$1
	shift
	for opt in $("$@" | grep -oE -- '(^|[][ ,])--?[a-zA-Z][-a-zA-Z]*' |
		sed 's/^[][ ,]*//' | sort -u); do

		if ! text "$page" | grep -q -- "$opt"; then
			echo "$page: $opt ($*) is missing"
			fail=1
		fi
	done
}
for cmd in $("$bin/fusion" --help | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p'); do
	if ! grep -q "^\.SS $cmd\$" "$man/fusion.1"; then
		echo "fusion.1: no section for fusion $cmd"
		fail=1
	fi
	check_options fusion.1 "$bin/fusion" "$cmd" --help
done
check_options fusion.1 "$bin/fusion" --help
check_options fusion-config.1 "$bin/fusion-config" --help
[ $fail -eq 0 ] && echo "man pages: rendered, every command and option"
exit $fail
