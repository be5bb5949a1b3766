# SPDX-License-Identifier: MIT
# Front door: `make demo` runs the main job, `make test` runs every test.
# SANITIZE=address,undefined (or thread) and DEBUG=1 (a Debug build: the
# nucleus asserts its callers' contracts and its own invariants) build
# into their own directories: build-address-undefined, build-debug...
comma := ,
BUILD ?= build
SANITIZE ?=
DEBUG ?=
BUILD_TYPE ?= RelWithDebInfo
ifneq ($(DEBUG),)
BUILD_TYPE := Debug
endif
ifneq ($(SANITIZE)$(DEBUG),)
BUILD := build$(if $(DEBUG),-debug)$(if $(SANITIZE),-$(subst $(comma),-,$(SANITIZE)))
endif
JOBS ?= $(shell nproc)
PREFIX ?= /usr/local

.PHONY: all build test trace-tools gui-tools cross stress demo demo-sim bench install deb test-packages clean format doc

all: build

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DFUSION_SANITIZE=$(SANITIZE)

build: $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

# TEST_ARGS: extra ctest arguments, e.g. TEST_ARGS="-R sim/".
TEST_ARGS ?=
# The tracing tests read traces with babeltrace2 and record with LTTng
# (tests/trace/; the LTTng-UST provider is built when CMake finds
# liblttng-ust): make test installs them when missing and run as root;
# otherwise those tests are skipped, and say so.
TRACE_PACKAGES := babeltrace2 liblttng-ust-dev lttng-tools
trace-tools:
	@{ command -v babeltrace2 && command -v lttng && \
	   [ -e /usr/include/$$(gcc -print-multiarch)/lttng/tracepoint.h ]; } >/dev/null || \
	{ [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && \
	  apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(TRACE_PACKAGES); } || \
	echo "tracing tests skipped: apt-get install $(TRACE_PACKAGES) (as root)"

# fusion sim's batch mode reads its agent's JSON with jansson
# (tools/sim_batch.c), and fusion sim --gui is built on libmicrohttpd
# (tools/sim_gui.c); its
# browser test (tests/gui/) drives Debian's chromium with Playwright,
# npm's playwright-core (node 20 or later), at the version
# tests/gui/package-lock.json pins, installed into $(BUILD)/gui-test.
# make test installs them when missing (the Debian packages as root);
# otherwise the GUI is not built or its browser test is skipped, and
# says so.
GUI_PACKAGES := libjansson-dev libmicrohttpd-dev chromium
GUI_TEST := $(BUILD)/gui-test
gui-tools:
	@{ [ -e /usr/include/jansson.h ] && [ -e /usr/include/microhttpd.h ] && \
	   command -v chromium; } >/dev/null || \
	{ [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && \
	  apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(GUI_PACKAGES); } || \
	echo "fusion sim's batch mode, --gui or their tests skipped: apt-get install $(GUI_PACKAGES) (as root)"
	@if ! command -v npm >/dev/null; then \
		echo "browser test skipped: no npm (node 20 or later)"; \
	elif [ ! -d $(GUI_TEST)/node_modules/playwright-core ] || \
	     ! cmp -s tests/gui/package-lock.json $(GUI_TEST)/package-lock.json; then \
		mkdir -p $(GUI_TEST) && \
		cp tests/gui/package.json tests/gui/package-lock.json $(GUI_TEST)/ && \
		(cd $(GUI_TEST) && npm ci --ignore-scripts --no-audit --no-fund \
			--loglevel=error) || \
		echo "browser test skipped: npm ci failed in $(GUI_TEST)"; \
	fi

test: trace-tools gui-tools build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) $(TEST_ARGS)

# Cross build for ARCH (aarch64 or riscv64) into build-ARCH with
# Debian's cross compiler, its tests run under qemu-user (README, "Other
# architectures").  CROSS_TESTS: the ctest regex of the tests to run,
# CROSS_EXCLUDE of those left out: by default every suite, live ones
# included, but the fuzzers (minutes under emulation), the host scripts
# of tools/ and the docs checks, which test nothing of the architecture,
# the live runs of the tick-based skins, whose margins of a tick or a
# millisecond the emulator's delays exceed (their sim runs stay), the
# skins' runs in a session and their journal audits, which qemu-user
# refuses (it keeps no robust futex list; session/ tests skip themselves
# there), and
# fusion sim's runner test, whose runner starts programs with exec,
# which qemu-user cannot follow without binfmt_misc.
ARCH ?= aarch64
CROSS_TESTS ?= .
CROSS_EXCLUDE ?= ^(fuzz|tools|docs|journal-audit)/|^(vxworks|psos|rtai)-live/|-session/|^sim/test_runner$$
cross:
	@[ -f cmake/toolchain-$(ARCH).cmake ] || \
		{ echo "ARCH=$(ARCH): no cmake/toolchain-$(ARCH).cmake (aarch64 or riscv64)"; exit 2; }
	[ -f build-$(ARCH)/CMakeCache.txt ] || cmake -S . -B build-$(ARCH) \
		-DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-$(ARCH).cmake \
		-DCMAKE_BUILD_TYPE=$(BUILD_TYPE)
	cmake --build build-$(ARCH) -j $(JOBS)
	cd build-$(ARCH) && ctest --output-on-failure -j $(JOBS) \
		-R '$(CROSS_TESTS)' -E '$(CROSS_EXCLUDE)' $(TEST_ARGS)

# The reliability campaign (README, Fuzzing): STRESS_SEEDS seeds of
# fuzz_api per API, each run twice on sim and their logs compared, then
# each libFuzzer target for STRESS_SECONDS; counts at the end.
STRESS_SEEDS ?= 10000
# Session members killed at random points (tests/session/), and a tenth
# as many killed running their instance in the session, and killed
# sharing one instance with us; then the journal's audit over every skin
# test, those that count time included.
STRESS_KILLS ?= 20000
STRESS_SECONDS ?= 300
FUZZ := $(BUILD)/tests/fuzz
stress: build
	$(FUZZ)/fuzz_api --from 1 --count $(STRESS_SEEDS) --jobs $(JOBS)
	FUSION_BACKEND=live FUSION_SESSION_KILLS=$(STRESS_KILLS) \
		$(BUILD)/bin/session_test_session_death
	FUSION_BACKEND=live FUSION_SESSION_KILLS=$(STRESS_KILLS) \
		$(BUILD)/bin/session_test_session_nucleus killed_in_place
	FUSION_BACKEND=live FUSION_SESSION_KILLS=$(STRESS_KILLS) \
		$(BUILD)/bin/session_test_session_journal
	sh tests/session/audit_skin_tests.sh $(BUILD)
	@for t in scenario options; do \
		if [ ! -x $(FUZZ)/fuzz_$$t ]; then \
			echo "fuzz_$$t: not built (no clang with libFuzzer)"; \
			continue; \
		fi; \
		$(FUZZ)/fuzz_$$t -max_total_time=$(STRESS_SECONDS) -timeout=10 \
			-rss_limit_mb=2048 -close_fd_mask=2 \
			-artifact_prefix=$(FUZZ)/artifacts/$$t- \
			$(FUZZ)/corpus-$$t tests/fuzz/corpus/$$t \
			> $(FUZZ)/stress-$$t.log 2>&1; \
		status=$$?; \
		grep -E '^Done|SUMMARY|artifact' $(FUZZ)/stress-$$t.log \
			| sed "s/^/fuzz_$$t: /"; \
		if [ $$status -ne 0 ]; then \
			echo "fuzz_$$t: failed: $(FUZZ)/stress-$$t.log"; \
			exit 1; \
		fi; \
	done

demo: build
	$(BUILD)/bin/demo_control 3
	@echo "--- fusion latency, 2 s ---"
	$(BUILD)/bin/fusion latency -T 2 -q

# The bounded priority inversion, in virtual time, with its event log.
demo-sim: build
	FUSION_BACKEND=sim FUSION_SIM_LOG=$(BUILD)/demo.log $(BUILD)/bin/demo_inversion
	@echo "--- event log ($(BUILD)/demo.log) ---"
	@cat $(BUILD)/demo.log

bench: build
	bench/run-callgrind.sh $(BUILD)

# Libraries, headers, the fusion tool, fusion-config, their man pages
# and the fusion-API.pc files (nucleus and every skin) under $(PREFIX).
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

# The API reference, from the headers (docs/Doxyfile.in): $(BUILD)/doc/html.
# Doxygen is installed when missing if we may (root with apt-get).
# Configure again then: CMake looks for it again, and a build tree made
# before docs/ existed has no doc target.
doc: $(BUILD)/CMakeCache.txt
	@command -v doxygen >/dev/null || \
	{ [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq doxygen; } || \
	{ echo "make doc needs doxygen: apt-get install doxygen (as root)"; \
	  exit 1; }
	cmake -S . -B $(BUILD) >/dev/null
	cmake --build $(BUILD) --target doc

# Debian packages (README, Install from packages) in $(DEB_DIR): the
# tree is copied there first, since dpkg-buildpackage writes next to the
# source.  DEB_BUILD_OPTIONS=nocheck by default (make test is the test
# run).  Missing tools are installed when root; lintian must find no
# error.
DEB_DIR ?= build-deb
DEB_BUILD_OPTIONS ?= nocheck
DEB_NEEDS := dpkg-buildpackage:dpkg-dev dh:debhelper lintian:lintian \
	fakeroot:fakeroot cmake:cmake pkg-config:pkgconf
deb:
	@missing=; for need in $(DEB_NEEDS); do \
		command -v $${need%%:*} >/dev/null || missing="$$missing $${need#*:}"; \
	done; \
	[ -e /usr/include/jansson.h ] || missing="$$missing libjansson-dev"; \
	[ -e /usr/include/microhttpd.h ] || missing="$$missing libmicrohttpd-dev"; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" != 0 ]; then \
			echo "make deb: missing:$$missing (apt-get install$$missing, as root)" >&2; \
			exit 1; \
		fi; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -qq $$missing; \
	fi
	rm -rf $(DEB_DIR) && mkdir -p $(DEB_DIR)/fusion
	tar -c --exclude=./.git --exclude=./build --exclude='./build-*' . \
		| tar -x -C $(DEB_DIR)/fusion
	cd $(DEB_DIR)/fusion && DEB_BUILD_OPTIONS="$(DEB_BUILD_OPTIONS)" \
		dpkg-buildpackage -b -us -uc -j$(JOBS)
	lintian --fail-on error $(DEB_DIR)/*.changes

# The packages installed into a temporary root, and programs built
# against them with pkg-config, CMake and fusion-config, run on sim.
test-packages: deb
	tests/packaging/test_packages.sh $(DEB_DIR)

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf build build-*
