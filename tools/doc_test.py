#!/usr/bin/env python3
"""The documentation's commands, run as a reader would run them (make test-docs).

Usage: tools/doc_test.py BUILD_DIR [--list] [--make-pictures] [--only FILE.md]
       tools/doc_test.py --bench-figures [--update]
       tools/doc_test.py --self-test

Every shell command in README.md and docs/*.md -- fenced blocks (sh, bash, console or no
language) and indented code blocks -- is run in order, one shell per document, from a fresh
copy of the tree (the files git knows, with `build` pointing at BUILD_DIR), with the
environment each document sets up itself (an `export PATH=...` in a block carries on to the
document's later commands; nothing puts the build's bin/ on PATH otherwise). ```python blocks
run under the build's Python venv (make python). A command fails the test when it exits
non-zero (or with another status than an `(exit N)` note says), and when the output the text
quotes differs: a `$ COMMAND` line followed by output lines, with `...` for lines left out,
or a block marked as the output of an earlier command. Numbers compare within half a unit of
the last digit the text prints unless the marker allows more (`tolerance 5%`); a quoted line
ending in " ..." is compared up to there.

What is not run is listed by name with its reason, never dropped silently:
- synopses (a line with [optional] parts or PLACEHOLDER words such as FILE.bvh, X,Y,Z);
- lines the document marks, in an HTML comment just above the block:
      <!-- doctest: skip "PREFIX" REASON -->   commands starting with PREFIX
      <!-- doctest: skip REASON -->            the whole block
  where REASON names why: display, network, root, long, server, bench, needs ...;
- C and JavaScript snippets (not shell; the C ones are the tested examples/ code's shape).
Other markers: <!-- doctest: output "PREFIX" [last-line] [tolerance R%] --> (this block is
what the earlier command starting with PREFIX printed) and <!-- doctest: picture img/N.png -->
(this block makes docs/img/N.png: `make pictures` runs it with --out docs/img/N.png; the test
runs it as printed). Every docs/img picture must be made by one such block, or by
web/screenshots.mjs (the page's pictures).

Benchmark figures have one source, bench/results.md (written by `make bench`): the non-blank
lines right after a <!-- bench-results --> marker are quoted from it and must be lines of it
(--bench-figures checks only that, without a build; --update copies the file's row about the
same figure -- a table row's first cell, a "- label:" line -- into the docs).

AK_DOC_TEST_LONG=1 also runs the commands marked long (and those that need them).
The last line reads `doc-test: N passed, N failed, N skipped`.
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHELL_LANGS = {"", "sh", "bash", "console", "shell"}
COMMAND_WORDS = {
    "animkit", "animkit-view", "make", "python3", "python", "sudo", "apt-get", "cc", "dask",
    "node", "npm", "cmake", "ctest", "sh", "bash", "export", "cd", "git", "xvfb-run", "blender",
    "ls", "cat", "pip", "gzip",
}
PLACEHOLDER = re.compile(
    r"(^|[\s=,])(\.\.\.|[A-Z][A-Z0-9_]*(\.[a-z]+)?|X,Y,Z|X,Z|A:B(:STEP)?|WxH)(?=$|[\s,|\]])")
MARKER = re.compile(r"<!--\s*doctest:\s*(.*?)\s*-->")
NUMBER = re.compile(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?")
COMMAND_TIMEOUT_S = 180


class Block:
    def __init__(self, path, line, lang, lines, markers):
        self.path, self.line, self.lang, self.lines, self.markers = path, line, lang, lines, markers


def markdown_files():
    docs = os.path.join(ROOT, "docs")
    return ["README.md"] + sorted("docs/" + f for f in os.listdir(docs) if f.endswith(".md"))


def read_blocks(rel, source=None):
    """Fenced and indented code blocks of one markdown file (or of `source`, its text), with
    the markers above each."""
    if source is None:
        with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
            source = f.read()
    text = source.split("\n")
    blocks, markers, i = [], [], 0
    in_list = False
    prev_blank = True
    while i < len(text):
        line = text[i]
        m = MARKER.search(line)
        fence = re.match(r"^(```+|~~~+)\s*([\w-]*)", line)
        if m:
            markers.append(m.group(1))
            i += 1
            continue
        if fence:
            ticks, lang, start, body = fence.group(1), fence.group(2).lower(), i + 1, []
            i += 1
            while i < len(text) and not text[i].startswith(ticks):
                body.append(text[i])
                i += 1
            blocks.append(Block(rel, start, lang, body, markers))
            markers, prev_blank, in_list = [], False, False
            i += 1
            continue
        if line.startswith("    ") and prev_blank and not in_list and line.strip():
            start, body = i + 1, []
            while i < len(text) and (text[i].startswith("    ") or not text[i].strip()):
                body.append(text[i][4:])
                i += 1
            while body and not body[-1].strip():
                body.pop()
            blocks.append(Block(rel, start, "", body, markers))
            markers, prev_blank = [], True
            continue
        if line.strip():
            if re.match(r"^\s*([-*+]|\d+\.)\s", line):
                in_list = True
            elif not line.startswith(" ") and not line.startswith("\t"):
                in_list = False
        prev_blank = not line.strip()
        i += 1
    return blocks


class Command:
    def __init__(self, block, line, text):
        self.block, self.line, self.text = block, line, text
        self.expected = []        # output lines the text quotes
        self.expected_rc = 0
        self.tolerance = None     # relative, from a marker
        self.last_line_only = False
        self.picture = None

    def where(self):
        return f"{self.block.path}:{self.line}"


def first_word(text):
    try:
        words = shlex.split(text, comments=True)
    except ValueError:
        words = text.split()
    return words[0] if words else ""


def is_command(text):
    w = first_word(text)
    if w in COMMAND_WORDS or w.startswith(("build/", ".venv/")):
        return True
    path = os.path.join(ROOT, w)
    # a program in the tree, not a file a command wrote (make demo's out/demo/walk.csv)
    return "/" in w and os.path.isfile(path) and os.access(path, os.X_OK)


def placeholders(text):
    """Why a line is a synopsis rather than a command, or None."""
    code = text.split(" #")[0]
    if re.search(r"(^|\s)\[[^\]]*\]", code):
        return "optional [parts]"
    m = PLACEHOLDER.search(code)
    return f"placeholder {m.group(2)}" if m else None


def block_commands(block):
    """The commands of a shell block (continuation lines joined), with quoted output."""
    cmds, console = [], any(l.startswith("$ ") for l in block.lines)
    i, lines = 0, block.lines
    while i < len(lines):
        raw = lines[i]
        line = raw[2:] if console and raw.startswith("$ ") else raw
        if console and not raw.startswith("$ "):
            if cmds and raw.strip():
                cmds[-1].expected.append(raw)
            i += 1
            continue
        start = i
        while line.rstrip().endswith("\\") and i + 1 < len(lines):
            i += 1
            line = line.rstrip()[:-1] + " " + lines[i].strip()
        i += 1
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        cmd = Command(block, block.line + start, line.strip())
        m = re.search(r"\s\(exit (\d+)\)\s*$", cmd.text)
        if m:
            cmd.expected_rc, cmd.text = int(m.group(1)), cmd.text[: m.start()].rstrip()
        cmds.append(cmd)
    for c in cmds:
        for j, out in enumerate(c.expected):
            m = re.search(r"\s*\(exit (\d+)\)\s*$", out)
            if m:
                c.expected_rc, c.expected[j] = int(m.group(1)), out[: m.start()]
    return cmds


def parse_marker(text):
    kind, _, rest = text.partition(" ")
    rest = rest.strip()
    prefix = None
    m = re.match(r'^"([^"]*)"\s*(.*)$', rest)
    if m:
        prefix, rest = m.group(1), m.group(2).lstrip(":").strip()
    return kind, prefix, rest


def number_close(doc, got, tolerance):
    a, b = float(doc), float(got)
    if tolerance is not None:
        return abs(a - b) <= tolerance * max(abs(a), 1e-12)
    digits = doc.split("e")[0].split("E")[0]
    decimals = len(digits.split(".")[1]) if "." in digits else 0
    scale = 10 ** int(doc.lower().split("e")[1]) if "e" in doc.lower() else 1
    return abs(a - b) <= 0.5 * 10 ** (-decimals) * scale + 1e-12


def line_matches(doc, got, tolerance):
    doc, got = re.sub(r"\s+", " ", doc.strip()), re.sub(r"\s+", " ", got.strip())
    if doc.endswith(" ...") and doc != "...":  # a line quoted up to "...": its start must match
        doc = doc[:-4]
        got = got[:len(doc)]
    doc_parts, got_parts = NUMBER.split(doc.strip()), NUMBER.split(got.strip())
    doc_nums = [m.group(0) for m in NUMBER.finditer(doc.strip())]
    got_nums = [m.group(0) for m in NUMBER.finditer(got.strip())]
    if len(doc_nums) != len(got_nums):
        return False
    strip_groups = lambda parts: [p for k, p in enumerate(parts) if k % 3 == 0]
    if [re.sub(r"\s+", " ", p) for p in strip_groups(doc_parts)] != \
            [re.sub(r"\s+", " ", p) for p in strip_groups(got_parts)]:
        return False
    return all(number_close(a, b, tolerance) for a, b in zip(doc_nums, got_nums))


def output_differs(cmd, out):
    """None when the printed output holds the lines the text quotes, in the text's order
    (other lines may come between: warnings, progress), else what is missing."""
    got = [l for l in out.split("\n") if l.strip()]
    want = [l for l in cmd.expected if l.strip() and l.strip() != "..."]
    if cmd.last_line_only:
        got = got[-1:]
    gi = 0
    for w in want:
        start = gi
        while gi < len(got) and not line_matches(w, got[gi], cmd.tolerance):
            gi += 1
        if gi >= len(got):
            near = next((g for g in got[start:] if NUMBER.sub("#", g.strip()) ==
                         NUMBER.sub("#", w.strip())), None)
            if near:
                return f"the text quotes '{w.strip()}', the command printed '{near.strip()}'"
            return f"the text quotes '{w.strip()}', the output has no such line"
        gi += 1
    return None


def tree_files():
    """The files a clone has: git's list (tracked and new), or, in a source tarball without
    .git (make dist), every file but build outputs."""
    try:
        out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT,
                             capture_output=True, check=True).stdout.decode()
        if out:
            return out.split("\0")
    except (OSError, subprocess.CalledProcessError):
        pass
    skip = ("build", "out", "dist", ".git", "node_modules", ".venv", "__pycache__")
    files = []
    for top, dirs, names in os.walk(ROOT):
        dirs[:] = [d for d in dirs if not d.startswith(skip) and
                   os.path.relpath(os.path.join(top, d), ROOT) != os.path.join("web", "dist")]
        files += [os.path.relpath(os.path.join(top, n), ROOT) for n in names]
    return files


def fresh_copy(build):
    """The tree as a clone has it (tracked and new files), `build` linked to BUILD_DIR."""
    tmp = tempfile.mkdtemp(prefix="animkit-doc-test-")
    tree = os.path.join(tmp, "animkit")
    files = tree_files()
    for rel in files:
        src = os.path.join(ROOT, rel)
        if not rel or not os.path.isfile(src):
            continue
        dst = os.path.join(tree, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy2(src, dst)
    os.symlink(os.path.abspath(build), os.path.join(tree, "build"))
    return tmp, tree


def plan(rel):
    """Every command of one document: (command, skip reason or None)."""
    steps, by_prefix = [], {}
    for block in read_blocks(rel):
        kinds = [parse_marker(m) for m in block.markers]
        whole_skip = next((r for k, p, r in kinds if k == "skip" and p is None), None)
        prefixed = [(p, r) for k, p, r in kinds if k == "skip" and p is not None]
        output_of = next(((p, r) for k, p, r in kinds if k == "output"), None)
        picture = next((p or r for k, p, r in kinds if k == "picture"), None)
        if output_of:
            target = by_prefix.get(output_of[0])
            if target is None:
                raise SystemExit(f"{rel}:{block.line}: output of '{output_of[0]}': no such command above")
            target.expected = (["..."] if "anywhere" in output_of[1] else []) + list(block.lines)
            target.last_line_only = "last-line" in output_of[1]
            tol = re.search(r"tolerance ([\d.]+)%", output_of[1])
            target.tolerance = float(tol.group(1)) / 100 if tol else None
            continue
        if block.lang == "python":
            cmd = Command(block, block.line, "\n".join(block.lines))
            steps.append((cmd, whole_skip and f"python: {whole_skip}", "python"))
            continue
        if block.lang not in SHELL_LANGS:
            steps.append((Command(block, block.line, f"```{block.lang} block"),
                          f"{block.lang} snippet, not a shell command", "note"))
            continue
        for cmd in block_commands(block):
            if not is_command(cmd.text):
                continue
            cmd.picture = picture
            by_prefix.setdefault(cmd.text, cmd)
            for k in range(len(cmd.text), 0, -1):
                by_prefix.setdefault(cmd.text[:k], cmd)
            reason = whole_skip or next((r for p, r in prefixed if cmd.text.startswith(p)), None)
            if reason is None:
                why = placeholders(cmd.text)
                reason = why and f"synopsis ({why})"
            steps.append((cmd, reason, "shell"))
    return steps


def run_shell(cmd, tree, env, venv_python):
    env_file = os.path.join(os.path.dirname(tree), "env.out")
    script = f"{cmd.text}\n__rc=$?\nenv -0 > {shlex.quote(env_file)}\nexit $__rc\n"
    if cmd.block.lang == "python":
        script = None
    t0 = time.monotonic()
    if script is None:
        proc = subprocess.run([venv_python, "-c", cmd.text], cwd=env["PWD"], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              timeout=COMMAND_TIMEOUT_S)
    else:
        proc = subprocess.run(["bash", "-c", script], cwd=env["PWD"], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              timeout=COMMAND_TIMEOUT_S)
        if os.path.exists(env_file):
            with open(env_file, encoding="utf-8", errors="replace") as f:
                pairs = [kv.split("=", 1) for kv in f.read().split("\0") if "=" in kv]
            env.clear()
            env.update({k: v for k, v in pairs if k not in ("__rc", "SHLVL", "_")})
            os.remove(env_file)
    return proc, time.monotonic() - t0


def check_pictures(all_steps):
    made = {c.picture for steps in all_steps for c, _, _ in steps if c.picture}
    shots = open(os.path.join(ROOT, "web", "screenshots.mjs"), encoding="utf-8").read()
    problems = []
    for name in sorted(os.listdir(os.path.join(ROOT, "docs", "img"))):
        if f"img/{name}" not in made and f"'{name}'" not in shots:
            problems.append(f"docs/img/{name}: no `<!-- doctest: picture img/{name} -->` "
                            "block makes it (nor web/screenshots.mjs)")
    return problems


def make_pictures(build):
    """make pictures: every picture block, run as printed from a scratch folder that sees the
    tree's tests/ (each document's blocks in one folder, in order, so a block may use the files
    an earlier one wrote), the last command of each block writing docs/img/NAME instead."""
    failed = 0
    for doc in markdown_files():
        blocks = {}
        for cmd, _, kind in plan(doc):
            if cmd.picture and kind == "shell":
                blocks.setdefault(id(cmd.block), []).append(cmd)
        if not blocks:
            continue
        with tempfile.TemporaryDirectory(prefix="animkit-pictures-") as tmp:
            os.symlink(os.path.join(ROOT, "tests"), os.path.join(tmp, "tests"))
            env = dict(os.environ, PATH=os.path.join(build, "bin") + os.pathsep + os.environ["PATH"])
            for cmds in blocks.values():
                for k, cmd in enumerate(cmds):
                    text = cmd.text
                    if k == len(cmds) - 1:
                        target = os.path.join(ROOT, "docs", cmd.picture)
                        text, n = re.subn(r"--out\s+\S+", "--out " + shlex.quote(target), text)
                        if n != 1:
                            raise SystemExit(f"{cmd.where()}: a picture command needs one --out")
                    print(f"pictures: {cmd.where()}: {text}", flush=True)
                    if subprocess.run(["bash", "-c", text], cwd=tmp, env=env).returncode != 0:
                        failed += 1
                        print(f"pictures: {cmd.where()}: FAILED", file=sys.stderr)
    return 1 if failed else 0


SELF_TEST_DOC = """Intro.

