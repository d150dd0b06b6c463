"""examples/batch_dask.py on the test captures with a 2-worker LocalCluster."""
import csv
import os
import shutil
import subprocess
import sys

from conftest import mocap_dir, mocap_files, still_top_variant

STILL_TOP = "cmu_02_01_walk_still_top.bvh"
EXAMPLE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples",
                       "batch_dask.py")


def test_batch_dask_writes_one_feature_row_per_capture(tmp_path):
    captures = tmp_path / "captures"
    captures.mkdir()
    for name in mocap_files():
        shutil.copy(os.path.join(mocap_dir(), name), captures / name)
    (captures / "zz_broken.bvh").write_text("HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0\n}\n")
    # Another studio's shape (issue 22): CMU 02_01 under a joint_Root that never moves, the hips
    # carrying the travel (before the features measured the travelling joint: 0 m, 0 m/s).
    with open(os.path.join(mocap_dir(), "cmu_02_01_walk.bvh")) as f:
        (captures / STILL_TOP).write_text(still_top_variant(f.read()))
    out = tmp_path / "features.csv"
    edited = tmp_path / "edited"
    run = subprocess.run([sys.executable, EXAMPLE, str(captures), str(out), "--workers", "2",
                          "--first-frame", "1", "--fps", "60", "--edited-dir", str(edited)],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "on 2 workers" in run.stderr
    rows = {r["file"]: r for r in csv.DictReader(open(out))}
    assert set(rows) == set(mocap_files()) | {"zz_broken.bvh", STILL_TOP}
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
    assert sorted(os.listdir(edited)) == sorted(mocap_files() + [STILL_TOP])
    # The still-top copy: the hips' travel and speed, the original's to float rounding (the
    # same numbers in the file; at 60 fps from frame 1: 3.369 m, 1.182 m/s), contacts too.
    o, v = rows["cmu_02_01_walk.bvh"], rows[STILL_TOP]
    assert (o["root_joint"], v["root_joint"], v["error"]) == ("Hips", "Hips", "")
    assert float(v["joints"]) == float(o["joints"]) + 1  # the CSV has floats (NaN rows)
    assert 3.3 <= float(o["travel_m"]) <= 3.4 and 1.1 <= float(o["mean_speed_mps"]) <= 1.3
    # height_m too: the standing height is the body's (ak_clip_body_root), the still
    # joint_Root's point at y = 0 below the toes left out (it measured 1.472 m against 1.433).
    for key in ("height_m", "travel_m", "net_displacement_m", "mean_speed_mps", "max_speed_mps",
                "left_contact_fraction", "right_contact_fraction", "heading_change_deg"):
        assert abs(float(v[key]) - float(o[key])) <= 1e-5 * max(1.0, abs(float(o[key]))), key


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
