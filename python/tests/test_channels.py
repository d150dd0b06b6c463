"""BVH channels for pymo / bvh-python users (issue 27): channel names and orders per joint,
offsets, Euler values in the file's own orders and units, to_dataframe, named results, and
slices and fancy indices wherever frames are taken."""
import numpy as np
import pytest

import animkit
from conftest import mocap_files


def motion_values(path, frame_count):
    """The MOTION block's numbers as the file writes them: (frames, channels)."""
    text = open(path, encoding="utf-8").read()
    motion = text[text.index("Frame Time"):].split("\n", 1)[1]
    return np.array(motion.split(), float).reshape(frame_count, -1)


def test_channels_orders_and_offsets_are_the_files(mocap):
    skeleton, clip = animkit.read_bvh(mocap("reactidle_003_genuine_idle.bvh"))
    text = open(mocap("reactidle_003_genuine_idle.bvh"), encoding="utf-8").read()
    header = text[: text.index("MOTION")]
    # Every CHANNELS line of the header, in order, is one non-empty entry of `channels`.
    lines = [l.split()[2:] for l in header.splitlines() if l.strip().startswith("CHANNELS")]
    assert [c for c in skeleton.channels if c] == lines
    assert skeleton.rotation_orders[0] == "".join(c[0] for c in lines[0] if c.endswith("rotation"))
    offsets = [list(map(float, l.split()[1:])) for l in header.splitlines()
               if l.strip().startswith("OFFSET")]
    np.testing.assert_allclose(skeleton.offsets, np.array(offsets), rtol=0, atol=1e-6)
    assert all(skeleton.channels[j] == [] for j in range(len(skeleton)) if skeleton.is_end_site[j])


@pytest.mark.parametrize("name", ["cmu_02_01_walk.bvh", "cmu_09_01_run.bvh",
                                  "reactidle_003_genuine_idle.bvh"])
def test_channel_values_are_the_files_numbers(mocap, name):
    """Where the file's Euler angles are continuous and within one turn at frame 0, the values
    come back as the file wrote them: positions to float precision (1e-5 of a unit at these
    magnitudes), angles to 1e-4 degrees (float32 quaternions)."""
    skeleton, clip = animkit.read_bvh(mocap(name))
    want = motion_values(mocap(name), clip.frame_count)
    got = clip.channel_values()
    names = clip.channel_names
    assert got.shape == want.shape and len(names) == want.shape[1]
    rot = np.array([n.endswith("rotation") for n in names])
    assert np.abs(got[:, ~rot] - want[:, ~rot]).max() < 1e-5 * max(1.0, np.abs(want[:, ~rot]).max())
    assert np.abs(got[:, rot] - want[:, rot]).max() < 1e-4


@pytest.mark.parametrize("name", mocap_files())
def test_euler_values_rebuild_the_clips_rotations(mocap, name):
    """On every test capture (arena's pedalling winds through thousands of degrees, CMU's dance
    past 530): each joint's Euler values, composed in its order, are its rotation key (every
    7th frame checked)."""
    skeleton, clip = animkit.read_bvh(mocap(name))
    want = motion_values(mocap(name), clip.frame_count)
    column = 0
    for j, chans in enumerate(skeleton.channels):
        order = skeleton.rotation_orders[j]
        if len(order) == 3:
            e = clip.euler(j)
            code = animkit.ffi.new("ak_rot_order *")
            assert animkit.lib.ak_rot_order_parse(order.encode(), code) == 0
            for f in range(0, clip.frame_count, 7):
                slots = [0.0, 0.0, 0.0]
                for k, axis in enumerate(order):
                    slots[" XYZ".index(axis) - 1] = np.radians(e[f, k])
                angles = animkit.ffi.new("ak_vec3 *", slots)[0]
                q = animkit.lib.ak_quat_from_euler(angles, code[0])
                key = clip.rotations[f, j]
                assert abs(q.x * key[0] + q.y * key[1] + q.z * key[2] + q.w * key[3]) > 1 - 1e-5
        column += len(chans)
    assert column == want.shape[1]


def test_dataframe_slices_and_named_results(mocap):
    pd = pytest.importorskip("pandas")
    skeleton, clip = animkit.read_bvh(mocap("cmu_02_01_walk.bvh"))
    df = clip.to_dataframe(slice(10, 21, 5))
    assert isinstance(df, pd.DataFrame) and list(df.columns) == clip.channel_names
    np.testing.assert_allclose(df.index.values, np.array([10, 15, 20]) * clip.frame_time, rtol=1e-6)
    np.testing.assert_array_equal(df.values, clip.channel_values([10, 15, 20]))
    np.testing.assert_array_equal(clip.channel_values(np.array([20, 10]))[0],
                                  clip.channel_values(20)[0])
    np.testing.assert_array_equal(clip.positions(slice(0, 100, 2))[3], clip.positions(6)[0])
    poses = clip.pose(slice(0, 9, 4))
    assert poses.shape == (3, len(skeleton), 7)
    np.testing.assert_array_equal(poses[2], clip.pose(8))
    np.testing.assert_array_equal(clip.pose([-1])[0], clip.pose(clip.frame_count - 1))
    with pytest.raises(IndexError):
        clip.pose(clip.frame_count)
    units = clip.units()
    assert units.name == "cmu" and units == ("cmu", units.metres_per_unit)
    hum = skeleton.humanoid()
    assert skeleton.names[hum.joints["hips"]] == "Hips" and hum.missing == []
    joints, missing = hum
    assert joints is hum.joints and missing is hum.missing
