#!/bin/sh
# glTF clips against three.js: for every test model (tests/data/gltf, simple_skin included,
# and the .gltf/.glb animkit exports from the test mocap), animkit's
# joints at 50 times per animation (gltf_joint_dump) against GLTFLoader + AnimationMixer
# (three_joints.mjs). npm `three` comes from tests/io/package.json, installed with the glTF
# validator into BUILD_DIR/gltf-validator on first use.
# Usage: check_three.sh BUILD_DIR DUMPER EXPORTER MOCAP_DIR
# Exit 0: every model agrees; 1: one does not; 77: node/npm or the npm registry missing.
set -u
build=$1 dumper=$2 exporter=$3 mocap=$4
here=$(cd "$(dirname "$0")" && pwd)
tool="$build/gltf-validator"
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "node/npm not found (make deps installs them): skipping"; exit 77
fi
sh "$here/npm_install.sh" "$here/package.json" "$tool" three || {
  echo "npm could not install three: skipping"; exit 77; }
cp "$here/three_joints.mjs" "$tool/three_joints.mjs"
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
