"""The walk scenario (scenario.h): a character walks to a target over terrain with foot IK.

Settings are the walk scenario's flag table, the one `animkit walk`, the viewer and the web
page use: Walker(target=(2, 5), terrain="flat", clip="walk.bvh", no_foot_ik=True) passes
`--target 2,5 --terrain flat --clip walk.bvh --no-foot-ik` through the library's own parser,
so names, defaults, ranges and error messages are the CLI's."""
import json
import math
import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ._animkit import ffi, lib
from ._core import Clip, Skeleton, _check, _finite

__all__ = ["Crowd", "Walker", "builtin_walk", "walk_flags_help"]


def builtin_walk():
    """The library's procedural walk: (Skeleton, Clip) in metres, looping, facing +Z."""
    p = ffi.new("ak_walk_clip_params *", lib.ak_walk_clip_defaults())
    sk = ffi.new("ak_skeleton **")
    cl = ffi.new("ak_clip **")
    err = ffi.new("ak_error *")
    _check(lib.ak_walk_clip_create(p, sk, cl, err), err)
    skeleton = Skeleton(sk[0])
    return skeleton, Clip(cl[0], skeleton)


def walk_flags_help():
    """The walk scenario's options, as `animkit walk --help` lists them."""
    table = lib.ak_walk_scenario_flags()
    n = lib.ak_flags_help(table, ffi.NULL, 0)
    buf = ffi.new("char[]", n + 1)
    lib.ak_flags_help(table, buf, n + 1)
    return ffi.string(buf).decode()


def _argv(table, settings):
    """Keyword settings -> command-line words for the flag table (name_with_underscores ->
    --name-with-dashes; True -> a switch; sequences joined with the flag's separator)."""
    words = [b"walk"]
    for key, value in settings.items():
        name = key.replace("_", "-")
        i = lib.ak_flags_find(table, name.encode())
        if i < 0:
            raise TypeError("unknown walk setting %r (see animkit.walk_flags_help())" % key)
        if value is None or value is False:
            continue
        if table.flags[i].type == lib.AK_FLAG_TEXT_LIST and isinstance(value, (tuple, list)):
            for item in value:  # a repeatable flag: clip=[a, b] -> --clip a --clip b
                words += [b"--" + name.encode(), str(item).encode()]
            continue
        words.append(b"--" + name.encode())
        if value is True and table.flags[i].type == lib.AK_FLAG_SWITCH:
            continue
        sep = table.flags[i].separator  # a C char: b"\x00" means ","
        sep = "," if sep in (b"\x00", 0) else (sep.decode() if isinstance(sep, bytes) else chr(sep))
        if isinstance(value, (tuple, list, np.ndarray)):
            value = sep.join(repr(float(v)) if isinstance(v, float) else str(v) for v in value)
        words.append(str(value).encode())
    return words


