#!/usr/bin/env python3
"""Unity .meta files for the UPM package: add the missing ones, check them all.

Unity identifies every asset of a package by the GUID in its .meta file. In an immutable
package (installed from git, a tarball or a registry) an asset without a .meta is ignored,
and references between assets (an asmdef naming another, a scene naming a script) break
whenever a GUID changes. So every file and folder under the package root has a committed
.meta, and a GUID never changes once written.

  python3 tools/unity_meta.py            add a .meta for every asset that lacks one
  python3 tools/unity_meta.py --self-test  the checks catch what they should (a test runs this)
  python3 tools/unity_meta.py --check    list missing, orphaned, malformed or duplicate
                                         metas, and GUIDs a scene/prefab refers to that no
                                         asset has; exit 1 if there is any (a test runs this)

New GUIDs are the MD5 of "animkit-unity:" + the asset's path relative to unity/ (with '/'),
so running this on two machines for the same new file gives the same GUID; existing .meta
files are never rewritten. A collision with an existing GUID (never seen, but checked) is
resolved by salting the hash.

Unity's rules for what is an asset: names starting with '.' or ending with '~', folders named
'cvs', and '.tmp' files are hidden (no .meta); a Samples~ folder's content does get .meta
files, because its files keep their GUIDs when the user imports the sample into Assets/ (the
sample scene refers to its scripts by GUID). Documentation~ holds plain documents: no .meta.
"""
import contextlib
import hashlib
import io
import os
import re
import shutil
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "unity")
SALT = "animkit-unity:"
GUID_RE = re.compile(r"^guid: ([0-9a-f]{32})\s*$", re.M)
FOOTER = "  userData: \n  assetBundleName: \n  assetBundleVariant: \n"

# Importer block per file extension (what Unity 2022.3 writes for a new asset of that kind).
IMPORTERS = {
    ".cs": "MonoImporter:\n  externalObjects: {}\n  serializedVersion: 2\n"
           "  defaultReferences: []\n  executionOrder: 0\n  icon: {instanceID: 0}\n",
    ".asmdef": "AssemblyDefinitionImporter:\n  externalObjects: {}\n",
    ".asmref": "AssemblyDefinitionReferenceImporter:\n  externalObjects: {}\n",
    ".json": "TextScriptImporter:\n  externalObjects: {}\n",
    ".md": "TextScriptImporter:\n  externalObjects: {}\n",
    ".txt": "TextScriptImporter:\n  externalObjects: {}\n",
    ".bytes": "TextScriptImporter:\n  externalObjects: {}\n",
    ".prefab": "PrefabImporter:\n  externalObjects: {}\n",
    ".unity": "DefaultImporter:\n  externalObjects: {}\n",
    ".mat": "NativeFormatImporter:\n  externalObjects: {}\n  mainObjectFileID: 2100000\n",
    ".asset": "NativeFormatImporter:\n  externalObjects: {}\n  mainObjectFileID: 11400000\n",
    ".bvh": "ScriptedImporter:\n  internalIDToNameTable: []\n  externalObjects: {}\n"
            "  serializedVersion: 2\n  script: {fileID: 11500000, guid: %(bvh_importer)s, type: 3}\n",
}
DEFAULT_IMPORTER = "DefaultImporter:\n  externalObjects: {}\n"


def hidden(name):
    return name.startswith(".") or name.endswith("~") or name.lower() == "cvs" \
        or name.endswith(".tmp")


def assets(root):
    """Every asset path (relative to root, '/'-separated) that needs a .meta, sorted."""
    out = []
    for pkg in sorted(os.listdir(root)):
        pkg_dir = os.path.join(root, pkg)
        if not os.path.isdir(pkg_dir) or hidden(pkg):
            continue
        for dirpath, dirnames, filenames in os.walk(pkg_dir):
            rel_dir = os.path.relpath(dirpath, root).replace(os.sep, "/")
            # Samples~ is hidden itself but its content is imported with its GUIDs.
            keep = [d for d in dirnames if not hidden(d) or d == "Samples~"]
            dirnames[:] = sorted(keep)
            for d in dirnames:
                if d != "Samples~":
                    out.append(rel_dir + "/" + d)
            for f in sorted(filenames):
                if not hidden(f) and not f.endswith(".meta"):
                    out.append(rel_dir + "/" + f)
    return out


def read_guid(meta_path):
    with open(meta_path, encoding="utf-8") as fh:
        m = GUID_RE.search(fh.read())
    return m.group(1) if m else None


def meta_text(root, rel, guid, known):
    path = os.path.join(root, rel)
    if os.path.isdir(path):
        body = "folderAsset: yes\n" + DEFAULT_IMPORTER
    else:
        ext = os.path.splitext(rel)[1].lower()
        body = IMPORTERS.get(ext, DEFAULT_IMPORTER)
        if "%(bvh_importer)s" in body:
            body = body % {"bvh_importer": known.get("bvh_importer", "0" * 32)}
    return "fileFormatVersion: 2\nguid: %s\n%s%s" % (guid, body, FOOTER)


def new_guid(rel, used):
    salt = ""
    while True:
        guid = hashlib.md5((SALT + salt + rel).encode("utf-8")).hexdigest()
        if guid not in used:
            return guid
        salt += "+"


def existing_guids(root, paths):
    found = {}
    for rel in paths:
        meta = os.path.join(root, rel) + ".meta"
        if os.path.exists(meta):
            found[rel] = read_guid(meta)
    return found


