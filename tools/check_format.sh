#!/bin/sh
# Every tracked C file and header as .clang-format says (clang-format 14): the check `make lint`
# and the ctest lint_clang_format run. Exit 77 (skipped) without clang-format or a git checkout.
# After a merge that brings unformatted code: `make format` (clang-format -i on the tree).
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
command -v clang-format >/dev/null 2>&1 || { echo "clang-format not found: skipped"; exit 77; }
cd "$root" && git rev-parse --git-dir >/dev/null 2>&1 || { echo "not a git checkout: skipped"; exit 77; }
files=$(git ls-files '*.c' '*.h')
if clang-format --dry-run --Werror $files 2>/tmp/ak_format_check.$$; then
  echo "clang-format: $(echo "$files" | wc -l) files formatted"
  rm -f /tmp/ak_format_check.$$
  exit 0
fi
grep -o '^[^:]*\.[ch]' /tmp/ak_format_check.$$ | sort -u | sed 's/^/not formatted: /'
echo "run 'make format' (clang-format -i) and commit the result" >&2
rm -f /tmp/ak_format_check.$$
exit 1
