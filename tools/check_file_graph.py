#!/usr/bin/env python3
"""Checks the file graph of src/ (docs/architecture.md, "Modules and layers"): no circle of
files and no call that points up the module order.

A .c file uses another when it names a non-static function the other defines, directly or
through the inline helpers of a header (a header's function counts with everything its body
names). Names are matched as whole identifiers in the code with comments, literals and
preprocessor lines blanked (so a function pointer counts as a use, a comment does not). Includes give the second graph: a header that
ends up including itself through others is a circle too. The module order is the one of
tools/check_layers.sh, which checks the includes' direction; this adds the calls (an extern
declaration written by hand would slip past an include check) and the circles inside a module
(the start of this session had one: ik/ccd.c and ik/ik_common.c called each other).

Usage: tools/check_file_graph.py [--list] [--self-test] [SOURCE_DIR]
  --list       also print every file-to-file use, one `a -> b (name)` line each
  --self-test  check the scan on a small tree with a circle, an upward call, a header's inline
               helper, static helpers of the same name, a comment and a circle of includes
Exit status: 0 when there is no circle and no upward use, 1 otherwise.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_function_length as cfl  # noqa: E402  (the same C scanner)

ORDER = ["core", "ik", "anim", "io", "locomotion", "retarget", "matching", "scenario", "plugin"]
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def module_of(path):
    parts = path.split("/")
    return parts[1] if len(parts) > 2 and parts[0] == "src" else None


def line_offsets(code):
    offsets, at = [0], 0
    for line in code.split("\n"):
        at += len(line) + 1
        offsets.append(at)
    return offsets


def is_static(code, name_start):
    """1 when the declaration specifiers before a definition's name hold `static` (or
    AK_INLINE, which is `static inline`)."""
    j = name_start
    while j > 0 and code[j - 1] not in ";}":
        j -= 1
    return re.search(r"\b(static|AK_INLINE)\b", code[j:name_start]) is not None


def scan(path, text):
    """(exported, inline): the non-static functions a .c file defines, and for a header each
    function it defines with the identifiers its body names."""
    exported, inline = set(), {}
    for branch in (0, 1):
        code = cfl.blank_non_code(text, branch)
        offsets = line_offsets(code)
        for name, first, last in cfl.functions_in_branch(text, branch):
            body = code[offsets[first - 1]:offsets[last]]
            if path.endswith(".h"):
                inline.setdefault(name, set()).update(IDENT.findall(body))
                continue
            m = re.search(r"\b%s\s*\(" % re.escape(name), body)
            if m and not is_static(code, offsets[first - 1] + m.start()):
                exported.add(name)
    return exported, inline


def uses(text):
    code = cfl.blank_non_code(text, 0) + cfl.blank_non_code(text, 1)
    return set(IDENT.findall(code))


def expand(names, inline):
    """names plus, through every header function among them, what those bodies name."""
    out, todo = set(names), [n for n in names if n in inline]
    while todo:
        for m in inline[todo.pop()]:
            if m not in out:
                out.add(m)
                if m in inline:
                    todo.append(m)
    return out


def source_files(root):
    for dirpath, dirnames, filenames in os.walk(os.path.join(root, "src")):
        dirnames.sort()
        for f in sorted(filenames):
            if f.endswith((".c", ".h")):
                yield os.path.relpath(os.path.join(dirpath, f), root).replace(os.sep, "/")


def circles(graph):
    """Strongly connected components with more than one file (Tarjan, iterative)."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                    advanced = True
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def graph(texts):
    """(calls, why, includes) of the files in texts (path -> C text): file -> files it uses,
    (file, used file) -> one name that makes the use, file -> files it includes."""
    owner, inline = {}, {}
    for path, text in texts.items():
        exported, fns = scan(path, text)
        for name in exported:
            owner.setdefault(name, set()).add(path)
        for name, body in fns.items():
            inline.setdefault(name, set()).update(body)
    sources = [p for p in texts if p.endswith(".c")]
    calls = {p: set() for p in sources}
    why = {}
    for path in sources:
        for name in expand(uses(texts[path]), inline):
            targets = owner.get(name, ())
            if len(targets) == 1:
                (target,) = targets
                if target != path:
                    calls[path].add(target)
                    why.setdefault((path, target), name)
    includes = {p: set() for p in texts}
    for path, text in texts.items():
        for inc in INCLUDE.findall(text):
            target = "src/" + inc
            if target in texts and target != path:
                includes[path].add(target)
    return calls, why, includes


