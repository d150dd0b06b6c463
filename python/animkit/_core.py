"""Skeletons, clips, BVH/glTF files, motion editing: thin wrappers over the C library.

Arrays: a transform is 7 float32 values (quaternion x, y, z, w, then translation x, y, z),
the memory layout of ak_xform, so a (J, 7) float32 array IS a C pose and crosses without a
copy. Key arrays of a clip (rotations, translations) are NumPy views of the C memory."""
import math
import os
import warnings
from collections import namedtuple

import numpy as np

from . import _channels
from ._animkit import ffi, lib

__all__ = ["Error", "Skeleton", "Clip", "read_bvh", "read_bvh_string", "units_detect", "retarget",
           "HUMANOID_SLOTS", "INTERP", "Units", "Humanoid"]

INTERP = {"step": lib.AK_INTERP_STEP, "linear": lib.AK_INTERP_LINEAR, "cubic": lib.AK_INTERP_CUBIC}
HUMANOID_SLOTS = [ffi.string(lib.ak_humanoid_slot_name(i)).decode()
                  for i in range(lib.AK_HUM_SLOT_COUNT)]
_UNITS = {"m": lib.AK_UNITS_METRES, "cm": lib.AK_UNITS_CENTIMETRES, "mm": lib.AK_UNITS_MILLIMETRES,
          "in": lib.AK_UNITS_INCHES, "cmu": lib.AK_UNITS_CMU}


class BvhWarning(UserWarning):
    """A BVH file read as other readers read it, with something to say: more or fewer frame
    lines than its Frames: line declares. The message starts with path:line."""


class Error(Exception):
    """An animkit call failed: `status` (e.g. "AK_ERR_PARSE"), `message`, and where known the
    `path` and 1-based `line` of the input."""

    def __init__(self, status, message, path=None, line=0):
        self.status = status
        self.message = message
        self.path = path
        self.line = line
        where = path or ""
        if path and line:
            where = "%s:%d" % (path, line)
        super().__init__("%s: %s" % (where, message) if where else message)


def _check(status, err, path=None):
    if status < 0:
        raise Error(ffi.string(lib.ak_status_name(status)).decode(),
                    ffi.string(err.message).decode("utf-8", "replace"), path, err.line)
    return status


def _fspath(path):
    return os.fsencode(os.fspath(path))