class Walker:
    """w = Walker(target=(2, 5), start=(0, 0)); frames = w.run()  # (N, J, 3) metres

    Any setting of `animkit walk` by name (see walk_flags_help()): clip, library, cycle, idle,
    root_joint, up ('auto', 'y' or 'z': the axis the BVH rigs stand along, as read_bvh's up),
    scale, terrain, heightmap, size, height, seed, start, target, start_heading (degrees;
    default facing the target), max_time, steer (cycle, continuous or match), turn_rate,
    arrival, no_foot_ik. With steer="match", clip takes a
    list of files (the motion database) and/or library a folder of .bvh files."""

    def __init__(self, **settings):
        table = lib.ak_walk_scenario_flags()
        scenario = ffi.new("ak_walk_scenario_params *", lib.ak_walk_scenario_defaults())
        words = _argv(table, settings)
        keep = [ffi.new("char[]", w) for w in words]  # alive as long as argv is used
        argv = ffi.new("char *[]", keep)
        tables = ffi.new("ak_flag_table *[1]", [ffi.cast("ak_flag_table *", table)])
        params = ffi.new("void *[1]", [scenario])
        result = ffi.new("ak_flags_result *")
        err = ffi.new("ak_error *")
        self._argv = (argv, keep)
        _check(lib.ak_flags_parse_args(tables, params, 1, len(words), argv, 0, result, err), err)
        scene = ffi.new("ak_walk_scene **")
        _check(lib.ak_walk_scene_create(scenario, ffi.NULL, scene, err), err)
        self._scene = ffi.gc(scene[0], lib.ak_walk_scene_destroy)
        # The scene owns this skeleton: the wrapper holds the Walker so it outlives neither.
        self.walk_skeleton = Skeleton._borrowed(lib.ak_walk_scene_skeleton(self._scene), self)
        info = ffi.new("ak_walk_scene_info *")
        lib.ak_walk_scene_get_info(self._scene, info)
        self.dt, self.max_frames, self.hips = info.frame_time, info.max_frames, info.hips
        self.clip_label = ffi.string(info.clip_label).decode()
        self._summary = ffi.new("ak_walk_summary *")
        self._begin_summary()

    def _begin_summary(self):
        err = ffi.new("ak_error *")
        _check(lib.ak_walk_summary_begin(self._summary, self._scene, err), err)
        lib.ak_walk_summary_add(self._summary, self._scene, 1)

    @property
    def joint_count(self):
        return self.walk_skeleton.joint_count

    def set_target(self, target):
        """A new target (x, z) in metres, finite and within 1e6 m of the origin."""
        x, z = (float(v) for v in _finite(target, "target")[:2])
        if len(target) != 2 or not (abs(x) <= 1e6 and abs(z) <= 1e6):
            raise ValueError("target must be (x, z) within 1e6 m of the origin, not %r" % (target,))
        lib.ak_walk_scene_set_target(self._scene, (x, 0.0, z))

    def step(self):
        """Advances one frame (the walk clip's frame time)."""
        err = ffi.new("ak_error *")
        _check(lib.ak_walk_scene_step(self._scene, err), err)
        lib.ak_walk_summary_add(self._summary, self._scene, 0)

    def reset(self):
        lib.ak_walk_scene_reset(self._scene)
        self._begin_summary()

    def summary(self):
        """The walk's measures over every frame since the start (or reset), as `animkit walk`
        prints them (one C function, ak_walk_summary_json): arrival, time, the foot-contact
        measures, deepest_any_phase and deepest_planted (m), hip_accel_min_g/max_g, "knee_peak_deg",
        "drag_m_s" (a heel or toe within 5 mm of the ground dragged along it, the point farthest
        over its bound) and the source's own hip, knee and drag figures ("source_drag_m_s": that
        point's bound, the source's fastest that low, at least 0.01 m/s), frames, and the
        joint that carries the source's travel: "root_joint", "root_joint_reason" (top,
        under_still_top, named) and "root_joint_why" (as `animkit info` says it); for the guide
        walker what it starts and stops with, "start" and "stop" ("captured" or "procedural"),
        and why, "start_why" and "stop_why" (as `animkit walk` says it; motion_info() has the
        figures)."""
        err = ffi.new("ak_error *")
        buf = ffi.new("char[]", 4096)
        _check(lib.ak_walk_summary_json(self._summary, self._scene, buf, 4096, err), err)
        return json.loads(ffi.string(buf).decode())

    _TRANSITION_USES = {lib.AK_TRANSITION_NONE: "none", lib.AK_TRANSITION_USED: "used",
                        lib.AK_TRANSITION_DROPPED: "dropped",
                        lib.AK_TRANSITION_NOT_SOUGHT: "not_sought"}
    _BREAKS = ((lib.AK_TRANSITION_BREAKS_HIPS_FALL, "hips_fall"),
               (lib.AK_TRANSITION_BREAKS_HIPS_RISE, "hips_rise"),
               (lib.AK_TRANSITION_BREAKS_KNEE, "knee"))

    def _transition(self, info, name):
        check = getattr(info, name)
        why = ffi.new("char[]", 320)
        lib.ak_transition_check_describe(ffi.addressof(info, name), name == "stop_check", why, 320)
        return {"use": self._TRANSITION_USES.get(check.use, "none"),
                "broken": [name for bit, name in self._BREAKS if check.broken & bit],
                "frames": (check.frames[0], check.frames[1]),
                "hip_accel_min_g": check.hip_accel_min_g, "hip_accel_max_g": check.hip_accel_max_g,
                "hip_accel_low_g": check.hip_accel_low_g,
                "hip_accel_high_g": check.hip_accel_high_g,
                "knee_peak_deg": math.degrees(check.knee_peak),
                "knee_bound_deg": math.degrees(check.knee_bound),
                "why": ffi.string(why).decode()}

    def motion_info(self):
        """The guide walker's walk motion (ak_walk_motion_info), or None with steer="match":
        "cycle" (source frames start, end), "cycle_time" (s), "stride_length" (m), "speed"
        (m/s), and "start" and "stop": what became of the clip's captured start and stop,
        "use" ("used", "none": none captured around the cycle, "dropped": left out because its
        own frames break issue 21's bounds around the cycle's figures, "not_sought"),
        "broken" (of "hips_fall", "hips_rise", "knee"), "frames" (source frames, -1 when
        none), its figures as played ("hip_accel_min_g"/"max_g", "knee_peak_deg") and their
        bounds ("hip_accel_low_g"/"high_g", "knee_bound_deg"), and "why" (as `animkit walk`
        says it)."""
        motion = lib.ak_walk_scene_motion(self._scene)
        if motion == ffi.NULL:
            return None
        mi = ffi.new("ak_walk_motion_info *")
        lib.ak_walk_motion_get_info(motion, mi)
        return {"cycle": (mi.cycle_start, mi.cycle_end), "cycle_time": mi.cycle_time,
                "stride_length": mi.stride_length, "speed": mi.speed,
                "start": self._transition(mi[0], "start_check"),
                "stop": self._transition(mi[0], "stop_check")}

    def world_pose(self):
        """World transforms (J, 7) after the last step (a copy)."""
        p = lib.ak_walk_scene_world_pose(self._scene)
        return np.frombuffer(ffi.buffer(p, self.joint_count * 28), np.float32).reshape(-1, 7).copy()

    def positions(self):
        return self.world_pose()[:, 4:7]

    def ground_height(self, x, z):
        """The terrain's height at world (x, z) (finite), or NaN where there is no ground
        (outside the terrain)."""
        x, z = (float(v) for v in _finite((x, z), "x, z"))
        hit = ffi.new("ak_ground_hit *")
        ground = lib.ak_walk_scene_ground(self._scene)
        return hit.height if lib.ak_ground_query(ground, x, z, hit) else float("nan")

    def state(self):
        s = ffi.new("ak_walker_state *")
        lib.ak_walk_scene_get_state(self._scene, s)
        return {"time": s.elapsed, "position": (s.position.x, s.position.y, s.position.z),
                "heading": s.heading, "distance": s.distance, "path_length": s.path_length,
                "arrived": bool(s.arrived), "stopped": bool(s.stopped),
                "stance": (bool(s.stance[0]), bool(s.stance[1])),
                "sole": [(v.x, v.y, v.z) for v in s.sole], "sole_ground": tuple(s.sole_ground),
                "hip_drop": s.hip_drop}

    def run(self):
        """World positions (N, J, 3) from the placed start until stopped or max_time (the
        scenario's frame budget)."""
        frames = [self.positions()]
        while len(frames) < self.max_frames and not self.state()["stopped"]:
            self.step()
            frames.append(self.positions())
        return np.stack(frames)


