#!/usr/bin/env python3
"""The public-API renames of issue 28, as one explicit table (CHANGELOG.md prints it).

    python3 tools/rename_api.py [--dry-run] [--check] [ROOT]

Every row is an identifier replaced at word boundaries (a neighbour that is a letter, digit
or '_' stops it: `world` never touches `world_from_character`, `ak_walk_scenario` never
touches `ak_walk_scenario_defaults`) in the tracked text files of the tree: C sources and
headers, C#, Python, JavaScript/TypeScript, CMake, shell, HTML and Markdown. CHANGELOG files
(their history and this table) and this script are left alone.

A row with a scope applies only to the files its globs match, and scoped rows run first:
the same word means model space in one module and the scene in another (`world`), or a
degree value at a surface a person types into and a radian value in the library
(`turn_rate`). What a word-level table cannot say (a unit conversion, a line that mixes a
scoped and a global name) is fixed by hand after the run; CHANGELOG.md lists those too.

Run it once, on a tree that has the old names: the scenario rows (`turn_rate` ->
`turn_rate_deg`) would rename the library's radian `turn_rate` again on a second run.

--dry-run prints what would change (file, row, count) and writes nothing. --check prints
every place an old name of the table is still found (the scoped ones in their scope) and
exits 1 when there is one: the "Done when" grep of issue 28.
"""
import fnmatch
import os
import re
import subprocess
import sys

# ---- The table -----------------------------------------------------------------------------
# (old, new, scope): scope None = every file; else a tuple of fnmatch globs (paths relative to
# the root, '/' separated).

# Model-space poses and values: `world` meant the FK output in these files only.
MODEL_SPACE_FILES = (
    "include/animkit/skeleton.h", "include/animkit/clip.h", "include/animkit/compress.h",
    "include/animkit/ik.h", "include/animkit/edit.h",
    "src/core/skeleton.c", "src/anim/clip_batch.c", "src/anim/compress_sample.c",
    "src/anim/edit_root.c", "src/anim/edit_mirror.c",
    "src/ik/*.c", "src/ik/*.h", "src/plugin/plugin_ik.c",
)
# Surfaces where a person types degrees: the plugin's inspector-facing structs, C#, tests of
# both; and the walk scenario (CLI flags, URL parameters, Python walker keywords).
PLUGIN_FILES = ("include/animkit/plugin.h", "src/plugin/*", "tests/plugin/*", "unity/*")
SCENARIO_FILES = ("include/animkit/scenario.h", "src/scenario/*", "tests/scenario/*")
# Every file but the plugin's ("!" excludes): the library's angle fields were renamed to
# radians there; the plugin forwards its degree fields into them, converting once.
NOT_PLUGIN_FILES = ("*",) + tuple("!" + g for g in PLUGIN_FILES)

# C# sources whose `World` is a model-space pose array (IRigPose.World and its implementers);
# the test stub's UnityEngine.Space.World is Unity's own enum and stays.
CSHARP_FILES = ("unity/*.cs", "tests/plugin/Component*.cs", "tests/plugin/Plugin*.cs")

SCOPED = [
    ("world", "model", MODEL_SPACE_FILES),
    ("out_world", "out_model", ("src/plugin/plugin.c",)),
    ("World", "Model", CSHARP_FILES),
    ("RestWorld", "RestModel", CSHARP_FILES),
    ("worldPtr", "modelPtr", ("web/animkit.mjs",)),
    # turn rate and start heading: degrees where a person types them ...
    ("max_turn_rate", "turn_rate_deg", PLUGIN_FILES),
    ("warp_rate_deg", "turn_rate_deg", PLUGIN_FILES),
    ("turn_rate", "turn_rate_deg", SCENARIO_FILES),
    ("start_heading", "start_heading_deg", SCENARIO_FILES),
    # angles in radians in the library (foot IK, walker state, walk metrics); the plugin's
    # inspector-facing structs and their C# mirrors keep their degree fields
    ("max_tilt_deg", "max_tilt", NOT_PLUGIN_FILES),
    ("tilt_deg", "tilt", NOT_PLUGIN_FILES),
    ("knee_peak_deg", "knee_peak", NOT_PLUGIN_FILES),
]

