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
