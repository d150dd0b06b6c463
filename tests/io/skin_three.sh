#!/bin/sh
# animkit's LBS against three.js's SkinnedMesh (npm `three`, installed with the glTF validator
# from tests/io/package.json into BUILD_DIR/gltf-validator on first use).
# Usage: skin_three.sh BUILD_DIR DUMPER MOCAP_DIR
# Exit 0: every vertex within 1e-5 m; 1: a difference or a failure; 77: node/npm missing or the
# registry unreachable (CTest reports the test as skipped).
set -u
build=$1 dumper=$2 mocap=$3
here=$(cd "$(dirname "$0")" && pwd)
tool="$build/gltf-validator"
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "node/npm not found (make deps installs them): skipping"; exit 77
fi
sh "$here/npm_install.sh" "$here/package.json" "$tool" three || {
  echo "npm could not install three: skipping"; exit 77; }
out="$build/skin-three.json"
"$dumper" "$out" "$mocap/cmu_02_01_walk.bvh" 120 "$mocap/arena_louise_stand_walk_cycle.bvh" 30 || exit 1
node "$here/skin_three.mjs" "$tool/node_modules/three/build/three.module.js" "$out"
