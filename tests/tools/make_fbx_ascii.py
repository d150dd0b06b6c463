#!/usr/bin/env python3
"""Writes a BVH capture as an FBX 7.4 ASCII file: the humanoid FBX the CLI tests read
(tests/tools/test_cli_bvh.c), made here because none with a permissive licence ships with the
repository or with Debian's assimp-testmodels, and assimp's own FBX exporter writes broken
animation (3 keys, wrong duration).

What it writes, per the FBX 7.4 document layout (FBX SDK ASCII files; what assimp's FBX
importer reads, code/AssetLib/FBX/FBXConverter.cpp):
  - GlobalSettings: Y up (UpAxis 1), Z front, X coord (BVH's axes), UnitScaleFactor
    (centimetres per file unit, --unit-cm), TimeMode 14 (custom) at 1 / Frame Time.
  - Objects: one Model "LimbNode" with a NodeAttribute "LimbNode" (TypeFlags "Skeleton") per
    joint and per End Site (named PARENT_end, as animkit's BVH reader names them). Lcl
    Translation is the OFFSET (position channels replace it, axis by axis, as in the BVH
    reader); Lcl Rotation is 0 (the rest pose: the motion is in the curves, angles in degrees). RotationOrder: BVH channels
    "A B C" mean R = R_A R_B R_C (column vectors, C applied first); FBX's EulerXYZ (0) means
    R = Rz Ry Rx, i.e. FBX names the order of application, so the FBX order is the BVH
    channel order reversed (Zrotation Yrotation Xrotation -> EulerXYZ).
  - AnimationStack + AnimationLayer; per animated joint an AnimationCurveNode "T" (joints
    with position channels) and "R" (joints with rotation channels), each with three
    AnimationCurves d|X d|Y d|Z, one key per frame at round(frame * Frame Time * 46186158000)
    ticks, linear. Angles are unwrapped (+-360 steps towards the previous frame: the same
    rotation) so no two keys differ by 180 degrees or more, where assimp would add keys of
    its own between frames.
  - Connections: OO for parent links (root to 0, the scene), attributes, layer to stack,
    curve nodes to the layer; OP for curve nodes to Lcl properties and curves to d|X/Y/Z.

Usage: make_fbx_ascii.py IN.bvh OUT.fbx [--unit-cm CM]
Exit status 0, or 1 with a message on stderr (unreadable or unsupported BVH).
"""
import os
import sys

TICKS_PER_SECOND = 46186158000
FBX_ORDERS = ["XYZ", "XZY", "YZX", "YXZ", "ZXY", "ZYX"]  # RotationOrder enum 0..5


class Joint:
    def __init__(self, name, parent):
        self.name, self.parent = name, parent
        self.offset = [0.0, 0.0, 0.0]
        self.channels = []  # e.g. ["Xposition", ..., "Zrotation", ...]
        self.first = 0  # index of its first value in a frame line


def parse_bvh(text):
    """Returns (joints parents-first, frames as lists of floats, frame time in seconds)."""
    tokens = text.split()
    joints, stack, i, values = [], [], 0, 0
    if not tokens or tokens[0] != "HIERARCHY":
        raise ValueError("not a BVH file (no HIERARCHY)")
    i = 1
    while i < len(tokens) and tokens[i] != "MOTION":
        t = tokens[i]
        if t in ("ROOT", "JOINT"):
            joints.append(Joint(tokens[i + 1], stack[-1] if stack else -1))
            i += 2
        elif t == "End":  # End Site
            parent = stack[-1]
            joints.append(Joint(joints[parent].name + "_end", parent))
            i += 2
        elif t == "{":
            stack.append(len(joints) - 1)
            i += 1
        elif t == "}":
            stack.pop()
            i += 1
        elif t == "OFFSET":
            joints[stack[-1]].offset = [float(v) for v in tokens[i + 1:i + 4]]
            i += 4
        elif t == "CHANNELS":
            n = int(tokens[i + 1])
            j = joints[stack[-1]]
            j.channels, j.first = tokens[i + 2:i + 2 + n], values
            values += n
            i += 2 + n
        else:
            raise ValueError("unexpected '%s' in the hierarchy" % t)
    if tokens[i:i + 2] != ["MOTION", "Frames:"] or tokens[i + 3:i + 5] != ["Frame", "Time:"]:
        raise ValueError("no 'MOTION Frames: N Frame Time: T' after the hierarchy")
    count, frame_time = int(tokens[i + 2]), float(tokens[i + 5])
    data = [float(v) for v in tokens[i + 6:]]
    if count < 1 or frame_time <= 0.0 or len(data) < count * values:
        raise ValueError("%d frames of %d values need %d numbers, found %d" %
                         (count, values, count * values, len(data)))
    frames = [data[f * values:(f + 1) * values] for f in range(count)]
    return joints, frames, frame_time


