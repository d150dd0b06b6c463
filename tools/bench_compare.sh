#!/bin/sh
# make bench, second part: the hot paths (bench/hotpath_bench.c: clip sampling, FK, blending,
# every IK solver, BVH and glTF I/O) and the walker's frame cost (bench/locomotion_bench.c),
# before and after, measured back to back.
# Usage: tools/bench_compare.sh BEFORE_COMMIT [BUILD_DIR] [RUNS]
#
# Builds the library of BEFORE_COMMIT once (cached in BUILD_DIR/bench-before/<commit>), compiles
# each bench source against it and against BUILD_DIR's library with the same flags, runs
# the two RUNS times alternately (default 5) and prints each hot-path row's median, before ->
# after; each walker row's change in time is the median over the RUNS before/after pairs of
# the pair's ratio (its absolute times are the main table's, bench/results.md: see below).
# The hot-path rows also say whether both libraries give the same results (bench_hotpath
# --check) and count instructions per operation with callgrind.
# Timings on a shared machine move with its load; with valgrind installed it also prints
# instructions per character-frame of one character (callgrind: N frames minus 0 frames of the
# same setup), which do not; the same code runs for a crowd, where the cost beyond these is
# memory traffic, which the timings show and, with BENCH_CACHE=1 (a few minutes more), cachegrind
# counts: misses of a 1 MiB last-level cache per character-frame of 1,000 characters (the
# lines of memory each character's frame brings in). Skipped (exit 0) where BEFORE_COMMIT is
# not in the history (a release tarball).
set -e
before=$1
build=${2:-build}
runs=${3:-5}
[ -n "$before" ] || { echo "usage: tools/bench_compare.sh BEFORE_COMMIT [BUILD_DIR] [RUNS]" >&2; exit 2; }
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$build" && pwd)
if ! command -v git >/dev/null || ! git -C "$here" rev-parse -q --verify "$before^{commit}" >/dev/null; then
  echo "bench_compare: $before is not a commit of this checkout: before/after skipped"
  exit 0
fi
sha=$(git -C "$here" rev-parse --short=12 "$before^{commit}")
dir=$build/bench-before/$sha
AK_MOCAP_DIR=${AK_MOCAP_DIR:-$here/tests/data/mocap}
export AK_MOCAP_DIR
cmu=$AK_MOCAP_DIR/cmu_02_01_walk.bvh

if [ ! -f "$dir/build/lib/libanimkit.a" ]; then
  echo "bench_compare: building the library of $sha in $dir (once)"
  rm -rf "$dir"
  mkdir -p "$dir/src"
  git -C "$here" archive "$sha" | tar -x -C "$dir/src"
  cmake -S "$dir/src" -B "$dir/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$dir/build" -j2 --target animkit_static >/dev/null
fi
# The same bench source and flags on both sides: only the library differs.
# compile SOURCE NAME: $dir/NAME_before and $dir/NAME_after.
compile() {
  for side in before after; do
    if [ $side = before ]; then inc=$dir/src/include lib=$dir/build/lib/libanimkit.a
    else inc=$here/include lib=$build/lib/libanimkit.a; fi
    ${CC:-cc} -O3 -std=c11 -DAKB_COMPARE -I"$here/bench" -I"$inc" "$here/bench/$1" \
      "$here/bench/harness.c" "$lib" -lm -o "$dir/$2_$side"
  done
}
compile locomotion_bench.c bench
compile hotpath_bench.c hotpath

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# alternate NAME: RUNS runs of each side, before and after in turn, into $tmp/NAME_SIDE (all
# runs) and $tmp/NAME_SIDE.I (run I, from 1).
alternate() {
  i=0
  while [ $i -lt "$runs" ]; do
    i=$((i + 1))
    "$dir/$1_before" >"$tmp/$1_before.$i" 2>/dev/null
    "$dir/$1_after" >"$tmp/$1_after.$i" 2>/dev/null
    cat "$tmp/$1_before.$i" >>"$tmp/$1_before"
    cat "$tmp/$1_after.$i" >>"$tmp/$1_after"
  done
}
# Instructions of one run of a bench's fixed work.
ir() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
    awk '/Collected :/ { print $NF }'
}
have_valgrind=0
command -v valgrind >/dev/null && have_valgrind=1

