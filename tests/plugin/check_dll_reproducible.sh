#!/bin/sh
# check_dll_reproducible.sh SOURCE_DIR CGLM_DIR OTHER_BUILD_DIR REFERENCE_DLL
# Builds animkit_unity.dll a second time, from scratch, in another folder (so neither the
# clock nor the build path may leak into it) and passes when its bytes equal REFERENCE_DLL's.
set -eu
src=$1 cglm=$2 dir=$3 ref=$4
rm -rf "$dir"
cmake -S "$src" -B "$dir" -DCMAKE_TOOLCHAIN_FILE="$src/cmake/mingw-w64.cmake" \
  -DCMAKE_BUILD_TYPE=Release -DCGLM_INCLUDE_DIR="$cglm" \
  -DAK_BUILD_TESTS=OFF -DAK_BUILD_TOOLS=OFF -DAK_BUILD_VIEWER=OFF -DAK_BUILD_BENCH=OFF \
  -DAK_BUILD_FUZZ=OFF -DAK_SANITIZE=OFF >"$dir.log" 2>&1 || { cat "$dir.log"; exit 1; }
sleep 1 # a PE timestamp, if one were written, would now differ
cmake --build "$dir" --target animkit_unity -j2 >>"$dir.log" 2>&1 || { cat "$dir.log"; exit 1; }
if cmp "$ref" "$dir/bin/animkit_unity.dll"; then
  echo "byte-identical: $ref and $dir/bin/animkit_unity.dll ($(wc -c < "$ref") bytes," \
    "sha256 $(sha256sum < "$ref" | cut -c1-16)...)"
  rm -rf "$dir" "$dir.log"
else
  echo "FAIL: two builds of animkit_unity.dll differ" >&2; exit 1
fi
