#!/bin/sh
# SPDX-License-Identifier: MIT
# The API reference builds without a warning: every public declaration
# of the nucleus's and the skins' headers is documented, and every
# comment block reads as Doxygen reads it.  Skipped (77) without doxygen.
# Usage: test_doxygen.sh DOXYFILE WARNING-LOG
set -u
doxyfile=$1
log=$2
if ! command -v doxygen >/dev/null 2>&1; then
	echo "doxygen is not installed (apt-get install doxygen): skipped"
	exit 77
fi
rm -f "$log"
doxygen "$doxyfile" >/dev/null 2>&1
status=$?
if [ -s "$log" ]; then
	cat "$log"
	echo "doxygen: $(wc -l <"$log") warning line(s)"
	exit 1
fi
if [ "$status" -ne 0 ]; then
	echo "doxygen failed (status $status)"
	exit 1
fi
echo "doxygen: no warnings"
