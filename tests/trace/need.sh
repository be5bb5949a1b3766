# SPDX-License-Identifier: MIT
# Sourced by tests/trace/test_*.sh BUILD_DIR: $bin, a temporary $dir
# removed at exit, and `need TOOL...`, which skips the test (status 77)
# when one is missing.
bin="$1/bin"
need() {
	for tool in "$@"; do
		command -v "$tool" >/dev/null 2>&1 || {
			echo "$tool missing (see .ci/run): skipped"
			exit 77
		}
	done
}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