def joint_tracks(j, frames):
    """(translation keys or None, rotation keys or None, FBX RotationOrder) of joint j, keys
    as [frame][x, y, z] (degrees for rotations)."""
    pos = {c[0]: j.first + k for k, c in enumerate(j.channels) if c.endswith("position")}
    rot = [(c[0], j.first + k) for k, c in enumerate(j.channels) if c.endswith("rotation")]
    t_keys = None
    if pos:
        t_keys = [[f[pos[a]] if a in pos else j.offset[n] for n, a in enumerate("XYZ")]
                  for f in frames]
    letters = "".join(a for a, _ in rot)
    letters += "".join(a for a in "XYZ" if a not in letters)  # absent axes: angle 0
    order = FBX_ORDERS.index(letters[::-1])
    r_keys = None
    if rot:
        index = dict(rot)
        r_keys = [[f[index[a]] if a in index else 0.0 for a in "XYZ"] for f in frames]
        for k in range(1, len(r_keys)):  # unwrap: the same rotation, no 180-degree steps
            for n in range(3):
                r_keys[k][n] -= 360.0 * round((r_keys[k][n] - r_keys[k - 1][n]) / 360.0)
    return t_keys, r_keys, order


def num(v):
    return "%.9g" % v


def fbx_array(out, indent, name, values):
    out.append("%s%s: *%d {" % (indent, name, len(values)))
    out.append("%s\ta: %s" % (indent, ",".join(values)))
    out.append("%s}" % indent)


def write_model(out, ids, j, index, t_keys, r_keys, order):
    t, r = j.offset, [0.0, 0.0, 0.0]  # the BVH's rest pose (the animation is in the curves)
    out.append('\tNodeAttribute: %d, "NodeAttribute::%s", "LimbNode" {' % (ids["attr"][index], j.name))
    out.append('\t\tProperties70:  {')
    out.append('\t\t\tP: "Size", "double", "Number", "",1')
    out.append('\t\t}')
    out.append('\t\tTypeFlags: "Skeleton"')
    out.append('\t}')
    out.append('\tModel: %d, "Model::%s", "LimbNode" {' % (ids["model"][index], j.name))
    out.append('\t\tVersion: 232')
    out.append('\t\tProperties70:  {')
    out.append('\t\t\tP: "RotationOrder", "enum", "", "",%d' % order)
    out.append('\t\t\tP: "RotationActive", "bool", "", "",1')
    out.append('\t\t\tP: "InheritType", "enum", "", "",1')
    out.append('\t\t\tP: "DefaultAttributeIndex", "int", "Integer", "",0')
    out.append('\t\t\tP: "Lcl Translation", "Lcl Translation", "", "A%s",%s' %
               ("+" if t_keys else "", ",".join(num(v) for v in t)))
    out.append('\t\t\tP: "Lcl Rotation", "Lcl Rotation", "", "A%s",%s' %
               ("+" if r_keys else "", ",".join(num(v) for v in r)))
    out.append('\t\t}')
    out.append('\t\tShading: T')
    out.append('\t\tCulling: "CullingOff"')
    out.append('\t}')


def write_curves(out, links, next_id, layer, model, prop, short, keys, times, rest):
    """An AnimationCurveNode on `prop` of `model` (whose static value is `rest`) with its three
    curves; returns the next id."""
    node = next_id
    out.append('\tAnimationCurveNode: %d, "AnimCurveNode::%s", "" {' % (node, short))
    out.append('\t\tProperties70:  {')
    for n, axis in enumerate("XYZ"):
        out.append('\t\t\tP: "d|%s", "Number", "", "A",%s' % (axis, num(rest[n])))
    out.append('\t\t}')
    out.append('\t}')
    links.append('\tC: "OO",%d,%d' % (node, layer))
    links.append('\tC: "OP",%d,%d, "%s"' % (node, model, prop))
    for n, axis in enumerate("XYZ"):
        curve = node + 1 + n
        out.append('\tAnimationCurve: %d, "AnimCurve::", "" {' % curve)
        out.append('\t\tDefault: %s' % num(rest[n]))
        out.append('\t\tKeyVer: 4009')
        fbx_array(out, "\t\t", "KeyTime", [str(t) for t in times])
        fbx_array(out, "\t\t", "KeyValueFloat", [num(k[n]) for k in keys])
        fbx_array(out, "\t\t", "KeyAttrFlags", ["4"])  # eInterpolationLinear
        fbx_array(out, "\t\t", "KeyAttrDataFloat", ["0", "0", "255790911", "0"])
        fbx_array(out, "\t\t", "KeyAttrRefCount", [str(len(times))])
        out.append('\t}')
        links.append('\tC: "OP",%d,%d, "d|%s"' % (curve, node, axis))
    return node + 4


