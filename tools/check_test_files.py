#!/usr/bin/env python3
"""Checks that every source file of the libraries has a test file of its name (issue 28;
docs/architecture.md, "Tests: one file per source file").

The rule: src/<module>/<file>.c (libanimkit and libanimkit_scenario) is tested by
tests/<module>/test_<file>.c, whose first cases are the validity cases of the params structs
that file's functions take. tools/ (the CLI) is not under the rule: its files are tested
through the animkit executable by tests/tools/test_cli_*.c.

Two lists below, each entry with its reason:
  EXEMPT   files without logic of their own (nothing a test of their name could check that
           another file's test does not).
  PENDING  files with logic whose test file is not written yet: the debt, listed so it is seen.
           An entry that gets its test file must leave the list (the check fails otherwise),
           so the list only shrinks.

Usage: tools/check_test_files.py [SOURCE_DIR] [--self-test]
Exit status: 0 when every file is tested, exempt or pending; 1 otherwise.
"""
import os
import sys
import tempfile

EXEMPT = {
    # file: reason (no logic of its own)
}

PENDING = {
    # file: what its test must cover (issue 28's open item)
}


def missing_tests(root, exempt, pending):
    """Returns (untested, stale): source files with no test, no exemption and not pending, and
    list entries that are wrong (gone, or pending but now tested)."""
    untested, stale = [], []
    src = os.path.join(root, "src")
    seen = set()
    for dirpath, _, files in os.walk(src):
        for name in sorted(files):
            if not name.endswith(".c"):
                continue
            rel = os.path.relpath(os.path.join(dirpath, name), root).replace(os.sep, "/")
            seen.add(rel)
            module = rel.split("/")[1]
            test = os.path.join(root, "tests", module, "test_" + name)
            has_test = os.path.isfile(test)
            if rel in pending and has_test:
                stale.append(rel + ": has tests/%s/test_%s now; remove it from PENDING" % (module, name))
            elif rel in exempt and has_test:
                stale.append(rel + ": has a test file; remove it from EXEMPT")
            elif not has_test and rel not in exempt and rel not in pending:
                untested.append(rel + ": no tests/%s/test_%s" % (module, name))
    for rel in sorted(set(exempt) | set(pending)):
        if rel not in seen:
            stale.append(rel + ": listed but not a source file")
    return sorted(untested), sorted(stale)


def self_test():
    with tempfile.TemporaryDirectory() as root:
        for path in ["src/a/x.c", "src/a/y.c", "src/b/z.c", "src/b/w.c", "src/b/v.c",
                     "tests/a/test_x.c", "tests/b/test_w.c", "tests/a/test_z.c"]:
            os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
            open(os.path.join(root, path), "w").close()
        untested, stale = missing_tests(
            root, {"src/b/v.c": "r", "src/gone.c": "r"}, {"src/b/w.c": "r"})
        # y.c has no test; z.c's test is in another module's folder; w.c is pending but tested
        assert [u.split(":")[0] for u in untested] == ["src/a/y.c", "src/b/z.c"], untested
        assert [s.split(":")[0] for s in stale] == ["src/b/w.c", "src/gone.c"], stale
    print("check_test_files self-test: ok")
    return 0


def main(argv):
    if "--self-test" in argv:
        return self_test()
    args = [a for a in argv if not a.startswith("--")]
    root = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    untested, stale = missing_tests(root, EXEMPT, PENDING)
    for line in untested + stale:
        print(line)
    if untested or stale:
        print("%d source files without a test file of their name, %d stale list entries "
              "(tools/check_test_files.py)" % (len(untested), len(stale)))
        return 1
    print("every source file has its test file (%d exempt, %d pending)" % (len(EXEMPT), len(PENDING)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
