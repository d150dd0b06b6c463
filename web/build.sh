#!/bin/sh
# make web: the library and the viewer compiled with emscripten into web/dist/
# (animkit.js + animkit.wasm + index.html, and the shipped test clips under clips/).
# Usage: web/build.sh [BUILD_DIR]   (default build-web). Exit 77 when emcc is missing.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-"$root/build-web"}
dist="$root/web/dist"
if ! command -v emcc >/dev/null 2>&1 || ! command -v emcmake >/dev/null 2>&1; then
  echo "emcc not found (make deps installs Debian's emscripten): web page not built"; exit 77
fi
# Debian's emcc finds acorn (its JavaScript minifier's parser) through NODE_PATH.
export NODE_PATH="${NODE_PATH:-/usr/share/nodejs}"
start=$(date +%s)
if [ ! -f "$build/CMakeCache.txt" ]; then
  emcmake cmake -S "$root/web" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build "$build" -j"${JOBS:-2}"
mkdir -p "$dist/clips"
cp "$build/animkit.js" "$build/animkit.wasm" "$root/web/index.html" "$dist/"
# The test clips: $AK_MOCAP_DIR, else the repository's tests/data/mocap.
mocap="${AK_MOCAP_DIR:-$root/tests/data/mocap}"
printf '[' > "$dist/clips/clips.json.tmp"
sep=""
for f in "$mocap"/*.bvh; do
  [ -f "$f" ] || continue
  name=$(basename "$f" .bvh)
  cp "$f" "$dist/clips/$name.bvh"
  frames=$(sed -n 's/^[[:space:]]*Frames:[[:space:]]*\([0-9]*\).*/\1/p' "$f" | head -n 1)
  printf '%s\n {"name": "%s", "path": "clips/%s.bvh", "frames": %s}' "$sep" "$name" "$name" "${frames:-0}" \
    >> "$dist/clips/clips.json.tmp"
  sep=","
done
printf '\n]\n' >> "$dist/clips/clips.json.tmp"
mv "$dist/clips/clips.json.tmp" "$dist/clips/clips.json"
echo "web/dist: animkit.js $(wc -c < "$dist/animkit.js") B, animkit.wasm $(wc -c < "$dist/animkit.wasm") B," \
  "gzip $(cat "$dist/animkit.js" "$dist/animkit.wasm" "$dist/index.html" | gzip -9 | wc -c) B" \
  "($(($(date +%s) - start)) s); serve it: python3 -m http.server -d web/dist"
