"""Issue 26: an adversarial pass over the Python package written as a generator, not by hand.

It walks the package's public surface by introspection (every public function of animkit and
animkit.ik, every public method and settable property of Skeleton, Clip and Walker, every
setting of the walk scenario's flag table) and calls each one once per parameter per boundary
value (NaN, +-inf, huge, negative, zero, past the end, wrong types, another skeleton's clip,
None), the other arguments at a working baseline. Each call must either work with finite
results or raise a clean error (animkit.Error, ValueError, TypeError, IndexError, KeyError,
OverflowError, OSError). A finding is: any other exception, a non-finite number in a result
when the inputs were finite, a NaN or infinity accepted without a word, a call over 20 s, a
writable view of library memory that is not documented as one, or the process dying (the
caller, test_probe_generator.py, runs this in a child process and names the case it died on).

A new public function or parameter without a baseline here is itself a finding, so the pass
grows with the API. Prints one JSON line: {"cases": N, "findings": [...]}."""
import atexit
import inspect
import json
import math
import os
import shutil
import signal
import sys
import tempfile
import warnings

import numpy as np

import animkit
from animkit import ik

HERE = os.path.dirname(os.path.abspath(__file__))
MOCAP = os.environ.get("AK_MOCAP_DIR") or os.path.join(HERE, "..", "..", "tests", "data", "mocap")
BVH = os.path.join(MOCAP, "cmu_02_01_walk.bvh")
CLEAN = (animkit.Error, ValueError, TypeError, IndexError, KeyError, OverflowError, OSError)
NAN, INF = float("nan"), float("inf")

# Boundary values every parameter is given in turn.
BAD = [("nan", NAN), ("inf", INF), ("-inf", -INF), ("1e30", 1e30), ("-1e30", -1e30),
       ("2**31", 2**31), ("-2**31-1", -2**31 - 1), ("2**64", 2**64), ("-1", -1), ("0", 0),
       ("''", ""), ("'nope'", "nope"), ("None", None), ("[]", []), ("(nan,nan,nan)", (NAN,) * 3),
       ("(inf,0,0)", (INF, 0.0, 0.0)), ("object()", object()), ("b'\\xff'", b"\xff"),
       ("ndarray(nan)", np.full(3, NAN, np.float32))]

# Parameters that take None (or NaN) on purpose: the documented "automatic".
NONE_OK = {"animation", "overrides", "pole", "floor_height", "frames", "humanoid", "axis",
           "fps", "frame_time", "metres_per_unit", "from_metres_per_unit", "order",
           "left_foot", "right_foot", "source_overrides", "target_overrides"}

# Results where NaN is the documented answer (not a lie).
NAN_MEANS = {"Walker.ground_height(x)": "no ground there", "Walker.ground_height(z)": "no ground there"}
# Seconds a call may take before it is a finding (a loaded 2-core machine runs 10x slower).
SLOW_S = 20

_source = None


def source():
    """One small clip (20 frames of CMU 02_01), read once; copies go to each case."""
    global _source
    if _source is None:
        sk, clip = animkit.read_bvh(BVH)
        _source = (sk, clip.trim(0, 19))
    return _source


def sk():
    return source()[0]


def clip():
    return source()[1].copy()


def other_clip():
    """A clip of another skeleton (the built-in walk's): appending, retargeting, baking it
    must be refused or handled, never read out of bounds."""
    return animkit.builtin_walk()[1]


def leg():
    h = sk().humanoid().joints
    return h["left_upper_leg"], h["left_lower_leg"], h["left_foot"]


def spine():
    h = sk().humanoid().joints
    return ik.chain(sk(), h["hips"], h["head"])


def pose():
    return sk().rest_pose()


def identity(frames):
    """(frames, 7) identity transforms: rotation x, y, z, w then translation."""
    a = np.zeros((frames, 7), np.float32)
    a[:, 3] = 1.0
    return a


TMP = tempfile.mkdtemp(prefix="ak_probe_")
atexit.register(shutil.rmtree, TMP, ignore_errors=True)  # each run left its folder behind

