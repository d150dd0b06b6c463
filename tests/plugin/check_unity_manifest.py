#!/usr/bin/env python3
"""check_unity_manifest.py PACKAGE_DIR VERSION

The package manifest is complete per Unity's package manifest reference and true to the
package: required fields (name in reverse-domain form, SemVer version = the project's
version), the recommended ones (displayName, description, unity, author), licence MIT, every
sample path present, the documents a package ships (README.md, CHANGELOG.md with this version
or an Unreleased section, LICENSE.md, Documentation~), unityRelease and https links to the
package's manual, changelog and licence, one menu group ("animkit/" for Add Component and
asset menus, "Assets/animkit/" for editor menu items, samples included), and a dependency on
each built-in module whose classes the C# code uses.
"""
import glob
import json
import os
import re
import sys

# Built-in module -> classes from it that the package's scripts might use.
MODULES = {
    "com.unity.modules.physics": r"\b(CharacterController|Physics\.Raycast|RaycastHit|BoxCollider|Rigidbody)\b",
    "com.unity.modules.animation": r"\b(AnimationClip|Animator|AnimationCurve|AnimationPlayableUtilities)\b",
    "com.unity.modules.terrain": r"\bTerrain(Data)?\b\s*[.(]",
}


def main(package, version):
    problems = []
    with open(os.path.join(package, "package.json"), encoding="utf-8") as fh:
        m = json.load(fh)
    if not re.fullmatch(r"[a-z0-9-]+(\.[a-z0-9-]+){2,}", m.get("name", "")):
        problems.append("name %r is not reverse-domain lower case" % m.get("name"))
    if m.get("version") != version:
        problems.append("version %r, the project's is %s" % (m.get("version"), version))
    for key in ("displayName", "description", "unity", "author", "license"):
        if not m.get(key):
            problems.append("missing %s" % key)
    if m.get("license") != "MIT":
        problems.append("license %r, the project's is MIT" % m.get("license"))
    if not re.fullmatch(r"\d{4}\.\d", m.get("unity", "")):
        problems.append("unity %r is not <year>.<minor>" % m.get("unity"))
    # The fields Unity's own packages carry: the editor release, and links to the manual,
    # changelog and licence. The host is a placeholder until the project is published (an
    # RFC 2606 .example name, which no one can own); the path must name a file of the package.
    if not re.fullmatch(r"\d+[abfp]\d+", m.get("unityRelease", "")):
        problems.append("unityRelease %r is not like 0f1" % m.get("unityRelease"))
    for key, doc in (("documentationUrl", "Documentation~/animkit.md"), ("changelogUrl", "CHANGELOG.md"),
                     ("licensesUrl", "LICENSE.md")):
        url = m.get(key, "")
        if not url.startswith("https://") or not url.endswith("/" + os.path.basename(package) + "/" + doc):
            problems.append("%s %r is not an https link to the package's %s" % (key, url, doc))
        elif not os.path.exists(os.path.join(package, doc)):
            problems.append("%s names %s, which the package lacks" % (key, doc))
    for sample in m.get("samples", []):
        if not os.path.isdir(os.path.join(package, sample.get("path", ""))):
            problems.append("sample path %r missing" % sample.get("path"))
    for doc in ("README.md", "CHANGELOG.md", "LICENSE.md", "Documentation~"):
        if not os.path.exists(os.path.join(package, doc)):
            problems.append("no %s" % doc)
    changelog = open(os.path.join(package, "CHANGELOG.md"), encoding="utf-8").read() \
        if os.path.exists(os.path.join(package, "CHANGELOG.md")) else ""
    if "## [%s]" % version not in changelog and "## [Unreleased]" not in changelog:
        problems.append("CHANGELOG.md has neither ## [%s] nor ## [Unreleased]" % version)
    code = ""
    for path in glob.glob(os.path.join(package, "**", "*.cs"), recursive=True):
        if "/Tests/" not in path.replace(os.sep, "/"):
            code += open(path, encoding="utf-8").read()
    # One menu group: every Add Component entry under "animkit/", every asset menu under
    # "animkit/" and every editor menu item under "Assets/animkit/" (samples included).
    allcode = ""
    for path in glob.glob(os.path.join(package, "**", "*.cs"), recursive=True):
        allcode += open(path, encoding="utf-8").read()
    for attr, prefix in (("AddComponentMenu", "animkit/"), ("CreateAssetMenu", "animkit/"), ("MenuItem", "Assets/animkit/")):
        for args in re.findall(r"\[%s\(([^\]]*)\)\]" % attr, allcode):
            names = re.findall(r'menuName\s*=\s*"([^"]*)"', args) if attr == "CreateAssetMenu" \
                else re.findall(r'"([^"]*)"', args)
            consts = [c for c in re.findall(r"\b(Menu)\b", args)]
            for name in names + [v for c in consts for v in re.findall(r'const string %s = "([^"]*)"' % c, allcode)]:
                if not name.startswith(prefix):
                    problems.append("%s %r is outside the %r menu group" % (attr, name, prefix))
    deps = m.get("dependencies", {})
    for module, pattern in MODULES.items():
        if re.search(pattern, code) and module not in deps:
            problems.append("the scripts use %s classes but dependencies lack it" % module)
    for p in problems:
        print(p)
    print("%s %s: %d dependencies, %d sample(s), %d problem(s)" % (
        m.get("name"), m.get("version"), len(deps), len(m.get("samples", [])), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2]))
