#!/bin/sh
# A stranger's clone: clones the current commit into an empty temporary folder (nothing beside
# it, no ../shared), then runs the README's commands there. Not part of `make test` (it would
# recurse); run it before a release or after moving data:
#   tools/check_clean_clone.sh            # git clone + make test
#   tools/check_clean_clone.sh --demo     # ... and make demo
#   tools/check_clean_clone.sh --dist     # make dist, unpack the tarball alone, make test there
# Uncommitted changes are not part of the check (it clones HEAD). Exit 0 when everything passed.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:-}
work=$(mktemp -d "${TMPDIR:-/tmp}/animkit-clean.XXXXXX")
trap 'rm -rf "$work"' EXIT
commit=$(git -C "$root" rev-parse HEAD)
if [ -n "$(git -C "$root" status --porcelain --untracked-files=no)" ]; then
  echo "check_clean_clone: note: uncommitted changes are not checked (cloning $commit)" >&2
fi
if [ "$mode" = "--dist" ]; then
  make -C "$root" dist DIST_DIR="$work"
  tarball=$(ls "$work"/animkit-*.tar.gz)
  mkdir "$work/unpacked"
  tar -xzf "$tarball" -C "$work/unpacked"
  dir=$(ls -d "$work"/unpacked/animkit-*)
else
  git clone --quiet --no-local "$root" "$work/animkit"
  git -C "$work/animkit" checkout --quiet "$commit"
  dir="$work/animkit"
fi
echo "check_clean_clone: $(ls -A "$(dirname "$dir")" | tr '\n' ' ')is all there is in $(dirname "$dir")"
start=$(date +%s)
make -C "$dir" test
echo "check_clean_clone: make test passed in $(( $(date +%s) - start )) s ($commit)"
if [ "$mode" = "--demo" ]; then
  make -C "$dir" demo
  echo "check_clean_clone: make demo passed"
fi