echo "== hot paths, $sha -> this build (ns per operation, median of $runs runs each, alternating)"
"$dir/hotpath_before" --check >"$tmp/check_before"
"$dir/hotpath_after" --check >"$tmp/check_after"
alternate hotpath
hot_rows() { awk '/ ns  / { print $1 "|" $2 }' "$1"; }
{ hot_rows "$tmp/hotpath_before" | sed 's/^/b|/'; hot_rows "$tmp/hotpath_after" | sed 's/^/a|/'; } |
  sort -t'|' -k2,2 -k1,1 -k3,3g | awk -F'|' '
  function med(arr, n) { return n % 2 ? arr[(n + 1) / 2] : (arr[n / 2] + arr[n / 2 + 1]) / 2 }
  { if ($2 != last && last != "") flush(); last = $2
    if ($1 == "b") b[++nb] = $3; else a[++na] = $3 }
  function flush(  x, y) { x = med(b, nb); y = med(a, na)
    printf "    %-16s %10.1f -> %10.1f  (%+.0f%%)\n", last, x, y, (x > 0 ? (y / x - 1) * 100 : 0)
    nb = na = 0 }
  END { if (last != "") flush() }'
diff "$tmp/check_before" "$tmp/check_after" | awk '/^>/ { r = r " " $2 }
  END { print r == "" ? "    same results on every row" : "    results differ on:" r }'
if [ $have_valgrind = 1 ]; then
  echo "== instructions per operation (callgrind: N operations minus 0), $sha -> this build"
  z_b=$(ir "$dir/hotpath_before" --row fk 0)
  z_a=$(ir "$dir/hotpath_after" --row fk 0)
  "$dir/hotpath_after" --list | while read -r row n; do
    b=$(ir "$dir/hotpath_before" --row "$row" "$n")
    a=$(ir "$dir/hotpath_after" --row "$row" "$n")
    awk -v l="$row" -v b="$b" -v a="$a" -v zb="$z_b" -v za="$z_a" -v n="$n" \
      'BEGIN { x = (b - zb) / n; y = (a - za) / n
               printf "    %-16s %10.0f -> %10.0f  (%+.1f%%)\n", l, x, y, (x > 0 ? (y / x - 1) * 100 : 0) }'
  done
fi
echo

alternate bench
# rows "source|label|microseconds" from the bench output
rows() {
  awk '/ joints\):$/ { src = $0; sub(/ \(.*/, "", src); n = split(src, p, "/"); src = p[n] }
       /us per character-frame/ { lab = $0; sub(/ +[0-9.]+ us per.*/, "", lab); sub(/^ +/, "", lab)
                                  v = $0; sub(/ us per.*/, "", v); sub(/.* /, "", v)
                                  print src "|" lab "|" v }' "$1"
}
# Each pair (run I of each side, back to back) gives each row's ratio after / before; the row's
# change is the median of the RUNS ratios. Absolute times are not printed here. The same
# library and bench source time alike built either way (this script's -O3 build against the
# main table's -O3 -march=native one, interleaved: within 1 %), but this section runs minutes
# after the main table's bench_locomotion (the hot paths and their callgrind runs come between)
# and the level of a shared machine moves in that time: one quiet make bench printed 25-128 %
# above the table here (CMU 02_01, one character, 2.35 against 1.77 us) while the instruction
# counts stayed. Two runs a second apart share the level; their ratio is what this section is
# for.
: >"$tmp/rows"
i=0
while [ $i -lt "$runs" ]; do
  i=$((i + 1))
  rows "$tmp/bench_before.$i" | sed "s/^/b|$i|/" >>"$tmp/rows"
  rows "$tmp/bench_after.$i" | sed "s/^/a|$i|/" >>"$tmp/rows"
