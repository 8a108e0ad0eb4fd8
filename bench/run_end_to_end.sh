#!/usr/bin/env bash
# The end-to-end benchmark of README "Performance": the book's batched matmul with M in Time
# (bench/sweeps/bmatmul_m_in_time.rs.in, bf16, N = 8, K = 256) at M = 4096 by default — 268 M
# simulated MACs over a 64 MiB input — run as whole `tujit run` processes with a warm object
# cache, on each engine and thread count. Each row is the median of REPS processes by CPU time;
# the numbers come from the process's own report (`tujit run --json` "process", "time_ms").
# Then `tujit bench` times the kernel alone and the run pipeline in one process.
#
#   bench/run_end_to_end.sh [TUJIT] [M] [REPS]
set -euo pipefail

TUJIT=${1:-build/harness/tujit}
M=${2:-4096}
REPS=${3:-3}
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
export TUJIT_CACHE_DIR="$WORK/cache"

sed -e "s/{M}/$M/g; s/{N}/8/g; s/{K}/256/g; s/{dtype}/bf16/g; s/{acc}/f32/g" \
  -e "s/{fe}/16/g; s/{op}/32/g; s/{mode}/Interleaved/g" \
  "$ROOT/bench/sweeps/bmatmul_m_in_time.rs.in" >"$WORK/k.rs"

field() { # NAME JSON-TEXT: the first number after "NAME":
  sed -n "s/.*\"$1\": *\([0-9.e+-]*\).*/\1/p" <<<"$2" | head -1
}
sha() { sed -n 's/.*"sha256": *"\([0-9a-f]*\)".*/\1/p' <<<"$1" | head -1; }

echo "host: $(nproc) cores; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
"$TUJIT" run "$WORK/k.rs" --threads 1 >/dev/null # fills the object cache
bare=$("$TUJIT" version --json 2>/dev/null || true)
echo
echo "| engine | threads | CPU s | wall s | MAC/s over CPU | MAC/s over wall | inputs / lower / run ms | peak RSS MiB | sha256 |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
for case in "jit 1" "jit 2" "interp 1"; do
  set -- $case
  rows=()
  for _ in $(seq "$REPS"); do
    start=$(date +%s.%N)
    out=$("$TUJIT" run "$WORK/k.rs" --engine "$1" --threads "$2" --json)
    end=$(date +%s.%N)
    rows+=("$(field cpu_ms "$out") $(echo "$end - $start" | bc) $(field simulated_macs "$out") \
$(field inputs "$out") $(field lower "$out") $(field run "$out") $(field peak_rss_mib "$out") \
$(sha "$out")")
  done
  printf '%s\n' "${rows[@]}" | sort -n | sed -n "$(((REPS + 1) / 2))p" |
    awk -v e="$1" -v t="$2" '{printf "| %s | %s | %.3f | %.3f | %.2e | %.2e | %.0f / %.0f / %.0f | %.0f | %.12s… |\n",
      e, t, $1 / 1000, $2, $3 / ($1 / 1000), $3 / $2, $4, $5, $6, $7, $8}'
done
echo
printf 'peak RSS of the bare process (`tujit version --json`): %.0f MiB\n' "$(field peak_rss_mib "$bare")"
echo "$("$TUJIT" run "$WORK/k.rs" --max-bytes 1 2>&1 | sed -n 's/.*needs \([^(]*\)(.*/what --max-bytes counts for this run: \1/p' | head -1)"
echo
# One thread against two, whole processes taken alternately, ROUNDS of each: wall-clock medians
# (and first quartile, best), since one run's wall time swings with the machine's scheduling.
ROUNDS=${ROUNDS:-21}
t1=() t2=()
for _ in $(seq "$ROUNDS"); do
  for t in 1 2; do
    start=$(date +%s%N)
    "$TUJIT" run "$WORK/k.rs" --threads "$t" >/dev/null
    end=$(date +%s%N)
    if [ "$t" = 1 ]; then t1+=($(((end - start) / 1000))); else t2+=($(((end - start) / 1000))); fi
  done
done
quantiles() { printf '%s\n' "$@" | sort -n | awk '{a[NR] = $1 / 1000}
  END {printf "%.1f %.1f %.1f", a[int((NR + 1) / 2)], a[int((NR + 3) / 4)], a[1]}'; }
read -r m1 q1 b1 <<<"$(quantiles "${t1[@]}")"
read -r m2 q2 b2 <<<"$(quantiles "${t2[@]}")"
echo "--threads 1 vs 2, $ROUNDS alternating rounds, wall ms (median / first quartile / best):" \
  "$m1 / $q1 / $b1 vs $m2 / $q2 / $b2; ratio of medians $(echo "scale=2; $m1 / $m2" | bc)"
echo
"$TUJIT" bench "$WORK/k.rs" --repetitions "$REPS" --cpu-time --threads 1
echo
# The same two thread counts inside one process (`tujit bench`, wall time), taken alternately:
# how the kernel alone and the run pipeline (inputs, lowering, cached object, run, digest) scale
# without a process's start and exit. Median MAC/s of each `tujit bench` (REPS repetitions).
rate() { # THREADS: "kernel run" MAC/s
  "$TUJIT" bench "$WORK/k.rs" --repetitions "$REPS" --threads "$1" --json "$WORK/b.json" --force \
    >/dev/null
  tr -d ' \n' <"$WORK/b.json" |
    sed -n 's/.*"macs_per_s":{"jit":{[^}]*"median":\([0-9.e+-]*\)[^}]*},"run":{[^}]*"median":\([0-9.e+-]*\).*/\1 \2/p'
}
for round in 1 2 3; do
  read -r k1 r1 <<<"$(rate 1)"
  read -r k2 r2 <<<"$(rate 2)"
  awk -v k1="$k1" -v r1="$r1" -v k2="$k2" -v r2="$r2" -v n="$round" 'BEGIN {
    printf "in one process, round %d: kernel %.2e -> %.2e MAC/s (%.2fx), run pipeline %.2e -> %.2e MAC/s (%.2fx)\n",
      n, k1, k2, k2 / k1, r1, r2, r2 / r1}'
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
