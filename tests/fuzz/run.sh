#!/usr/bin/env bash
# Runs every libFuzzer target of tests/fuzz/ for a bounded time (`make fuzz`).
#   tests/fuzz/run.sh BUILD_DIR SECONDS [TARGET...]
# Seeds: specs/ and tests/corpus/ for the spec-level targets, generated seeds
# (tests/fuzz/make_seeds.py) for the mapping and npy targets, tests/corpus/fuzz/ (each target's
# committed seeds and saved crashers, which `make test` replays). New inputs go to
# BUILD_DIR/corpus/TARGET, crashes to BUILD_DIR/artifacts/. Exits non-zero when any target
# found a crash; prints each target's executed-input count and final coverage.
set -uo pipefail
BUILD=${1:?build dir}
SECONDS_EACH=${2:?seconds per target}
shift 2
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
TARGETS=("$@")
[ ${#TARGETS[@]} -eq 0 ] && TARGETS=(fuzz_mapping fuzz_spec fuzz_npy fuzz_run fuzz_fetch fuzz_gen)

python3 "$ROOT/tests/fuzz/make_seeds.py" "$BUILD/seeds" >&2 || exit 2
mkdir -p "$BUILD/artifacts"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

status=0
for t in "${TARGETS[@]}"; do
  seeds=()
  extra=()
  case $t in
  fuzz_mapping) seeds=("$BUILD/seeds/mapping" "$ROOT/tests/corpus/fuzz/mapping") ;;
  fuzz_npy) seeds=("$BUILD/seeds/npy" "$ROOT/tests/corpus/fuzz/npy") ;;
  fuzz_spec)
    seeds=("$ROOT/specs" "$ROOT/tests/corpus/malformed" "$ROOT/tests/corpus/fuzz/spec")
    extra=(-dict="$ROOT/tests/fuzz/spec.dict" -max_len=16384) ;;
  fuzz_run)
    seeds=("$ROOT/specs" "$ROOT/tests/corpus/fuzz/run")
    extra=(-dict="$ROOT/tests/fuzz/spec.dict" -max_len=16384) ;;
  fuzz_fetch)
    seeds=("$ROOT/specs" "$ROOT/tests/corpus/fuzz/fetch")
    extra=(-dict="$ROOT/tests/fuzz/spec.dict" -max_len=16384) ;;
  fuzz_gen)
    # Nine bytes choose a generated kernel (byte 0 its form); libFuzzer starts from the empty
    # input, at full length at once.
    seeds=("$ROOT/tests/corpus/fuzz/gen")
    extra=(-max_len=9 -len_control=0) ;;
  *) echo "run.sh: unknown target $t" >&2; exit 2 ;;
  esac
  existing=()
  for s in "${seeds[@]}"; do [ -d "$s" ] && existing+=("$s"); done
  mkdir -p "$BUILD/corpus/$t"
  log="$BUILD/artifacts/$t.log"
  echo "== $t: ${SECONDS_EACH}s (log $log)" >&2
  "$BUILD/tests/fuzz/$t" -max_total_time="$SECONDS_EACH" -timeout=20 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$BUILD/artifacts/$t-" "${extra[@]}" \
    "$BUILD/corpus/$t" "${existing[@]}" >"$log" 2>&1
  rc=$?
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)
  if [ $rc -ne 0 ]; then
    echo "== $t: FAILED (exit $rc) after ${runs:-?} inputs; see $log and $BUILD/artifacts/" >&2
    grep -m3 -E 'ERROR|runtime error|FUZZ PROPERTY' "$log" >&2
    status=1
  else
    # libFuzzer's last status line: coverage (cov: edges, ft: features) and corpus at the end.
    final=$(grep -E '^#[0-9]+[[:space:]]+(DONE|pulse|NEW|REDUCE|INITED)' "$log" | tail -1 |
      grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+/[0-9]+[a-zA-Z]*' || true)
    echo "== $t: ok, ${runs:-?} inputs, ${final:-no status line}," \
      "corpus $(ls "$BUILD/corpus/$t" | wc -l) files" >&2
  fi
done
exit $status
