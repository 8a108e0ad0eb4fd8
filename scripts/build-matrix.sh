#!/usr/bin/env bash
# Builds tujit in every ordinary CMake configuration a user may pick — build types Debug,
# Release and RelWithDebInfo, compilers g++ (Debian 12's GCC 12) and clang++-19, with and without
# the test suite (TUJIT_BUILD_TESTS) — with warnings as errors, and stops at the first
# configuration that fails or prints a warning (compiler, linker or CMake). `make build-matrix`.
#
# One build tree per configuration, build-matrix-COMPILER-TYPE-testsON|OFF beside build/ (kept for
# the next run): at the same depth as build/, a tree compiles with the same relative paths, so
# ccache can serve it what build/ and the other trees compiled with the same flags before. The
# whole matrix is 12 builds, hours of CPU on a cold cache, which is why CI does not run it.
# Narrow it with
#   MATRIX_COMPILERS="g++"  MATRIX_TYPES="Release"  MATRIX_TESTS="OFF"  scripts/build-matrix.sh
# and pass a target to build only it (e.g. `scripts/build-matrix.sh tujit`).
set -euo pipefail
cd "$(dirname "$0")/.."

COMPILERS=${MATRIX_COMPILERS:-g++ clang++-19}
TYPES=${MATRIX_TYPES:-Debug Release RelWithDebInfo}
TESTS=${MATRIX_TESTS:-ON OFF}
JOBS=${JOBS:-$(nproc)}
TARGET_ARGS=()
[ $# -gt 0 ] && TARGET_ARGS=(--target "$@")

# The base packages, catch2 for the suite, clang-19 for the second compiler.
scripts/install-deps.sh matrix

for compiler in $COMPILERS; do
  for type in $TYPES; do
    for tests in $TESTS; do
      # g++ → gcc, clang++-19 → clang-19 (a plain ${tag/g++/gcc} made clang++-19 "clangcc-19").
      tag=$(basename "$compiler")
      case $tag in
      g++*) tag=gcc${tag#g++} ;;
      *) tag=${tag/++/} ;;
      esac
      dir="build-matrix-$tag-$type-tests$tests"
      log="$dir/matrix.log"
      echo "build-matrix: $compiler $type TUJIT_BUILD_TESTS=$tests ($dir)"
      mkdir -p "$dir"
      if ! { cmake -S . -B "$dir" -DCMAKE_CXX_COMPILER="$compiler" -DCMAKE_BUILD_TYPE="$type" \
               -DTUJIT_BUILD_TESTS="$tests" -DTUJIT_WERROR=ON &&
             cmake --build "$dir" -j "$JOBS" "${TARGET_ARGS[@]}"; } >"$log" 2>&1; then
        tail -n 60 "$log"
        echo "build-matrix: FAILED: $compiler $type TUJIT_BUILD_TESTS=$tests (log: $log)" >&2
        exit 1
      fi
      # -Werror makes every compiler warning fatal; the linker's and CMake's are not, so look.
      if grep -q -i -E 'warning:|CMake Warning' "$log"; then
        grep -n -i -E -B2 -A8 'warning:|CMake Warning' "$log" | head -n 60
        echo "build-matrix: WARNING in $compiler $type TUJIT_BUILD_TESTS=$tests (log: $log)" >&2
        exit 1
      fi
    done
  done
done
echo "build-matrix: every configuration built without a warning"
