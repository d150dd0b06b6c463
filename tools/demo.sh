#!/bin/sh
# make demo: the main job — the built-in character walks to a target across seeded hills with
# foot IK. $1 is the build folder. Outputs go to out/demo/ (walk.bvh, walk.csv, summary.json,
# walk.gif).
set -e
BUILD=${1:-build}
OUT=${AK_DEMO_OUT:-out/demo}
mkdir -p "$OUT"
"$BUILD/bin/animkit" walk --terrain hills --out "$OUT" | tee "$OUT/summary.json"
# The same walk as an animated picture (offscreen GL through Mesa; skipped without it).
gif="walk.gif skipped: no offscreen renderer here"
if "$BUILD/bin/animkit" render --walk --terrain hills --size 640x400 --out "$OUT/walk.gif" >"$OUT/render.log" 2>&1; then
  gif="the walk as an animated picture"
fi
echo
echo "demo outputs:"
echo "  $OUT/walk.bvh      the walked motion (world root baked in; open in any BVH viewer)"
echo "  $OUT/walk.csv      per frame: root, heading, sole points, ground under them, stance, hip drop"
echo "  $OUT/summary.json  arrival, time, path length and the foot-contact measures"
echo "  $OUT/walk.gif      $gif"