def problems(calls, why, includes):
    """Every upward use and every circle, one line each."""
    out = []
    for a in sorted(calls):
        for b in sorted(calls[a]):
            ma, mb = module_of(a), module_of(b)
            if ma in ORDER and mb in ORDER and ORDER.index(mb) > ORDER.index(ma):
                out.append("%s: uses %s of %s (%s sits above %s)" % (a, why[(a, b)], b, mb, ma))
    out += ["circle of calls: " + " <-> ".join(c) for c in circles(calls)]
    out += ["circle of includes: " + " <-> ".join(c) for c in circles(includes)]
    return out


SELF_TEST = {
    # a circle: a.c and b.c call each other; b.c's static helper and a comment do not count
    "src/core/a.c": "int a_fn(void) { return b_fn(); }\n",
    "src/core/b.c": "/* g_fn() */\nstatic int helper(void) { return 1; }\n"
                    "int b_fn(void) { return a_fn() + helper(); }\n",
    "src/core/g.c": "static int helper(void) { return 2; }\nint g_fn(void) { return helper(); }\n",
    # an upward call: core calls ik
    "src/core/c.c": "int c_fn(void) { return ik_fn(); }\n",
    "src/ik/d.c": "int ik_fn(void) { return 0; }\n",
    # through a header's inline helper: f.c uses e.c, and e.c using the helper is no circle
    "src/core/h.h": "#include \"core/i.h\"\nAK_INLINE int h_fn(void) { return e_fn(); }\n",
    "src/core/e.c": "int e_fn(void) { return 0; }\nint e2_fn(void) { return h_fn(); }\n",
    "src/core/f.c": "int f_fn(void) { return h_fn(); }\n",
    # a circle of includes
    "src/core/i.h": "#include \"core/h.h\"\n",
}


def self_test():
    calls, why, includes = graph(SELF_TEST)
    got = problems(calls, why, includes)
    want = ["src/core/c.c: uses ik_fn of src/ik/d.c (ik sits above core)",
            "circle of calls: src/core/a.c <-> src/core/b.c",
            "circle of includes: src/core/h.h <-> src/core/i.h"]
    edges = sorted((a, b) for a in calls for b in calls[a])
    want_edges = [("src/core/a.c", "src/core/b.c"), ("src/core/b.c", "src/core/a.c"),
                  ("src/core/c.c", "src/ik/d.c"), ("src/core/f.c", "src/core/e.c")]
    if got != want or edges != want_edges:
        print("self-test: got %r and uses %r, want %r and %r" % (got, edges, want, want_edges))
        return 1
    print("check_file_graph self-test: ok")
    return 0


def main(argv):
    if "--self-test" in argv:
        return self_test()
    listing = "--list" in argv
    args = [a for a in argv if not a.startswith("--")]
    root = args[0] if args else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    texts = {p: open(os.path.join(root, p), encoding="utf-8").read() for p in source_files(root)}
    calls, why, includes = graph(texts)
    if listing:
        for a in sorted(calls):
            for b in sorted(calls[a]):
                print("%s -> %s (%s)" % (a, b, why[(a, b)]))
    found = problems(calls, why, includes)
    for line in found:
        print(line)
    edges = sum(len(v) for v in calls.values())
    print("file graph: %d files, %d file-to-file uses, %s" %
          (len(texts), edges, "a circle or an upward use" if found else "no circle, no upward use"))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
