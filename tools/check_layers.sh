#!/bin/sh
# Checks the module graph of docs/architecture.md: a file in src/<module> may include only
# headers of its own module or of modules below it (core < ik < anim < io < locomotion <
# retarget < matching < scenario < plugin; include/animkit/<header> belongs to the module named in
# header_module below; public headers are checked the same way). Prints each upward include
# and exits 1 if there is one.
# Usage: tools/check_layers.sh [SOURCE_DIR]
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
order="core ik anim io locomotion retarget matching scenario plugin"
rank() { i=0; for m in $order; do [ "$m" = "$1" ] && { echo $i; return; }; i=$((i + 1)); done; echo 99; }
# Public headers -> the module that implements them.
header_module() {
  case "$1" in
    ak_config|animkit|status|ak_math|skeleton) echo core ;;
    ik) echo ik ;;
    clip|compress|rootmotion|edit|skin) echo anim ;;
    retarget) echo retarget ;;
    bvh|gltf|clipfile) echo io ;;
    ground|controller|locomotion|walkclip|contacts|walkmotion|grounding|reach|walker|walkmetrics)
      echo locomotion ;;
    matching) echo matching ;;
    scenario) echo scenario ;;
    plugin) echo plugin ;;
    *) echo unknown ;;
  esac
}
bad=0
# upward FILE MODULE INCLUDE TARGET: reports FILE (of MODULE) including INCLUDE (of TARGET)
# when TARGET sits above MODULE.
upward() {
  if [ "$(rank "$4")" -gt "$(rank "$2")" ]; then
    echo "${1#$root/}: includes $3 ($4 sits above $2)"
    bad=1
  fi
}
includes() { sed -n 's/^#include "\([^"]*\)".*/\1/p' "$1"; }
for dir in "$root"/src/*/; do
  mod=$(basename "$dir")
  for f in "$dir"*.c "$dir"*.h; do
    [ -f "$f" ] || continue
    for inc in $(includes "$f"); do
      case "$inc" in
        animkit/animkit.h) target=plugin ;;
        animkit/*) target=$(header_module "$(basename "$inc" .h)") ;;
        */*) target=${inc%%/*} ;;
        *) continue ;;
      esac
      upward "$f" "$mod" "$inc" "$target"
    done
  done
done
# Public headers: each belongs to its module (header_module) and may include only public
# headers of its module or below (animkit.h, which includes them all, is the exception).
for f in "$root"/include/animkit/*.h; do
  [ -f "$f" ] || continue
  h=$(basename "$f" .h)
  [ "$h" = animkit ] && continue
  for inc in $(includes "$f"); do
    upward "$f" "$(header_module "$h")" "$inc" "$(header_module "$(basename "$inc" .h)")"
  done
done
[ $bad = 0 ] && echo "module layers: no upward include ($order)"
exit $bad
