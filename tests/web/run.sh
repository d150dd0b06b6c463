#!/bin/sh
# The web tests (CTest runs them; see tests/web/CMakeLists.txt).
#   run.sh build BUILD_DIR               make web into BUILD_DIR/web-wasm -> web/dist
#   run.sh module BUILD_DIR CLI MOCAP    the JS module against the native CLI (node)
#   run.sh page BUILD_DIR CLI MOCAP      the page in headless chromium (puppeteer-core)
# Exit 77 (CTest: skipped) only when emcc or chromium is missing (`make deps` installs both)
# or npm cannot install puppeteer-core (no registry).
set -u
what=$1 build=$2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
dist="$root/web/dist"
if ! command -v emcc >/dev/null 2>&1; then
  echo "emcc not found (make deps installs Debian's emscripten): skipping"; exit 77
fi
if ! command -v node >/dev/null 2>&1; then
  echo "node not found (make deps installs nodejs): skipping"; exit 77
fi
case "$what" in
build)
  exec sh "$root/web/build.sh" "$build/web-wasm" ;;
module)
  [ -f "$dist/animkit.wasm" ] || { echo "web/dist/animkit.wasm missing: the web_build test failed"; exit 1; }
  exec node "$here/module_test.mjs" "$3" "$4" ;;
reliability)
  [ -f "$dist/animkit.wasm" ] || { echo "web/dist/animkit.wasm missing: the web_build test failed"; exit 1; }
  exec node "$here/reliability_test.mjs" "$4" ;;
generated)
  [ -f "$dist/animkit.wasm" ] || { echo "web/dist/animkit.wasm missing: the web_build test failed"; exit 1; }
  exec node "$here/generated_probes.mjs" "$4" ;;
page)
  [ -f "$dist/animkit.wasm" ] || { echo "web/dist/animkit.wasm missing: the web_build test failed"; exit 1; }
  chromium=${AK_CHROMIUM:-/usr/bin/chromium}
  if [ ! -x "$chromium" ]; then
    echo "chromium not found (make deps installs Debian's chromium): skipping"; exit 77
  fi
  deps="$build/web-node"
  if [ ! -f "$deps/node_modules/puppeteer-core/package.json" ] || ! cmp -s "$here/package-lock.json" "$deps/package-lock.json"; then
    mkdir -p "$deps" && cp "$here/package.json" "$here/package-lock.json" "$deps/"
    (cd "$deps" && PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error) || {
      echo "npm could not install puppeteer-core: skipping"; exit 77; }
  fi
  exec node "$here/page_test.mjs" "$dist" "$4" "$deps" "$3" ;;
*)
  echo "usage: run.sh build|module|page BUILD_DIR [CLI MOCAP]"; exit 2 ;;
esac
