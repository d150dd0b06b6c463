#!/usr/bin/env python3
"""Writes the small hand-made glTF test files of this folder (run it after changing them; the
output is committed). Each file exercises what animkit's glTF writer never writes:

  steps_cubic_sparse.gltf  node tree without a skin; STEP, LINEAR and CUBICSPLINE samplers;
                           a sparse output accessor; a node given as a matrix; a node that is
                           a mesh-less leaf; keys at 0.1 s (10 fps grid)
  two_anims_skin.gltf      a skin of 3 joints below a scaled "Armature" node; two animations
                           ("Wave" LINEAR, "Grow" with an animated parent scale); an unnamed
                           node; a weights channel that must be ignored; a buffer in an
                           external file with a %20 in its URI
  quantized.gltf           quantized rotations (normalized SHORT, normalized BYTE under STEP),
                           translations with a byteStride of 16, a scaled root
Written by hand for animkit's tests; CC0 (see NOTICE.md)."""
import base64
import json
import math
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


class Doc:
    def __init__(self):
        self.bin = bytearray()
        self.views = []
        self.accessors = []

    def add(self, fmt, values, type_, component, count, normalized=False, stride=None, pad=0):
        while len(self.bin) % 4:
            self.bin.append(0)
        start = len(self.bin)
        per = {"SCALAR": 1, "VEC3": 3, "VEC4": 4, "MAT4": 16}[type_]
        for i in range(count):
            self.bin += struct.pack("<" + fmt * per, *values[i * per:(i + 1) * per])
            self.bin += b"\0" * pad
        view = {"buffer": 0, "byteOffset": start, "byteLength": len(self.bin) - start}
        if stride:
            view["byteStride"] = stride
        self.views.append(view)
        acc = {"bufferView": len(self.views) - 1, "componentType": component, "count": count,
               "type": type_}
        if normalized:
            acc["normalized"] = True
        if type_ == "SCALAR" and fmt == "f":
            acc["min"] = [min(values)]
            acc["max"] = [max(values)]
        self.accessors.append(acc)
        return len(self.accessors) - 1

    def floats(self, values, type_):
        per = {"SCALAR": 1, "VEC3": 3, "VEC4": 4, "MAT4": 16}[type_]
        return self.add("f", values, type_, 5126, len(values) // per)


def quat(axis, angle):
    s = math.sin(angle / 2)
    n = math.sqrt(sum(a * a for a in axis))
    return [axis[0] / n * s, axis[1] / n * s, axis[2] / n * s, math.cos(angle / 2)]


def write(name, doc, gltf, uri=None):
    if uri:
        with open(os.path.join(HERE, uri.replace("%20", " ")), "wb") as f:
            f.write(doc.bin)
        buf = {"uri": uri, "byteLength": len(doc.bin)}
    else:
        buf = {"uri": "data:application/octet-stream;base64," +
               base64.b64encode(bytes(doc.bin)).decode(), "byteLength": len(doc.bin)}
    gltf.update({"asset": {"version": "2.0", "generator": "animkit tests/data/gltf/make_samples.py"},
                 "buffers": [buf], "bufferViews": doc.views, "accessors": doc.accessors})
    with open(os.path.join(HERE, name), "w") as f:
        json.dump(gltf, f, indent=1)
        f.write("\n")


def steps_cubic_sparse():
    d = Doc()
    t5 = d.floats([0.0, 0.1, 0.2, 0.3, 0.4], "SCALAR")
    # STEP rotation of node 1 about Z
    rz = sum((quat([0, 0, 1], a) for a in [0.0, 0.5, 1.0, 0.2, -0.4]), [])
    step_out = d.floats(rz, "VEC4")
    # CUBICSPLINE translation of node 2: in-tangent, value, out-tangent per key
    cub = []
    for k in range(5):
        v = [0.1 * k, 0.5 + 0.2 * math.sin(k), 0.0]
        cub += [0.3, -0.2 * k, 0.1] + v + [-0.4, 0.1 * k, 0.2]
    cub_out = d.floats(cub, "VEC3")
    # CUBICSPLINE rotation of node 3 (tangents in quaternion units per second)
    cr = []
    for k in range(5):
        q = quat([1, 0.3, 0], 0.3 * k)
        cr += [0.1, 0.0, -0.05, 0.0] + q + [0.0, 0.2, 0.0, -0.05]
    cr_out = d.floats(cr, "VEC4")
    # sparse LINEAR translation of node 0: all zero except keys 2 and 4
    base = [0.0] * 15
    sp = d.add("f", base, "VEC3", 5126, 5)
    idx_view_start = len(d.bin)
    d.bin += struct.pack("<HH", 2, 4)
    d.views.append({"buffer": 0, "byteOffset": idx_view_start, "byteLength": 4})
    while len(d.bin) % 4:
        d.bin.append(0)
    val_start = len(d.bin)
    d.bin += struct.pack("<6f", 0.3, 0.1, -0.2, -0.1, 0.25, 0.4)
    d.views.append({"buffer": 0, "byteOffset": val_start, "byteLength": 24})
    d.accessors[sp]["sparse"] = {"count": 2,
                                 "indices": {"bufferView": len(d.views) - 2, "componentType": 5123},
                                 "values": {"bufferView": len(d.views) - 1}}
    c = math.cos(0.7)
    s = math.sin(0.7)
    gltf = {
        "scene": 0, "scenes": [{"nodes": [0]}],
        "nodes": [
            {"name": "base", "children": [1], "translation": [0, 0.1, 0]},
            {"name": "arm", "children": [2, 4], "translation": [0, 1, 0]},
            {"name": "fore", "children": [3], "translation": [0, 0.5, 0]},
            {"name": "hand", "translation": [0, 0.4, 0], "rotation": quat([0, 1, 0], 0.3)},
            {"name": "fixed", "matrix": [c, s, 0, 0, -s, c, 0, 0, 0, 0, 1, 0, 0.2, 0.3, -0.1, 1],
             "children": [5]},
            {"name": "tip", "translation": [0.1, 0.2, 0.3]},
        ],
        "animations": [{"name": "mixed", "samplers": [
            {"input": t5, "output": step_out, "interpolation": "STEP"},
            {"input": t5, "output": cub_out, "interpolation": "CUBICSPLINE"},
            {"input": t5, "output": cr_out, "interpolation": "CUBICSPLINE"},
            {"input": t5, "output": sp},
        ], "channels": [
            {"sampler": 0, "target": {"node": 1, "path": "rotation"}},
            {"sampler": 1, "target": {"node": 2, "path": "translation"}},
            {"sampler": 2, "target": {"node": 3, "path": "rotation"}},
            {"sampler": 3, "target": {"node": 0, "path": "translation"}},
        ]}],
    }
    write("steps_cubic_sparse.gltf", d, gltf)


def two_anims_skin():
    d = Doc()
    ibm = d.floats([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1] * 3, "MAT4")
    t = d.floats([0.0, 0.5, 1.0], "SCALAR")
    wave = d.floats(sum((quat([1, 0, 0], a) for a in [0.0, 0.9, -0.3]), []), "VEC4")
    wave2 = d.floats(sum((quat([0, 0, 1], a) for a in [0.2, -0.6, 0.4]), []), "VEC4")
    t2 = d.floats([0.0, 0.25, 0.75, 1.25], "SCALAR")
    grow = d.floats([1, 1, 1, 1.5, 1.5, 1.5, 0.5, 2.0, 1.0, 1, 1, 1], "VEC3")
    move = d.floats([0, 0, 0, 0.2, 0, 0, 0.2, 0.3, 0, 0, 0, 0.1], "VEC3")
    weights = d.floats([0.0, 1.0, 0.5], "SCALAR")
    gltf = {
        "scene": 0, "scenes": [{"nodes": [0, 4]}],
        "nodes": [
            {"name": "Armature", "children": [1], "scale": [0.01, 0.01, 0.01],
             "rotation": quat([1, 0, 0], -math.pi / 2)},
            {"name": "hip", "children": [2], "translation": [0, 0, 90]},
            {"children": [3], "translation": [0, 0, 45], "rotation": quat([0, 1, 0], 0.2)},
            {"name": "toe", "translation": [0, 5, 40]},
            {"name": "body", "skin": 0},
        ],
        "skins": [{"joints": [1, 2, 3], "inverseBindMatrices": ibm}],
        "animations": [
            {"name": "Wave", "samplers": [{"input": t, "output": wave},
                                          {"input": t, "output": wave2},
                                          {"input": t, "output": weights}],
             "channels": [{"sampler": 0, "target": {"node": 1, "path": "rotation"}},
                          {"sampler": 1, "target": {"node": 2, "path": "rotation"}},
                          {"sampler": 2, "target": {"node": 4, "path": "weights"}}]},
            {"name": "Grow", "samplers": [{"input": t2, "output": grow},
                                          {"input": t2, "output": move}],
             "channels": [{"sampler": 0, "target": {"node": 2, "path": "scale"}},
                          {"sampler": 1, "target": {"node": 1, "path": "translation"}}]},
        ],
    }
    write("two_anims_skin.gltf", d, gltf, uri="two%20anims.bin")


def quantized():
    d = Doc()
    t = d.floats([0.0, 1 / 3, 2 / 3, 1.0], "SCALAR")
    qs = []
    for a in [0.0, 0.8, 1.6, 2.4]:
        q = quat([0, 1, 1], a)
        qs += [int(round(x * 32767)) for x in q]
    rot = d.add("h", qs, "VEC4", 5122, 4, normalized=True)
    tr = d.add("f", [0, 10, 0, 3, 12, -2, 6, 14, -4, 9, 10, 0], "VEC3", 5126, 4, stride=16, pad=4)
    bq = []
    for a in [0.0, -0.5, 0.9, 0.3]:
        bq += [int(round(x * 127)) for x in quat([1, 0, 0.5], a)]
    brot = d.add("b", bq, "VEC4", 5120, 4, normalized=True)
    gltf = {
        "scene": 0, "scenes": [{"nodes": [0]}],
        "nodes": [
            {"name": "root", "children": [1], "scale": [0.1, 0.1, 0.1]},
            {"name": "mover", "children": [2]},
            {"name": "spinner", "translation": [0, 0, 5], "children": [3]},
            {"name": "end", "translation": [0, 5, 0]},
        ],
        "animations": [{"name": "q", "samplers": [{"input": t, "output": rot},
                                                  {"input": t, "output": tr},
                                                  {"input": t, "output": brot,
                                                   "interpolation": "STEP"}],
                        "channels": [{"sampler": 0, "target": {"node": 2, "path": "rotation"}},
                                     {"sampler": 1, "target": {"node": 1, "path": "translation"}},
                                     {"sampler": 2, "target": {"node": 3, "path": "rotation"}}]}],
    }
    write("quantized.gltf", d, gltf)


if __name__ == "__main__":
    steps_cubic_sparse()
    two_anims_skin()
    quantized()
