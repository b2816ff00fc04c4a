# Screenplay — the README's two commands: `make run` and `make test`.
# Both install what is missing (Debian packages, a Python virtual environment) before they start.

SHELL := /bin/bash
PORT ?= 8080
SWIFT ?= swift
SWIFT_FLAGS := -Xswiftc -warnings-as-errors
BUILD_PACKAGES := libmicrohttpd-dev libgumbo-dev libsqlite3-dev pkg-config
TEST_PACKAGES := chromium chromium-driver
VENV := .venv

.PHONY: run dev build release test test-swift test-tsan test-browser format lint deps deps-test bench bench-deps clean help

help:
	@echo "make run        build in release mode and serve the demo at http://localhost:$(PORT)"
	@echo "make test       install what is missing and run every test suite"
	@echo "make test-tsan  run the Reactive tests under ThreadSanitizer (part of make test)"
	@echo "make format     rewrite sources with swift format"
	@echo "make bench      run the benchmarks (see Benchmarks/README.md)"

# Installs the Debian packages named in $(1) that are not installed yet, as root or through sudo.
define apt_install
	@missing=""; for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "Installing:$$missing"; \
		if [ "$$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi; \
		$$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
		$$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	fi
endef

deps:
	$(call apt_install,$(BUILD_PACKAGES))

deps-test: deps
	$(call apt_install,$(TEST_PACKAGES))
	@if [ ! -x $(VENV)/bin/pytest ] || ! $(VENV)/bin/python -c 'import selenium' 2>/dev/null; then \
		python3 -m venv $(VENV) && $(VENV)/bin/pip install -q --disable-pip-version-check selenium pytest; \
	fi

build: deps
	$(SWIFT) build $(SWIFT_FLAGS)

release: deps
	$(SWIFT) build -c release $(SWIFT_FLAGS) --product movies

run: release
	.build/release/movies --port $(PORT)

dev: deps
	$(SWIFT) build $(SWIFT_FLAGS) --product movies
	.build/debug/movies --port $(PORT) --dev

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests Benchmarks

format:
	$(SWIFT) format --in-place --recursive Package.swift Sources Tests Benchmarks

test-swift: deps
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	SNAPSHOT_TESTING_RECORD=never $(SWIFT) test --skip-build

# The Reactive stress tests under ThreadSanitizer, in their own build directory. NSLock replaces
# Mutex there because TSan on Linux reports false races inside Mutex.withLock.
TSAN_FLAGS := --sanitize=thread --scratch-path .build/tsan -Xswiftc -DREACTIVE_NSLOCK
test-tsan: deps
	$(SWIFT) build --build-tests $(TSAN_FLAGS) $(SWIFT_FLAGS)
	$(SWIFT) test --skip-build $(TSAN_FLAGS) --filter ReactiveTests

test-browser: deps-test release
	@if [ -d BrowserTests ]; then $(VENV)/bin/pytest -q BrowserTests; fi

test: lint test-swift test-tsan test-browser

# The end-to-end screen benchmark (a few minutes); `Benchmarks/run.sh --all` adds the micro-benchmarks.
bench: deps
	@dpkg -s wrk nginx-light >/dev/null 2>&1 || $(MAKE) --no-print-directory bench-deps
	Benchmarks/run.sh

bench-deps:
	$(call apt_install,wrk nginx-light)

clean:
	rm -rf .build $(VENV)