GLOBAL = [
    # one suffix for settings structs: _params (with _defaults / _validate)
    ("ak_gltf_options", "ak_gltf_params"),
    ("ak_body_options", "ak_body_params"),
    ("ak_bvh_limits", "ak_bvh_read_params"),
    ("ak_bvh_limits_defaults", "ak_bvh_read_defaults"),
    ("ak_bvh_limits_validate", "ak_bvh_read_validate"),
    ("ak_walk_scenario", "ak_walk_scenario_params"),
    # model space spelled out: no `world` for a model-space value, no _ms / _ws suffix
    ("ak_plugin_clip_sample_world", "ak_plugin_clip_sample_model"),
    ("world_up", "up_model"),
    ("worldUp", "upModel"),
    ("SampleWorld", "SampleModel"),
    ("a_ms", "a_model"),
    ("b_ms", "b_model"),
    ("c_ms", "c_model"),
    ("r_upper_ms", "r_upper_model"),
    ("r_middle_ms", "r_middle_model"),
    ("up_ms", "joint_up_model"),
    ("rot_ms", "rot_model"),
    ("fwd_ms", "forward_model"),
    ("forward_ms", "forward_model"),
    ("end_ms", "end_model"),
    ("limb_solve_ms", "limb_solve_model"),
    ("aim_rotation_ms", "aim_rotation_model"),
    ("skip_ws", "skip_space"),
    # one name for the turn rate and the start heading (radians in the library, _deg where a
    # person types degrees; the scoped rows above ran first)
    ("max_turn_rate", "turn_rate"),
    ("warp_rate_deg", "turn_rate"),
    ("start_yaw_deg", "start_heading_deg"),
    ("startYawDeg", "startHeadingDeg"),
    ("maxTurnRate", "turnRateDeg"),
    ("warpRateDeg", "turnRateDeg"),
    # angles in radians in the library (issue 28, second pass): the remaining degree fields
    ("max_slope_deg", "max_slope"),
    ("ak_terrain_max_slope_deg", "ak_terrain_max_slope"),
    ("turn_on_spot_deg", "turn_on_spot"),
    ("arm_swing_deg", "arm_swing"),
    ("pelvis_yaw_deg", "pelvis_yaw"),
    ("tiltDeg", "tilt"),
]

# Old names that are also a key a person reads in printed output (the walk summary's
# "knee_peak_deg", in degrees, converted at the output): a match with a double quote on both
# sides is such a key and stays.
PRINTED_KEYS = {"knee_peak_deg", "max_tilt_deg", "tilt_deg"}

TEXT_SUFFIXES = (".c", ".h", ".cs", ".py", ".mjs", ".js", ".ts", ".cmake", ".sh", ".html",
                 ".md", ".txt", ".map", ".in", ".json")
SKIP = ("CHANGELOG.md", "*/CHANGELOG.md", "tools/rename_api.py", "*.meta", "*/package-lock.json")


def tracked_files(root):
    out = subprocess.check_output(["git", "-C", root, "ls-files", "-z"])
    for path in out.decode("utf-8", "replace").split("\0"):
        if not path or not (path.endswith(TEXT_SUFFIXES) or os.path.basename(path) in
                            ("CMakeLists.txt", "Makefile")):
            continue
        if any(fnmatch.fnmatch(path, g) for g in SKIP):
            continue
        if os.path.isfile(os.path.join(root, path)):
            yield path


def word(name):
    return re.compile(r"(?<![A-Za-z0-9_])%s(?![A-Za-z0-9_])" % re.escape(name))


def in_scope(path, scope):
    """path matches one glob of scope and none of its "!" globs."""
    if any(g.startswith("!") and fnmatch.fnmatch(path, g[1:]) for g in scope):
        return False
    return any(not g.startswith("!") and fnmatch.fnmatch(path, g) for g in scope)


def printed_key(text, m):
    return text[m.start() - 1:m.start()] == '"' and text[m.end():m.end() + 1] == '"'


def rows_for(path):
    """The rows that apply to path, scoped first."""
    rows = [(o, n) for o, n, scope in SCOPED if in_scope(path, scope)]
    return rows + GLOBAL


def check_table():
    olds = [o for o, _ in GLOBAL]
    assert len(olds) == len(set(olds)), "a global old name twice"
    news = {n for _, n in GLOBAL} | {n for _, n, _ in SCOPED}
    for o in olds:
        # a chain a -> b -> c would depend on the order of the rows
        assert o not in news or o in {x for x, _, _ in SCOPED}, "%s is also a new name" % o


# Scoped rows whose old name stays a right name elsewhere in the same files (the library's
# radian `turn_rate` / `start_heading` beside the scenario's degree fields): --check cannot
# tell them apart by the word, so it does not list them.
CHECK_SKIP = {"turn_rate", "start_heading"}


def main(argv):
    dry = "--dry-run" in argv
    check = "--check" in argv
    args = [a for a in argv if not a.startswith("--")]
    root = os.path.abspath(args[0] if args else os.path.join(os.path.dirname(__file__), ".."))
    check_table()
    found = changed = 0
    for path in tracked_files(root):
        full = os.path.join(root, path)
        try:
            text = open(full, encoding="utf-8").read()
        except UnicodeDecodeError:
            continue
        new = text
        for old, repl in rows_for(path):
            pat = word(old)
            if check and old in CHECK_SKIP:
                continue
            if check:
                for m in pat.finditer(new):
                    if old in PRINTED_KEYS and printed_key(new, m):
                        continue
                    line = new.count("\n", 0, m.start()) + 1
                    print("%s:%d: %s (-> %s)" % (path, line, old, repl))
                    found += 1
                continue
            if old in PRINTED_KEYS:
                new, n = pat.subn(lambda m, r=repl, t=new: m.group(0) if printed_key(t, m)
                                  else r, new)
            else:
                new, n = pat.subn(repl, new)
            if n and dry:
                print("%s: %s -> %s (%d)" % (path, old, repl, n))
        if not check and new != text:
            changed += 1
            if not dry:
                with open(full, "w", encoding="utf-8", newline="") as f:
                    f.write(new)
    if check:
        print("rename_api --check: %d old name(s) left" % found)
        return 1 if found else 0
    print("rename_api: %d file(s) %s" % (changed, "would change" if dry else "changed"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
