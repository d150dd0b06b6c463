"""Clip files other than BVH in Python: glTF/GLB (the library's reader) and FBX (the animkit
tools' reader through assimp, run as `animkit convert`)."""
import os
import subprocess

import numpy as np
import pytest

import animkit

from conftest import REPO

GLTF_DIR = os.path.join(REPO, "tests", "data", "gltf")
FBX_DIR = "/usr/share/assimp/models/FBX"  # Debian assimp-testmodels (make deps)


def cli():
    """The animkit command: $ANIMKIT_CLI, else build/bin/animkit (make build)."""
    for c in (os.environ.get("ANIMKIT_CLI"), os.path.join(REPO, "build", "bin", "animkit")):
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    return None


def cli_positions(path):
    """`animkit positions FILE` as (frames, joints, 3)."""
    out = subprocess.run([cli(), "positions", path], capture_output=True, text=True, check=True)
    rows = [r.split(",") for r in out.stdout.strip().splitlines()[1:]]
    frames = int(rows[-1][0]) + 1
    return np.array([[float(v) for v in r[2:5]] for r in rows]).reshape(frames, -1, 3)


@pytest.mark.parametrize("binary", [False, True])
def test_gltf_round_trip_equals_the_bvh(mocap, tmp_path, binary):
    # A BVH written as glTF in metres and read back: every joint of every frame is the BVH's
    # FK times metres per unit, within 1e-5 of the height (float keys written on frames).
    skeleton, clip = animkit.read_bvh(mocap("cmu_02_01_walk.bvh"))
    out = tmp_path / ("walk.glb" if binary else "walk.gltf")
    clip.write_gltf(out, metres_per_unit=0.05)
    s2, c2 = animkit.read_gltf(out)
    assert s2.names == skeleton.names and c2.frame_count == clip.frame_count
    height = 0.05 * clip.standing_height()
    assert np.abs(c2.positions() - 0.05 * clip.positions()).max() <= 1e-5 * height
    s3, c3 = animkit.read(out)  # the format from the first bytes
    assert np.array_equal(c3.positions(), c2.positions())


def test_gltf_animation_by_name_and_index():
    # two_anims_skin.gltf holds "Wave" and "Grow": the name, the index and "file#Grow" pick
    # the same one; the first is another.
    path = os.path.join(GLTF_DIR, "two_anims_skin.gltf")
    by_name = animkit.read_gltf(path, animation="Grow")[1].positions()
    by_index = animkit.read_gltf(path, animation=1)[1].positions()
    by_hash = animkit.read(path + "#Grow")[1].positions()
    first = animkit.read(path)[1].positions()
    assert np.array_equal(by_name, by_index) and np.array_equal(by_name, by_hash)
    assert by_name.shape != first.shape or not np.array_equal(by_name, first)
    with pytest.raises(animkit.Error) as e:
        animkit.read_gltf(path, animation="Run")
    assert e.value.status == "AK_ERR_NOT_FOUND"


def test_gltf_bad_file_says_where(tmp_path):
    bad = tmp_path / "bad.gltf"
    bad.write_text('{\n  "asset": {"version": "2.0"},\n  "nodes": [ {"children": [0]} ]\n}\n')
    with pytest.raises(animkit.Error) as e:
        animkit.read_gltf(bad)
    assert e.value.path == os.fspath(bad) and e.value.status.startswith("AK_ERR")


@pytest.mark.parametrize("name", ["huesitos.fbx", "animation_with_skeleton.fbx"])
def test_fbx_equals_the_tools(name, monkeypatch):
    # Python's FBX (animkit convert -> GLB -> read_gltf) is what the CLI reads from the same
    # file, joint for joint, within 1e-5 of the skeleton's size (the GLB keeps file units).
    path = os.path.join(FBX_DIR, name)
    if not os.path.isfile(path):
        pytest.skip("assimp-testmodels not installed (make deps)")
    if not cli():
        pytest.skip("no animkit command (build it: make build)")
    monkeypatch.setenv("ANIMKIT_CLI", cli())
    skeleton, clip = animkit.read(path)
    want = cli_positions(path)
    got = clip.positions()
    assert got.shape == want.shape
    size = max(np.ptp(want.reshape(-1, 3), axis=0).max(), 1e-6)
    assert np.abs(got - want).max() <= 1e-5 * size


def test_fbx_without_the_tools_says_so(monkeypatch, tmp_path):
    fbx = tmp_path / "x.fbx"
    fbx.write_bytes(b"Kaydara FBX Binary  \x00\x1a\x00" + b"\x00" * 40)
    monkeypatch.setenv("ANIMKIT_CLI", "")
    monkeypatch.setenv("PATH", os.fspath(tmp_path))
    with pytest.raises(animkit.Error) as e:
        animkit.read(fbx)
    assert "assimp" in e.value.message
