# nicsim — the two commands (see README.md): `make demo` and `make test`.
# Both install missing Debian packages first (scripts/install-deps.sh, needs root), then
# configure, build and run. apt, cmake and the build write their whole output to
# $(BUILD)/install-deps.log, configure.log and build.log; the terminal gets one line per step
# (scripts/progress.sh: redrawn in place with the build's progress; on failure the log's end).

BUILD      ?= build
ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
# Seconds each libFuzzer target runs in `make test` (eleven targets; docs/fuzzing.md).
FUZZ_SECONDS ?= 5
JOBS       ?= $(shell nproc)
CMAKE_ARGS ?=

.PHONY: all deps configure build demo test test-release test-asan test-fuzz clean

all: build

deps:
	@scripts/install-deps.sh $(BUILD)/install-deps.log

configure: deps
	@scripts/progress.sh configure $(BUILD)/configure.log \
	    cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_ARGS)

build: configure
	@scripts/progress.sh build $(BUILD)/build.log cmake --build $(BUILD) -j$(JOBS)

# The main demo (scripts/demo.sh): what chip sleep costs a WILC1000 on a SAMA5-class SPI board,
# three runs' key figures side by side (the reports stay in $(BUILD)/demo/ for `nicsim compare`);
# README.md "What it does today" lists the other commands.
demo: build
	@scripts/demo.sh $(BUILD)

# All tests, in the normal build and again with AddressSanitizer + UndefinedBehaviorSanitizer
# over the whole simulator including the driver code, then a bounded libFuzzer run of the
# decoders and parsers (clang; skipped, saying so, without it). The docs checks (label docs)
# run in the normal build only: the numbers docs/ quotes are the release build's, and the
# sanitizer build also counts the sanitizers' checks as driver code (docs/architecture.md, Host CPU).
test: test-release test-asan test-fuzz

test-release: build
	@ctest --test-dir $(BUILD) -j$(JOBS) --output-on-failure

# LSAN_OPTIONS=use_stacks=0: SystemC's coroutine switches (fiber-annotated in Debian's
# libsystemc) can leave LeakSanitizer with a coroutine's stack as the main thread's stack, whose
# guard pages its tracer then reads and crashes on ("Tracer caught signal 11", seen on some VMs).
# Leaks are still found: the roots are globals, TLS and registers; an object only a stack refers
# to would be reported, not missed.
test-asan: deps
	@cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNICSIM_SANITIZE=ON $(CMAKE_ARGS) >/dev/null
	@cmake --build $(ASAN_BUILD) -j$(JOBS)
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 LSAN_OPTIONS=use_stacks=0 \
	    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	    ctest --test-dir $(ASAN_BUILD) -j$(JOBS) --output-on-failure -LE docs

test-fuzz: deps
	@FUZZ_BUILD=$(FUZZ_BUILD) JOBS=$(JOBS) CMAKE_ARGS="$(CMAKE_ARGS)" scripts/fuzz.sh $(FUZZ_SECONDS)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD)