class Crowd:
    """with Crowd(walkers, threads=2) as crowd: crowd.step()  # every Walker one frame

    Steps many Walkers on a thread pool: [0, len(walkers)) is split into `threads` ranges
    (ak_batch_range, the split the C job API uses) and each range is one call of
    ak_walk_scene_step_range, which runs without the GIL (cffi releases it around C calls), so
    the ranges use as many cores as there are threads. Walkers share nothing; the result is
    the same, bit for bit, as stepping each walker in turn. threads defaults to the machine's
    core count; threads=1 steps on the calling thread."""

    def __init__(self, walkers, threads=None):
        walkers = list(walkers)
        for i, w in enumerate(walkers):
            if not isinstance(w, Walker):
                raise TypeError("walkers[%d] is %s, not an animkit.Walker" % (i, type(w).__name__))
        if threads is None:
            threads = os.cpu_count() or 1
        if not isinstance(threads, int) or isinstance(threads, bool) or threads < 1:
            raise ValueError("threads must be an int >= 1, not %r" % (threads,))
        self.walkers = walkers
        self.threads = threads
        self._scenes = ffi.new("ak_walk_scene *[]", [w._scene for w in walkers] or 1)
        self._ranges = []
        begin, end = ffi.new("int32_t *"), ffi.new("int32_t *")
        for part in range(threads):
            lib.ak_batch_range(len(walkers), threads, part, begin, end)
            if end[0] > begin[0]:
                self._ranges.append((begin[0], end[0]))
        self._pool = ThreadPoolExecutor(threads) if len(self._ranges) > 1 else None

    def _step_range(self, r):
        err = ffi.new("ak_error *")
        return lib.ak_walk_scene_step_range(self._scenes, r[0], r[1], err), err

    def step(self):
        """Advances every walker one frame; raises on the first failing walker (by index)."""
        if self._pool is None:
            results = [self._step_range(r) for r in self._ranges]
        else:
            results = list(self._pool.map(self._step_range, self._ranges))
        for status, err in results:
            _check(status, err)
        for w in self.walkers:  # each walker's summary() sees the frame, as after w.step()
            lib.ak_walk_summary_add(w._summary, w._scene, 0)

    def close(self):
        """Stops the thread pool (the walkers stay usable)."""
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
