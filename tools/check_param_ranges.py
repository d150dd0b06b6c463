#!/usr/bin/env python3
"""Issue 26: every float field of every params struct in include/animkit/*.h has a range row.

Reads the public headers for `typedef struct ak_*_params { ... }` and their float fields (a
vector or quaternion field counts once per component, an array once), then the rows that
exist: every `offsetof(ak_*_params, field)` in the sources that hold range tables (the
library's ak_param_range tables, the plugin's akp_range tables, the walk scenario's flag table),
read after the C preprocessor so the tables' own macros need no parsing here. A plugin struct
that is copied field for field into a library struct (its _validate then checks the copy) is
covered by that struct's rows; the mapping is listed below with its reason.

Also checks that each library table is checked by its struct's _validate (the function calls
ak_params_check with that table, or for the scenario ak_flags_check).

Usage: check_param_ranges.py [REPO]   exit 1 with the list of fields without a row."""
import glob
import os
import re
import subprocess
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
INCLUDE = os.path.join(ROOT, "include", "animkit")

# Plugin structs whose floats are copied into a library struct, field for field, before that
# struct's _validate runs (src/plugin/plugin_ik.c, plugin_retarget.c).
MIRRORS = {
    "ak_plugin_limb_ik_params": "ak_limb_ik_params",
    "ak_plugin_look_at_params": "ak_look_at_params",
    "ak_plugin_retarget_params": "ak_retarget_params",
}
# Structs without a _validate of their own: the function that checks them (none now).
VALIDATORS = {}

# Fields read only under a flag, checked by the solver or _validate when the flag is set (a
# pole without use_pole is not read, and may hold anything).
FLAGGED = {
    "ak_limb_ik_params.pole": "use_pole: ik_check_vec in limb_validate",
    "ak_limb_ik_params.end_rotation": "match_end_rotation: a unit quaternion, limb_validate",
    "ak_plugin_limb_ik_params.pole": "use_pole: copied to ak_limb_ik_params",
    "ak_plugin_limb_ik_params.end_rotation": "match_end_rotation: copied to ak_limb_ik_params",
    "ak_ik_any_params.pole": "use_pole: checked by the solver it picks",
    "ak_root_motion_params.loop_end_position": "has_loop_end: finite, ak_root_motion_validate",
    "ak_root_motion_params.loop_end_heading": "has_loop_end: finite, ak_root_motion_validate",
}
COMPONENTS = {"ak_vec3": ("x", "y", "z"), "ak_quat": ("x", "y", "z", "w")}


def strip_comments(text):
    return re.sub(r"/\*.*?\*/|//[^\n]*", "", text, flags=re.S)


def struct_fields():
    """{struct: [field, ...]} for every params struct's float fields."""
    out = {}
    for header in sorted(glob.glob(os.path.join(INCLUDE, "*.h"))):
        text = strip_comments(open(header).read())
        for m in re.finditer(r"typedef struct (ak_\w+_params) \{(.*?)\} \1;", text, re.S):
            fields = []
            for decl in m.group(2).split(";"):
                d = re.match(r"\s*(?:const\s+)?(float|double|ak_vec3|ak_quat)\s+([^*]+)$", decl.strip())
                if not d:
                    continue
                for name in d.group(2).split(","):
                    name = re.sub(r"\[.*\]", "", name.strip())
                    if d.group(1) in COMPONENTS:
                        fields += ["%s.%s" % (name, c) for c in COMPONENTS[d.group(1)]]
                    else:
                        fields.append(name)
            out[m.group(1)] = fields
    return out


def table_rows():
    """{struct: set(field)} from every offsetof(ak_*_params, field) of the range sources."""
    rows = {}
    sources = [p for p in glob.glob(os.path.join(ROOT, "src", "*", "*.c"))
               if re.search(r"ak_param_range|akp_range|ak_flag ", open(p).read())]
    for src in sources:
        pre = subprocess.run(["cc", "-E", "-P", "-I", os.path.join(ROOT, "include"), "-I",
                              os.path.join(ROOT, "src"), src], capture_output=True, text=True)
        if pre.returncode != 0:
            sys.exit("check_param_ranges: cc -E %s failed:\n%s" % (src, pre.stderr))
        for m in re.finditer(r"offsetof\s*\(\s*(ak_\w+_params)\s*,\s*([\w.]+)(\[\d+\])?\s*\)", pre.stdout):
            rows.setdefault(m.group(1), set()).add(m.group(2))
    return rows


def validates_check_tables():
    """Library tables whose struct's _validate never calls ak_params_check on them."""
    missing = []
    all_src = {p: strip_comments(open(p).read()) for p in glob.glob(os.path.join(ROOT, "src", "*", "*.c"))}
    for header in sorted(glob.glob(os.path.join(INCLUDE, "*.h"))):
        for getter in re.findall(r"\b(ak_(\w+)_param_ranges)\(void\)", open(header).read()):
            fn, stem = getter
            validate = VALIDATORS.get(stem, "ak_%s_validate" % stem)
            found = False
            for text in all_src.values():
                m = re.search(r"int32_t %s\([^)]*\)\s*\{" % validate, text, re.S)
                if not m:
                    continue
                body = text[m.end():m.end() + 4000].split("\n}\n")[0]
                found = fn in body or "ak_params_check" in body
                # or one of the functions it calls does (limb_validate, ..._thresholds_validate)
                for callee in re.findall(r"\b(\w+_validate)\(", body):
                    for other in all_src.values():
                        c = re.search(r"int32_t %s\([^)]*\)\s*\{" % callee, other)
                        if c and fn in other[c.end():c.end() + 4000].split("\n}\n")[0]:
                            found = True
                break
            if not found:
                missing.append("%s does not check %s()" % (validate, fn))
    return missing


def main():
    fields = struct_fields()
    rows = table_rows()
    problems = []
    counted = 0
    for struct, names in sorted(fields.items()):
        have = rows.get(struct, set()) | rows.get(MIRRORS.get(struct, ""), set())
        for name in names:
            counted += 1
            if name not in have and name.split(".")[0] not in have and \
                    "%s.%s" % (struct, name.split(".")[0]) not in FLAGGED:
                problems.append("%s.%s: no range row" % (struct, name))
    problems += validates_check_tables()
    for p in problems:
        print(p)
    print("check_param_ranges: %d float fields of %d params structs, %d without a range row or check"
          % (counted, len(fields), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
