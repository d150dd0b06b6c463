#!/bin/sh
# Usage: check_install.sh SOURCE_DIR BUILD_DIR — install into a scratch prefix, then build and
# run consumers with find_package(animkit) and with pkg-config.
set -eu
src=$1
build=$2
work="$build/install-check"
rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
libdir=$(ls -d "$work"/prefix/lib* | head -n 1)
cmake -S "$src/tests/install" -B "$work/consumer" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/consumer" >/dev/null
"$work/consumer/consumer_static"
LD_LIBRARY_PATH="$libdir" "$work/consumer/consumer_shared"
PKG_CONFIG_PATH="$libdir/pkgconfig" cc -o "$work/consumer_pc" "$src/tests/install/consumer.c" \
  $(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --cflags --libs animkit) -lm
LD_LIBRARY_PATH="$libdir" "$work/consumer_pc"
# The version reaches pkg-config and the CMake package from its one source.
version=$(sh "$src/tools/version.sh")
pc_version=$(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --modversion animkit)
[ "$pc_version" = "$version" ] || { echo "pkg-config says $pc_version, ak_config.h says $version" >&2; exit 1; }
grep -q "PACKAGE_VERSION \"$version\"" "$libdir/cmake/animkit/animkitConfigVersion.cmake" ||
  { echo "CMake package version is not $version" >&2; exit 1; }
echo "install check passed: find_package (static, shared) and pkg-config consumers built and ran"
