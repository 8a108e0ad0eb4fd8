# The two commands of README.md. Each one installs what is missing, configures, builds, then
# runs the main job (`make run`) or the whole test suite (`make test`).
BUILD_DIR ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: all deps configure build run test test-sanitize fuzz deb build-matrix format clean

all: build

deps:
	@scripts/install-deps.sh

$(BUILD_DIR)/CMakeCache.txt: | deps
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTUJIT_WERROR=ON $(CMAKE_FLAGS) \
	  || { rm -f $(BUILD_DIR)/CMakeCache.txt; exit 1; }

configure: deps $(BUILD_DIR)/CMakeCache.txt

build: configure
	cmake --build $(BUILD_DIR) -j $(JOBS)

# The main job on built-in defaults: a book example of the mapping algebra, then the book's
# batched matmul (M in Time) checked stage by stage with its derived parameters, and run on the
# reference interpreter against the float64 oracle.
run: build
	$(BUILD_DIR)/harness/tujit map --axes "A=8,B=512" "B / 64, B % 32, B / 32 % 2" --at 67 --at 512
	$(BUILD_DIR)/harness/tujit explain specs/bmatmul_m_in_time.rs
	$(BUILD_DIR)/harness/tujit run specs/bmatmul_m_in_time.rs --verify

# The tests also need the consumers of tujit's CI reports (xmllint, node; install-deps.sh `test`).
test: build
	@scripts/install-deps.sh test
	ctest --test-dir $(BUILD_DIR) --output-on-failure -j $(JOBS)

# ASan + UBSan build of everything (g++), then the whole CTest suite; any report fails the run.
SANITIZE_DIR ?= build-sanitize
# g++ 12 reports maybe-uninitialized false positives inside libstdc++ (<regex>, std::function)
# once ASan instruments the code; that one warning is not an error in this build.
SANITIZE_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
SANITIZE_WARNINGS := -Wno-error=maybe-uninitialized
test-sanitize: deps
	@scripts/install-deps.sh test
	cmake -S . -B $(SANITIZE_DIR) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTUJIT_WERROR=ON \
	  -DCMAKE_CXX_FLAGS="$(SANITIZE_FLAGS) $(SANITIZE_WARNINGS)" \
	  -DCMAKE_EXE_LINKER_FLAGS="$(SANITIZE_FLAGS)" $(CMAKE_FLAGS)
	cmake --build $(SANITIZE_DIR) -j $(JOBS)
	ASAN_OPTIONS=detect_leaks=1:strict_string_checks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --test-dir $(SANITIZE_DIR) --output-on-failure -j $(JOBS)

# libFuzzer targets of tests/fuzz/ (clang-19, instrumented with ASan + UBSan), each run for
# FUZZ_SECONDS; crashes land in $(FUZZ_DIR)/artifacts/. Needs the optional `fuzz` package set.
FUZZ_DIR ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_CXX ?= clang++-19
fuzz:
	@scripts/install-deps.sh fuzz
	cmake -S . -B $(FUZZ_DIR) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=$(FUZZ_CXX) \
	  -DTUJIT_FUZZ=ON -DTUJIT_BUILD_TESTS=OFF -DTUJIT_WERROR=OFF $(CMAKE_FLAGS)
	cmake --build $(FUZZ_DIR) -j $(JOBS) --target tujit_fuzz
	tests/fuzz/run.sh $(FUZZ_DIR) $(FUZZ_SECONDS)

# The Debian package of what `cmake --install` installs, under /usr: $(BUILD_DIR)/tujit_VERSION_amd64.deb
# (CPack; Depends derived by dpkg-shlibdeps, which the optional `deb` package set brings).
deb: build
	@scripts/install-deps.sh deb
	cd $(BUILD_DIR) && cpack -G DEB

# Every ordinary configuration (Debug, Release, RelWithDebInfo x g++, clang++-19 x with and
# without tests) built with warnings as errors, stopping at the first warning. Long: not in CI.
build-matrix:
	scripts/build-matrix.sh

format:
	clang-format -i $$(git ls-files '*.cpp' '*.h')

clean:
	rm -rf $(BUILD_DIR)
