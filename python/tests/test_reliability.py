"""Issue 26: nothing the package hands out outlives or corrupts library memory.

Views of library memory are read-only unless writing is the point (a clip's keys); every view
and child object holds its owner, so deleting the owner first is safe."""
import gc

import numpy as np
import pytest

import animkit


def test_skeleton_views_are_read_only(mocap):
    sk, clip = animkit.read_bvh(mocap("cmu_02_01_walk.bvh"))
    # sk.parents[3] = 10**6 followed by clip.positions() used to segfault the interpreter
    for name in ("parents", "rest_local", "bone_lengths"):
        view = getattr(sk, name)
        assert not view.flags.writeable, name
        with pytest.raises(ValueError):
            view[3] = 10 ** 6
        with pytest.raises(ValueError):
            view.flags.writeable = True  # the base says read-only: cannot be turned back on
    assert sk.parents[3] < 3
    assert np.isfinite(clip.positions(frames=[0])).all()


def test_clip_keys_are_writable_views_that_keep_the_clip(mocap):
    sk, clip = animkit.read_bvh(mocap("cmu_02_01_walk.bvh"))
    rot = clip.rotations
    assert rot.flags.writeable  # editing keys is the point; finalize() afterwards
    first = rot[0, 0].copy()
    del clip, sk
    gc.collect()
    np.testing.assert_array_equal(rot[0, 0], first)  # still the clip's memory, not freed


def test_walk_skeleton_keeps_its_walker():
    w = animkit.Walker(target=(2.0, 0.0), start=(0.0, 0.0), terrain="flat", max_time=1)
    sk = w.walk_skeleton
    count, parents = w.joint_count, sk.parents.copy()
    del w
    gc.collect()
    # read 703208020 from freed memory before
    assert sk.joint_count == count
    np.testing.assert_array_equal(sk.parents, parents)
    assert len(sk.names) == count


def test_concat_refuses_another_rig(mocap):
    sk, walk = animkit.read_bvh(mocap("cmu_02_01_walk.bvh"))
    other_sk, other = animkit.read_bvh(mocap("arena_louise_stand_walk_cycle.bvh"))
    with pytest.raises(animkit.Error, match="one skeleton"):
        walk.concat(other.resample(fps=walk.fps))
    with pytest.raises(TypeError):
        walk.concat("not a clip")
    joined = walk.concat(walk, blend=0.1)
    assert joined.frame_count > walk.frame_count


def test_adversarial_arguments_are_refused_or_answered(mocap):
    """A generator of bad arguments over the package's public calls: each call returns or
    raises a Python exception (animkit.Error, ValueError, TypeError, IndexError, KeyError);
    the interpreter never dies, and a canary pose is sampled the same afterwards."""
    import random

    from animkit import ik

    sk, clip = animkit.read_bvh(mocap("cmu_02_01_walk.bvh"))
    canary_sk, canary = animkit.read_bvh(mocap("cmu_02_01_walk.bvh"))
    expected = canary.sample_positions([0.7]).copy()
    short = clip.trim(0, 10)
    rng = random.Random(2626)
    numbers = [float("nan"), float("inf"), -float("inf"), 1e30, -1e30, 1e20, 2 ** 31 - 1,
               -(2 ** 31), -1, 0, 0.5, 1, 2, 1e-30]
    junk = numbers + [None, "x", "", [], [1], {}, object(), (1, 2), b"\x00"]

    def vec():
        return rng.choice([(0, 1, 0), tuple(rng.choice(numbers) for _ in range(3)), (1, 2),
                           (1, 2, 3, 4), None, "abc", 7])

    def joint():
        return rng.choice([0, 1, -1, 10 ** 9, "Hips", "LeftFoot", "Nope", "", None, 2.5])

    def pose():
        return rng.choice([sk.rest_pose(), sk.rest_pose(), None, np.zeros((3, 7)), "p",
                           np.zeros((sk.joint_count, 7), np.float64)])

    calls = {
        "read_bvh_string": lambda: animkit.read_bvh_string(rng.choice(["", "HIERARCHY", "\x00\x01",
                                                                       b"\xff\xfe", "ROOT {"])),
        "units_detect": lambda: animkit.units_detect(rng.choice(junk)),
        "sample": lambda: clip.sample(rng.choice(junk), rng.choice(["linear", "cubic", "x", 3])),
        "pose": lambda: clip.pose(rng.choice(junk + [10 ** 9, -10 ** 9])),
        "positions": lambda: clip.positions(frames=rng.choice([None, [0], [10 ** 9], [-1], "x", 2.5])),
        "trim": lambda: clip.trim(rng.choice(junk), rng.choice(junk)),
        "resample": lambda: clip.resample(fps=rng.choice(junk)),
        "mirror": lambda: clip.mirror(axis=rng.choice([None, 0, 1, 2, 3, -1, "x"])),
        "concat": lambda: clip.concat(rng.choice([clip, canary, None, "c"]), blend=rng.choice(junk)),
        "to_units": lambda: clip.to_units(rng.choice(["m", "cm", "furlong", None, 3])),
        "humanoid": lambda: sk.humanoid(rng.choice([None, "left_foot=Nope", "x=y", "hips=Hips",
                                                    "left_foot=Hips,right_foot=Hips", 3])),
        "index": lambda: sk.index(joint()),
        "fk": lambda: sk.fk(pose()),
        "limb": lambda: ik.limb(sk, pose(), joint(), joint(), joint(), vec(), pole=vec(),
                                weight=rng.choice(junk)),
        "ccd": lambda: ik.ccd(sk, pose(), [joint(), joint(), joint()], vec(),
                              weight=rng.choice(junk), max_iterations=rng.choice(junk)),
        "fabrik": lambda: ik.fabrik(sk, pose(), [joint(), joint()], vec(), tolerance=rng.choice(junk)),
        "jacobian": lambda: ik.jacobian(sk, pose(), [joint(), joint(), joint()], vec(),
                                        method=rng.choice(["dls", "pinv", "x"]),
                                        damping=rng.choice(junk)),
        "aim": lambda: ik.aim(sk, pose(), joint(), vec(), forward=vec(), up=vec()),
        "look_at": lambda: ik.look_at(sk, pose(), [joint(), joint()], vec(),
                                      clamp_weight=rng.choice(junk)),
        "retarget": lambda: animkit.retarget(sk, short, canary_sk, scale=rng.choice(junk),
                                             floor_height=rng.choice(junk)),
    }
    refused = 0
    names = sorted(calls)
    probes = 1500
    for i in range(probes):
        name = names[i % len(names)]
        try:
            calls[name]()
        except (animkit.Error, ValueError, TypeError, IndexError, KeyError, OverflowError):
            refused += 1
    np.testing.assert_array_equal(canary.sample_positions([0.7]), expected)
    print("python adversarial generator: %d probes over %d calls, %d refused with an error"
          % (probes, len(names), refused))
