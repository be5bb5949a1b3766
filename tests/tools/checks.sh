# SPDX-License-Identifier: MIT
# What the tools/ test scripts share, sourced once their arguments are
# checked: a temporary directory $tmp, removed on exit; fail and pass,
# which report one check; checks_end, which exits 1 if any failed.

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

checks_end()
{
	if [ "$failures" -ne 0 ]; then
		echo "$failures failure(s)"
		exit 1
	fi
}
