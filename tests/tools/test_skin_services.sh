#!/bin/sh
# SPDX-License-Identifier: MIT
# Each skin's services.h, services.c and services.def are what
# tools/gen-skin-services writes from its public headers today: a
# service added to a header without them would go untraced (or fail to
# link).  Skipped (77) without python3.
# usage: test_skin_services.sh SOURCE_DIR
command -v python3 >/dev/null 2>&1 || {
	echo "python3 missing: skipped"
	exit 77
}
exec python3 "$1/tools/gen-skin-services" --check "$1"