# Working arguments for each callable's required parameters (callables' own defaults for the
# rest). A lambda so each case gets fresh objects.
BASE = {
    "units_detect": lambda: {"standing_height": 1.7},
    "read_bvh": lambda: {"path": BVH},
    "read_gltf": lambda: {"path": os.path.join(MOCAP, "..", "gltf", "none.glb")},
    "read_fbx": lambda: {"path": os.path.join(TMP, "none.fbx")},
    "read": lambda: {"path": BVH},
    "read_bvh_string": lambda: {"text": open(BVH).read()},
    "retarget": lambda: {"source": sk(), "clip": clip(), "target": animkit.builtin_walk()[0]},
    "builtin_walk": lambda: {},
    "walk_flags_help": lambda: {},
    "ik.chain": lambda: {"skeleton": sk(), "root": leg()[0], "tip": leg()[2]},
    "ik.limb": lambda: {"skeleton": sk(), "local": pose(), "upper": leg()[0], "middle": leg()[1],
                        "end": leg()[2], "target": (0.0, 5.0, 5.0)},
    "ik.ccd": lambda: {"skeleton": sk(), "local": pose(), "joints": spine(),
                       "target": (0.0, 20.0, 5.0)},
    "ik.fabrik": lambda: {"skeleton": sk(), "local": pose(), "joints": spine(),
                          "target": (0.0, 20.0, 5.0)},
    "ik.jacobian": lambda: {"skeleton": sk(), "local": pose(), "joints": spine(),
                            "target": [(0.0, 20.0, 5.0)]},
    "ik.aim": lambda: {"skeleton": sk(), "local": pose(), "joint": spine()[-1],
                       "target": (0.0, 20.0, 50.0)},
    "ik.look_at": lambda: {"skeleton": sk(), "local": pose(), "joints": spine()[-3:],
                           "target": (0.0, 20.0, 50.0)},
    "Skeleton.find": lambda: {"name": "Hips"},
    "Skeleton.index": lambda: {"joint": 1},
    "Skeleton.fk": lambda: {"local": pose()},
    "Clip.euler": lambda: {"joint": 1},
    "Clip.sample_positions": lambda: {"times": [0.0, 0.05]},
    "Clip.sample": lambda: {"t": 0.05},
    "Clip.pose": lambda: {"frame": 3},
    "Clip.bake_root": lambda: {"character": identity(20)},
    "Clip.concat": lambda: {"other": clip()},
    "Clip.write_bvh": lambda: {"path": os.path.join(TMP, "out.bvh")},
    "Clip.write_gltf": lambda: {"path": os.path.join(TMP, "out.glb")},
    "Walker.set_target": lambda: {"target": (1.0, 1.0)},
    "Walker.ground_height": lambda: {"x": 0.0, "z": 0.0},
}

# Values of a parameter that are objects of the package: a mismatched one besides the BAD list.
MISMATCH = {"clip": other_clip, "other": other_clip, "character": other_clip,
            "skeleton": lambda: animkit.builtin_walk()[0], "source": lambda: animkit.builtin_walk()[0]}

# Values shaped right but poisoned, for parameters that take poses.
SHAPED = {"local": lambda: np.full((sk().joint_count, 7), NAN, np.float32),
          "character": lambda: np.full((20, 7), NAN, np.float32)}


def walker():
    return animkit.Walker(terrain="flat", start=(0, 0), target=(0, 2), max_time=1)


def crowd():
    return animkit.Crowd([walker(), walker()], threads=2)


OWNERS = {"Skeleton": sk, "Clip": clip, "Walker": walker, "Crowd": crowd}


def nonfinite(value, depth=0):
    """A non-finite number anywhere in a result (arrays, clips, tuples, dicts)."""
    if depth > 4:
        return False
    if isinstance(value, float):
        return not math.isfinite(value)
    if isinstance(value, np.ndarray) and value.dtype.kind == "f":
        return not np.isfinite(value).all()
    if isinstance(value, animkit.Clip):
        return nonfinite(value.rotations, depth + 1) or nonfinite(value.translations, depth + 1)
    if isinstance(value, dict):
        return any(nonfinite(v, depth + 1) for v in value.values())
    if isinstance(value, (tuple, list)):
        return any(nonfinite(v, depth + 1) for v in value[:64])
    return False


def has_nonfinite_input(value):
    if value is None or isinstance(value, (str, bytes)):
        return False
    try:
        a = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError, OverflowError):
        return False
    return a.size > 0 and not np.isfinite(a).all()


class Slow(Exception):
    pass


def _alarm(signum, frame):
    raise Slow()


def public_callables():
    """(qualified name, callable factory, bound-to) for the whole public surface."""
    out = []
    for name in animkit.__all__:
        obj = getattr(animkit, name)
        if inspect.isfunction(obj):
            out.append((name, obj, None))
    for name in ik.__all__:
        obj = getattr(ik, name)
        if inspect.isfunction(obj):
            out.append(("ik." + name, obj, None))
    for cls_name, factory in OWNERS.items():
        cls = getattr(animkit, cls_name)
        for name, member in inspect.getmembers(cls):
            if name.startswith("_"):
                continue
            if inspect.isfunction(member):
                out.append(("%s.%s" % (cls_name, name), member, factory))
    return out


def run_case(label, fn, args, bad_label, bad_value, findings, log, flag=False):
    log.write(label + " <- " + bad_label + "\n")
    log.flush()
    signal.alarm(SLOW_S)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = fn(**args)
    except Slow:
        findings.append("%s = %s: over %d s" % (label, bad_label, SLOW_S))
        return
    except CLEAN:
        return
    except Exception as e:  # noqa: BLE001 - any other exception is the finding
        findings.append("%s = %s: %s: %s" % (label, bad_label, type(e).__name__, e))
        return
    finally:
        signal.alarm(0)
    param = label.rsplit("(", 1)[-1].rstrip(")")
    if has_nonfinite_input(bad_value) and param not in NONE_OK and not flag:
        findings.append("%s = %s: accepted without an error" % (label, bad_label))
    elif nonfinite(result) and not has_nonfinite_input(bad_value) and label not in NAN_MEANS:
        findings.append("%s = %s: non-finite result" % (label, bad_label))


