#!/bin/sh
# Exports glTF files from every test mocap clip and runs the Khronos glTF validator (npm
# package gltf-validator, installed on first use into BUILD_DIR/gltf-validator) on each.
# Usage: validate_gltf.sh BUILD_DIR EXPORTER MOCAP_DIR
# Exit 0: every file has zero errors; 1: an error; 77: node/npm missing or the npm registry
# unreachable, so the validator cannot be had (CTest reports the test as skipped).
set -u
build=$1 exporter=$2 mocap=$3
here=$(cd "$(dirname "$0")" && pwd)
tool="$build/gltf-validator"
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "node/npm not found (make deps installs them): skipping"; exit 77
fi
sh "$here/npm_install.sh" "$here/package.json" "$tool" gltf-validator || {
  echo "npm could not install gltf-validator: skipping"; exit 77; }
out="$build/gltf-out"
rm -rf "$out" && mkdir -p "$out"
"$exporter" "$out" "$mocap" >/dev/null || exit 1
NODE_PATH="$tool/node_modules" node "$here/validate_gltf.js" "$out"/*.gltf "$out"/*.glb
