#!/usr/bin/env python3
"""Compiles the Unity package the way Unity does: one assembly per .asmdef, in dependency
order, each from exactly the .cs files its folder owns, with exactly its own settings.

  compile_asmdefs.py PACKAGE_DIR STUB_DIR OUT_DIR NUNIT_FRAMEWORK_DLL

For every .asmdef under PACKAGE_DIR (Samples~ excepted) and for two configurations, "editor"
(UNITY_EDITOR, UnityEditor referenced, Editor-only and test assemblies included) and
"player" (neither), it runs mcs with:
  - the sources: *.cs under the asmdef's folder, minus folders that have their own asmdef;
  - -unsafe only when "allowUnsafeCode" is true (Unity's CS0227 otherwise);
  - Unity's defines for the configuration plus the asmdef's versionDefines whose resource
    is present; an assembly whose defineConstraints fail is skipped, as Unity skips it;
  - references: only the asmdefs it names (by name or GUID:), UnityEngine (and UnityEditor in
    the editor) unless "noEngineReferences", and its precompiledReferences (nunit.framework).
Samples~ folders have no asmdef in a user's project (they land in Assets/ as Assembly-CSharp,
which sees every auto-referenced assembly); each is compiled twice, once with the Input System
package active (ENABLE_INPUT_SYSTEM) and once with the classic Input Manager only.
A script outside Samples~ that no asmdef owns fails the run (Unity does not compile package
scripts without an assembly definition: it only warns).
The stubs (STUB_DIR/*Stub.cs) stand in for UnityEngine, UnityEditor and the Input System.
Assemblies land in OUT_DIR/<configuration>/; the NUnit test run uses OUT_DIR/editor.
"""
import glob
import json
import os
import re
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from unity_meta import read_guid  # noqa: E402  (the one reader of .meta GUIDs)

UNITY_DEFINES = ["UNITY_2022_3_OR_NEWER", "UNITY_2022_3", "UNITY_64", "ENABLE_MONO", "NET_STANDARD_2_0"]
CONFIGS = {
    "editor": ["UNITY_EDITOR", "UNITY_INCLUDE_TESTS", "ENABLE_LEGACY_INPUT_MANAGER"],
    "player": ["ENABLE_LEGACY_INPUT_MANAGER"],
}
# Unity assemblies a package may reference by name; None = no types of it are used here, so
# no stub is needed (compiling fails if code starts using one).
UNITY_PROVIDED = {"UnityEngine.TestRunner": None, "UnityEditor.TestRunner": None,
                  "Unity.InputSystem": "Unity.InputSystem.dll"}
# Packages and modules a versionDefines entry may test for: present in the test project.
PRESENT_RESOURCES = {"com.unity.modules.physics", "com.unity.modules.animation"}


def strip_json_comments(text):
    return re.sub(r"^\s*//.*$", "", text, flags=re.M)


def load_asmdefs(package):
    found = []
    for path in sorted(glob.glob(os.path.join(package, "**", "*.asmdef"), recursive=True)):
        rel = os.path.relpath(path, package)
        if rel.split(os.sep)[0].endswith("~"):
            continue
        with open(path, encoding="utf-8") as fh:
            data = json.loads(strip_json_comments(fh.read()))
        guid = read_guid(path + ".meta") if os.path.exists(path + ".meta") else None
        found.append({"path": path, "dir": os.path.dirname(path), "data": data, "guid": guid})
    owned_dirs = set(a["dir"] for a in found)
    for a in found:
        srcs = []
        for dirpath, dirnames, filenames in os.walk(a["dir"]):
            dirnames[:] = sorted(d for d in dirnames if not d.endswith("~") and not d.startswith(".")
                                 and os.path.join(dirpath, d) not in owned_dirs)
            srcs += [os.path.join(dirpath, f) for f in sorted(filenames) if f.endswith(".cs")]
        a["sources"] = srcs
    return found


