#!/bin/sh
# Prints the project's version, read from its one source: include/animkit/ak_config.h.
# Usage: tools/version.sh
root=$(cd "$(dirname "$0")/.." && pwd)
sed -n 's/^#define AK_VERSION_STRING "\([0-9.]*\)".*/\1/p' "$root/include/animkit/ak_config.h"
