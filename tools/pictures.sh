#!/bin/sh
# make pictures: the pictures in docs/img/ that the docs print a command for, made by exactly
# that command (the block under a `<!-- doctest: picture img/NAME -->` marker, its --out
# pointed at docs/img/NAME): stills, contact sheets, IK, the walker, motion matching and
# retargeting, through the headless renderer (`animkit render`). The web page's pictures
# (docs/img/web_*.png) come from `node web/screenshots.mjs` after `make web`.
# Usage: tools/pictures.sh BUILD_DIR
set -eu
build=$(cd "${1:-build}" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
[ -x "$build/bin/animkit" ] || { echo "pictures: $build/bin/animkit not built (run make build)" >&2; exit 1; }
${SYSTEM_PYTHON:-python3} "$root/tools/doc_test.py" "$build" --make-pictures
# The page's pictures (docs/img/web_*.png, the URLs in web/screenshots.mjs and docs/web.md), in
# headless chromium, when the page is built (make web) and the page test installed puppeteer.
if [ -f "$root/web/dist/animkit.wasm" ] && [ -d "$build/web-node/node_modules/puppeteer-core" ]; then
  node "$root/web/screenshots.mjs" "$build"
else
  echo "pictures: docs/img/web_*.png not remade: needs make web and the web_page test's npm packages" >&2
fi
ls -l "$root/docs/img"
