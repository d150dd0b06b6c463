#!/bin/sh
# check_exports.sh linux|windows plugin.h BINARY
# Passes when the binary's export table lists exactly the AK_PLUGIN_API functions declared
# in plugin.h, and its imports are only the system C runtime (libc/libm; KERNEL32/msvcrt).
set -eu
kind=$1 header=$2 bin=$3
tmp=${TMPDIR:-/tmp}/ak_exports.$$
trap 'rm -f "$tmp".*' EXIT
sed -n 's/^AK_PLUGIN_API[^(]*[^a-z_0-9]\(ak_plugin_[a-z_0-9]*\)(.*/\1/p' "$header" | sort > "$tmp.want"
case $kind in
linux)
  nm -D --defined-only "$bin" | awk '$2 ~ /^[TDBRVW]$/ {print $3}' | sort > "$tmp.have"
  objdump -p "$bin" | awk '$1 == "NEEDED" {print $2}' | sort > "$tmp.deps"
  allowed='^(libc\.so\.6|libm\.so\.6|ld-linux-x86-64\.so\.2)$' ;;
windows)
  objdump=x86_64-w64-mingw32-objdump
  command -v $objdump >/dev/null 2>&1 || objdump=objdump
  # The "[Ordinal/Name Pointer] Table" lists one "[ n] name" row per exported name.
  $objdump -p "$bin" | sed -n '/Ordinal\/Name Pointer/,/^$/p' |
    sed -n 's/^[[:space:]]*\[ *[0-9]*\] \([A-Za-z_0-9]*\)$/\1/p' | sort > "$tmp.have"
  $objdump -p "$bin" | sed -n 's/^[[:space:]]*DLL Name: //p' | sort > "$tmp.deps"
  allowed='^(KERNEL32\.dll|msvcrt\.dll)$' ;;
*) echo "usage: $0 linux|windows plugin.h BINARY" >&2; exit 2 ;;
esac
n=$(wc -l < "$tmp.want")
if [ "$n" -lt 10 ]; then echo "only $n ABI functions parsed from $header" >&2; exit 1; fi
if ! diff -u "$tmp.want" "$tmp.have"; then
  echo "FAIL: $bin exports differ from plugin.h (- missing, + extra)" >&2; exit 1
fi
bad=$(grep -Ev "$allowed" "$tmp.deps" || true)
if [ -n "$bad" ]; then echo "FAIL: $bin depends on: $bad" >&2; exit 1; fi
echo "$bin: $n exports = plugin.h; imports: $(tr '\n' ' ' < "$tmp.deps")"
