# alertd — the two set-up commands are `make run` and `make test`; each installs what it needs
# from Debian's packages first (run as root, or with sudo available).

SHELL := /bin/bash
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# What building and running alertd needs (libmimalloc-dev: the allocator release builds link),
# and what the tests need on top (python3-venv: the
# schema test checks specs with Python's jsonschema, installed from PyPI into $(VENV);
# postgresql-15: the PostgreSQL store's tests start throwaway clusters with its initdb and pg_ctl;
# chromium and chromium-driver: the console's browser tests drive headless Chromium with Selenium;
# fonts-wqy-zenhei: Chinese and Japanese glyphs for their screenshots, which show boxes without).
BUILD_PACKAGES := pkg-config libmicrohttpd-dev libsqlite3-dev libmimalloc-dev
TEST_PACKAGES := $(BUILD_PACKAGES) curl python3 python3-venv postgresql-15 chromium chromium-driver fonts-wqy-zenhei
BENCH_PACKAGES := $(BUILD_PACKAGES) wrk curl gcc libc6-dev
# bench-postgres: postgresql-15 ships initdb, pg_ctl, psql and pgbench (in /usr/lib/postgresql/15/bin).
BENCH_POSTGRES_PACKAGES := $(BUILD_PACKAGES) wrk curl python3 postgresql-15

HOST ?= 127.0.0.1
PORT ?= 8080
STORE ?= sqlite:./alertd.sqlite

# The Python the schema test runs scripts/check_schema.py with, SchemathesisTests runs
# schemathesis with (a narrow range: a fixed seed gives the same run only on the same version),
# OpenAPIDocumentTests runs openapi-spec-validator with, and ConsoleBrowserTests runs
# scripts/console_browser_check.py with (Selenium, driving Debian's chromium-driver).
VENV := .build/venv
VENV_PACKAGES := 'jsonschema>=4.18' 'pyyaml>=6' 'schemathesis>=4.32.5,<4.33' 'openapi-spec-validator>=0.7,<0.10' 'selenium>=4.20,<5'
ALERTD_TEST_PYTHON ?= $(CURDIR)/$(VENV)/bin/python

.PHONY: run test test-sanitizers test-asan test-tsan build release deps test-deps test-venv bench bench-deps bench-connections bench-hostile-specs bench-queue bench-instructions bench-postgres-deps bench-postgres bench-postgres-statements bench-campaigns clean