def _text(value, name):
    """A str argument as bytes for C (None stays None); TypeError for anything else."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise TypeError("%s must be a str, not %s" % (name, type(value).__name__))
    return value.encode()


def _need(value, cls, name):
    """`value` itself when it is a `cls` (Skeleton, Clip); TypeError naming the argument."""
    if not isinstance(value, cls):
        raise TypeError("%s must be an animkit.%s, not %s" % (name, cls.__name__, type(value).__name__))
    return value


def _finite(values, name):
    """float64 array of `values`; ValueError when one is NaN or infinite."""
    a = np.asarray(values, dtype=np.float64)
    if not np.isfinite(a).all():
        raise ValueError("%s must be finite, not %r" % (name, values))
    return a


def _as_xforms(array, count, name):
    """A (count, 7) C-contiguous float32 array (copied only when it is not one already)."""
    a = np.ascontiguousarray(array, dtype=np.float32)
    if a.shape != (count, 7):
        raise ValueError("%s must have shape (%d, 7), not %s" % (name, count, a.shape))
    return a


class _Memory:
    """C memory owned by `owner` (a Skeleton or Clip) as NumPy sees it: the array's base keeps
    the owner, so the view never outlives the memory."""

    def __init__(self, owner, pointer, dtype, shape, writable):
        self.owner = owner
        self.__array_interface__ = {"data": (int(ffi.cast("uintptr_t", pointer)), not writable),
                                    "shape": tuple(shape), "typestr": np.dtype(dtype).str,
                                    "version": 3}


def _view(owner, pointer, dtype, shape, writable=False):
    """A NumPy array over C memory of `owner`, without a copy. Read-only unless writing is the
    point (a clip's keys): a write to a skeleton's parents could send the library out of its
    arrays. The array's base holds `owner`, so the memory lives as long as the view."""
    a = np.asarray(_Memory(owner, pointer, dtype, shape, writable))
    if not writable:
        a.flags.writeable = False
    return a


Units = namedtuple("Units", ["name", "metres_per_unit"])
Units.__doc__ = """Detected units: `name` ("cmu", "centimetres", "metres", ...) and
`metres_per_unit`, the factor from file units to metres. Unpacks as (name, metres_per_unit)."""
Humanoid = namedtuple("Humanoid", ["joints", "missing"])
Humanoid.__doc__ = """The humanoid map: `joints` {slot name: joint index} for the slots found,
`missing` [slot names] of the required slots not found. Unpacks as (joints, missing)."""


def units_detect(standing_height):
    """Units(name, metres_per_unit) for a standing height in file units (finite, > 0; else
    ValueError rather than a guess of metres)."""
    h = float(standing_height)
    if not (h > 0.0 and h < float("inf")):
        raise ValueError("standing_height must be a finite number > 0 (file units), not %r" % h)
    mpu = ffi.new("float *")
    u = lib.ak_units_detect(h, mpu)
    return Units(ffi.string(lib.ak_units_name(u)).decode(), mpu[0])


class Skeleton:
    """Joint hierarchy (parents before children), rest pose and BVH channel layout."""

    def __init__(self, ptr):
        self._ptr = ffi.gc(ptr, lib.ak_skeleton_destroy)
        self._owner = None

    @classmethod
    def _borrowed(cls, ptr, owner):
        """A skeleton that `owner` (e.g. a Walker) owns and frees: not freed here, and `owner`
        is held so the skeleton never outlives it."""
        s = cls.__new__(cls)
        s._ptr, s._owner = ptr, owner
        return s

    @property
    def joint_count(self):
        return self._ptr.joint_count

    def __len__(self):
        return self._ptr.joint_count

    @property
    def names(self):
        return [ffi.string(self._ptr.names[j]).decode("utf-8", "replace")
                for j in range(self.joint_count)]

    def _view(self, field, ctype, dtype, shape):
        return _view(self, getattr(self._ptr, field), dtype, shape)

    @property
    def parents(self):
        """int32 (J,) read-only view: parent index, -1 for a root."""
        return self._view("parents", "int32_t", np.int32, (self.joint_count,))

    @property
    def rest_local(self):
        """float32 (J, 7) read-only view of the rest pose (parent space)."""
        return self._view("rest_local", "ak_xform", np.float32, (self.joint_count, 7))

    @property
    def bone_lengths(self):
        return self._view("bone_lengths", "float", np.float32, (self.joint_count,))

    @property
    def offsets(self):
        """float32 (J, 3) copy of each joint's OFFSET (rest translation in its parent, file
        units); an End Site's is its tip offset."""
        return np.array(self.rest_local[:, 4:7])

    @property
    def channels(self):
        """The BVH channels of each joint in file order, e.g. ['Xposition', 'Yposition',
        'Zposition', 'Zrotation', 'Xrotation', 'Yrotation']; [] for an End Site."""
        return _channels.joint_channels(self)

    @property
    def rotation_orders(self):
        """Each joint's rotation order as its channels list it ("ZXY"), "" without rotations."""
        return [_channels.rotation_order(c) for c in self.channels]

    @property
    def is_end_site(self):
        return self._view("is_end_site", "uint8_t", np.uint8, (self.joint_count,)).astype(bool)

    def find(self, name):
        """Index of the joint called `name`, or -1."""
        if not isinstance(name, str):
            raise TypeError("name must be a str, not %s" % type(name).__name__)
        return lib.ak_skeleton_find(self._ptr, name.encode())

    def index(self, joint):
        """A joint index from an index or a name (KeyError for an unknown name)."""
        if isinstance(joint, str):
            j = self.find(joint)
            if j < 0:
                raise KeyError("no joint named %r" % joint)
            return j
        j = int(joint)
        if not 0 <= j < self.joint_count:
            raise IndexError("joint %d out of range 0..%d" % (j, self.joint_count - 1))
        return j

    @property
    def rest_height(self):
        return lib.ak_skeleton_rest_height(self._ptr)

    def humanoid(self, overrides=None):
        """Humanoid(joints, missing): `joints` {slot: joint index} for the slots found,
        `missing` the required slots that were not found (empty when legs and hips are all
        there). `overrides` is "slot=Joint,..." as `animkit info --humanoid` takes it."""
        if overrides is not None and not isinstance(overrides, str):
            raise TypeError("overrides must be a str 'slot=Joint,...', not %s"
                            % type(overrides).__name__)
        out = ffi.new("ak_humanoid *")
        err = ffi.new("ak_error *")
        st = lib.ak_humanoid_find(self._ptr, overrides.encode() if overrides else ffi.NULL, out, err)
        msg = ffi.string(err.message).decode()
        if st < 0 and not (st == lib.AK_ERR_NOT_FOUND and msg.startswith("humanoid joints not found")):
            _check(st, err)  # a bad override, not just a rig without some slots
        found = {HUMANOID_SLOTS[i]: out.joint[i] for i in range(lib.AK_HUM_SLOT_COUNT)
                 if out.joint[i] >= 0}
        missing = []
        if st == lib.AK_ERR_NOT_FOUND:
            missing = [s.strip() for s in msg.split(":", 1)[1].split("(")[0].split(",")]
        return Humanoid(found, missing)

    def rest_pose(self):
        """float32 (J, 7) copy of the rest pose, a local pose to edit."""
        return np.array(self.rest_local)

    def fk(self, local):
        """World (model-space) transforms of a local pose: (J, 7) -> (J, 7), or a batch
        (N, J, 7) -> (N, J, 7)."""
        a = np.ascontiguousarray(local, dtype=np.float32)
        J = self.joint_count
        if a.shape[-2:] != (J, 7):
            raise ValueError("pose must have shape (..., %d, 7), not %s" % (J, a.shape))
        if not np.isfinite(a).all():
            raise ValueError("pose holds NaN or infinity")
        out = np.empty_like(a)
        flat_in, flat_out = a.reshape(-1, J, 7), out.reshape(-1, J, 7)
        for i in range(flat_in.shape[0]):
            lib.ak_fk(self._ptr, ffi.from_buffer("ak_xform[]", flat_in[i]),
                      ffi.from_buffer("ak_xform[]", flat_out[i]))
        return out

    def clone(self):
        out = ffi.new("ak_skeleton **")
        err = ffi.new("ak_error *")
        _check(lib.ak_skeleton_clone(self._ptr, out, err), err)
        return Skeleton(out[0])

    def __repr__(self):
        return "<animkit.Skeleton %d joints>" % self.joint_count


def _read(reader, path_for_errors):
    sk = ffi.new("ak_skeleton **")
    cl = ffi.new("ak_clip **")
    err = ffi.new("ak_error *")
    _check(reader(sk, cl, err), err, path_for_errors)
    if err.message[0] != b"\0":
        # A file other readers accept (frame lines disagreeing with Frames:, a Z-up rig turned):
        # read, and said; "path:line: " when the warning has a line.
        where = "%s:%d" % (path_for_errors, err.line) if err.line > 0 else path_for_errors
        warnings.warn("%s: %s" % (where, ffi.string(err.message).decode("utf-8", "replace")),
                      BvhWarning, stacklevel=3)
    skeleton = Skeleton(sk[0])
    return skeleton, Clip(cl[0], skeleton)


UP = {"auto": lib.AK_UP_AUTO, "y": lib.AK_UP_Y, "z": lib.AK_UP_Z}


def _bvh_params(up):
    """ak_bvh_read_params for `up` ("auto", "y" or "z"; a ValueError names the argument)."""
    if up not in UP:
        raise ValueError("up must be 'auto', 'y' or 'z', not %r" % (up,))
    params = ffi.new("ak_bvh_read_params *", lib.ak_bvh_read_defaults())
    params.up = UP[up]
    return params


def read_bvh(path, up="auto"):
    """Reads a BVH file -> (Skeleton, Clip) in the file's own units, Y up: `up` "auto" measures
    the axis the rig stands along and turns a rig standing along +Z to Y-up (a BvhWarning says
    so), "y" keeps the file's axes, "z" turns it. Raises animkit.Error with the path and line
    for bad input."""
    p = _fspath(path)
    params = _bvh_params(up)
    return _read(lambda sk, cl, err: lib.ak_bvh_read_file(p, params, sk, cl, err), os.fspath(path))


def read_gltf(path, animation=None, skin=-1, fps=0.0):
    """Reads one animation of a glTF 2.0 (.gltf) or GLB file -> (Skeleton, Clip): the skeleton
    of a skin (skin=-1: the one the animation moves, -2: the node tree, or an index), the
    animation by index or name (None: the first), resampled at `fps` (0: chosen from the key
    times). Raises animkit.Error with the path, JSON line and reason for bad input."""
    p = _fspath(path)
    params = ffi.new("ak_gltf_clip_params *", lib.ak_gltf_clip_defaults())
    keep = None
    if isinstance(animation, str):
        keep = ffi.new("char[]", animation.encode("utf-8"))
        params.animation_name = keep
    elif animation is not None:
        params.animation = int(animation)
    params.skin = int(skin)
    params.fps = float(fps)
    return _read(lambda sk, cl, err: lib.ak_gltf_read_clip_file(p, params, sk, cl, ffi.NULL, err),
                 os.fspath(path))


def _animkit_cli():
    """The animkit command for FBX: $ANIMKIT_CLI, else `animkit` on PATH; None when neither."""
    import shutil
    cli = os.environ.get("ANIMKIT_CLI")
    if cli and os.path.isfile(cli) and os.access(cli, os.X_OK):
        return cli
    return shutil.which("animkit")


def read_fbx(path, animation=None):
    """Reads an FBX file (binary or ASCII) -> (Skeleton, Clip), as the animkit tools read it:
    through assimp (libassimp-dev), by running `animkit convert FILE.fbx OUT.glb` and reading
    the GLB (the core library stays libc + libm). `animation` picks an animation stack by name
    or index (None: the first). The command is $ANIMKIT_CLI or `animkit` on PATH; without one,
    or with tools built without assimp, raises animkit.Error saying so."""
    import subprocess
    import tempfile
    src = os.fspath(path)
    cli = _animkit_cli()
    if not cli:
        raise Error("AK_ERR_INVALID_ARG", "FBX is read by the animkit command-line tool built "
                    "with assimp; set ANIMKIT_CLI to it or put `animkit` on PATH", src)
    if not os.path.isfile(src):
        raise Error("AK_ERR_IO", "no such file", src)
    arg = src if animation is None else "%s#%s" % (src, animation)
    with tempfile.TemporaryDirectory() as tmp:
        glb = os.path.join(tmp, "clip.glb")
        run = subprocess.run([cli, "convert", arg, glb, "--scale", "1"], capture_output=True,
                             text=True)
        if run.returncode != 0:
            why = (run.stderr or run.stdout).strip().splitlines()
            raise Error("AK_ERR_PARSE", why[-1] if why else "animkit convert failed", src)
        return read_gltf(glb)


def read(path):
    """Reads any clip file -> (Skeleton, Clip): BVH, glTF or GLB by their first bytes
    ("walk.glb#Run" picks an animation by name or index), and FBX through the animkit tools
    (read_fbx)."""
    p = _fspath(path)
    text = os.fspath(path)
    head = b""
    try:
        with open(text, "rb") as f:
            head = f.read(64)
    except OSError:
        pass
    if head and lib.ak_clip_format_detect(p, head, len(head)) == lib.AK_FORMAT_FBX:
        return read_fbx(text)
    return _read(lambda sk, cl, err: lib.ak_clip_read_file(p, sk, cl, err), text)


def read_bvh_string(text, name="<string>", up="auto"):
    """Reads BVH text (str or bytes) -> (Skeleton, Clip); `name` is what errors call it, `up`
    as for read_bvh."""
    _text(name, "name")
    params = _bvh_params(up)
    data = text.encode() if isinstance(text, str) else bytes(text)
    return _read(lambda sk, cl, err: lib.ak_bvh_read_memory(data, len(data), params, sk, cl, err), name)


class Clip:
    """Sampled keys per joint of one skeleton: rotations for every joint, translations for the
    joints with translation tracks. Frame f is at t = f * frame_time seconds."""

    def __init__(self, ptr, skeleton):
        self._ptr = ffi.gc(ptr, lib.ak_clip_destroy)
        self.skeleton = skeleton

    # ---- keys and timing ----
    @property
    def frame_count(self):
        return self._ptr.frame_count

    def __len__(self):
        return self._ptr.frame_count

    @property
    def frame_time(self):
        return self._ptr.frame_time

    @property
    def fps(self):
        return 1.0 / self._ptr.frame_time

    @property
    def duration(self):
        return lib.ak_clip_duration(self._ptr)

    @property
    def loop(self):
        return bool(self._ptr.loop)

    @loop.setter
    def loop(self, value):
        self._ptr.loop = 1 if value else 0

    @property
    def rotations(self):
        """float32 (F, J, 4) view (x, y, z, w) of the rotation keys; no copy. After writing
        keys, call finalize()."""
        F, J = self.frame_count, self._ptr.joint_count
        return _view(self, self._ptr.rotations, np.float32, (F, J, 4), writable=True)

    @property
    def translations(self):
        """float32 (F, T, 3) view of the translation keys of the T tracks; no copy (writable,
        like rotations; call finalize() after writing)."""
        F, T = self.frame_count, self._ptr.track_count
        if T == 0:
            return np.zeros((F, 0, 3), np.float32)
        return _view(self, self._ptr.translations, np.float32, (F, T, 3), writable=True)

    @property
    def track_joints(self):
        """Joint index of each translation track."""
        return [self._ptr.track_joint[k] for k in range(self._ptr.track_count)]

    def finalize(self):
        """Normalises keys and makes them hemisphere-continuous after direct edits."""
        lib.ak_clip_finalize(self._ptr)

    # ---- poses and positions ----
    def _frames(self, frames):
        F = self.frame_count
        if frames is None:
            return np.arange(F, dtype=np.int32)
        if isinstance(frames, slice):
            return np.ascontiguousarray(np.arange(F, dtype=np.int32)[frames])
        a = np.atleast_1d(np.asarray(frames))
        if a.dtype.kind not in "iu":  # whole numbers only: 2.0 is frame 2, 2.5 or NaN is refused
            whole = a.dtype.kind == "f" and bool(np.all(np.isfinite(a) & (a == np.floor(a))))
            if not whole or (a.size and np.abs(a).max() > 2**31):
                raise TypeError("frames must be whole frame indices, not %r" % (frames,))
        f = a.astype(np.int64)
        f = np.where(f < 0, f + F, f)
        if f.size and (f.min() < 0 or f.max() >= F):
            raise IndexError("frames must lie in 0..%d" % (F - 1))
        return np.ascontiguousarray(f, dtype=np.int32)

    def positions(self, frames=None):
        """World positions of every joint: float32 (F, J, 3) for `frames` (None: all; an int,
        a list/array of frame indices or a slice)."""
        f = self._frames(frames)
        out = np.empty((len(f), self._ptr.joint_count, 3), np.float32)
        st = lib.ak_py_frame_positions(self.skeleton._ptr, self._ptr, ffi.from_buffer("int32_t[]", f),
                                       len(f), ffi.from_buffer("float[]", out))
        if st < 0:
            raise MemoryError("animkit: out of memory")
        return out

    def euler(self, joint):
        """(F, 3) rotation channel values of `joint` (index or name) in degrees, in the joint's
        own order as the file lists it (skeleton.rotation_orders), continuous over frames."""
        return _channels.euler(self.skeleton, self, self.skeleton.index(joint))

    @property
    def channel_names(self):
        """'Joint_Channel' for every channel of every joint, in file order (the MOTION columns)."""
        return _channels.channel_names(self.skeleton)

    def channel_values(self, frames=None):
        """float64 (F, C): every channel's value per frame, as a BVH file of this clip holds it
        (positions in file units, rotations in degrees in each joint's order), for `frames` as
        positions() takes them."""
        return _channels.channel_values(self.skeleton, self, self._frames(frames))[1]

    def to_dataframe(self, frames=None):
        """channel_values as a pandas DataFrame (columns channel_names, index time in s).
        pandas is optional: only this method needs it."""
        return _channels.to_dataframe(self.skeleton, self, self._frames(frames))

    def sample_positions(self, times, interp="linear"):
        """World positions (N, J, 3) at clip times `times` (seconds)."""
        t = np.ascontiguousarray(np.atleast_1d(_finite(times, "times")), dtype=np.float32)
        out = np.empty((len(t), self._ptr.joint_count, 3), np.float32)
        st = lib.ak_py_sample_positions(self.skeleton._ptr, self._ptr, ffi.from_buffer("float[]", t),
                                        len(t), INTERP[interp], ffi.from_buffer("float[]", out))
        if st < 0:
            raise MemoryError("animkit: out of memory")
        return out

    def sample(self, t, interp="linear"):
        """The local pose (J, 7) at time t seconds ("step", "linear" or "cubic")."""
        out = np.empty((self._ptr.joint_count, 7), np.float32)
        t = float(_finite(float(t), "t"))
        lib.ak_clip_sample(self._ptr, self.skeleton._ptr, t, INTERP[interp],
                           ffi.from_buffer("ak_xform[]", out))
        return out

    def pose(self, frame):
        """The local pose (J, 7) of frame `frame` exactly; for a slice, a list or an array of
        frames, the poses (N, J, 7)."""
        if isinstance(frame, (int, np.integer)):
            f = self._frames(frame)[0]
            out = np.empty((self._ptr.joint_count, 7), np.float32)
            lib.ak_clip_frame(self._ptr, self.skeleton._ptr, int(f), ffi.from_buffer("ak_xform[]", out))
            return out
        return np.stack([self.pose(int(f)) for f in self._frames(frame)]) if len(
            self._frames(frame)) else np.empty((0, self._ptr.joint_count, 7), np.float32)

    def standing_height(self):
        return lib.ak_clip_standing_height(self._ptr, self.skeleton._ptr)

    def units(self):
        """Units(name, metres_per_unit) detected from the standing height."""
        return units_detect(self.standing_height())

    def contacts(self, left_foot=None, right_foot=None, metres_per_unit=None, root_joint=None):
        """Foot stance flags (F,) bool for the left and right foot: the heel (the foot joint) or
        the toe (the humanoid map's toe, else the foot's End Site) down, or the heel on the
        floor still rolling over its pad (AK_CONTACT_ROLL), by the library's contact rule
        (ak_contact_run), so forefoot stances and a landing heel's roll count. Feet: the
        humanoid map's by default. `root_joint` (a name or an index): the joint whose speed is
        the body's for the speed thresholds (ak_contact_params.root_joint); None: the joint
        that travels, measured (root_joint())."""
        left = np.zeros(self.frame_count, np.uint8)
        right = np.zeros(self.frame_count, np.uint8)
        params = ffi.new("ak_contact_params *", lib.ak_contact_defaults())
        params.skeleton, params.clip = self.skeleton._ptr, self._ptr
        for s, foot in enumerate((left_foot, right_foot)):
            if foot is not None:
                params.heel[s] = self.skeleton.index(foot)
        if metres_per_unit is not None:
            params.metres_per_unit = float(metres_per_unit)
        if root_joint is not None:
            params.root_joint = self.skeleton.index(root_joint)
        err = ffi.new("ak_error *")
        _check(lib.ak_contact_run(params, ffi.from_buffer("uint8_t[]", left),
                                  ffi.from_buffer("uint8_t[]", right), err), err)
        return left != 0, right != 0

    def copy(self):
        p = lib.ak_clip_clone(self._ptr)
        if p == ffi.NULL:
            raise MemoryError("animkit: out of memory")
        return Clip(p, self.skeleton)

    # ---- motion editing (edit.h): each returns a new Clip ----
    def _edit(self, run):
        out = ffi.new("ak_clip **")
        err = ffi.new("ak_error *")
        _check(run(out, err), err)
        return Clip(out[0], self.skeleton)

    def trim(self, first=0, last=-1):
        """Frames first..last (both included; last -1 = the last frame)."""
        p = ffi.new("ak_edit_trim_params *", lib.ak_edit_trim_defaults())
        p.first, p.last = int(first), int(last)
        return self._edit(lambda out, err: lib.ak_edit_trim_run(p, self._ptr, out, err))

    def resample(self, fps=None, frame_time=None, interp="linear"):
        """Resampled to `fps` frames per second (or `frame_time` seconds per frame)."""
        p = ffi.new("ak_edit_resample_params *", lib.ak_edit_resample_defaults())
        if (fps is None) == (frame_time is None):
            raise ValueError("give fps or frame_time")
        if frame_time is None and not float(fps) > 0.0:
            raise ValueError("fps must be > 0, not %r" % (fps,))
        p.frame_time = float(frame_time) if frame_time is not None else 1.0 / float(fps)
        p.interp = INTERP[interp]
        return self._edit(lambda out, err: lib.ak_edit_resample_run(p, self.skeleton._ptr, self._ptr, out, err))

    def mirror(self, axis=None, humanoid=None):
        """Left and right swapped through the sagittal plane (axis "x"/"y"/"z" or from the rig)."""
        p, keep = _mirror_params(axis, humanoid)
        return self._edit(lambda out, err: lib.ak_edit_mirror_run(p, self.skeleton._ptr, self._ptr, out, err))

    def mirror_map(self, axis=None, humanoid=None):
        """(partner joint per joint, mirror plane normal axis index) as the mirror uses them."""
        p, keep = _mirror_params(axis, humanoid)
        partner = np.empty(self._ptr.joint_count, np.int32)
        ax = ffi.new("int32_t *")
        err = ffi.new("ak_error *")
        _check(lib.ak_edit_mirror_map(p, self.skeleton._ptr, self._ptr,
                                      ffi.from_buffer("int32_t[]", partner), ax, err), err)
        return partner, ax[0]

    def reset_root(self, frame=0, heading=True, height=False, humanoid=None):
        """Moved rigidly so `frame` stands at x = z = 0 facing +Z."""
        p = ffi.new("ak_edit_root_reset_params *", lib.ak_edit_root_reset_defaults())
        p.frame, p.reset_heading, p.reset_height = int(frame), int(bool(heading)), int(bool(height))
        keep = ffi.new("char[]", _text(humanoid, "humanoid")) if humanoid else ffi.NULL
        p.humanoid_overrides = keep
        return self._edit(lambda out, err: lib.ak_edit_root_reset_run(p, self.skeleton._ptr, self._ptr, out, err))

    def root_joint(self, name=None):
        """The joint that carries the character's horizontal travel (ak_root_joint_find):
        -> dict(joint=index, name, top=index of the top joint above it, reason='top travels',
        'under a still top joint' or 'named', travel=its reach on XZ in file units, text=the
        line `animkit info` prints). `name` names it instead of measuring."""
        r = ffi.new("ak_root_joint_report *")
        err = ffi.new("ak_error *")
        keep = ffi.new("char[]", _text(name, "name")) if name else ffi.NULL
        _check(lib.ak_root_joint_find(self.skeleton._ptr, self._ptr, keep, r, err), err)
        text = ffi.new("char[512]")
        lib.ak_root_joint_describe(self.skeleton._ptr, r, text, 512)
        reasons = {lib.AK_ROOT_JOINT_TOP_TRAVELS: "top travels",
                   lib.AK_ROOT_JOINT_UNDER_STILL: "under a still top joint",
                   lib.AK_ROOT_JOINT_NAMED: "named"}
        return {"joint": r.joint, "name": self.skeleton.names[r.joint], "top": r.top,
                "reason": reasons.get(r.reason, str(r.reason)), "travel": r.travel,
                "text": ffi.string(text).decode()}

    def travel_on_top(self, root_joint=None):
        """A copy whose top joint carries the travel of `root_joint` (a name; None: the joint
        root_joint() measures), every joint's model-space position unchanged: what the
        root-motion users (in_place, root_motion, the walker) read."""
        keep = ffi.new("char[]", _text(root_joint, "root_joint")) if root_joint else ffi.NULL
        raw = lib.ak_clip_clone(self._ptr)
        if raw == ffi.NULL:
            raise MemoryError("animkit: out of memory")
        # prepare replaces (and destroys) the clone when the travel moves to the top
        box = ffi.new("ak_clip **", raw)
        err = ffi.new("ak_error *")
        st = lib.ak_clip_root_motion_prepare(self.skeleton._ptr, box, keep, ffi.NULL, err)
        if st < 0:
            lib.ak_clip_destroy(box[0])
            _check(st, err)
        return Clip(box[0], self.skeleton)

    def _root_motion_params(self, heading, root_joint, forward_axis):
        """(params, clip): a root-joint name or None moves the measured travelling joint's
        travel onto the top joint first (travel_on_top); an int is a top joint's index."""
        p = ffi.new("ak_root_motion_params *", lib.ak_root_motion_defaults())
        p.extract_heading = int(bool(heading))
        p.forward_axis = tuple(float(v) for v in forward_axis)
        if root_joint is None or isinstance(root_joint, str):
            p.root_joint = self.root_joint(root_joint)["top"]
            clip = self.travel_on_top(root_joint)
        else:
            clip = self
            p.root_joint = int(root_joint)
        return p, clip

    def in_place(self, heading=True, root_joint=None, forward_axis=(0.0, 0.0, 1.0)):
        """Root motion removed: no horizontal travel (and, with heading, no turning).
        `root_joint`: the joint whose travel is removed (a name; None: measured, see
        root_joint()); an int is a top joint's index, used as it is."""
        p, clip = self._root_motion_params(heading, root_joint, forward_axis)
        return clip._edit(lambda out, err: lib.ak_edit_in_place_run(p, clip.skeleton._ptr, clip._ptr, out, err))

    def root_motion(self, heading=True, root_joint=None, forward_axis=(0.0, 0.0, 1.0)):
        """Character transforms (F, 7) that in_place() takes out of the root, frame by frame
        (`root_joint` as for in_place)."""
        p, clip = self._root_motion_params(heading, root_joint, forward_axis)
        rm = ffi.new("ak_root_motion **")
        err = ffi.new("ak_error *")
        _check(lib.ak_root_motion_create(clip.skeleton._ptr, clip._ptr, p, rm, err), err)
        rm = ffi.gc(rm[0], lib.ak_root_motion_destroy)
        out = np.empty((self.frame_count, 7), np.float32)
        for f in range(self.frame_count):
            x = lib.ak_root_motion_character(rm, f * self.frame_time)
            out[f] = (x.rotation.x, x.rotation.y, x.rotation.z, x.rotation.w,
                      x.translation.x, x.translation.y, x.translation.z)
        return out

    def bake_root(self, character):
        """Character transforms (F, 7) baked into the root: the inverse of in_place()."""
        ch = _as_xforms(character, self.frame_count, "character")
        p = ffi.new("ak_edit_bake_root_params *", lib.ak_edit_bake_root_defaults())
        p.character = ffi.from_buffer("ak_xform[]", ch)
        p.count = self.frame_count
        return self._edit(lambda out, err: lib.ak_edit_bake_root_run(p, self.skeleton._ptr, self._ptr, out, err))

    def to_units(self, to="m", from_metres_per_unit=None):
        """(Skeleton, Clip) in other units ("m", "cm", "mm", "in", "cmu" or metres per unit);
        the input's units are detected unless given."""
        p = ffi.new("ak_edit_units_params *", lib.ak_edit_units_defaults())
        p.to_metres_per_unit = lib.ak_units_metres_per_unit(_UNITS[to]) if isinstance(to, str) else float(to)
        if from_metres_per_unit is not None:
            p.from_metres_per_unit = float(from_metres_per_unit)
        sk = ffi.new("ak_skeleton **")
        cl = ffi.new("ak_clip **")
        err = ffi.new("ak_error *")
        _check(lib.ak_edit_units_run(p, self.skeleton._ptr, self._ptr, sk, cl, ffi.NULL, err), err)
        skeleton = Skeleton(sk[0])
        return skeleton, Clip(cl[0], skeleton)

    def concat(self, other, blend=0.2, align_root=True, humanoid=None):
        """This clip followed by `other` (same skeleton and frame time), crossfaded over
        `blend` seconds, `other` moved to continue from where this one is. `other` must be
        a clip of the same rig (joint names and parents), else AnimkitError."""
        p = ffi.new("ak_edit_concat_params *", lib.ak_edit_concat_defaults())
        p.blend_time, p.align_root = float(blend), int(bool(align_root))
        keep = ffi.new("char[]", _text(humanoid, "humanoid")) if humanoid else ffi.NULL
        p.humanoid_overrides = keep
        if not isinstance(other, Clip):
            raise TypeError("concat wants a Clip")
        p.skeleton_b = other.skeleton._ptr  # names and parents must match (library check)
        return self._edit(lambda out, err: lib.ak_edit_concat_run(p, self.skeleton._ptr, self._ptr,
                                                                  other._ptr, out, err))

    # ---- writing ----
    def write_bvh(self, path, order=None):
        """Writes skeleton + clip as BVH (atomically), every joint's rotation in `order`
        ("ZYX"...; default ZYX)."""
        o = _order(order)
        err = ffi.new("ak_error *")
        _check(lib.ak_bvh_write_file(_fspath(path), self.skeleton._ptr, self._ptr, o, err), err,
               os.fspath(path))

    def to_bvh_string(self, order=None):
        text = ffi.new("char **")
        size = ffi.new("size_t *")
        err = ffi.new("ak_error *")
        _check(lib.ak_bvh_write_memory(self.skeleton._ptr, self._ptr, _order(order), text, size, err), err)
        try:
            return ffi.string(text[0], size[0]).decode()
        finally:
            lib.ak_free(text[0])

    def write_gltf(self, path, metres_per_unit=None, cubic=False, mesh=True):
        """Writes glTF 2.0 (.gltf JSON or .glb by extension); lengths to metres by the detected
        units unless metres_per_unit is given."""
        opt = ffi.new("ak_gltf_params *", lib.ak_gltf_defaults())
        opt.metres_per_unit = float(metres_per_unit) if metres_per_unit else self.units()[1]
        opt.cubic, opt.with_mesh = int(bool(cubic)), int(bool(mesh))
        err = ffi.new("ak_error *")
        _check(lib.ak_gltf_write_file(_fspath(path), self.skeleton._ptr, self._ptr, opt, err), err,
               os.fspath(path))

    def __repr__(self):
        return "<animkit.Clip %d frames at %.6g fps, %d joints>" % (self.frame_count, self.fps,
                                                                   self._ptr.joint_count)


def _mirror_params(axis, humanoid):
    """Mirror params and the override string they point at (keep it alive with them)."""
    p = ffi.new("ak_edit_mirror_params *", lib.ak_edit_mirror_defaults())
    if axis is not None:
        p.axis = "xyz".index(axis.lower()) if isinstance(axis, str) else int(axis)
    keep = ffi.new("char[]", _text(humanoid, "humanoid")) if humanoid else ffi.NULL
    p.humanoid_overrides = keep
    return p, keep


def _order(order):
    if order is None:
        return lib.AK_ORDER_ZYX
    out = ffi.new("ak_rot_order *")
    if lib.ak_rot_order_parse(_text(order, "order"), out) != 0:
        raise ValueError("unknown rotation order %r" % order)
    return out[0]


def retarget(source, clip, target, scale=1.0, contacts=True, pin_hands=False, floor_height=None,
             source_overrides=None, target_overrides=None, reference_frame=None):
    """Plays `clip` (of Skeleton `source`) on Skeleton `target` through both humanoid maps
    (retarget.h): -> (Clip on target, info dict). Contacts pin stance feet with limb IK.
    `reference_frame`: the source frame matched to the target's rest pose (None: the zero pose
    when it stands, else the clip's most upright frame). The info's `stance_foot_height` and
    `source_stance_foot_height` (left, right) give the highest ankle above planted over the
    source's stance frames, target units (None for a foot with no stance frame)."""
    p = ffi.new("ak_retarget_params *", lib.ak_retarget_defaults())
    _need(source, Skeleton, "source"), _need(clip, Clip, "clip"), _need(target, Skeleton, "target")
    if reference_frame is not None:
        p.reference_frame = int(reference_frame)
    p.source, p.source_clip, p.target = source._ptr, clip._ptr, target._ptr
    keep = [ffi.new("char[]", _text(s, n)) if s else ffi.NULL
            for s, n in ((source_overrides, "source_overrides"), (target_overrides, "target_overrides"))]
    p.source_overrides, p.target_overrides = keep
    p.scale, p.contacts, p.pin_hands = float(scale), int(bool(contacts)), int(bool(pin_hands))
    if floor_height is not None:
        p.floor_height = float(floor_height)
    out = ffi.new("ak_clip **")
    info = ffi.new("ak_retarget_info *")
    err = ffi.new("ak_error *")
    _check(lib.ak_retarget_run(p, out, info, err), err)
    names = ("scale", "leg_ratio", "heading_offset", "source_sole", "target_sole", "source_floor",
             "target_floor", "mapped_joints", "chain_joints", "rest_joints", "pinned_runs",
             "max_pin_error")
    result = {n: getattr(info, n) for n in names}
    result["stance_frames"] = tuple(info.stance_frames)
    # None for a foot without a stance frame (the library's -inf: no infinity leaves here)
    result["stance_foot_height"] = tuple(v if math.isfinite(v) else None for v in info.stance_foot_height)
    result["source_stance_foot_height"] = tuple(v if math.isfinite(v) else None
                                                for v in info.source_stance_foot_height)
    result["reference_frame"] = info.reference_frame
    return Clip(out[0], target), result