def header(name, frame_time, stop, unit_cm):
    return [
        "; FBX 7.4.0 project file",
        "; written by animkit's tests/tools/make_fbx_ascii.py from %s" % name,
        "FBXHeaderExtension:  {",
        "\tFBXHeaderVersion: 1003",
        "\tFBXVersion: 7400",
        '\tCreator: "animkit make_fbx_ascii.py"',
        "}",
        "GlobalSettings:  {",
        "\tVersion: 1000",
        "\tProperties70:  {",
        '\t\tP: "UpAxis", "int", "Integer", "",1',
        '\t\tP: "UpAxisSign", "int", "Integer", "",1',
        '\t\tP: "FrontAxis", "int", "Integer", "",2',
        '\t\tP: "FrontAxisSign", "int", "Integer", "",1',
        '\t\tP: "CoordAxis", "int", "Integer", "",0',
        '\t\tP: "CoordAxisSign", "int", "Integer", "",1',
        '\t\tP: "UnitScaleFactor", "double", "Number", "",%s' % num(unit_cm),
        '\t\tP: "TimeMode", "enum", "", "",14',
        '\t\tP: "CustomFrameRate", "double", "Number", "",%s' % num(1.0 / frame_time),
        '\t\tP: "TimeSpanStart", "KTime", "Time", "",0',
        '\t\tP: "TimeSpanStop", "KTime", "Time", "",%d' % stop,
        "\t}",
        "}",
        "Documents:  {",
        "\tCount: 1",
        '\tDocument: 1, "", "Scene" {',
        "\t\tProperties70:  {",
        '\t\t\tP: "ActiveAnimStackName", "KString", "", "", "%s"' % name,
        "\t\t}",
        "\t\tRootNode: 0",
        "\t}",
        "}",
        "References:  {",
        "}",
    ]


def write_fbx(joints, frames, frame_time, name, unit_cm):
    times = [int(round(f * frame_time * TICKS_PER_SECOND)) for f in range(len(frames))]
    ids = {"model": [1000 + 10 * k for k in range(len(joints))],
           "attr": [1001 + 10 * k for k in range(len(joints))]}
    stack, layer = 10, 11
    out = header(name, frame_time, times[-1], unit_cm)
    body, links = [], []
    next_id = 1000000
    for k, j in enumerate(joints):
        t_keys, r_keys, order = joint_tracks(j, frames)
        write_model(body, ids, j, k, t_keys, r_keys, order)
        links.append('\tC: "OO",%d,%d' % (ids["model"][k], ids["model"][j.parent] if j.parent >= 0 else 0))
        links.append('\tC: "OO",%d,%d' % (ids["attr"][k], ids["model"][k]))
        if t_keys:
            next_id = write_curves(body, links, next_id, layer, ids["model"][k], "Lcl Translation", "T",
                                   t_keys, times, j.offset)
        if r_keys:
            next_id = write_curves(body, links, next_id, layer, ids["model"][k], "Lcl Rotation", "R",
                                   r_keys, times, [0.0, 0.0, 0.0])
    curves = sum(1 for line in body if line.startswith("\tAnimationCurve:"))
    nodes = sum(1 for line in body if line.startswith("\tAnimationCurveNode:"))
    out += ["Definitions:  {", "\tVersion: 100", "\tCount: %d" % (2 * len(joints) + nodes + curves + 3)]
    for kind, count in (("GlobalSettings", 1), ("NodeAttribute", len(joints)), ("Model", len(joints)),
                        ("AnimationStack", 1), ("AnimationLayer", 1), ("AnimationCurveNode", nodes),
                        ("AnimationCurve", curves)):
        out += ['\tObjectType: "%s" {' % kind, "\t\tCount: %d" % count, "\t}"]
    out += ["}", "Objects:  {"]
    out += ['\tAnimationStack: %d, "AnimStack::%s", "" {' % (stack, name),
            "\t\tProperties70:  {",
            '\t\t\tP: "LocalStart", "KTime", "Time", "",0',
            '\t\t\tP: "LocalStop", "KTime", "Time", "",%d' % times[-1],
            '\t\t\tP: "ReferenceStart", "KTime", "Time", "",0',
            '\t\t\tP: "ReferenceStop", "KTime", "Time", "",%d' % times[-1],
            "\t\t}", "\t}",
            '\tAnimationLayer: %d, "AnimLayer::BaseLayer", "" {' % layer, "\t}"]
    out += body + ["}", "Connections:  {", '\tC: "OO",%d,%d' % (layer, stack)] + links + ["}"]
    out += ["Takes:  {", '\tCurrent: "%s"' % name, '\tTake: "%s" {' % name,
            '\t\tFileName: "%s.tak"' % name, "\t\tLocalTime: 0,%d" % times[-1],
            "\t\tReferenceTime: 0,%d" % times[-1], "\t}", "}"]
    return "\n".join(out) + "\n"


def main(argv):
    args = [a for a in argv[1:]]
    unit_cm = 1.0
    if "--unit-cm" in args:
        k = args.index("--unit-cm")
        unit_cm = float(args[k + 1])
        del args[k:k + 2]
    if len(args) != 2:
        sys.stderr.write("usage: make_fbx_ascii.py IN.bvh OUT.fbx [--unit-cm CM]\n")
        return 1
    src, dst = args
    try:
        with open(src, encoding="utf-8") as f:
            joints, frames, frame_time = parse_bvh(f.read())
    except (OSError, ValueError, IndexError) as e:
        sys.stderr.write("%s: %s\n" % (src, e))
        return 1
    name = os.path.splitext(os.path.basename(src))[0]
    text = write_fbx(joints, frames, frame_time, name, unit_cm)
    tmp = dst + ".tmp"
    with open(tmp, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    os.replace(tmp, dst)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
