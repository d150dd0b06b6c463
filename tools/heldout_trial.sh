#!/bin/sh
# The held-out trial (issue 21, "tried on captures you did not tune on"): walks that no test
# runs and nothing was tuned on, measured against issue 21's bounds. A trial, not a test: it
# asserts nothing and exits 0 whatever the rows say; read its table.
#
# From the shipped captures, `animkit edit` makes four clips no test uses:
#   slow30       locomotion/cmu_07_04_slow_walk.bvh resampled to 30 fps
#   run30        locomotion/cmu_02_03_run.bvh at 30 fps, in centimetres
#   veer_mirror  cmu_16_11_walk_veer_left.bvh mirrored, in centimetres
#   walk24       locomotion/cmu_02_02_walk.bvh resampled to 24 fps
# and tools/heldout_table.py writes a heightmap no test uses (30 m, 1.2 m high, 16-bit PGM).
# Each clip walks the CLI's default route (-6,-4 to 6,4) over that heightmap, the built-in
# stairs and the hills of seed 7 (the tests walk seeds 1, 3, 4 and 5), with the guide walker
# and with motion matching over a database of that one clip (--steer match), and the table
# gives one row per walk (columns and bounds: tools/heldout_table.py).
#
# Usage: tools/heldout_trial.sh BUILD OUTDIR
#   HELDOUT_CLIPDIR, HELDOUT_CLIPS and HELDOUT_GROUNDS (all three or none) walk other clips
#   (DIR/NAME.bvh for each NAME) on other grounds (flat, heightmap, stairs, hills) instead of
#   making the four above: tools/heldout_assimp.sh walks assimp-testmodels' files so.
#   OUTDIR/clips/*.bvh, OUTDIR/heightmap.pgm, OUTDIR/walks/<clip>__<ground>__<walker>/ (each
#   walk's walk.bvh, walk.csv, summary.json, stdout, stderr) and OUTDIR/table.md (printed).
set -eu
[ $# -eq 2 ] || { echo "usage: tools/heldout_trial.sh BUILD OUTDIR" >&2; exit 2; }
build=$(cd "$1" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
animkit=$build/bin/animkit
[ -x "$animkit" ] || { echo "heldout_trial: $animkit not built" >&2; exit 1; }
out=$2
python=${SYSTEM_PYTHON:-python3}
mocap=$root/tests/data/mocap
mkdir -p "$out/clips" "$out/walks"

edit() { # NAME SOURCE STEP...
  name=$1
  src=$2
  shift 2
  "$animkit" edit "$mocap/$src" "$out/clips/$name.bvh" "$@" >"$out/clips/$name.log" 2>&1 ||
    { cat "$out/clips/$name.log" >&2; exit 1; }
}
clipdir=${HELDOUT_CLIPDIR:-}
clips=${HELDOUT_CLIPS:-slow30 run30 veer_mirror walk24}
grounds=${HELDOUT_GROUNDS:-heightmap stairs hills}
if [ -z "$clipdir" ]; then
  clipdir=$out/clips
  edit slow30 locomotion/cmu_07_04_slow_walk.bvh --fps 30
  edit run30 locomotion/cmu_02_03_run.bvh --fps 30 --units cm
  edit veer_mirror cmu_16_11_walk_veer_left.bvh --mirror --units cm
  edit walk24 locomotion/cmu_02_02_walk.bvh --fps 24
fi
"$python" "$root/tools/heldout_table.py" heightmap "$out/heightmap.pgm"

for clip in $clips; do
  for ground in $grounds; do
    case $ground in
      flat) terrain="--terrain flat" ;;
      heightmap) terrain="--heightmap $out/heightmap.pgm --size 30 --height 1.2" ;;
      stairs) terrain="--terrain stairs" ;;
      hills) terrain="--terrain hills --seed 7" ;;
    esac
    for walker in guide match; do
      steer=cycle
      [ "$walker" = match ] && steer=match
      dir=$out/walks/${clip}__${ground}__$walker
      mkdir -p "$dir"
      rm -f "$dir/summary.json"
      echo "heldout_trial: $clip $ground $walker" >&2
      # Exit status 1 means "did not arrive": the table says so; keep walking the others.
      # shellcheck disable=SC2086 # $terrain is several words on purpose (no spaces in paths)
      "$animkit" walk --clip "$clipdir/$clip.bvh" $terrain --steer "$steer" --out "$dir" \
        --quiet >"$dir/stdout" 2>"$dir/stderr" || true
    done
  done
done

"$python" "$root/tools/heldout_table.py" table "$out/walks" >"$out/table.md"
cat "$out/table.md"
