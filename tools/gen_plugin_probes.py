#!/usr/bin/env python3
"""Issue 26: writes tests/plugin/test_plugin_generated.c, the plugin ABI's adversarial pass,
from include/animkit/plugin.h: every AK_PLUGIN_API function, every parameter in turn given a
boundary value while the others hold a working baseline:

  handles    NULL, forged (never created), stale (destroyed), another kind of object
  pointers   NULL
  strings    NULL, "", a missing file, 4,000 bytes
  int32      -1, INT32_MIN, 0 (and INT32_MAX where the int is not a caller array's length:
             a length is the caller's promise about its own memory, which no C API can check)
  float      NaN, +-inf, +-1e30
  params     each float field of a `const ak_plugin_*_params *` (filled by its _defaults) set
             to NaN, +-inf, +-1e30

Each call must return (the sanitizer build checks it touched nothing it does not own); a
negative status must come with a message from ak_plugin_last_error or the error buffer, and an
AK_OK must leave no NaN or infinity in the float outputs (the scratch buffers are zeroed
before each call and scanned after). The test prints the count of calls.

Usage: gen_plugin_probes.py [--check]   (--check: exit 1 when the committed file is stale)"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
HEADER = os.path.join(ROOT, "include", "animkit", "plugin.h")
OUT = os.path.join(ROOT, "tests", "plugin", "test_plugin_generated.c")

# The working handle for a handle parameter, by name.
HANDLES = {"skeleton": "g.skeleton", "clip": "g.clip", "walk_clip": "g.clip", "idle_clip": "g.clip",
           "source_skeleton": "g.skeleton", "source_clip": "g.clip", "target_skeleton": "g.skeleton",
           "character": "g.character", "foot_ik": "g.foot_ik", "retargeter": "g.retargeter",
           "db": "g.db", "matcher": "g.matcher", "handle": "g.skeleton"}
# The working value of an int parameter, by name (anything else: 0).
INTS = {"count": "64", "capacity": "64", "size": "64", "error_size": "256", "names_size": "64",
        "frame_count": "2", "joint": "1", "interp": "1", "loop": "1", "skin": "-1",
        "chain_length": "2", "hit_count": "7", "source_count": "64", "target_count": "64",
        "clip_count": "1", "left": "1", "right": "0"}
LENGTHS = re.compile(r"(count|capacity|size|length)$")
# Strings, by name.
STRINGS = {"path": "g.bvh_path", "name": "\"Hips\"", "overrides": "NULL", "source_overrides": "NULL",
           "target_overrides": "NULL", "text": "g.bvh_text", "names": "g.names",
           "root_joint": "NULL"}
SKIP = {"ak_plugin_destroy"}  # the baseline would destroy the shared handle (probed as handle)


def strip_comments(text):
    return re.sub(r"/\*.*?\*/", "", text, flags=re.S)


def prototypes(text):
    out = []
    for m in re.finditer(r"AK_PLUGIN_API\s+int32_t\s+(\w+)\s*\(([^;]*?)\)\s*;", strip_comments(text), re.S):
        params = []
        body = " ".join(m.group(2).split())
        if body != "void":
            for p in body.split(","):
                p = p.strip()
                pm = re.match(r"(.*?)(\w+)$", p)
                params.append((pm.group(1).strip(), pm.group(2)))
        out.append((m.group(1), params))
    return out


def params_structs(text):
    """{struct: [float field paths]} of the plugin's params structs."""
    out = {}
    for m in re.finditer(r"typedef struct (ak_plugin_\w+_params) \{(.*?)\} \1;", strip_comments(text), re.S):
        fields = []
        for decl in m.group(2).split(";"):
            d = re.match(r"\s*(float|ak_vec3|ak_quat)\s+(\w+)\s*$", decl.strip())
            if not d:
                continue
            if d.group(1) == "float":
                fields.append(d.group(2))
            else:
                comps = "xyz" if d.group(1) == "ak_vec3" else "xyzw"
                fields += ["%s.%s" % (d.group(2), c) for c in comps]
        out[m.group(1)] = fields
    return out


def baseline(ctype, name, structs):
    """C expression for a working argument, and its kind."""
    if ctype == "ak_handle":
        return HANDLES.get(name, "g.skeleton"), "handle"
    if ctype == "ak_handle *":
        return "&g.out_handle", "pointer"
    if ctype == "const ak_handle *":
        return "&g.clip", "pointer"
    if ctype == "int32_t":
        return INTS.get(name, "0"), "int"
    if ctype == "float":
        return "0.1f", "float"
    if ctype == "const char *":
        return STRINGS.get(name, "\"x\""), "string"
    if ctype == "char *":
        return "g.text", "pointer"
    m = re.match(r"const (ak_plugin_\w+_params) \*", ctype)
    if m and m.group(1) in structs:
        return "&p_%s" % m.group(1), "params"
    if ctype in ("int32_t *", "const int32_t *"):
        return "g.ints", "pointer"  # ints kept apart: -1 read as a float is a NaN
    if ctype.endswith("*"):
        return "(%s)g.scratch" % ctype, "pointer"
    raise SystemExit("gen_plugin_probes: no baseline for %s %s" % (ctype, name))


