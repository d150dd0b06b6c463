#!/usr/bin/env python3
"""Checks STYLE.md's "functions fit in the head": no C function in src/, tools/ or viewer/
longer than MAX_LINES lines (default 80).

A function's length is its physical lines from the line that names it to its closing brace,
blank and comment lines included (what a reader scrolls through). The scan is a brace matcher
over the C text with comments, string and character literals and preprocessor lines blanked
out: a `{` at file scope whose preceding token is `)` opens a function body (struct, enum and
initialiser braces follow a name or `=`, never `)`), and the identifier before the matching
`(` is the function's name.

Exceptions (tables and test data only) are listed in tools/function_length_exceptions.txt as
`path:function` lines, each justified in docs/architecture.md. An exception that no longer
matches a long function is reported too, so the list cannot rot.

Usage: tools/check_function_length.py [--max N] [--all] [--self-test] [SOURCE_DIR]
  --all        list every function over the limit, exceptions included, longest first
  --self-test  check the scanner on a small C text with the traps it must step over
Exit status: 0 when no function is over the limit, 1 otherwise.
"""
import os
import re
import sys

DIRS = ("src", "tools", "viewer")
EXCEPTIONS_FILE = os.path.join("tools", "function_length_exceptions.txt")
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*$")
KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof"}


def blank_non_code(text, branch):
    """Returns text with comments, literals and preprocessor lines replaced by spaces, and
    every branch of a conditional but the branch-th (0: the #if branch, 1: the first
    #elif/#else) blanked too, so a brace opened in both branches counts once; newlines are
    kept so offsets map to the same line numbers."""
    out = []
    i, n = 0, len(text)
    at_line_start = True
    branches = []  # per open #if: the index of the branch the scan is in
    while i < n:
        c = text[i]
        if at_line_start and c in " \t":
            out.append(c)
            i += 1
            continue
        if at_line_start and c == "#":
            # Preprocessor line, with backslash continuations.
            j = i
            while j < n and text[j] != "\n":
                j += 2 if text[j] == "\\" and j + 1 < n and text[j + 1] == "\n" else 1
            directive = re.match(r"#\s*(\w*)", text[i:j]).group(1)
            if directive in ("if", "ifdef", "ifndef"):
                branches.append(0)
            elif directive in ("else", "elif") and branches:
                branches[-1] += 1
            elif directive == "endif" and branches:
                branches.pop()
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
            continue
        at_line_start = False
        if c == "\n":
            at_line_start = True
            out.append(c)
            i += 1
            continue
        if any(b != branch for b in branches):
            out.append(" ")
            i += 1
            continue
        if c == "/" and i + 1 < n and text[i + 1] == "/":
            while i < n and text[i] != "\n":
                out.append(" ")
                i += 1
            continue
        if c == "/" and i + 1 < n and text[i + 1] == "*":
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
            continue
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
            continue
        out.append(c)
        i += 1
    return "".join(out)


def function_name(code, close_paren):
    """The identifier a function definition's parameter list (ending at close_paren) belongs
    to, or None. For a function returning a function pointer, `(*name(args))(args)`, the
    name sits inside the first parenthesised group."""
    level, j = 0, close_paren
    while j >= 0:
        if code[j] == ")":
            level += 1
        elif code[j] == "(":
            level -= 1
            if level == 0:
                break
        j -= 1
    m = j - 1
    while m >= 0 and code[m].isspace():
        m -= 1
    if m < 0:
        return None
    if code[m] == ")":
        p = m - 1
        while p >= 0 and code[p].isspace():
            p -= 1
        return function_name(code, p) if p >= 0 and code[p] == ")" else None
    match = IDENT.search(code[: m + 1])
    return match if match and match.group(0) not in KEYWORDS else None


def functions(text):
    """Returns (name, first_line, last_line) for every function definition in C text, in
    order: the union of a scan of the first branches of preprocessor conditionals and one of
    the second branches (POSIX/Windows variants, SIMD/scalar paths)."""
    found = {}
    for branch in (0, 1):
        for name, first, last in functions_in_branch(text, branch):
            key = (name, first)
            found[key] = max(found.get(key, last), last)
    return [(name, first, last) for (name, first), last in sorted(found.items(), key=lambda kv: kv[0][1])]


