#!/bin/sh
# make bench: runs every benchmark binary the build produced (medians of repeated runs).
# Usage: tools/bench.sh BUILD_DIR
build=${1:-build}
here=$(cd "$(dirname "$0")/.." && pwd)
AK_MOCAP_DIR=${AK_MOCAP_DIR:-$here/tests/data/mocap}
export AK_MOCAP_DIR
found=0
for b in "$build"/bin/bench_*; do
  [ -x "$b" ] || continue
  found=1
  echo "== $(basename "$b")"
  "$b" || echo "(failed: $b)"
  echo
done
[ "$found" = 1 ] || { echo "no benchmarks built in $build/bin" >&2; exit 1; }
