"""BVH channels as pymo and bvh-python users know them: per-joint channel names and rotation
orders, OFFSETs, and every channel's value per frame in the file's own orders and units
(positions in file units, rotations in degrees), as an array or a pandas DataFrame.

The values come from the clip's keys: translation tracks as they are, rotations through the
library's quaternion -> Euler conversion (ak_quat_to_euler) in each joint's own order, made
continuous from frame to frame the way the BVH writer does (src/io/bvh_write.c): of a
rotation's two Euler triples (a, b, c) and (a+180, 180-b, c+180), each shifted by whole turns
towards the previous frame, the nearer one. So a file read and asked back gives its own
numbers (to float precision), wherever the file itself was continuous."""
import numpy as np

from ._animkit import ffi, lib

CHANNEL_NAMES = ["Xposition", "Yposition", "Zposition", "Xrotation", "Yrotation", "Zrotation"]
_AXIS = {"X": 0, "Y": 1, "Z": 2}


def joint_channels(skeleton):
    """[[channel name, ...] per joint] in file order; [] for End Sites."""
    out = []
    for j in range(skeleton.joint_count):
        layout = skeleton._ptr.channels[j]
        out.append([CHANNEL_NAMES[layout.kind[k]] for k in range(layout.count)])
    return out


def rotation_order(channels):
    """The rotation axes a joint's channels list, in file order ("ZXY"), or "" for none."""
    return "".join(c[0] for c in channels if c.endswith("rotation"))


def _full_order(order):
    """A three-axis order starting with `order` (the missing axes after it, whose angles the
    file does not hold and are zero for its keys)."""
    return order + "".join(a for a in "XYZ" if a not in order)


def _continuous(angles, order):
    """(F, 3) Euler angles in degrees, in listed order, made continuous over frames: the
    nearer of the two equivalent triples, shifted by whole turns towards the previous frame."""
    out = np.empty_like(angles)
    prev = None
    for f in range(angles.shape[0]):
        a, b, c = angles[f]
        best = None
        for cand in ((a, b, c), (a + 180.0, 180.0 - b, c + 180.0)):
            cand = np.array(cand, dtype=np.float64)
            if prev is not None:
                cand = cand - 360.0 * np.round((cand - prev) / 360.0)
            cost = 0.0 if prev is None else float(np.abs(cand - prev).sum())
            if best is None or cost < best[0] - 1e-9:
                best = (cost, cand)
        if prev is None:
            best = (0.0, np.array((a, b, c), dtype=np.float64))
        out[f] = best[1]
        prev = best[1]
    return out


def euler(skeleton, clip, joint):
    """(F, 3) rotation channel values of `joint` in degrees, in its file order (the first
    column is the first rotation channel the file lists). A joint with fewer than three
    rotation channels gets only those columns; one with none gets (F, 0)."""
    order = rotation_order(joint_channels(skeleton)[joint])
    F = clip.frame_count
    if not order:
        return np.zeros((F, 0))
    full = _full_order(order)
    code = ffi.new("ak_rot_order *")
    if lib.ak_rot_order_parse(full.encode(), code) != 0:
        raise ValueError("rotation order %r" % full)
    q = clip.rotations[:, joint, :]
    angles = np.empty((F, 3))
    quat = ffi.new("ak_quat *")
    for f in range(F):
        quat.x, quat.y, quat.z, quat.w = (float(v) for v in q[f])
        e = lib.ak_quat_to_euler(quat[0], code[0])
        xyz = (e.x, e.y, e.z)
        angles[f] = [np.degrees(xyz[_AXIS[axis]]) for axis in full]
    return _continuous(angles, full)[:, :len(order)]


def channel_names(skeleton):
    """"Joint_Channel" for every channel of every joint, in file order."""
    return ["%s_%s" % (name, ch)
            for name, chans in zip(skeleton.names, joint_channels(skeleton)) for ch in chans]


def channel_values(skeleton, clip, frames):
    """(column names "Joint_Xrotation"..., (N, C) float64 values) of every channel of every
    joint in file order, for the frame indices `frames` (an int array)."""
    names, columns = [], []
    tracks = {j: k for k, j in enumerate(clip.track_joints)}
    translations = clip.translations
    for j, (name, chans) in enumerate(zip(skeleton.names, joint_channels(skeleton))):
        rot = euler(skeleton, clip, j) if rotation_order(chans) else None
        r = 0
        for ch in chans:
            names.append("%s_%s" % (name, ch))
            if ch.endswith("position"):
                axis = _AXIS[ch[0]]
                if j in tracks:
                    columns.append(translations[frames, tracks[j], axis].astype(np.float64))
                else:
                    offset = float(skeleton.rest_local[j, 4 + axis])
                    columns.append(np.full(len(frames), offset))
            else:
                columns.append(rot[frames, r])
                r += 1
    values = np.stack(columns, axis=1) if columns else np.zeros((len(frames), 0))
    return names, values


def to_dataframe(skeleton, clip, frames):
    """A pandas DataFrame of channel_values, indexed by time in seconds (pandas needed)."""
    try:
        import pandas as pd
    except ImportError as e:  # pandas is optional: only this method needs it
        raise ImportError("Clip.to_dataframe() needs pandas (Debian: python3-pandas)") from e
    names, values = channel_values(skeleton, clip, frames)
    index = pd.Index(np.asarray(frames) * clip.frame_time, name="time")
    return pd.DataFrame(values, columns=names, index=index)