def add_missing(root):
    paths = assets(root)
    guids = existing_guids(root, paths)
    used = set(g for g in guids.values() if g)
    new = {}
    for rel in paths:
        if rel not in guids:
            new[rel] = new_guid(rel, used)
            used.add(new[rel])
    known = {}
    for rel in paths:
        if rel.endswith("/BvhImporter.cs"):
            known["bvh_importer"] = guids.get(rel) or new[rel]
    added = 0
    for rel in paths:
        if rel in guids:
            continue
        guid = new[rel]
        tmp = os.path.join(root, rel) + ".meta.tmp"
        with open(tmp, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(meta_text(root, rel, guid, known))
        os.replace(tmp, os.path.join(root, rel) + ".meta")
        print("added %s.meta (guid %s)" % (rel, guid))
        added += 1
    print("%d asset(s), %d .meta added" % (len(paths), added))
    return 0


BUILTIN_GUIDS = {"0000000000000000e000000000000000", "0000000000000000f000000000000000"}
REF_RE = re.compile(r"guid: ([0-9a-f]{32}), type: \d")


def dangling_references(root, paths, package_guids):
    """Scenes, prefabs and assets refer to scripts and assets by GUID: each must be one of the
    package's own or one of Unity's built-in resources (meshes, default material, skybox)."""
    problems = []
    for rel in paths:
        if os.path.splitext(rel)[1] not in (".unity", ".prefab", ".asset", ".mat"):
            continue
        with open(os.path.join(root, rel), encoding="utf-8") as fh:
            for n, line in enumerate(fh, 1):
                for guid in REF_RE.findall(line):
                    if guid not in package_guids and guid not in BUILTIN_GUIDS:
                        problems.append("%s:%d: refers to guid %s, which no asset has" % (rel, n, guid))
    return problems


def check(root):
    paths = assets(root)
    problems = []
    owner = {}
    for rel in paths:
        meta = os.path.join(root, rel) + ".meta"
        if not os.path.exists(meta):
            problems.append("missing: %s.meta" % rel)
            continue
        guid = read_guid(meta)
        if guid is None:
            problems.append("no valid 'guid: <32 hex>' line: %s.meta" % rel)
            continue
        if guid in owner:
            problems.append("duplicate guid %s: %s and %s" % (guid, owner[guid], rel))
        owner[guid] = rel
    problems += dangling_references(root, paths, set(owner))
    wanted = set(p + ".meta" for p in paths)
    for pkg_rel in sorted(set(p.split("/")[0] for p in paths)):
        for dirpath, _, filenames in os.walk(os.path.join(root, pkg_rel)):
            for f in filenames:
                if f.endswith(".meta"):
                    rel = os.path.relpath(os.path.join(dirpath, f), root).replace(os.sep, "/")
                    if rel not in wanted and "/Documentation~" not in rel:
                        problems.append("orphan (no asset): %s" % rel)
    for p in problems:
        print(p)
    print("%d asset(s), %d unique guid(s), %d problem(s)" % (len(paths), len(owner), len(problems)))
    return 1 if problems else 0


def self_test():
    """The tool on a throw-away package: check finds a missing meta, a duplicate GUID, an
    orphan and a dangling scene reference; adding metas fills only what is missing, keeps
    every existing GUID, and gives the same GUID for the same path on every run."""
    tmp = tempfile.mkdtemp(prefix="unity_meta_")
    try:
        pkg = os.path.join(tmp, "com.example.pkg")
        os.makedirs(os.path.join(pkg, "Runtime"))
        for f in ("package.json", "Runtime/A.cs", "Runtime/B.cs", "Runtime/S.unity"):
            with open(os.path.join(pkg, f), "w") as fh:
                fh.write("x\n")
        quiet = contextlib.redirect_stdout(io.StringIO())
        with quiet:
            add_missing(tmp)
        first = {p: read_guid(os.path.join(tmp, p) + ".meta") for p in assets(tmp)}
        keep = "%032x" % 1
        with open(os.path.join(pkg, "Runtime", "A.cs.meta"), "w") as fh:
            fh.write("fileFormatVersion: 2\nguid: %s\n" % keep)
        os.remove(os.path.join(pkg, "Runtime", "B.cs.meta"))
        with contextlib.redirect_stdout(io.StringIO()):
            add_missing(tmp)
        assert read_guid(os.path.join(pkg, "Runtime", "A.cs.meta")) == keep, "existing GUID changed"
        assert read_guid(os.path.join(pkg, "Runtime", "B.cs.meta")) == first["com.example.pkg/Runtime/B.cs"], \
            "a re-added meta got a different GUID"
        shutil.copy(os.path.join(pkg, "Runtime", "A.cs.meta"), os.path.join(pkg, "package.json.meta"))
        with open(os.path.join(pkg, "Gone.cs.meta"), "w") as fh:
            fh.write("fileFormatVersion: 2\nguid: %032x\n" % 2)
        with open(os.path.join(pkg, "Runtime", "S.unity"), "w") as fh:
            fh.write("  m_Script: {fileID: 11500000, guid: %032x, type: 3}\n" % 3)
        os.remove(os.path.join(pkg, "Runtime", "B.cs.meta"))
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            rc = check(tmp)
        text = out.getvalue()
        for want in ("missing: com.example.pkg/Runtime/B.cs.meta", "duplicate guid " + keep,
                     "orphan (no asset): com.example.pkg/Gone.cs.meta", "refers to guid %032x" % 3):
            assert want in text, "check did not report: " + want + "\n" + text
        assert rc == 1
        print("self-test: missing, duplicate, orphan and dangling reference reported; GUIDs kept and stable")
        return 0
    finally:
        shutil.rmtree(tmp)


def main(argv):
    if "--self-test" in argv:
        return self_test()
    root = os.path.normpath(ROOT)
    args = [a for a in argv[1:] if not a.startswith("--")]
    if args:
        root = os.path.normpath(args[0])
    return check(root) if "--check" in argv else add_missing(root)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