def probe_function(fn, params, structs):
    lines = ["static void probe_%s(void)" % fn, "{"]
    decls = set()
    for ctype, name in params:
        m = re.match(r"const (ak_plugin_\w+_params) \*", ctype)
        if m and m.group(1) in structs and m.group(1) not in decls:
            decls.add(m.group(1))
            lines.append("    %s p_%s;" % (m.group(1), m.group(1)))
    if not params:
        lines.append("    judge(\"%s()\", %s(), NULL);" % (fn, fn))
        lines.append("}")
        return lines

    def call(override_index=None, value=None):
        over = {override_index: value}
        # A string followed by its byte count (`text, size`): the count is the probe's own
        # length, so the call is told the truth about the caller's memory.
        if override_index is not None and params[override_index][0] == "const char *" and \
                override_index + 1 < len(params) and params[override_index + 1][0] == "int32_t" and \
                LENGTHS.search(params[override_index + 1][1]) and value != "NULL":
            over[override_index + 1] = "(int32_t)strlen(%s)" % value
        args = []
        for i, (ctype, name) in enumerate(params):
            args.append(over[i] if i in over else baseline(ctype, name, structs)[0])
        return "%s(%s)" % (fn, ", ".join(args))

    def reset():
        out = ["    reset_scratch();"]
        for s in sorted(decls):
            out.append("    %s_defaults(&p_%s);" % (s.replace("_params", ""), s))
        return out

    handle = next((baseline(c, n, structs)[0] for c, n in params if c == "ak_handle"), "NULL")
    for i, (ctype, name) in enumerate(params):
        kind = baseline(ctype, name, structs)[1]
        values = []
        if kind == "handle":
            values = ["NULL", "g.forged", "g.stale", "g.other_kind"]
        elif kind in ("pointer", "params"):
            values = ["NULL"]
        elif kind == "string":
            values = ["NULL", "\"\"", "\"no/such/file.bvh\"", "g.long_text"]  # see call()
        elif kind == "int":
            values = ["-1", "INT32_MIN", "0"] + ([] if LENGTHS.search(name) else ["INT32_MAX"])
        elif kind == "float":
            values = ["NAN", "INFINITY", "-INFINITY", "1e30f", "-1e30f"]
        for v in values:
            lines += reset()
            label = "%s(%s = %s)" % (fn, name, v.replace('"', "'"))
            lines.append("    judge(\"%s\", %s, %s);" % (label, call(i, v), v if kind == "handle" else handle))
        if kind == "params":
            struct = re.match(r"const (ak_plugin_\w+_params) \*", ctype).group(1)
            for field in structs[struct]:
                for v in ["NAN", "INFINITY", "-INFINITY", "1e30f", "-1e30f"]:
                    lines += reset()
                    lines.append("    p_%s.%s = %s;" % (struct, field, v))
                    label = "%s(%s.%s = %s)" % (fn, name, field, v)
                    lines.append("    judge(\"%s\", %s, %s);" % (label, call(), handle))
    lines.append("}")
    return lines


def generate():
    text = open(HEADER).read()
    structs = params_structs(text)
    protos = [(f, p) for f, p in prototypes(text) if f not in SKIP]
    out = [
        "/* GENERATED by tools/gen_plugin_probes.py from include/animkit/plugin.h: do not edit.",
        " * Issue 26: the plugin ABI's adversarial pass, every export and every parameter in turn",
        " * (see the generator for the values and the verdicts). */",
        "#include \"plugin_probe_harness.h\"",
        "",
    ]
    for fn, params in protos:
        out += probe_function(fn, params, structs)
        out.append("")
    out.append("static void every_export_every_parameter(void **state)")
    out.append("{")
    out.append("    (void)state;")
    out.append("    probe_setup();")
    for fn, _ in protos:
        out.append("    probe_%s();" % fn)
    out.append("    probe_report(%d);" % len(protos))
    out.append("}")
    out.append("")
    out.append("int main(void)")
    out.append("{")
    out.append("    const struct CMUnitTest tests[] = {cmocka_unit_test(every_export_every_parameter)};")
    out.append("    return cmocka_run_group_tests(tests, NULL, NULL);")
    out.append("}")
    return "\n".join(out) + "\n"


def formatted(text):
    """The text as clang-format (.clang-format) writes it, so lint_clang_format passes."""
    import shutil
    import subprocess
    if not shutil.which("clang-format"):
        return text
    run = subprocess.run(["clang-format", "--assume-filename=" + OUT], input=text, capture_output=True,
                         text=True, cwd=ROOT)
    return run.stdout if run.returncode == 0 else text


def main():
    text = formatted(generate())
    if "--check" in sys.argv:
        if not os.path.exists(OUT) or open(OUT).read() != text:
            print("tests/plugin/test_plugin_generated.c is stale: run tools/gen_plugin_probes.py")
            return 1
        print("tests/plugin/test_plugin_generated.c is current")
        return 0
    open(OUT, "w").write(text)
    print("wrote %s" % os.path.relpath(OUT, ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
