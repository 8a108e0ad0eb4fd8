#!/usr/bin/env bash
# Installs the Debian packages tujit needs, only those that are missing.
# Idempotent: when everything is present it runs one `dpkg-query` and returns.
set -euo pipefail

# Why each package is here (README.md "Dependencies" says the same):
#   llvm-19-dev                  ORC LLJIT back end (codegen/)
#   libboost-program-options-dev the `tujit` command line (harness/)
#   libbenchmark-dev             Google Benchmark sweeps (harness/)
#   libopenblas-dev              sgemm baseline of `tujit bench` (harness/bench/)
#   catch2                       the test suite (tests/)
#   nlohmann-json3-dev           JSON reports (every --json); saves a hand-written emitter/parser
#   libfmt-dev                   formatting of diagnostics and reports (g++ 12 has no std::format)
#   ccache                       compiler cache; CMake uses it when present
#   gnuplot-nox                  draws `tujit cycles --timeline` SVGs (a subprocess; no X11)
#   libtomlplusplus-dev          reads `tujit bench --sweep` files (TOML: comments, typed arrays)
PACKAGES=(
  cmake make g++ pkg-config
  llvm-19-dev libzstd-dev   # LLVM 19's CMake config links zstd::libzstd_shared
  libboost-program-options-dev
  libbenchmark-dev
  libopenblas-dev   # `tujit bench`: the JIT is measured against OpenBLAS sgemm
  catch2
  nlohmann-json3-dev
  libfmt-dev
  ccache        # optional speed-up: rebuilds across build trees (CMake uses it when present)
  gnuplot-nox   # `tujit cycles --timeline PATH.svg` runs gnuplot to draw the timeline
  libtomlplusplus-dev  # `tujit bench --sweep FILE.toml` parses sweep files
)
# Optional sets, installed only when named on the command line (`make fuzz` passes `fuzz`):
#   fuzz: clang-19 + libclang-rt-19-dev (libFuzzer and the sanitizer runtimes for clang),
#         python3 (tests/fuzz/make_seeds.py). `make test` never needs them.
# Any other argument is taken as a package name.
for arg in "$@"; do
  case $arg in
  fuzz) PACKAGES+=(clang-19 libclang-rt-19-dev python3) ;;
  *) PACKAGES+=("$arg") ;;
  esac
done

missing=()
for p in "${PACKAGES[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
  [ "$status" = "installed" ] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}" >&2
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
# A fresh machine's package lists may be empty: refresh them once before installing.
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
