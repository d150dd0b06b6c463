#!/bin/sh
# Installs tests/io/package.json's npm packages into DIR unless PACKAGE is there already; one
# install at a time (ctest -j runs the validator and the three.js test together).
# Usage: npm_install.sh PACKAGE_JSON DIR PACKAGE
set -u
pkg=$1 dir=$2 name=$3
mkdir -p "$dir"
(
  flock 9
  if [ ! -f "$dir/node_modules/$name/package.json" ] || ! cmp -s "$pkg" "$dir/package.json"; then
    cp "$pkg" "$dir/package.json"
    (cd "$dir" && npm install --no-audit --no-fund --loglevel=error) || exit 1
  fi
) 9>"$dir.lock"
