"""glTF clips in Python: animkit.read_gltf / animkit.read on the repository's test files."""
import os

import pytest

import animkit

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "..", "tests", "data", "gltf")


def test_read_gltf_picks_animation_by_name_and_index():
    sk, clip = animkit.read_gltf(os.path.join(DATA, "two_anims_skin.gltf"), animation="Grow")
    assert sk.joint_count == 4
    sk1, clip1 = animkit.read_gltf(os.path.join(DATA, "two_anims_skin.gltf"), animation=1)
    assert clip1.frame_count == clip.frame_count
    with pytest.raises(animkit.Error, match="Nope"):
        animkit.read_gltf(os.path.join(DATA, "two_anims_skin.gltf"), animation="Nope")


def test_read_dispatches_gltf_with_selector():
    sk, clip = animkit.read(os.path.join(DATA, "two_anims_skin.gltf") + "#Grow")
    assert sk.joint_count == 4