def functions_in_branch(text, branch):
    """Yields (name, first_line, last_line) for every function definition the scan of the
    given conditional branch sees."""
    code = blank_non_code(text, branch)
    depth = 0
    i, n = 0, len(code)
    while i < n:
        c = code[i]
        if c == "{":
            if depth == 0:
                k = i - 1
                while k >= 0 and code[k].isspace():
                    k -= 1
                match = function_name(code, k) if k >= 0 and code[k] == ")" else None
                if match:
                    name = match.group(0)
                    start = code.count("\n", 0, match.start()) + 1
                    end_idx = matching_brace(code, i)
                    end = code.count("\n", 0, end_idx) + 1
                    yield name, start, end
                    i = end_idx + 1
                    continue
            depth += 1
        elif c == "}":
            depth = max(depth - 1, 0)
        i += 1


def matching_brace(code, open_idx):
    depth = 0
    for j in range(open_idx, len(code)):
        if code[j] == "{":
            depth += 1
        elif code[j] == "}":
            depth -= 1
            if depth == 0:
                return j
    return len(code) - 1


def source_files(root):
    for d in DIRS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, d)):
            dirnames.sort()
            for f in sorted(filenames):
                if f.endswith((".c", ".h")):
                    yield os.path.join(dirpath, f)


def load_exceptions(root):
    path = os.path.join(root, EXCEPTIONS_FILE)
    if not os.path.exists(path):
        return set()
    with open(path, encoding="utf-8") as f:
        return {ln.strip() for ln in f if ln.strip() and not ln.lstrip().startswith("#")}


SELF_TEST_SOURCE = r"""
#include <stdio.h>
#define BODY(x) { return (x); }
/* a comment with a brace { and a fake f(void) { */
static const int table[] = { 1, 2, 3 };
struct point { int x, y; };
static int (*pick(int which))(int) { return which ? 0 : 0; }
int two_lines(int a)
{
#if defined(A)
  if (a) {
#else
  if (!a) {
#endif
    puts("} not a brace");
  }
  return a == '{';
}
void one_line(void) { }
"""


def self_test():
    got = [(name, last - first + 1) for name, first, last in functions(SELF_TEST_SOURCE)]
    want = [("pick", 1), ("two_lines", 11), ("one_line", 1)]
    if got != want:
        print("self-test: got %r, want %r" % (got, want))
        return 1
    long_body = "int long_one(void)\n{\n" + "  x();\n" * 78 + "}\n"
    got = [(n, l - f + 1) for n, f, l in functions(long_body)]
    if got != [("long_one", 81)]:
        print("self-test: long function measured as %r, want 81 lines" % got)
        return 1
    print("check_function_length self-test: ok")
    return 0


def main(argv):
    limit, show_all, root = 80, False, None
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--max":
            limit = int(args.pop(0))
        elif a == "--all":
            show_all = True
        elif a == "--self-test":
            return self_test()
        else:
            root = a
    if root is None:
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    exceptions = load_exceptions(root)
    long_ones, used = [], set()
    for path in source_files(root):
        rel = os.path.relpath(path, root).replace(os.sep, "/")
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        for name, first, last in functions(text):
            length = last - first + 1
            if length <= limit:
                continue
            key = "%s:%s" % (rel, name)
            excepted = key in exceptions
            if excepted:
                used.add(key)
            long_ones.append((length, rel, first, name, excepted))
    long_ones.sort(key=lambda t: (-t[0], t[1], t[2]))
    failures = 0
    for length, rel, first, name, excepted in long_ones:
        if excepted and not show_all:
            continue
        note = " (excepted: table/test data)" if excepted else ""
        print("%s:%d: %s is %d lines (limit %d)%s" % (rel, first, name, length, limit, note))
        failures += 0 if excepted else 1
    for key in sorted(exceptions - used):
        print("%s: listed in %s but not over %d lines: remove it" % (key, EXCEPTIONS_FILE, limit))
        failures += 1
    over = sum(1 for t in long_ones if not t[4])
    print("check_function_length: %d function(s) over %d lines (%d excepted)"
          % (over, limit, len(used)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
