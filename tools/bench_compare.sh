#!/bin/sh
# make bench, second part: the walker's frame cost before and after, measured back to back.
# Usage: tools/bench_compare.sh BEFORE_COMMIT [BUILD_DIR] [RUNS]
#
# Builds the library of BEFORE_COMMIT once (cached in BUILD_DIR/bench-before/<commit>), compiles
# bench/locomotion_bench.c against it and against BUILD_DIR's library with the same flags, runs
# the two RUNS times alternately (default 5) and prints each row's median, before -> after.
# Timings on a shared machine move with its load; with valgrind installed it also prints
# instructions per character-frame of one character (callgrind: N frames minus 0 frames of the
# same setup), which do not; the same code runs for a crowd, where the cost beyond these is
# memory traffic, which only the timings show. Skipped (exit 0) where BEFORE_COMMIT is not in the history (a release tarball).
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
for side in before after; do
  if [ $side = before ]; then inc=$dir/src/include lib=$dir/build/lib/libanimkit.a
  else inc=$here/include lib=$build/lib/libanimkit.a; fi
  ${CC:-cc} -O3 -std=c11 -I"$here/bench" -I"$inc" "$here/bench/locomotion_bench.c" \
    "$here/bench/harness.c" "$lib" -lm -o "$dir/bench_$side"
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
i=0
while [ $i -lt "$runs" ]; do
  "$dir/bench_before" >>"$tmp/before" 2>/dev/null
  "$dir/bench_after" >>"$tmp/after" 2>/dev/null
  i=$((i + 1))
done
# rows "source|label|microseconds" from the bench output
rows() {
  awk '/ joints\):$/ { src = $0; sub(/ \(.*/, "", src); n = split(src, p, "/"); src = p[n] }
       /us per character-frame/ { lab = $0; sub(/ +[0-9.]+ us per.*/, "", lab); sub(/^ +/, "", lab)
                                  v = $0; sub(/ us per.*/, "", v); sub(/.* /, "", v)
                                  print src "|" lab "|" v }' "$1"
}
rows "$tmp/before" | sed 's/^/b|/' >"$tmp/rows"
rows "$tmp/after" | sed 's/^/a|/' >>"$tmp/rows"
echo "== walker frame cost, $sha -> this build (us per character-frame, median of $runs runs each, alternating)"
sort -t'|' -k2,2 -k3,3 -k1,1 -k4,4g "$tmp/rows" | awk -F'|' '
  function med(arr, n) { return n % 2 ? arr[(n + 1) / 2] : (arr[n / 2] + arr[n / 2 + 1]) / 2 }
  { key = $2 "|" $3; if (key != last && last != "") flush(); last = key
    if ($1 == "b") b[++nb] = $4; else a[++na] = $4 }
  function flush(  x, y, s) {
    split(last, k, "|"); x = med(b, nb); y = med(a, na)
    if (k[1] != src) { print "  " k[1]; src = k[1] }
    printf "    %-48s %7.3f -> %7.3f  (%+.0f%%)\n", k[2], x, y, (y / x - 1) * 100
    nb = na = 0 }
  END { if (last != "") flush() }'

command -v valgrind >/dev/null || { echo "(valgrind not installed: no instruction counts)"; exit 0; }
# Instructions of one run of the bench's fixed work.
ir() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
    awk '/Collected :/ { print $NF }'
}
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
