#!/usr/bin/env bash
# Installs the Debian packages tujit needs, only those that are missing.
# Idempotent: when everything is present it runs one `dpkg-query` and returns.
set -euo pipefail

# Why each package is here (README.md "Dependencies" says the same):
#   llvm-19-dev                  ORC LLJIT back end (codegen/)
#   libboost-program-options-dev the `tujit` command line (harness/)
#   libbenchmark-dev             Google Benchmark sweeps (harness/)
#   libopenblas-serial-dev       sgemm baseline of `tujit bench` (harness/bench/), one core, no
#                                thread pool started at load
#   catch2                       the test suite (tests/)
#   nlohmann-json3-dev           JSON reports (every --json); saves a hand-written emitter/parser
#   libfmt-dev                   formatting of diagnostics and reports (g++ 12 has no std::format)
#   ccache                       compiler cache; CMake uses it when present
#   gnuplot-nox                  draws `tujit cycles --timeline` SVGs (a subprocess; no X11)
#   libtomlplusplus-dev          reads `tujit bench --sweep` files (TOML: comments, typed arrays)
#   libssl-dev                   SHA-256 of run outputs and cached objects (libcrypto; SHA extensions)
PACKAGES=(
  cmake make g++ pkg-config
  llvm-19-dev libzstd-dev   # LLVM 19's CMake config links zstd::libzstd_shared
  libboost-program-options-dev
  libbenchmark-dev
  libopenblas-serial-dev   # `tujit bench`: the JIT is measured against OpenBLAS sgemm (serial)
  catch2
  nlohmann-json3-dev
  libfmt-dev
  ccache        # optional speed-up: rebuilds across build trees (CMake uses it when present)
  gnuplot-nox   # `tujit cycles --timeline PATH.svg` runs gnuplot to draw the timeline
  libtomlplusplus-dev  # `tujit bench --sweep FILE.toml` parses sweep files
  libssl-dev    # libcrypto's SHA-256 (run output digests, object cache checks)
)
# Optional sets, installed only when named on the command line:
#   fuzz (`make fuzz`): clang-19 + libclang-rt-19-dev (libFuzzer and the sanitizer runtimes for
#         clang), python3 (tests/fuzz/make_seeds.py). `make test` never needs them.
#   test (`make test`, `make test-sanitize`): the consumers the tests check tujit's CI reports
#         with (docs/ci.md) —
#         libxml2-utils   xmllint validates `--format junit` against tests/report/junit.xsd
#         nodejs (+ npm)  runs the npm packages of tests/report/tools (installed below)
#         dpkg-dev, file  the Debian package test: `make deb`'s CPack derives Depends with
#                         dpkg-shlibdeps (dpkg-dev) on the files `file` says are ELF
#         groff-base      the install test renders the generated man page, warnings fatal
#   deb (`make deb`): dpkg-dev and file, for the same reason.
#   matrix (`make build-matrix`): clang-19, the second compiler of scripts/build-matrix.sh.
# Any other argument is taken as a package name.
TEST_TOOLS=0
for arg in "$@"; do
  case $arg in
  fuzz) PACKAGES+=(clang-19 libclang-rt-19-dev python3) ;;
  deb) PACKAGES+=(dpkg-dev file) ;;
  matrix) PACKAGES+=(clang-19) ;;
  test)
    TEST_TOOLS=1
    PACKAGES+=(libxml2-utils nodejs dpkg-dev file groff-base)
    # Debian's nodejs comes without npm; a Node.js that ships its own npm needs no second one.
    command -v npm >/dev/null 2>&1 || PACKAGES+=(npm)
    ;;
  *) PACKAGES+=("$arg") ;;
  esac
done

missing=()
for p in "${PACKAGES[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
  [ "$status" = "installed" ] || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}" >&2
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  # A fresh machine's package lists may be empty: refresh them once before installing.
  $SUDO apt-get update -q
  $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

[ "$TEST_TOOLS" = 1 ] || exit 0
# npm packages the tests check tujit's CI reports with (versions pinned by the lock file):
#   @microsoft/jest-sarif  the SARIF 2.1.0 JSON schema (validated with its ajv set-up)
#   ajv                    the JSON-schema validator
#   @actions/core          GitHub Actions' own writer of workflow commands (`::error …`)
# Installed into tests/report/tools/node_modules, again only when the lock file changed.
TOOLS="$(cd "$(dirname "$0")/.." && pwd)/tests/report/tools"
if [ ! -f "$TOOLS/node_modules/.package-lock.json" ] ||
   [ "$TOOLS/package-lock.json" -nt "$TOOLS/node_modules/.package-lock.json" ]; then
  echo "install-deps: npm ci in tests/report/tools" >&2
  (cd "$TOOLS" && npm ci --no-audit --no-fund --loglevel=error)
fi