def orphan_sources(package, asmdefs):
    """Scripts of a package outside every asmdef are not compiled by Unity at all."""
    owned = set(src for a in asmdefs for src in a["sources"])
    orphans = []
    for path in sorted(glob.glob(os.path.join(package, "**", "*.cs"), recursive=True)):
        parts = os.path.relpath(path, package).split(os.sep)
        if any(p.endswith("~") or p.startswith(".") for p in parts[:-1]) or path in owned:
            continue
        orphans.append(path)
        print("FAILED: %s is in no assembly definition (Unity would not compile it)"
              % os.path.relpath(path, package))
    return orphans


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout


def build_stubs(stub_dir, out):
    os.makedirs(out, exist_ok=True)
    engine = ["UnityEngineStub.cs", "UnityEngineAnimationStub.cs"]
    # (assembly, sources, references, defines); the last is UnityEngine as a project with only
    # the Input System package sees it: its Input class throws, so the stub has none.
    steps = [("UnityEngine.dll", engine, [], []),
             ("UnityEditor.dll", ["UnityEditorStub.cs"], ["UnityEngine.dll"], []),
             ("Unity.InputSystem.dll", ["InputSystemStub.cs"], ["UnityEngine.dll"], []),
             (os.path.join("input-system-only", "UnityEngine.dll"), engine, [], ["AK_STUB_NO_LEGACY_INPUT"])]
    os.makedirs(os.path.join(out, "input-system-only"), exist_ok=True)
    for dll, srcs, refs, defines in steps:
        rc, text = run(["mcs", "-nologo", "-target:library", "-out:" + os.path.join(out, dll)]
                       + ["-define:" + d for d in defines]
                       + ["-r:" + os.path.join(out, r) for r in refs]
                       + [os.path.join(stub_dir, s) for s in srcs])
        if rc != 0:
            print(text)
            raise SystemExit("stub %s does not compile" % dll)


def constraints_hold(constraints, defines):
    # Every constraint must hold; "A || B" means either, "!A" means A is not defined.
    for c in constraints:
        terms = [x.strip() for x in c.split("||")]
        if not any((t[1:] not in defines) if t.startswith("!") else (t in defines) for t in terms):
            return False
    return True


def order_by_references(asmdefs):
    by_name = {a["data"]["name"]: a for a in asmdefs}
    by_guid = {"GUID:" + a["guid"]: a for a in asmdefs if a["guid"]}
    for a in asmdefs:
        a["refs"] = []
        for r in a["data"].get("references", []):
            target = by_name.get(r) or by_guid.get(r)
            if target is not None:
                a["refs"].append(target["data"]["name"])
            elif r in UNITY_PROVIDED:
                if UNITY_PROVIDED[r]:
                    a.setdefault("unity_refs", []).append(UNITY_PROVIDED[r])
            else:
                raise SystemExit("%s references unknown assembly %s" % (a["path"], r))
    done, ordered = set(), []
    while len(ordered) < len(asmdefs):
        ready = [a for a in asmdefs if a["data"]["name"] not in done and all(r in done for r in a["refs"])]
        if not ready:
            raise SystemExit("reference cycle among: %s" % [a["data"]["name"] for a in asmdefs
                                                          if a["data"]["name"] not in done])
        for a in ready:
            done.add(a["data"]["name"])
            ordered.append(a)
    return ordered


def compile_assembly(name, sources, defines, refs, unsafe, out_dll):
    cmd = ["mcs", "-nologo", "-target:library", "-langversion:7", "-warnaserror", "-debug",
           "-out:" + out_dll] + ["-define:" + d for d in defines] + ["-r:" + r for r in refs]
    if unsafe:
        cmd.append("-unsafe")
    rc, text = run(cmd + sources)
    return rc, text


