"""examples/batch_dask.py on the test captures with a 2-worker LocalCluster."""
import csv
import os
import shutil
import subprocess
import sys

from conftest import mocap_dir, mocap_files

EXAMPLE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples",
                       "batch_dask.py")


def test_batch_dask_writes_one_feature_row_per_capture(tmp_path):
    captures = tmp_path / "captures"
    captures.mkdir()
    for name in mocap_files():
        shutil.copy(os.path.join(mocap_dir(), name), captures / name)
    (captures / "zz_broken.bvh").write_text("HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0\n}\n")
    out = tmp_path / "features.csv"
    edited = tmp_path / "edited"
    run = subprocess.run([sys.executable, EXAMPLE, str(captures), str(out), "--workers", "2",
                          "--first-frame", "1", "--fps", "60", "--edited-dir", str(edited)],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "on 2 workers" in run.stderr
    rows = {r["file"]: r for r in csv.DictReader(open(out))}
    assert set(rows) == set(mocap_files()) | {"zz_broken.bvh"}
    assert rows["zz_broken.bvh"]["error"].endswith("zz_broken.bvh:5: expected an OFFSET value, found '}'")
    for name in mocap_files():
        r = rows[name]
        assert r["error"] == "" and float(r["fps"]) == 60.0
        assert 1.2 <= float(r["height_m"]) <= 2.0  # people, in metres whatever the file's units
    # Physics: people walk at about 1-1.7 m/s and this run is a jog above 2.5 m/s; the idle
    # capture drifts less than a metre in 38 s.
    for walk in ("cmu_02_01_walk.bvh", "cmu_07_01_walk.bvh", "cmu_16_11_walk_veer_left.bvh"):
        assert 0.8 <= float(rows[walk]["mean_speed_mps"]) <= 1.8
        assert 0.1 <= float(rows[walk]["left_contact_fraction"]) <= 0.8
    assert float(rows["cmu_09_01_run.bvh"]["mean_speed_mps"]) > 2.5
    assert float(rows["reactidle_003_genuine_idle.bvh"]["net_displacement_m"]) < 1.0
    assert 25 <= float(rows["cmu_16_11_walk_veer_left.bvh"]["heading_change_deg"]) <= 60
    assert sorted(os.listdir(edited)) == mocap_files()


def test_features_of_a_walk_retargeted_onto_another_rig(mocap):
    sys.path.insert(0, os.path.dirname(EXAMPLE))
    try:
        import batch_dask
    finally:
        sys.path.pop(0)
    row = batch_dask.clip_features(mocap("cmu_07_01_walk.bvh"), first_frame=1,
                                   retarget_to=mocap("arena_louise_stand_walk_cycle.bvh"))
    assert row["error"] == "" and row["joints"] == 23  # the Arena rig
    assert row["units"] == "centimetres" and 1.2 <= row["height_m"] <= 2.0
    assert 0.8 <= row["mean_speed_mps"] <= 1.8  # still a walk
