#!/bin/sh
# glTF clips against three.js: for every test model (tests/data/gltf, simple_skin included,
# and the .gltf/.glb animkit exports from the test mocap), animkit's
# joints at 50 times per animation (gltf_joint_dump) against GLTFLoader + AnimationMixer
# (three_joints.mjs). npm package `three` is installed on first use into BUILD_DIR/three.
# Usage: check_three.sh BUILD_DIR DUMPER EXPORTER MOCAP_DIR
# Exit 0: every model agrees; 1: one does not; 77: node/npm or the npm registry missing.
set -u
build=$1 dumper=$2 exporter=$3 mocap=$4
here=$(cd "$(dirname "$0")" && pwd)
tool="$build/three"
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "node/npm not found (make deps installs them): skipping"; exit 77
fi
if [ ! -f "$tool/node_modules/three/package.json" ]; then
  mkdir -p "$tool" && cp "$here/three/package.json" "$tool/package.json"
  (cd "$tool" && npm install --no-audit --no-fund --loglevel=error) || {
    echo "npm could not install three: skipping"; exit 77; }
fi
cp "$here/three/three_joints.mjs" "$tool/three_joints.mjs"
out="$build/three-models"
rm -rf "$out" && mkdir -p "$out"
"$exporter" "$out" "$mocap" >/dev/null || exit 1
models="$here/../data/gltf/*.gltf $out/*.gltf $out/*.glb"
fail=0
for m in $models; do
  "$dumper" "$m" > "$out/joints.csv" || { echo "$m: animkit cannot read it"; fail=1; continue; }
  node "$tool/three_joints.mjs" "$m" < "$out/joints.csv" || fail=1
done
exit $fail
