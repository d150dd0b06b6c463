#!/usr/bin/env python3
"""clang-tidy (.clang-tidy: every warning an error) on every library source in src/, as the
library build compiles it: `make lint` and the ctest lint_clang_tidy run it.

Usage: tools/check_tidy.py BUILD_DIR [-j N] [FILE...]
BUILD_DIR holds CMake's compile_commands.json. Some sources are compiled twice there (the
library and the ThreadSanitizer plugin test); each is checked once, with the library's (first)
command, which halves the time. Exit 0 clean, 1 findings, 77 skipped (no clang-tidy or no
compile_commands.json)."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor


def parse_args(argv):
    jobs, rest, i = 2, [], 0
    while i < len(argv):
        if argv[i] == "-j" and i + 1 < len(argv):
            jobs, i = int(argv[i + 1]), i + 2
        elif argv[i].startswith("-j") and argv[i][2:].isdigit():
            jobs, i = int(argv[i][2:]), i + 1
        else:
            rest.append(argv[i])
            i += 1
    if not rest:
        sys.exit(__doc__)
    return rest[0], max(1, jobs), rest[1:]


def library_commands(build, src):
    """The first compile command of each file under src/, in the database's order."""
    with open(os.path.join(build, "compile_commands.json"), encoding="utf-8") as f:
        entries = json.load(f)
    seen, out = set(), []
    for e in entries:
        path = os.path.realpath(os.path.join(e["directory"], e["file"]))
        if path.startswith(src + os.sep) and path.endswith(".c") and path not in seen:
            seen.add(path)
            out.append(e)
    return out


def main():
    build, jobs, only = parse_args(sys.argv[1:])
    tidy = shutil.which("clang-tidy")
    if not tidy:
        print("clang-tidy not found: skipped (make deps installs it)")
        return 77
    if not os.path.isfile(os.path.join(build, "compile_commands.json")):
        print(f"no compile_commands.json in {build}: skipped")
        return 77
    root = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    entries = library_commands(build, os.path.join(root, "src"))
    if only:
        wanted = {os.path.realpath(p) for p in only}
        entries = [e for e in entries if os.path.realpath(e["file"]) in wanted]
    if not entries:
        print("clang-tidy: no src/ file in compile_commands.json")
        return 1
    with tempfile.TemporaryDirectory(prefix="ak_tidy_") as db:
        with open(os.path.join(db, "compile_commands.json"), "w", encoding="utf-8") as f:
            json.dump(entries, f)

        def run(e):
            r = subprocess.run([tidy, "-p", db, "--quiet", e["file"]], capture_output=True,
                               text=True, check=False)
            return e["file"], r.returncode, r.stdout + r.stderr

        start = time.monotonic()
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            results = list(pool.map(run, entries))
    failed = [(f, out) for f, rc, out in results if rc != 0]
    for f, out in failed:
        lines = [ln for ln in out.splitlines() if "warnings generated" not in ln]
        print("\n".join(lines))
    took = time.monotonic() - start
    print(f"clang-tidy: {len(entries)} files, {len(failed)} with findings, {took:.0f} s "
          f"(-j{jobs})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
