#!/bin/sh
# make demo: the main job — the built-in character walks to a target across seeded hills with
# foot IK. $1 is the build folder. Outputs go to out/demo/ (walk.bvh, walk.csv, summary.json).
set -e
BUILD=${1:-build}
OUT=${AK_DEMO_OUT:-out/demo}
mkdir -p "$OUT"
"$BUILD/bin/animkit" walk --terrain hills --out "$OUT" | tee "$OUT/summary.json"
echo
echo "demo outputs:"
echo "  $OUT/walk.bvh      the walked motion (world root baked in; open in any BVH viewer)"
echo "  $OUT/walk.csv      per frame: root, heading, sole points, ground under them, stance, hip drop"
echo "  $OUT/summary.json  arrival, time, path length and the foot-contact measures"