<!-- doctest: skip "animkit-view": display -->

    export PATH="$PWD/build/bin:$PATH"
    animkit info FILE.bvh [--json]
    animkit-view tests/data/mocap/cmu_02_01_walk.bvh
    animkit render tests/data/mocap/cmu_09_01_run.bvh \\
        --frame 3 --out a.png

- a list item
    with a continuation line that is not code

```console
$ animkit positions tests/io/data/bad_too_few_values.bvh
tests/io/data/bad_too_few_values.bvh:20: frame 1 has 8 values, expected 9      (exit 1)
```
"""


BENCH_RESULTS = "bench/results.md"
BENCH_MARKER = re.compile(r"<!--\s*bench-results\b.*?-->")


def bench_quotes(source):
    """(line number, text) of every line a document quotes from bench/results.md: the
    non-blank lines right after a <!-- bench-results --> marker (table rows, the header, the
    "- measured:"/"- load average:" lines)."""
    out, lines = [], source.split("\n")
    for i, line in enumerate(lines):
        if BENCH_MARKER.search(line):
            j = i + 1
            while j < len(lines) and lines[j].strip():
                out.append((j + 1, lines[j].strip()))
                j += 1
    return out


def bench_key(line):
    """What a results line is about: a table row's first cell, a list line's label."""
    if line.startswith("|"):
        cells = line.split("|")
        return "|" + cells[1].strip() if len(cells) > 2 else None
    m = re.match(r"^- ([^:]+):", line)
    return "-" + m.group(1) if m else None


def check_bench_figures(results_text, docs):
    """Problems: quoted lines of docs ({name: text}) that bench/results.md does not hold."""
    have = {line.strip() for line in results_text.split("\n") if line.strip()}
    problems = []
    for rel, text in docs.items():
        for n, line in bench_quotes(text):
            if line not in have:
                problems.append(f"{rel}:{n}: not in {BENCH_RESULTS} (make bench writes it; "
                                f"doc_test.py --bench-figures --update copies it): {line[:90]}")
    return problems


def update_bench_figures(results_text, text):
    """text with every quoted line replaced by the results line about the same figure."""
    by_key = {}
    for line in results_text.split("\n"):
        key = bench_key(line.strip())
        if key:
            by_key.setdefault(key, line.strip())
    lines = text.split("\n")
    for n, line in bench_quotes(text):
        key = bench_key(line)
        if key in by_key:
            lines[n - 1] = by_key[key]
    return "\n".join(lines)


def bench_figures(update):
    """--bench-figures: every quoted results line is in bench/results.md (--update: copied)."""
    with open(os.path.join(ROOT, BENCH_RESULTS), encoding="utf-8") as f:
        results = f.read()
    docs = {}
    for rel in markdown_files():
        with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
            docs[rel] = f.read()
        if update:
            new = update_bench_figures(results, docs[rel])
            if new != docs[rel]:
                with open(os.path.join(ROOT, rel), "w", encoding="utf-8") as f:
                    f.write(new)
                docs[rel] = new
                print(f"bench figures: {rel} updated")
    problems = check_bench_figures(results, docs)
    quoted = sum(len(bench_quotes(t)) for t in docs.values())
    for p in problems:
        print(f"FAIL {p}")
    print(f"bench figures: {quoted} quoted lines, {len(problems)} not in {BENCH_RESULTS}")
    return problems


def self_test():
    """The checker's own rules on known cases (ctest doc_test_self_test)."""
    problems = []
    def expect(ok, what):
        if not ok:
            problems.append(what)
    expect(line_matches("height 1.406 m", "height  1.406 m", None), "whitespace runs are one space")
    expect(not line_matches("height 1.416 m", "height 1.406 m", None), "a changed digit is caught")
    expect(not line_matches('"max_skate":0.00022', '"max_skate":0.00021', None), "last digit")
    expect(line_matches('"error":1.9e-06', '"error":1.90734863e-06', None),
           "fewer digits in the text allow half a unit of its last digit")
    expect(not line_matches("frames 2998", "frames 2999", None), "integers are exact")
    expect(line_matches("pinned, error ...", "pinned, error 6.18e-07", None), "a line's start")
    expect(not line_matches("pinned 5, error ...", "pinned 4, error 6.18e-07", None),
           "a line's start is compared")
    expect(line_matches("t 100", "t 104", 0.05), "a marker's tolerance applies")
    cmd = Command(Block("x.md", 1, "", [], []), 1, "true")
    cmd.expected = ["a 1", "...", "c 3"]
    expect(output_differs(cmd, "a 1\nwarning\nb 2\nc 3\n") is None, "quoted lines in order")
    expect(output_differs(cmd, "a 1\nc 4\n") is not None, "a wrong figure fails")
    expect(output_differs(cmd, "c 3\na 1\n") is not None, "order matters")
    blocks = read_blocks("self-test.md", SELF_TEST_DOC)
    expect(len(blocks) == 2, f"two code blocks (the list continuation is not one), got {len(blocks)}")
    if len(blocks) == 2:
        expect(blocks[0].markers == ['skip "animkit-view": display'], "the marker above a block")
        cmds = block_commands(blocks[0])
        expect([c.text.split()[0] for c in cmds] == ["export", "animkit", "animkit-view", "animkit"],
               "one command a line")
        expect(cmds[-1].text.endswith("--frame 3 --out a.png"), "continuation lines are joined")
        expect(placeholders(cmds[1].text) is not None and placeholders(cmds[3].text) is None,
               "FILE.bvh and [--json] make a synopsis; real paths do not")
        console = block_commands(blocks[1])
        expect(len(console) == 1 and console[0].expected_rc == 1 and len(console[0].expected) == 1,
               "a $ line, its output and its (exit 1)")
    results = "- load average: 1.0\n| figure | value |\n|---|---|\n| parse | 500 MB/s |\n"
    doc = "<!-- bench-results -->\n| figure | value |\n|---|---|\n| parse | 453 MB/s |\n\nx\n"
    expect(len(bench_quotes(doc)) == 3, "the lines after a bench-results marker, to a blank")
    got = check_bench_figures(results, {"d.md": doc})
    expect(len(got) == 1 and got[0].startswith("d.md:4:"), f"a stale figure is caught: {got}")
    expect(check_bench_figures(results, {"d.md": update_bench_figures(results, doc)}) == [],
           "--update copies the row about the same figure")
    expect(check_bench_figures(results, {"d.md": "| parse | 453 MB/s |\n"}) == [],
           "only marked lines are checked")
    for p in problems:
        print(f"doc_test self-test: FAIL {p}")
    print(f"doc_test self-test: {len(problems)} problem(s)")
    return 1 if problems else 0


