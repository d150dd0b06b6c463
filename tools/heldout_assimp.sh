#!/bin/sh
# A held-out trial on another studio's captures (issue 21, "tried on captures you did not tune
# on"): Debian's assimp-testmodels (installed by `make deps`) ships three CMU conversions from
# cgspeed.com, 01_01.bvh, 01_03.bvh (a walk with its own captured start and stop) and
# Boxing_Toes.bvh, that no test was tuned on. Each walks the CLI's default route (-6,-4 to 6,4)
# on flat ground, the hills of seed 7, the built-in stairs and tools/heldout_table.py's heightmap
# (the options of tools/heldout_trial.sh), with the guide walker and with motion matching over a
# database of that one clip (--steer match). A trial, not a test: it asserts nothing and exits 0
# whatever the rows say; without the package it prints why and exits 0.
#
# Usage: tools/heldout_assimp.sh BUILD OUTDIR
#   AK_ASSIMP_BVH_DIR names another folder holding the three files (as the tests read it).
#   OUTDIR/heightmap.pgm, OUTDIR/walks/<clip>__<ground>__<walker>/ (each walk's walk.bvh,
#   walk.csv, summary.json, stdout, stderr) and OUTDIR/table.md (printed).
set -eu
[ $# -eq 2 ] || { echo "usage: tools/heldout_assimp.sh BUILD OUTDIR" >&2; exit 2; }
build=$(cd "$1" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
animkit=$build/bin/animkit
[ -x "$animkit" ] || { echo "heldout_assimp: $animkit not built" >&2; exit 1; }
out=$2
bvh=${AK_ASSIMP_BVH_DIR:-/usr/share/assimp/models/BVH}
for clip in 01_01 01_03 Boxing_Toes; do
  if [ ! -r "$bvh/$clip.bvh" ]; then
    echo "heldout_assimp: skipped: $bvh/$clip.bvh is not there (Debian assimp-testmodels," \
      "make deps)"
    exit 0
  fi
done
HELDOUT_CLIPDIR=$bvh HELDOUT_CLIPS="01_01 01_03 Boxing_Toes" \
  HELDOUT_GROUNDS="flat heightmap stairs hills" exec sh "$root/tools/heldout_trial.sh" "$1" "$out"
