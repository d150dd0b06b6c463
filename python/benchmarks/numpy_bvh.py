"""Two straightforward BVH readers without animkit, for the benchmark in docs/python.md.

- read_positions_numpy: the hierarchy parsed in Python, the MOTION block converted by NumPy in
  one call, Euler angles -> matrices and FK vectorised over all frames (one loop over joints).
- read_positions_pure: what small pure-Python BVH readers do: frame by frame, joint by joint,
  3x3 matrices in Python lists.

Both: rotation = product of the axis rotations in channel order (Zrotation Yrotation Xrotation
= Rz Ry Rx), position channels replace the OFFSET (as Blender reads them), End Sites are tip
joints; world positions (F, J, 3) in file units, joints in file order like animkit."""
import math

import numpy as np


def parse_hierarchy(lines):
    """-> names, parents, offsets (J, 3), channels per joint, index of the MOTION line."""
    names, parents, offsets, channels, stack = [], [], [], [], []
    i = 0
    while True:
        tok = lines[i].split()
        i += 1
        if not tok:
            continue
        key = tok[0]
        if key in ("ROOT", "JOINT"):
            names.append(tok[1])
            parents.append(stack[-1] if stack else -1)
            offsets.append((0.0, 0.0, 0.0))
            channels.append([])
        elif key == "End":
            names.append(names[stack[-1]] + "_end")
            parents.append(stack[-1])
            offsets.append((0.0, 0.0, 0.0))
            channels.append([])
        elif key == "{":
            stack.append(len(names) - 1)
        elif key == "}":
            stack.pop()
        elif key == "OFFSET":
            offsets[-1] = tuple(float(v) for v in tok[1:4])
        elif key == "CHANNELS":
            channels[-1] = tok[2:2 + int(tok[1])]
        elif key == "MOTION":
            return names, parents, np.array(offsets), channels, i


def _axis_matrices(axis, angles_rad):
    c, s = np.cos(angles_rad), np.sin(angles_rad)
    m = np.zeros(angles_rad.shape + (3, 3))
    a = "XYZ".index(axis)
    b, d = [k for k in range(3) if k != a]
    m[..., a, a] = 1.0
    m[..., b, b] = c
    m[..., d, d] = c
    sign = 1.0 if a != 1 else -1.0  # Ry has the sine terms the other way round
    m[..., b, d] = -s * sign
    m[..., d, b] = s * sign
    return m


def read_positions_numpy(path):
    text = open(path).read()
    lines = text.splitlines()
    names, parents, offsets, channels, motion = parse_hierarchy(lines)
    frame_count = int(lines[motion].split(":")[1])
    values = np.array(" ".join(lines[motion + 2:]).split(), dtype=np.float64)
    width = sum(len(c) for c in channels)
    values = values[: frame_count * width].reshape(frame_count, width)
    F, J = frame_count, len(names)
    world_r = np.zeros((F, J, 3, 3))
    world_t = np.zeros((F, J, 3))
    col = 0
    for j in range(J):
        rot = np.broadcast_to(np.eye(3), (F, 3, 3))
        trans = np.broadcast_to(offsets[j], (F, 3)).copy()
        for ch in channels[j]:
            v = values[:, col]
            col += 1
            if ch.endswith("position"):
                trans[:, "XYZ".index(ch[0])] = v
            else:
                rot = rot @ _axis_matrices(ch[0], np.radians(v))
        p = parents[j]
        if p < 0:
            world_r[:, j], world_t[:, j] = rot, trans
        else:
            world_r[:, j] = world_r[:, p] @ rot
            world_t[:, j] = world_t[:, p] + np.einsum("fij,fj->fi", world_r[:, p], trans)
    return names, world_t.astype(np.float32)


def _mat_mul(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)] for i in range(3)]


def _axis_matrix(axis, deg):
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    if axis == "X":
        return [[1, 0, 0], [0, c, -s], [0, s, c]]
    if axis == "Y":
        return [[c, 0, s], [0, 1, 0], [-s, 0, c]]
    return [[c, -s, 0], [s, c, 0], [0, 0, 1]]


def read_positions_pure(path):
    lines = open(path).read().splitlines()
    names, parents, offsets, channels, motion = parse_hierarchy(lines)
    frame_count = int(lines[motion].split(":")[1])
    offsets = offsets.tolist()
    out = []
    for row in lines[motion + 2: motion + 2 + frame_count]:
        vals = [float(v) for v in row.split()]
        col = 0
        wr, wt = [], []
        for j in range(len(names)):
            r = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
            t = list(offsets[j])
            for ch in channels[j]:
                v = vals[col]
                col += 1
                if ch.endswith("position"):
                    t["XYZ".index(ch[0])] = v
                else:
                    r = _mat_mul(r, _axis_matrix(ch[0], v))
            p = parents[j]
            if p < 0:
                wr.append(r)
                wt.append(t)
            else:
                pr = wr[p]
                wr.append(_mat_mul(pr, r))
                wt.append([wt[p][i] + sum(pr[i][k] * t[k] for k in range(3)) for i in range(3)])
        out.append(wt)
    return names, np.array(out, dtype=np.float32)
