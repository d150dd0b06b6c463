#!/bin/sh
# The version is written once (include/animkit/ak_config.h) and every surface agrees with it:
# `animkit --version`, `animkit-view --version` (where the viewer is built), the Unity
# package.json, and the CHANGELOG's latest release heading.
# Usage: check_version.sh SOURCE_DIR ANIMKIT_BINARY [ANIMKIT_VIEW_BINARY]
set -eu
src=$1
cli=$2
viewer=${3:-}
version=$(sh "$src/tools/version.sh")
echo "$version" | grep -Eq '^[0-9]+\.[0-9]+\.[0-9]+$' || { echo "no version in ak_config.h" >&2; exit 1; }
fail=0
got=$("$cli" --version)
[ "$got" = "animkit $version" ] || { echo "animkit --version prints '$got', expected 'animkit $version'" >&2; fail=1; }
if [ -n "$viewer" ] && [ -x "$viewer" ]; then
  got=$("$viewer" --version)
  [ "$got" = "animkit-view $version" ] || { echo "animkit-view --version prints '$got', expected 'animkit-view $version'" >&2; fail=1; }
fi
pkg=$(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' "$src/unity/com.animkit.animation/package.json" | head -n 1)
[ "$pkg" = "$version" ] || { echo "unity package.json has version '$pkg', expected $version" >&2; fail=1; }
release=$(sed -n 's/^## \[\([0-9][0-9.]*\)\].*/\1/p' "$src/CHANGELOG.md" | head -n 1)
[ "$release" = "$version" ] || { echo "CHANGELOG.md's latest release is '$release', expected $version" >&2; fail=1; }
[ $fail = 0 ] && echo "version $version: animkit --version, animkit-view --version, package.json and CHANGELOG.md agree"
exit $fail
