#!/bin/sh
# check_wine.sh LINUX_EXE SO WINDOWS_EXE DLL BVH WORK_DIR ANIMKIT_CLI
# The Windows plugin is right: plugin_sample_check (one C source) loads the .so natively and,
# built with mingw-w64, loads the .dll under wine; both read the same BVH from a folder with
# a non-ASCII name through a UTF-8 path, sample it (linear and cubic) and print every joint's
# model-space transform, then read a glTF skin (the BVH converted by the CLI) from the same
# folder. Passes when both runs succeed and agree to 1e-6 everywhere.
# Exits 77 (skipped) only when wine is not installed.
set -eu
linux_exe=$1 so=$2 win_exe=$3 dll=$4 bvh=$5 work=$6 cli=$7
wine=$(command -v wine64 || true)
[ -z "$wine" ] && [ -x /usr/lib/wine/wine64 ] && wine=/usr/lib/wine/wine64
[ -z "$wine" ] && wine=$(command -v wine || true)
if [ -z "$wine" ]; then echo "wine64 not installed (make deps installs it): skipped"; exit 77; fi

mkdir -p "$work"
work=$(cd "$work" && pwd)
# A private prefix in the build folder; the first run creates it (slow, once). No Mono/Gecko
# installers, no debug chatter.
export WINEPREFIX="${AK_WINEPREFIX:-$work/wine-prefix}" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
dir="$work/Hüfte ñ 日本"
mkdir -p "$dir"
cp "$bvh" "$dir/gang-ß.bvh"
"$cli" convert "$bvh" "$dir/gang-ß.gltf" > /dev/null
samples=120
fail=0
for interp in 1 2; do
  "$linux_exe" "$so" "$work" $interp $samples > "$work/linux.$interp.csv"
  "$wine" "$win_exe" "Z:$dll" "Z:$work" $interp $samples | tr -d '\r' > "$work/windows.$interp.csv"
  awk -F, -v interp=$interp '
    NR == FNR { want[FNR] = $0; n = FNR; next }
    {
      if (!(FNR in want)) { print "extra line " FNR " from Windows"; bad = 1; exit }
      split(want[FNR], a, ",")
      if (a[1] != $1 || a[2] != $2) { print "line " FNR ": sample/joint differ"; bad = 1; exit }
      for (i = 3; i <= 9; ++i) { d = a[i] - $i; if (d < 0) d = -d; if (d > worst) worst = d }
      m = FNR
    }
    END {
      if (bad) exit 1
      if (m != n || n == 0) { print "Linux " n " lines, Windows " m; exit 1 }
      printf "interp %d: %d transforms, Linux .so vs Windows .dll under wine: max |difference| %.3g\n", interp, n, worst
      exit !(worst <= 1e-6)
    }' "$work/linux.$interp.csv" "$work/windows.$interp.csv" || fail=1
done
[ $fail = 0 ] && echo "read through a UTF-8 path: $dir/gang-ß.bvh"
exit $fail
