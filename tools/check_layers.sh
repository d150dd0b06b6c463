#!/bin/sh
# Checks the module graph of docs/architecture.md: a file in src/<module> may include only
# headers of its own module or of modules below it (core < ik < anim < io < locomotion <
# matching < scenario < plugin; include/animkit/<header> belongs to the module named in
# LAYER_OF below). Prints each upward include and exits 1 if there is one.
# Usage: tools/check_layers.sh [SOURCE_DIR]
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
order="core ik anim io locomotion matching scenario plugin"
rank() { i=0; for m in $order; do [ "$m" = "$1" ] && { echo $i; return; }; i=$((i + 1)); done; echo 99; }
# Public headers -> the module that implements them.
header_module() {
  case "$1" in
    ak_config|animkit|status|math|skeleton) echo core ;;
    ik) echo ik ;;
    clip|rootmotion|edit|retarget) echo anim ;;
    bvh|gltf) echo io ;;
    ground|controller|locomotion) echo locomotion ;;
    matching) echo matching ;;
    scenario) echo scenario ;;
    plugin) echo plugin ;;
    *) echo unknown ;;
  esac
}
bad=0
for dir in "$root"/src/*/; do
  mod=$(basename "$dir")
  r=$(rank "$mod")
  for f in "$dir"*.c "$dir"*.h; do
    [ -f "$f" ] || continue
    for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
      case "$inc" in
        animkit/*) h=$(basename "$inc" .h); target=$(header_module "$h") ;;
        */*) target=${inc%%/*} ;;
        *) continue ;;
      esac
      [ "$h" = animkit ] && [ "${inc#animkit/}" = animkit.h ] && target=plugin
      t=$(rank "$target")
      if [ "$t" -gt "$r" ]; then
        echo "${f#$root/}: includes $inc ($target sits above $mod)"
        bad=1
      fi
      h=
    done
  done
done
[ $bad = 0 ] && echo "module layers: no upward include ($order)"
exit $bad