def compile_config(config, asmdefs, package, stub_out, out, nunit):
    defines_base = UNITY_DEFINES + CONFIGS[config]
    cfg_out = os.path.join(out, config)
    os.makedirs(cfg_out, exist_ok=True)
    built, failures = {}, 0
    editor = config == "editor"
    for a in asmdefs:
        d = a["data"]
        name = d["name"]
        platforms = d.get("includePlatforms", [])
        if platforms and ("Editor" in platforms) != editor:
            continue  # an Editor-only assembly in a player, or a player-only one in the editor
        if editor and "Editor" in d.get("excludePlatforms", []):
            continue
        defines = list(defines_base)
        for vd in d.get("versionDefines", []):
            if vd.get("name") in PRESENT_RESOURCES:
                defines.append(vd["define"])
        if not constraints_hold(d.get("defineConstraints", []), defines):
            print("%-24s %-6s skipped (defineConstraints %s)" % (name, config, d["defineConstraints"]))
            continue
        missing = [r for r in a["refs"] if r not in built]
        if missing:
            print("%-24s %-6s skipped: needs %s, not built in this configuration" % (name, config, missing))
            continue
        refs = [built[r] for r in a["refs"]]
        refs += [os.path.join(stub_out, u) for u in a.get("unity_refs", [])]
        if not d.get("noEngineReferences", False):
            refs.append(os.path.join(stub_out, "UnityEngine.dll"))
            if editor:
                refs.append(os.path.join(stub_out, "UnityEditor.dll"))
        for pre in d.get("precompiledReferences", []):
            if pre == "nunit.framework.dll":
                refs.append(nunit)
            else:
                raise SystemExit("%s: unknown precompiled reference %s" % (a["path"], pre))
        dll = os.path.join(cfg_out, name + ".dll")
        rc, text = compile_assembly(name, a["sources"], defines, refs, d.get("allowUnsafeCode", False), dll)
        rel = [os.path.relpath(s, package) for s in a["sources"]]
        print("%-24s %-6s %s: %d file(s), unsafe=%s, refs=%s" % (
            name, config, "ok" if rc == 0 else "FAILED", len(rel), d.get("allowUnsafeCode", False),
            ",".join(os.path.basename(r) for r in refs)))
        if rc != 0:
            print(text)
            failures += 1
            continue
        built[name] = dll
    return built, failures


def compile_samples(package, built, stub_out, out, config):
    failures = 0
    auto = [dll for name, dll in built.items() if not name.startswith("AnimKit.Tests")]
    for sample in sorted(glob.glob(os.path.join(package, "Samples~", "*"))):
        srcs = sorted(glob.glob(os.path.join(sample, "**", "*.cs"), recursive=True))
        if not srcs:
            continue
        for backend, defines, extra in (("input-system", ["ENABLE_INPUT_SYSTEM"], ["Unity.InputSystem.dll"]),
                                        ("input-manager", ["ENABLE_LEGACY_INPUT_MANAGER"], [])):
            engine = os.path.join("input-system-only", "UnityEngine.dll") if extra else "UnityEngine.dll"
            refs = auto + [os.path.join(stub_out, engine)] + [os.path.join(stub_out, e) for e in extra]
            if config == "editor":
                refs.append(os.path.join(stub_out, "UnityEditor.dll"))
            base = [d for d in UNITY_DEFINES + CONFIGS[config] if d != "ENABLE_LEGACY_INPUT_MANAGER"]
            dll = os.path.join(out, config, "Sample-%s-%s.dll" % (os.path.basename(sample), backend))
            rc, text = compile_assembly("Assembly-CSharp", srcs, base + defines, refs, False, dll)
            print("%-24s %-6s %s: sample %s, %s" % ("Assembly-CSharp", config, "ok" if rc == 0 else "FAILED",
                                                    os.path.basename(sample), backend))
            if rc != 0:
                print(text)
                failures += 1
    return failures


def main(argv):
    if len(argv) != 5:
        print(__doc__)
        return 2
    package, stub_dir, out, nunit = argv[1:]
    stub_out = os.path.join(out, "stubs")
    build_stubs(stub_dir, stub_out)
    asmdefs = order_by_references(load_asmdefs(package))
    print("dependency order: " + " -> ".join(a["data"]["name"] for a in asmdefs))
    failures = len(orphan_sources(package, asmdefs))
    for config in ("player", "editor"):
        built, f = compile_config(config, asmdefs, package, stub_out, out, nunit)
        failures += f + compile_samples(package, built, stub_out, out, config)
    # The run under NUnit loads these next to each other.
    for stub in ("UnityEngine.dll", "UnityEditor.dll"):
        dst = os.path.join(out, "editor", stub)
        with open(os.path.join(stub_out, stub), "rb") as src, open(dst, "wb") as fh:
            fh.write(src.read())
    print("%d failure(s)" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
