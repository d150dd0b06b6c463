#!/usr/bin/env python3
"""Per-clip features of a folder of captures, computed on a Dask cluster.

    python3 batch_dask.py CAPTURES_DIR features.csv                   # LocalCluster, 2 workers
    python3 batch_dask.py CAPTURES_DIR features.parquet --scheduler tcp://host:8786
    python3 batch_dask.py CAPTURES_DIR features.csv --first-frame 1 --fps 30 --mirror --edited-dir out/

Each worker reads one BVH with animkit, checks it, optionally edits it (trim, resample,
mirror) or retargets it onto another rig, and measures it: duration, units, standing height, root travel and speed, heading
change, foot-contact fractions. One row per file; a file that fails to read gets its error
(file:line: reason) in the `error` column instead of stopping the batch. The same script
runs unchanged on any Dask cluster: pass its scheduler address."""
import argparse
import glob
import math
import os
import sys


def clip_features(path, fps=None, mirror=False, edited_dir=None, first_frame=0, retarget_to=None):
    """One row of features for one capture (runs on a worker)."""
    import numpy as np
    import animkit

    row = {"file": os.path.basename(path), "error": ""}
    try:
        skeleton, clip = animkit.read_bvh(path)
        if first_frame:
            clip = clip.trim(min(first_frame, clip.frame_count - 1))
        if fps:
            clip = clip.resample(fps=fps)
        if mirror:
            clip = clip.mirror()
        if retarget_to:
            target, _ = animkit.read_bvh(retarget_to)
            clip, _ = animkit.retarget(skeleton, clip, target)
            skeleton = target
        units, mpu = clip.units()
        xyz = clip.positions() * mpu  # metres
        if not np.isfinite(xyz).all():
            raise ValueError("non-finite positions")
        travelling = clip.root_joint()  # the top joint, or the hips under a still top joint
        root = xyz[:, travelling["joint"]]
        step = np.linalg.norm(np.diff(root[:, [0, 2]], axis=0), axis=1)
        speed = step / clip.frame_time
        heading = clip.root_motion()[:, :4]  # yaw quaternions (0, sin h/2, 0, cos h/2)
        yaw = 2.0 * np.arctan2(heading[:, 1], heading[:, 3])
        turn = np.unwrap(yaw)
        found, missing = skeleton.humanoid()
        left = right = None
        if not missing:
            left, right = clip.contacts(metres_per_unit=mpu)
        row.update({
            "joints": skeleton.joint_count, "frames": clip.frame_count, "fps": round(clip.fps, 4),
            "duration_s": clip.duration, "units": units, "metres_per_unit": mpu,
            "root_joint": travelling["name"],
            "height_m": clip.standing_height() * mpu,
            "travel_m": float(step.sum()),
            "net_displacement_m": float(np.linalg.norm(root[-1, [0, 2]] - root[0, [0, 2]])),
            "mean_speed_mps": float(speed.mean()) if len(speed) else 0.0,
            "max_speed_mps": float(np.percentile(speed, 99)) if len(speed) else 0.0,
            "heading_change_deg": float(np.degrees(turn[-1] - turn[0])),
            "left_contact_fraction": float(left.mean()) if left is not None else math.nan,
            "right_contact_fraction": float(right.mean()) if right is not None else math.nan,
            "humanoid_missing": ";".join(missing),
        })
        if edited_dir:
            clip.write_bvh(os.path.join(edited_dir, os.path.basename(path)))
    except animkit.Error as e:
        row["error"] = str(e)
    except (ValueError, KeyError) as e:
        row["error"] = "%s: %s" % (os.path.basename(path), e)
    return row


def write_table(rows, out):
    import pandas as pd

    table = pd.DataFrame(rows).sort_values("file")
    tmp = out + ".tmp"
    if out.endswith(".parquet"):
        table.to_parquet(tmp, index=False)  # needs pyarrow or fastparquet
    else:
        table.to_csv(tmp, index=False)
    os.replace(tmp, out)  # the table appears whole or not at all
    return table


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("captures", help="folder of .bvh files")
    ap.add_argument("output", help="features table: .csv or .parquet")
    ap.add_argument("--scheduler", help="address of a running Dask scheduler (tcp://host:8786); "
                                        "default: a LocalCluster on this machine")
    ap.add_argument("--workers", type=int, default=2, help="LocalCluster worker processes (default 2)")
    ap.add_argument("--first-frame", type=int, default=0,
                    help="drop the frames before this one (CMU files start with a T-pose frame)")
    ap.add_argument("--fps", type=float, help="resample every clip to this rate first")
    ap.add_argument("--mirror", action="store_true", help="mirror every clip first")
    ap.add_argument("--retarget-to", metavar="RIG.bvh",
                    help="retarget every clip onto this BVH's skeleton (humanoid maps) first")
    ap.add_argument("--edited-dir", help="also write the edited clips here as BVH")
    args = ap.parse_args(argv)

    from dask.distributed import Client, LocalCluster

    files = sorted(glob.glob(os.path.join(args.captures, "*.bvh")))
    if not files:
        print("no .bvh files in %s" % args.captures, file=sys.stderr)
        return 1
    if args.edited_dir:
        os.makedirs(args.edited_dir, exist_ok=True)
    cluster = None
    if args.scheduler:
        client = Client(args.scheduler)
    else:
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    try:
        futures = client.map(clip_features, [os.path.abspath(f) for f in files], fps=args.fps,
                             mirror=args.mirror, edited_dir=args.edited_dir,
                             first_frame=args.first_frame,
                             retarget_to=os.path.abspath(args.retarget_to) if args.retarget_to else None,
                             pure=False)
        rows = client.gather(futures)
        workers = len(client.scheduler_info()["workers"])
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    table = write_table(rows, args.output)
    failed = int((table["error"] != "").sum())
    print("%d clips on %d workers -> %s (%d failed)" % (len(rows), workers, args.output, failed),
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
