#!/bin/sh
# SPDX-License-Identifier: MIT
# The journal's audit over every skin test (make stress; make test
# audits only those that count no time).  Each test runs in a small
# session of its own with FUSION_JOURNAL_AUDIT=1, which aborts at the
# first critical section that changed a byte it had not noted, saying
# so.  The verdict is the audit's: under its copies of the whole block
# at every section, the tests that count time miss their margins, so
# their own failed checks are listed, not counted.  A report of the
# audit, or a test killed by a signal, fails the run; a test still
# running after LIMIT seconds (default 900) is listed as unfinished.
# usage: audit_skin_tests.sh BUILD [LIMIT]
set -u
build="$1"
limit="${2:-900}"
list="$build/skin-tests.txt"
[ -r "$list" ] || { echo "$list: not found (configure $build first)" >&2; exit 2; }
failed=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT
while read -r name; do
	session="audit-$name-$$"
	FUSION_BACKEND=live FUSION_JOURNAL_AUDIT=1 FUSION_SESSION_SIZE=4 \
		FUSION_SESSION="$session" timeout "$limit" \
		"$build/bin/$name" >"$log" 2>&1
	status=$?
	# An aborted member leaves the session's files behind.
	rm -f /dev/shm/fusion."$session" /dev/shm/fusion."$session".*
	if grep -q "journal audit:" "$log"; then
		echo "$name: NOT NOTED: $(grep -m1 'journal audit:' "$log")"
		failed=1
	elif [ $status -eq 124 ]; then
		echo "$name: unfinished after $limit s"
	elif [ $status -gt 128 ]; then
		echo "$name: killed by signal $((status - 128))"
		tail -5 "$log"
		failed=1
	elif [ $status -eq 0 ] || [ $status -eq 77 ]; then
		echo "$name: audited"
	else
		echo "$name: audited; checks failed under its slowness:" \
			"$(grep -c '^FAIL' "$log")"
	fi
done <"$list"
[ $failed -eq 0 ] && echo "journal audit: every section noted what it changed"
exit $failed
