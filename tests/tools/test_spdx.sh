#!/bin/sh
# SPDX-License-Identifier: MIT
# Every source file of the tree names its licence (LICENSE: MIT) in an
# SPDX line within its first three lines.  Skipped (77) outside a git
# checkout, where the list of the tree's files is unknown.
# usage: test_spdx.sh SOURCE_DIR
cd "$1" || exit 1
git rev-parse --is-inside-work-tree >/dev/null 2>&1 || {
	echo "not a git checkout: skipped"
	exit 77
}
missing=$(git ls-files -- '*.c' '*.h' '*.sh' '*.py' '*.cmake' '*.in' \
	'*.1' '*CMakeLists.txt' Makefile debian/rules .ci/run 'bench/*' |
	grep -v '\.md$' |
	while read -r f; do
		head -n 3 "$f" | grep -q 'SPDX-License-Identifier: MIT' ||
			echo "$f"
	done)
if [ -n "$missing" ]; then
	echo "no SPDX-License-Identifier line:"
	echo "$missing"
	exit 1
fi
echo "every source file names its licence"