# Installs the Debian packages named in $(1) that are missing (one apt-get update, only if needed).
define apt_install
	@missing=$$(for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "installing:" $$missing; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi
endef

deps:
	$(call apt_install,$(BUILD_PACKAGES))

test-deps:
	$(call apt_install,$(TEST_PACKAGES))

# A virtual environment with jsonschema, PyYAML, schemathesis, openapi-spec-validator and
# Selenium: made when absent or broken (no working pip), filled only when they are missing.
test-venv: test-deps
	@if ! $(VENV)/bin/python -m pip --version >/dev/null 2>&1; then \
		echo "creating $(VENV)"; \
		rm -rf $(VENV) && python3 -m venv $(VENV); \
	fi
	@if ! $(VENV)/bin/python -c 'import jsonschema, referencing, yaml, schemathesis, openapi_spec_validator, selenium' >/dev/null 2>&1; then \
		echo "installing into $(VENV):" $(VENV_PACKAGES); \
		$(VENV)/bin/python -m pip install --quiet --disable-pip-version-check $(VENV_PACKAGES); \
	fi

bench-deps:
	$(call apt_install,$(BENCH_PACKAGES))

build: deps
	swift build

release: deps
	swift build -c release --product alertd

run: release
	.build/release/alertd serve --host $(HOST) --port $(PORT) --store $(STORE)

test: test-deps test-venv
	swift build --build-tests
	ALERTD_TEST_PYTHON="$(ALERTD_TEST_PYTHON)" swift test --skip-build
	$(MAKE) --no-print-directory test-sanitizers
	$(MAKE) --no-print-directory fuzz-short

# The live-server tests (MicroHTTPTests and AlertServerTests: in-process servers on
# libmicrohttpd's threads; AlertdTests: `alertd` children built the same way) again under
# AddressSanitizer and ThreadSanitizer, each
# in a build folder of its own. Any report fails the run: ASan stops at the first error, TSan is
# told to (halt_on_error), and both options reach the children through the environment. Locks
# are pthread mutexes (Sources/Locking), which TSan understands; see Locked.swift.
SANITIZED_TESTS := MicroHTTPTests|AlertServerTests|AlertdTests
# Left out, both run in the plain suite: the PostgreSQL outage test failed once under ASan on a
# loaded machine ("the server closed the connection") and is not yet diagnosed; AlertClient's
# live test exercises the client library over URLSession (FoundationNetworking on libcurl, not
# instrumented, its allocations unfreed at exit), and the server calls it makes are the other
# live tests' too.
SANITIZER_SKIP := MultiInstanceOutageTests|AlertClientLiveTests
test-sanitizers: test-asan test-tsan

test-asan: test-deps test-venv
	swift build --build-tests --sanitize=address --scratch-path .build-asan
	ASAN_OPTIONS=detect_leaks=1:suppressions=$(CURDIR)/Tests/Sanitizers/asan.supp LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/Sanitizers/lsan.supp:print_suppressions=0 \
		ALERTD_TEST_PYTHON="$(ALERTD_TEST_PYTHON)" \
		swift test --skip-build --sanitize=address --scratch-path .build-asan --filter '$(SANITIZED_TESTS)' --skip '$(SANITIZER_SKIP)'

test-tsan: test-deps test-venv
	swift build --build-tests --sanitize=thread --scratch-path .build-tsan
	TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 ALERTD_TEST_PYTHON="$(ALERTD_TEST_PYTHON)" \
		swift test --skip-build --sanitize=thread --scratch-path .build-tsan --filter '$(SANITIZED_TESTS)' --skip '$(SANITIZER_SKIP)'

# Benchmarks are run by hand; they print figures and assert nothing.
# bench: alertd against nginx (the same bytes as a static file), then the queue figures. nginx
# is installed from Debian with its service kept from starting (policy-rc.d), and the benchmark
# starts its own on 127.0.0.1.
BENCH_RENDER_PACKAGES := $(BENCH_PACKAGES) python3 procps

bench: bench-deps release
	$(call apt_install,$(BENCH_RENDER_PACKAGES))
	@if ! dpkg -s nginx >/dev/null 2>&1; then \
		guard=; \
		if [ ! -e /usr/sbin/policy-rc.d ]; then \
			printf '#!/bin/sh\nexit 101\n' | $(SUDO) tee /usr/sbin/policy-rc.d >/dev/null && $(SUDO) chmod 755 /usr/sbin/policy-rc.d && guard=1; \
		fi; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq nginx; \
		status=$$?; [ -n "$$guard" ] && $(SUDO) rm -f /usr/sbin/policy-rc.d; exit $$status; \
	fi
	scripts/bench.sh

bench-connections: bench-deps release
	scripts/bench-connections.sh

bench-queue: bench-deps release
	scripts/bench-queue.sh

# The largest valid spec sent to POST /v1/specs/validate by four clients at once, beside a render.
bench-hostile-specs: bench-deps release
	$(call apt_install,python3)
	scripts/bench-hostile-specs.sh

# Instructions per request under callgrind (user space), steady whatever the machine's speed:
# WORKLOAD=enqueue (default), hit, 304 or miss, ALERTD_BIN to count another build. objcopy is binutils'.
BENCH_INSTRUCTIONS_PACKAGES := $(BUILD_PACKAGES) valgrind binutils curl python3
bench-instructions: release
	$(call apt_install,$(BENCH_INSTRUCTIONS_PACKAGES))
	scripts/bench-instructions.sh

# A throwaway PostgreSQL cluster (stopped and deleted at the end) and two alertd instances on it.
bench-postgres-deps:
	$(call apt_install,$(BENCH_POSTGRES_PACKAGES))

bench-postgres: bench-postgres-deps release
	scripts/bench-postgres.sh

# Campaigns on SQLite (fan-out rate, polls woken, live traffic beside, recall) and on a throwaway
# PostgreSQL cluster (fan-out against pgbench, withdraws across two instances).
bench-campaigns: bench-postgres-deps release
	scripts/bench-campaigns.sh

# The same kind of cluster with pg_stat_statements: each statement's planning and execution time
# per batch of enqueues.
bench-postgres-statements: bench-postgres-deps release
	scripts/bench-postgres-statements.sh

# The container's runtime stage, proved without a Docker engine (see scripts/image-check.sh):
# debootstrap and chroot as root; readelf (binutils) maps the binary's libraries to packages;
# python3 finds a closed port.
IMAGE_CHECK_PACKAGES := $(BUILD_PACKAGES) debootstrap binutils curl python3
.PHONY: image-check image-check-deps
image-check-deps:
	$(call apt_install,$(IMAGE_CHECK_PACKAGES))

image-check: image-check-deps
	scripts/image-check.sh

# libFuzzer targets (the package in Fuzz/; see scripts/fuzz.sh): FUZZ_SECONDS per target.
# fuzz-short is the run `make test` makes.
FUZZ_SECONDS ?= 60
FUZZ_SHORT_SECONDS ?= 10
.PHONY: fuzz fuzz-short
fuzz: deps
	scripts/fuzz.sh $(FUZZ_SECONDS)

fuzz-short: deps
	scripts/fuzz.sh $(FUZZ_SHORT_SECONDS)

# docs/images/console: the console's pictures of each kind in en and ar, taken in headless Chromium
# from a debug build (scripts/console-screenshots.sh). The browser test takes the same ones as artifacts.
.PHONY: screenshots
screenshots: test-deps test-venv
	swift build --product alertd
	scripts/console-screenshots.sh

# docs/configuration.md, printed from the settings' declarations (Sources/alertd/Setting.swift) by
# a debug build; ConfigReferenceTests fails until it is regenerated after a change there.
.PHONY: docs
docs:
	swift build --product alertd
	mkdir -p docs
	.build/debug/alertd config-reference > docs/configuration.md.tmp
	mv docs/configuration.md.tmp docs/configuration.md

clean:
	rm -rf .build