def main(argv):
    if "--self-test" in argv:
        return self_test()
    if "--bench-figures" in argv:
        return 1 if bench_figures("--update" in argv) else 0
    if len(argv) < 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    build = os.path.abspath(argv[1])
    verbose, only = "-v" in argv, None
    if "--only" in argv:
        only = argv[argv.index("--only") + 1]
    docs = [d for d in markdown_files() if only is None or d == only]
    all_steps = [(plan(d)) for d in docs]
    if "--make-pictures" in argv:
        return make_pictures(build)
    if "--list" in argv:
        for steps in all_steps:
            for cmd, reason, kind in steps:
                print(f"{cmd.where()}: {'SKIP ' + reason if reason else 'RUN'}: {cmd.text[:100]}")
        return 0
    venv_python = os.path.join(build, "python-venv", "bin", "python")
    tmp, tree = fresh_copy(build)
    passed, failed, skipped = 0, [], []
    problems = check_pictures([plan(d) for d in markdown_files()]) if only is None else []
    failed += problems
    if only is None:
        failed += bench_figures(False)
    t_all = time.monotonic()
    run_long = os.environ.get("AK_DOC_TEST_LONG") == "1"
    try:
        for doc, steps in zip(docs, all_steps):
            env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
            env["PWD"] = tree
            env["PYTHONDONTWRITEBYTECODE"] = "1"
            for cmd, reason, kind in steps:
                if reason and run_long and reason.startswith("long"):
                    reason = None
                if reason and run_long and kind == "shell" and any(
                        r.startswith("needs the ") and "skipped above" in r for r in [reason]):
                    reason = None
                if reason:
                    skipped.append(f"{cmd.where()}: {cmd.text.splitlines()[0][:90]}  [{reason}]")
                    continue
                try:
                    proc, secs = run_shell(cmd, tree, env, venv_python)
                except subprocess.TimeoutExpired:
                    failed.append(f"{cmd.where()}: {cmd.text[:90]}: still running after "
                                  f"{COMMAND_TIMEOUT_S} s (mark it long if it is)")
                    continue
                out = proc.stdout  # stderr merged into it, in order, as a terminal shows them
                problem = None
                if proc.returncode != cmd.expected_rc:
                    tail = proc.stdout.strip().splitlines()[-3:]
                    problem = f"exit {proc.returncode} (the text expects {cmd.expected_rc}): " + \
                        " | ".join(tail)
                else:
                    problem = output_differs(cmd, out)
                label = cmd.text.splitlines()[0][:90]
                if problem:
                    failed.append(f"{cmd.where()}: {label}: {problem}")
                    print(f"FAIL {cmd.where()} ({secs:.1f} s): {label}\n     {problem}", flush=True)
                else:
                    passed += 1
                    print(f"ok   {cmd.where()} ({secs:.1f} s): {label}", flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"\nskipped, by name ({len(skipped)}):")
    for s in skipped:
        print(f"  {s}")
    if failed:
        print(f"\nfailed ({len(failed)}):")
        for f in failed:
            print(f"  {f}")
    print(f"\n{len(docs)} documents, {time.monotonic() - t_all:.0f} s")
    print(f"doc-test: {passed} passed, {len(failed)} failed, {len(skipped)} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
