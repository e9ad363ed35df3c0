# Thin wrapper over CMake. `make run` sets everything up and runs the main
# job on the bundled default; `make test` builds and runs the whole test suite.
BUILD   ?= build
ASAN    ?= build-asan
JOBS    ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: all deps build run test test-sanitize test-valgrind bench package clean

all: build

deps:
	@bash scripts/install-deps.sh

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

run: build
	@bash scripts/run-demo.sh $(BUILD)

test: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# Debian packages (CPack): gcut (libraries, tools), gcut-dev (headers,
# static libraries, CMake and pkg-config files) and gcut-cuda (the GPU
# plugin, when built), in $(BUILD)/packages/.
package: build
	@cmake --build $(BUILD) --target package

# The CPU suites under AddressSanitizer and UndefinedBehaviorSanitizer.
test-sanitize: deps
	@cmake -S . -B $(ASAN) -DCMAKE_BUILD_TYPE=Debug -DGCUT_SANITIZE=ON -DGCUT_WITH_CUDA=OFF -DGCUT_WITH_BENCH=OFF >/dev/null
	@cmake --build $(ASAN) -j $(JOBS)
	@cd $(ASAN) && GCUT_TEST_SCALE=0.3 ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		ctest --output-on-failure -j $(JOBS) -L cpu -LE 'install|ulimit'

# The CPU suites under valgrind's memcheck, at reduced sizes (slow: about
# 20 minutes on 2 cores; not part of CI).
test-valgrind: build
	@bash scripts/valgrind-check.sh $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN)
