#!/bin/sh
# Writes the README pictures into docs/img/ with the headless renderer (`animkit render`):
# a still of a mocap clip, a contact sheet of a walk, an IK chain reaching a target and the
# walker on hills, and the motion-matching walker with its trajectories. Usage: tools/pictures.sh BUILD_DIR   (called by `make pictures`)
# The mocap clips come from $AK_MOCAP_DIR (default: tests/data/mocap).
set -eu
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
mocap=${AK_MOCAP_DIR:-$root/tests/data/mocap}
ak="$build/bin/animkit"
out="$root/docs/img"
mkdir -p "$out"
[ -x "$ak" ] || { echo "pictures: $ak not built (run make build)" >&2; exit 1; }
[ -d "$mocap" ] || { echo "pictures: mocap folder $mocap not found (set AK_MOCAP_DIR)" >&2; exit 1; }

# A still: two clips overlaid, each in its own colour, labelled.
"$ak" render "$mocap/cmu_16_11_walk_veer_left.bvh" "$mocap/cmu_09_01_run.bvh" --frame 120 --hud \
  --yaw 40 --pitch 12 --size 800x500 --out "$out/mocap_still.png"
# A walk cycle as a contact sheet.
"$ak" render "$mocap/cmu_07_01_walk.bvh" --frames 40:280:30 --sheet --sheet-cols 3 --size 260x210 \
  --yaw 80 --pitch 8 --follow Hips --distance 3.0 --out "$out/mocap_sheet.png"
# IK: FABRIK turns the right shoulder, arm and forearm of a walking frame so the hand reaches
# a target in front of the chest; the unsolved pose stays as a grey ghost.
"$ak" render --ik "$mocap/cmu_07_01_walk.bvh" --time 1.33 --hud --solver fabrik \
  --ik-chain RightShoulder,RightHand --target 0.35,1.0,0.5 --yaw 50 --pitch 10 --size 800x500 \
  --out "$out/ik_reach.png"
# The walker on hills (needs the locomotion module).
if "$ak" render --walk --help >/dev/null 2>&1 && "$ak" walk --help >/dev/null 2>&1; then
  "$ak" render --walk --terrain hills --seed 3 --hud --time 6 --pitch 24 --yaw 200 --size 800x500 \
    --out "$out/walker_hills.png" ||
    echo "pictures: walker picture skipped (walker mode not available in this build)" >&2
fi
# Motion matching over CMU subject 2's walks and run: the wanted (yellow) and matched (cyan)
# future trajectories and, in the HUD, the clip, time and frame playing and the search cost.
if "$ak" walk --help 2>/dev/null | grep -q match; then
  "$ak" render --walk --steer match --clip "$mocap/cmu_02_01_walk.bvh" \
    --clip "$mocap/locomotion/cmu_02_02_walk.bvh" --clip "$mocap/locomotion/cmu_02_03_run.bvh" \
    --terrain flat --start -3,-2 --target 3,2 --time 1.2 --hud --pitch 26 --yaw 120 \
    --size 800x440 --out "$out/walker_match.png"
fi
ls -l "$out"
