#!/usr/bin/env bash
# Tunes the book's batched matmul (furiosa-opt docs/src/computing-tensors/contraction-engine/index.md, specs/bmatmul_*_in_time.rs) at
# its own sizes and scaled up, compares the tuner's best kernel with the book's hand mappings
# (their cycles from `tujit cycles` on the spec files, or on bench/sweeps/bmatmul_m_in_time.rs.in
# at the scaled sizes), and plots every shape's Pareto front with the book's kernels on it.
#
#   bench/tune_book_shapes.sh [OUT_DIR] [THREADS]      (from the repository root, after make build)
#
# OUT_DIR (default build/tune-book) receives per shape the tuner's JSON, CSV, plot and rank-1 spec,
# then summary.txt (the Markdown table of README.md's tune section) and tune_book.svg.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
tujit=${TUJIT:-$root/build/harness/tujit}
out=${1:-$root/build/tune-book}
threads=${2:-0}
mkdir -p "$out"

# The analytic and trace totals and the live slices `tujit cycles` reports for a spec file.
cycles_of() {
  "$tujit" cycles "$1" | awk '
    /live slices run the same program/ { for (i = 1; i <= NF; ++i) if ($i == "live") s = $(i - 1) }
    $1 == "total" { a = $2; t = $3 }
    END { print a, t, s }'
}

# The M-in-Time template (bench/sweeps) at the given sizes and operand type.
m_in_time() { # M N K dtype acc fe
  sed -e "s/{M}/$1/; s/{N}/$2/; s/{K}/$3/; s/{dtype}/$4/g; s/{acc}/$5/; s/{fe}/$6/g" \
      -e "s/{op}/$((2 * $6))/g; s/{mode}/Interleaved/" "$root/bench/sweeps/bmatmul_m_in_time.rs.in"
}

summary="$out/summary.txt"
{
  echo "| shape | dtype | candidates | valid | seconds (threads) | candidates / core-s | best cycles (trace) | best live slices | book kernel | book cycles (slices) | book / best |"
  echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |"
} > "$summary"
fronts=()
books="$out/book_points.dat"
: > "$books"

tune_shape() { # name sizes dtype book-spec...
  local name=$1 sizes=$2 dtype=$3
  shift 3
  local base="$out/$name"
  rm -f "$base".json "$base".csv "$base".svg "$base".rs
  "$tujit" tune --einsum "vmk,vnk->vmn" --sizes "$sizes" --dtype "$dtype" --threads "$threads" \
    --json --csv "$base.csv" --plot "$base.svg" --emit "$base.rs" > "$base.json" 2> "$base.txt"
  # The Pareto front (live slices, cycles) for the combined plot.
  awk -F, '$1 == "pareto" { print $8, $4 }' "$base.csv" > "$base.front.dat"
  fronts+=("$name")
  local best searched valid seconds cpu used
  best=$(awk -F, '$1 == "best" && $2 == 1 { print $4, $5, $8 }' "$base.csv")
  read -r searched valid seconds cpu used < <(awk '
    /"searched":/ { gsub(/[^0-9.]/, "", $2); s = $2 }
    /"valid":/ { gsub(/[^0-9.]/, "", $2); v = $2 }
    /"seconds":/ { gsub(/[^0-9.]/, "", $2); w = $2 }
    /"cpu_seconds":/ { gsub(/[^0-9.]/, "", $2); c = $2 }
    /"threads":/ { gsub(/[^0-9]/, "", $2); t = $2 }
    /"best":/ { exit }
    END { print s, v, w, c, t }' "$base.json")
  local rate
  rate=$(awk -v s="$searched" -v c="$cpu" 'BEGIN { printf "%.0f", (c > 0 ? s / c : 0) }')
  read -r best_cycles best_trace best_slices <<< "$best"
  for spec in "$@"; do
    local book_a book_t book_s
    read -r book_a book_t book_s < <(cycles_of "$spec")
    echo "$book_s $book_a $name:$(basename "$spec" .rs)" >> "$books"
    echo "| $sizes | $dtype | $searched | $valid | $(printf '%.1f' "$seconds") ($used) | $rate | $best_cycles ($best_trace) | $best_slices | \`$(basename "$spec")\` | $book_a ($book_s) | $(awk -v a="$book_a" -v b="$best_cycles" 'BEGIN { printf "%.1f", a / b }') |" >> "$summary"
  done
}

# The book's sizes: the three strategies.
tune_shape book "V=32,M=32,N=8,K=32" bf16 \
  "$root/specs/bmatmul_k_in_time.rs" "$root/specs/bmatmul_m_in_time.rs" \
  "$root/specs/bmatmul_v_in_time.rs"
# Scaled (V=32, M=1024, N=8, K=256), bf16 and i8: the book's M-in-Time mapping at those sizes.
m_in_time 1024 8 256 bf16 f32 16 > "$out/m_in_time_bf16.rs"
tune_shape scaled_bf16 "V=32,M=1024,N=8,K=256" bf16 "$out/m_in_time_bf16.rs"
m_in_time 1024 8 256 i8 i32 32 > "$out/m_in_time_i8.rs"
tune_shape scaled_i8 "V=32,M=1024,N=8,K=256" i8 "$out/m_in_time_i8.rs"

# One picture: each shape's front, the book's kernels as labelled points.
plot="$out/tune_book.svg"
{
  echo 'set terminal svg size 1100,700 dynamic noenhanced font "sans,12" background rgb "white"'
  echo "set output \"$plot\""
  echo 'set title "tujit tune: Pareto fronts of the book'"'"'s batched matmul (vmk,vnk->vmn) against the book'"'"'s mappings"'
  echo 'set grid'
  echo 'set logscale xy 2'
  echo 'set xlabel "live slices"'
  echo 'set ylabel "modelled cycles per slice (analytic model)"'
  echo 'set key top right box opaque'
  printf 'plot '
  for f in "${fronts[@]}"; do
    printf '"%s" using 1:2 with steps lw 2 title "front: %s", ' "$out/$f.front.dat" "$f"
  done
  printf '"%s" using 1:2 with points pt 9 ps 1.5 lc rgb "black" title "book kernel", ' "$books"
  printf '"%s" using 1:2:3 with labels offset 0,1 font ",9" notitle\n' "$books"
} > "$out/tune_book.gp"
gnuplot "$out/tune_book.gp"
cat "$summary"
echo "plots: $plot and $out/*.svg; ranked specs: $out/*.rs"
