#!/bin/sh
# make bench: runs every benchmark binary the build produced (medians of repeated runs), then
# writes bench/results.md: the one table of figures README.md and docs/ quote. Each bench
# prints its figures for the table as "@result|what|value|goal|met|for scale" lines
# (akb_result in bench/harness.c); the ratios a loaded machine cannot time are also counted in
# instructions (callgrind: N operations minus 0) when valgrind is installed. The doc test
# (tools/doc_test.py --bench-figures) checks that every row the docs quote is in the table.
# Usage: tools/bench.sh BUILD_DIR      (BENCH_RESULTS=FILE writes the table elsewhere)
build=${1:-build}
here=$(cd "$(dirname "$0")/.." && pwd)
AK_MOCAP_DIR=${AK_MOCAP_DIR:-$here/tests/data/mocap}
export AK_MOCAP_DIR
results=${BENCH_RESULTS:-$here/bench/results.md}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
load() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "unknown"; }
load_start=$(load)
found=0
: >"$tmp/rows"
for b in "$build"/bin/bench_*; do
  [ -x "$b" ] || continue
  name=$(basename "$b")
  found=1
  echo "== $name"
  "$b" >"$tmp/out" || echo "(failed: $name)"
  grep -v '^@result|' "$tmp/out"
  grep '^@result|' "$tmp/out" | sed "s/^@result|//; s/\$/|$name/" >>"$tmp/rows"
  echo
done
[ "$found" = 1 ] || { echo "no benchmarks built in $build/bin" >&2; exit 1; }

# Instructions of one run of a bench's fixed work (nothing when the run did not finish).
ir() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
    awk '/Process terminating/ { bad = 1 } /Collected :/ { n = $NF } END { if (!bad) print n }'
}
# per_op BENCH ROW N: instructions per operation of one --row of a bench, or nothing when a
# run fails. The benches are built again without -march=native (valgrind does not decode
# every instruction that allows), against the same library, as tools/bench_compare.sh does.
per_op() {
  a=$(ir "$tmp/$1" --row "$2" "$3")
  z=$(ir "$tmp/$1" --row "$2" 0)
  [ -n "$a" ] && [ -n "$z" ] || return 0
  awk -v a="$a" -v z="$z" -v n="$3" 'BEGIN { printf "%.1f", (a - z) / n }'
}
compile_plain() {
  ${CC:-cc} -O3 -std=c11 -I"$here/bench" -I"$here/include" -I"$here/src" "$here/bench/$1_bench.c" \
    "$here/bench/harness.c" "$build/lib/libanimkit.a" -lm -o "$tmp/bench_$1"
}
# ratio WHAT BENCH ROW_A ROW_B N SCALE_A SCALE_B GOAL SCALE: (A / SCALE_A) / (B / SCALE_B)
# in instructions, a row of the table (GOAL: "<= 1.5", or "-").
ratio() {
  a=$(per_op "$2" "$3" "$5")
  b=$(per_op "$2" "$4" "$5")
  [ -n "$a" ] && [ -n "$b" ] || { echo "(callgrind: $2 --row $3/$4 failed)" >&2; return 0; }
  awk -v w="$1" -v a="$a" -v b="$b" -v sa="$6" -v sb="$7" -v g="$8" -v s="$9" -v src="$2" '
    BEGIN { r = (a / sa) / (b / sb); v = sprintf("%.3f", r)
      goal = ""; met = ""
      if (g != "-") { split(g, p, " "); goal = "at most " p[2] "×"; met = (v + 0 <= p[2] + 0) ? "met" : "not met" }
      printf "%s|%s×|%s|%s|%s%.0f vs %.0f instructions|callgrind: %s\n", w, v, goal, met, s, a, b, src }'
}
if command -v valgrind >/dev/null 2>&1 && compile_plain hotpath && compile_plain compress &&
  compile_plain core; then
  echo "== instruction ratios (callgrind)"
  {
    ratio "cubic ÷ linear, sample + FK fused, one 60-joint character (instructions)" \
      bench_hotpath fused_1_cubic fused_1 200 1 1 "<= 1.5" ""
    ratio "cubic ÷ linear, batched sample + FK, 16 characters, 60 joints (instructions)" \
      bench_hotpath batch_cubic batch_linear 20 1 1 "<= 1.5" ""
    # Issue 25's cliff: 1.79x a joint from 128 to 129 joints, "flat to 250", on rigs of
    # 150-250 joints and up to ozz's 1,023. No cliff: a joint costs what it costs at 128 joints
    # within 1.1x (a tile's own overhead; the cliff was 1.79x).
    ratio "16 characters, 129 joints ÷ 128 joints, per joint (instructions)" \
      bench_hotpath crowd_129 crowd_128 4 129 128 "<= 1.1" "was 1.79× by time before the tiled path; "
    ratio "16 characters, 1,023 joints ÷ 128 joints, per joint (instructions)" \
      bench_hotpath crowd_1023 crowd_128 2 1023 128 "<= 1.1" ""
    ratio "crowd ÷ floor, 1,000 characters, linear, poses (instructions)" \
      bench_core crowd_aos crowd_floor 1 1 1 "<= 1.6" ""
    ratio "crowd ÷ floor, 1,000 characters, linear, SoA output (instructions)" \
      bench_core crowd_soa crowd_floor 1 1 1 "<= 1.6" ""
    ratio "cubic ÷ linear, 1,000 characters, 31 joints (instructions)" \
      bench_core crowd_cubic crowd_aos 1 1 1 "<= 1.5" ""
    ratio "decompression + FK ÷ plain sampling + FK, one character, CMU 02_01 (instructions)" \
      bench_compress cc_fused plain_fused 200 1 1 "<= 1.3" ""
    ratio "decompression + FK ÷ plain sampling + FK, 16 characters, CMU 02_01 (instructions)" \
      bench_compress cc_crowd plain_crowd 10 1 1 "<= 1.3" ""
  } | tee -a "$tmp/rows"
  echo
fi

commit=$(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo unknown)
[ -n "$(git -C "$here" status --porcelain --untracked-files=no -- src include bench ':!bench/results.md' 2>/dev/null)" ] &&
  commit="$commit + uncommitted changes"
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null)
cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo "?")
{
  echo "# Benchmark results"
  echo
  echo "Written by \`make bench\` (tools/bench.sh): the figures README.md and docs/ quote, each with"
  echo "its goal. Times are medians of repeated runs (rows comparing two paths: runs interleaved),"
  echo "ratios marked \"instructions\" are callgrind counts (N operations minus 0, three decimals), which a loaded"
  echo "machine does not change. The doc test checks that every quoted row is in this file"
  echo "(\`python3 tools/doc_test.py --bench-figures\`); \`--bench-figures --update\` copies this"
  echo "file's rows into the docs."
  echo
  echo "- measured: $(date -u '+%Y-%m-%d %H:%M UTC'), commit $commit"
  echo "- machine: ${cpu:-unknown CPU}, $cores cores"
  echo "- load average (1, 5, 15 min): $load_start at the start, $(load) at the end"
  echo
  echo "| figure | value | goal | met | for scale | from |"
  echo "|---|---|---|---|---|---|"
  awk -F'|' '{ line = "|"; for (i = 1; i <= NF; ++i) line = line " " ($i == "" ? "–" : $i) " |"
               print line }' "$tmp/rows"
} >"$results"
echo "== $(basename "$results") written ($(grep -c '^| ' "$results") lines of table)"