done
echo "== walker frame cost, $sha -> this build (change in time per character-frame: median of $runs interleaved pairs' ratios; the times themselves: bench/results.md)"
awk -F'|' '
  function med(arr, n,  i, j, x) { for (i = 2; i <= n; ++i) { x = arr[i]; j = i - 1
      while (j > 0 && arr[j] > x) { arr[j + 1] = arr[j]; --j } arr[j + 1] = x }
    return n % 2 ? arr[(n + 1) / 2] : (arr[n / 2] + arr[n / 2 + 1]) / 2 }
  { key = $3 "|" $4; if (!(key in seen)) { seen[key] = ++nk; keys[nk] = key }
    v[$1, $2, key] = $5; runs[$2] = 1 }
  END {
    for (k = 1; k <= nk; ++k) {
      key = keys[k]; n = 0
      for (r in runs) if ((("b", r, key) in v) && (("a", r, key) in v) && v["b", r, key] > 0)
        q[++n] = v["a", r, key] / v["b", r, key]
      split(key, p, "|")
      if (p[1] != src) { print "  " p[1]; src = p[1] }
      if (n == 0) { printf "    %-48s (no pair)\n", p[2]; continue }
      x = med(q, n)
      printf "    %-48s %+5.1f%%  (%.3f x, %d pairs)\n", p[2], (x - 1) * 100, x, n
    }
  }' "$tmp/rows"

[ $have_valgrind = 1 ] || { echo "(valgrind not installed: no instruction counts)"; exit 0; }
echo "== instructions per character-frame, 1 character (callgrind), $sha -> this build"
for src in built-in "$cmu"; do
  file=$src
  [ "$src" = built-in ] && file=
  [ "$src" = built-in ] || [ -f "$src" ] || continue
  echo "  $(basename "$src")"
  for row in "full (IK)|600 1" "no foot IK|600 1 --no-foot-ik" \
    "full (IK), walking 8 m between stops|1200 1 --stops"; do
    label=${row%%|*}
    set -- ${row#*|}
    frames=$1 chars=$2
    shift 2
    out=
    for side in before after; do
      n1=$(ir "$dir/bench_$side" --frames "$frames" --characters "$chars" "$@" $file)
      n0=$(ir "$dir/bench_$side" --frames 0 --characters "$chars" "$@" $file)
      out="$out $(( (n1 - n0) / (frames * chars) ))"
    done
    set -- $out
    awk -v l="$label" -v b="$1" -v a="$2" \
      'BEGIN { printf "    %-48s %7d -> %7d  (%+.1f%%)\n", l, b, a, (a / b - 1) * 100 }'
  done
done

[ "${BENCH_CACHE:-0}" = 1 ] || exit 0
# Last-level data misses (reads + writes) of one run of 1,000 characters, 1 MiB cache.
llm() {
  valgrind --tool=cachegrind --cache-sim=yes --LL=1048576,16,64 --cachegrind-out-file=/dev/null \
    "$@" 2>&1 >/dev/null | awk '/LLd misses:/ { gsub(",", "", $4); print $4 }'
}
echo "== memory lines per character-frame, 1,000 characters (cachegrind, 1 MiB last level), $sha -> this build"
for src in built-in "$cmu"; do
  file=$src
  [ "$src" = built-in ] && file=
  [ "$src" = built-in ] || [ -f "$src" ] || continue
  out=
  for side in before after; do
    m1=$(llm "$dir/bench_$side" --frames 20 --characters 1000 $file)
    m0=$(llm "$dir/bench_$side" --frames 0 --characters 1000 $file)
    out="$out $(( (m1 - m0) / 20 ))"
  done
  set -- $out
  awk -v l="$(basename "$src"), full (IK)" -v b="$1" -v a="$2" \
    'BEGIN { printf "    %-48s %7.1f -> %7.1f  (%+.1f%%)\n", l, b / 1000, a / 1000, (a / b - 1) * 100 }'
done
