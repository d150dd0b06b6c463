"""The guide-joint walker (locomotion.h): a character walks to a target over terrain with foot
IK. Uses the library's built-in walk clip or a mocap walk (Skeleton, Clip)."""
import numpy as np

from ._animkit import ffi, lib
from ._core import Clip, Skeleton, _check

__all__ = ["Walker", "builtin_walk"]

_TERRAIN = {"flat": lib.AK_TERRAIN_FLAT, "hills": lib.AK_TERRAIN_HILLS, "stairs": lib.AK_TERRAIN_STAIRS}


def builtin_walk():
    """The library's procedural walk: (Skeleton, Clip) in metres, looping, facing +Z."""
    p = ffi.new("ak_walk_clip_params *", lib.ak_walk_clip_defaults())
    sk = ffi.new("ak_skeleton **")
    cl = ffi.new("ak_clip **")
    err = ffi.new("ak_error *")
    _check(lib.ak_walk_clip_create(p, sk, cl, err), err)
    skeleton = Skeleton(sk[0])
    return skeleton, Clip(cl[0], skeleton)


class Walker:
    """walker = Walker(target=(4, 6)); while not walker.state()["stopped"]: walker.step()
    World: metres, Y up; start and target are (x, z)."""

    def __init__(self, target, start=(0.0, 0.0), walk=None, terrain="hills", seed=1, foot_ik=True,
                 metres_per_unit=0.0):
        err = ffi.new("ak_error *")
        self._keep = []
        mp = ffi.new("ak_walk_motion_params *", lib.ak_walk_motion_defaults())
        if walk is None:
            cp = ffi.new("ak_walk_clip_params *", lib.ak_walk_clip_defaults())
            skeleton, clip = builtin_walk()
            stance = np.zeros(2 * clip.frame_count, np.uint8)
            sl = ffi.from_buffer("uint8_t[]", stance)
            _check(lib.ak_walk_clip_contacts(cp, clip._ptr, sl, sl + clip.frame_count, err), err)
            mp.metres_per_unit = 1.0
            mp.cycle_start = mp.cycle_end = 0
            mp.stance_left, mp.stance_right = sl, sl + clip.frame_count
            self._keep += [stance, sl]
        else:
            skeleton, clip = walk
            mp.metres_per_unit = float(metres_per_unit)
        self.skeleton, self.clip = skeleton, clip
        motion = ffi.new("ak_walk_motion **")
        _check(lib.ak_walk_motion_create(skeleton._ptr, clip._ptr, mp, motion, err), err)
        self._motion = ffi.gc(motion[0], lib.ak_walk_motion_destroy)
        tp = ffi.new("ak_terrain_params *", lib.ak_terrain_defaults())
        tp.kind, tp.seed = _TERRAIN[terrain], int(seed)
        terr = ffi.new("ak_terrain **")
        _check(lib.ak_terrain_create(tp, terr, err), err)
        self._terrain = ffi.gc(terr[0], lib.ak_terrain_destroy)
        self._ground = ffi.new("ak_ground *", lib.ak_terrain_ground(self._terrain))
        wp = ffi.new("ak_walker_params *", lib.ak_walker_defaults())
        wp.start = (float(start[0]), 0.0, float(start[1]))
        wp.target = (float(target[0]), 0.0, float(target[1]))
        wp.foot_ik = int(bool(foot_ik))
        w = ffi.new("ak_walker **")
        _check(lib.ak_walker_create(self._motion, wp, self._ground, w, err), err)
        self._walker = ffi.gc(w[0], lib.ak_walker_destroy)
        self.walk_skeleton = lib.ak_walk_motion_skeleton(self._motion)
        self.dt = lib.ak_walk_motion_clip(self._motion).frame_time
        self._first = True

    @property
    def joint_count(self):
        return self.walk_skeleton.joint_count

    def set_target(self, target):
        lib.ak_walker_set_target(self._walker, (float(target[0]), 0.0, float(target[1])))

    def step(self, dt=None):
        """Advances one frame (default: the walk clip's frame time)."""
        err = ffi.new("ak_error *")
        d = 0.0 if self._first else float(dt if dt is not None else self.dt)
        self._first = False
        _check(lib.ak_walker_step(self._walker, d, self._ground, err), err)

    def world_pose(self):
        """World transforms (J, 7) after the last step (a copy)."""
        p = lib.ak_walker_world_pose(self._walker)
        return np.frombuffer(ffi.buffer(p, self.joint_count * 28), np.float32).reshape(-1, 7).copy()

    def positions(self):
        return self.world_pose()[:, 4:7]

    def ground_height(self, x, z):
        hit = ffi.new("ak_ground_hit *")
        return hit.height if lib.ak_ground_query(self._ground, float(x), float(z), hit) else float("nan")

    def state(self):
        s = ffi.new("ak_walker_state *")
        lib.ak_walker_get_state(self._walker, s)
        return {"time": s.time, "position": (s.position.x, s.position.y, s.position.z),
                "heading": s.heading, "distance": s.distance, "path_length": s.path_length,
                "arrived": bool(s.arrived), "stopped": bool(s.stopped),
                "stance": (bool(s.stance[0]), bool(s.stance[1])),
                "sole": [(v.x, v.y, v.z) for v in s.sole], "sole_ground": tuple(s.sole_ground),
                "hip_drop": s.hip_drop}

    def run(self, max_time=30.0):
        """Steps until stopped or max_time; returns world positions (N, J, 3)."""
        frames = []
        while True:
            self.step()
            frames.append(self.positions())
            st = self.state()
            if st["stopped"] or st["time"] >= max_time:
                return np.stack(frames)