def probe_callables(findings, log):
    cases = 0
    for qual, fn, factory in public_callables():
        sig = inspect.signature(fn)
        params = [p for p in sig.parameters.values() if p.name != "self"
                  and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
        required = [p.name for p in params if p.default is p.empty]
        base = BASE.get(qual, lambda: {})
        missing = [r for r in required if r not in base()]
        if missing:
            findings.append("%s: no baseline for %s (add it to probe_generator.BASE)"
                            % (qual, ", ".join(missing)))
            continue
        for p in params:
            values = list(BAD)
            if p.name in MISMATCH:
                values.append(("mismatched " + p.name, MISMATCH[p.name]()))
            if p.name in SHAPED:
                values.append(("NaN-filled " + p.name, SHAPED[p.name]()))
            # A flag (a bool default) takes Python's truth of any value: NaN is "true" there.
            flag = isinstance(p.default, bool)
            for bad_label, bad_value in values:
                args = base()
                args[p.name] = bad_value
                target = fn
                if factory is not None:
                    owner = factory()
                    target = getattr(owner, fn.__name__)
                run_case("%s(%s)" % (qual, p.name), target, args, bad_label, bad_value, findings, log,
                         flag)
                cases += 1
    return cases


def probe_settings(findings, log):
    """Every setting of the walk scenario (the flag table) through Walker(**settings)."""
    cases = 0
    names = [line.split()[0][2:].replace("-", "_") for line in animkit.walk_flags_help().splitlines()
             if line.strip().startswith("--")]
    for name in names:
        for bad_label, bad_value in BAD:
            settings = {"terrain": "flat", "start": (0, 0), "target": (0, 2), "max_time": 1}
            settings[name] = bad_value
            run_case("Walker(%s)" % name, lambda: animkit.Walker(**settings), {}, bad_label,
                     bad_value, findings, log)
            cases += 1
    return cases


def probe_properties(findings, log):
    """Every public property: reads finite, array views of library memory read-only unless
    writing is the point (a clip's keys), setters refuse the boundary values cleanly."""
    writable_ok = {"Clip.rotations", "Clip.translations"}
    cases = 0
    for cls_name, factory in OWNERS.items():
        cls = getattr(animkit, cls_name)
        for name, member in inspect.getmembers(cls):
            if name.startswith("_") or not isinstance(member, property):
                continue
            owner = factory()
            log.write("%s.%s\n" % (cls_name, name))
            value = getattr(owner, name)
            cases += 1
            if nonfinite(value):
                findings.append("%s.%s: non-finite value" % (cls_name, name))
            if (isinstance(value, np.ndarray) and value.flags.writeable and value.base is not None
                    and "%s.%s" % (cls_name, name) not in writable_ok):
                findings.append("%s.%s: a writable view of library memory" % (cls_name, name))
            if member.fset is None:
                continue
            for bad_label, bad_value in BAD:
                owner = factory()
                run_case("%s.%s(value)" % (cls_name, name),
                         lambda o=owner, v=bad_value: setattr(o, name, v), {}, bad_label,
                         bad_value, findings, log, flag="%s.%s" % (cls_name, name) in FLAGS)
                cases += 1
    return cases


def probe_poisoned_keys(findings, log):
    """A clip's keys are writable on purpose: whatever is written there (NaN, 1e38, a zero
    quaternion), every method afterwards returns or raises cleanly and never crashes. Non-finite
    results are allowed here (the keys were), a crash or an unclean exception is not."""
    cases = 0
    poisons = [("nan", NAN), ("1e38", 1e38), ("0", 0.0)]
    for poison_label, poison in poisons:
        for qual, fn, factory in public_callables():
            if not qual.startswith("Clip."):
                continue
            c = clip()
            c.rotations[2, 1, :] = poison
            if c.translations.size:
                c.translations[2, 0, :] = poison
            args = BASE.get(qual, lambda: {})()
            log.write("%s on keys %s\n" % (qual, poison_label))
            log.flush()
            signal.alarm(SLOW_S)
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    getattr(c, fn.__name__)(**args)
            except Slow:
                findings.append("%s on keys %s: over %d s" % (qual, poison_label, SLOW_S))
            except CLEAN:
                pass
            except Exception as e:  # noqa: BLE001
                findings.append("%s on keys %s: %s: %s" % (qual, poison_label, type(e).__name__, e))
            finally:
                signal.alarm(0)
            cases += 1
    return cases


# Settable properties that are flags (Python's truth of the value).
FLAGS = {"Clip.loop"}


def main():
    log_path = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.devnull
    os.chdir(TMP)  # a path argument given 'nope' or b'\xff' writes there, not in the checkout
    signal.signal(signal.SIGALRM, _alarm)
    import pandas  # noqa: F401 - imported once up front, not inside a timed call
    findings = []
    with open(log_path, "w") as log:
        cases = probe_callables(findings, log)
        cases += probe_settings(findings, log)
        cases += probe_properties(findings, log)
        cases += probe_poisoned_keys(findings, log)
    print(json.dumps({"cases": cases, "findings": findings}))


if __name__ == "__main__":
    main()
