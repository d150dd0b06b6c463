#!/bin/sh
# check_file_opens.sh SOURCE_DIR
# Every file animkit opens goes through src/io/file.c (akio_fopen / akio_atomic_*), which
# turns UTF-8 paths into UTF-16 for _wfopen on Windows: a plain fopen() elsewhere would fail
# there for any non-ASCII path (the plugin's status -3). Lists any direct call in the C
# sources of the library, the CLI, the viewer and the web build.
set -eu
src=$1
hits=$(cd "$src" && grep -rnE '(^|[^_a-z])(fopen|freopen|_wfopen|_wopen|open|creat)[[:space:]]*\(' \
  --include='*.c' --include='*.h' src tools viewer web 2>/dev/null |
  grep -v '^src/io/file\.[ch]:' | grep -vE '^[^:]+:[0-9]+:[[:space:]]*(/\*|\*|//)' |
  grep -vE '"[^"]*(open)[[:space:]]*\(' || true)
if [ -n "$hits" ]; then
  echo "FAIL: open files through akio_fopen / akio_atomic_* (src/io/file.h), not directly:"
  echo "$hits"
  exit 1
fi
echo "every file open in src/ tools/ viewer/ web/ goes through src/io/file.c"
