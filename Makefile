# The two commands of README.md. Each one installs what is missing, configures, builds, then
# runs the main job (`make run`) or the whole test suite (`make test`).
BUILD_DIR ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: all deps configure build run test format clean

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

test: build
	ctest --test-dir $(BUILD_DIR) --output-on-failure -j $(JOBS)

format:
	clang-format -i $$(git ls-files '*.cpp' '*.h')

clean:
	rm -rf $(BUILD_DIR)
