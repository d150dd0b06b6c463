#!/usr/bin/env python3
"""All world positions of a BVH file: animkit vs a vectorised NumPy reader vs a pure-Python
reader vs Blender's importer run headless; same output compared. Prints a Markdown table.

    python3 bench_positions.py [FILE.bvh] [--runs 11] [--no-blender]

Times are medians of wall-clock runs of the whole job (read the file -> (F, J, 3) positions)."""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import numpy_bvh  # noqa: E402

import animkit  # noqa: E402

DEFAULT = os.path.join(os.path.dirname(os.path.dirname(HERE)), "tests", "data", "mocap",
                       "arena_louise_stand_walk_cycle.bvh")


def timed(fn, runs):
    times, out = [], None
    for _ in range(runs):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), out


def animkit_positions(path):
    skeleton, clip = animkit.read_bvh(path)
    return skeleton, clip.positions()


def blender_positions(path, skeleton):
    """(process seconds, import + evaluate seconds inside Blender, (F, J, 3) in animkit order)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "blender.npz")
        t = time.perf_counter()
        subprocess.run(["blender", "-b", "--factory-startup", "--python",
                        os.path.join(HERE, "blender_positions.py"), "--", path, out],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wall = time.perf_counter() - t
        d = np.load(out)
        bones = {str(n): i for i, n in enumerate(d["names"])}
        cols = []
        for j, name in enumerate(skeleton.names):
            if skeleton.is_end_site[j]:  # an End Site is the tail of its parent's bone
                cols.append(d["tails"][:, bones[skeleton.names[skeleton.parents[j]]]])
            else:
                cols.append(d["heads"][:, bones[name]])
        return wall, float(d["import_s"] + d["evaluate_s"]), np.stack(cols, axis=1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bvh", nargs="?", default=DEFAULT)
    ap.add_argument("--runs", type=int, default=11)
    ap.add_argument("--pure-runs", type=int, default=3)
    ap.add_argument("--no-blender", action="store_true")
    args = ap.parse_args()
    path = args.bvh
    t_ak, (skeleton, ref) = timed(lambda: animkit_positions(path), args.runs)
    t_np, (_, pos_np) = timed(lambda: numpy_bvh.read_positions_numpy(path), max(3, args.runs // 2))
    t_py, (_, pos_py) = timed(lambda: numpy_bvh.read_positions_pure(path), args.pure_runs)
    F, J = ref.shape[:2]
    size = os.path.getsize(path) / 1e6
    h = float(np.ptp(ref[..., 1], axis=1).max())
    print("file: %s (%.2f MB, %d frames, %d joints incl. End Sites); %d runs (pure Python %d)"
          % (os.path.basename(path), size, F, J, args.runs, args.pure_runs))
    print()
    print("| reader | median s | x slower than animkit | max abs diff vs animkit (file units) |")
    print("|---|---|---|---|")
    print("| animkit (read_bvh + positions) | %.4f | 1 | - |" % t_ak)
    print("| NumPy, vectorised over frames | %.4f | %.1f | %.2g |" % (t_np, t_np / t_ak, np.abs(pos_np - ref).max()))
    print("| pure Python, frame by frame | %.3f | %.0f | %.2g |" % (t_py, t_py / t_ak, np.abs(pos_py - ref).max()))
    if not args.no_blender and shutil.which("blender"):
        wall, inside, pos_bl = blender_positions(path, skeleton)
        keep = [j for j in range(J) if not (skeleton.is_end_site[j] and skeleton.bone_lengths[j] < 1e-3)]
        diff = np.abs(pos_bl[:, keep] - ref[:, keep]).max()
        print("| Blender 3.4 importer, import + frame_set loop | %.2f | %.0f | %.2g |" % (inside, inside / t_ak, diff))
        print("| Blender 3.4, whole `blender -b` process | %.2f | %.0f | (same) |" % (wall, wall / t_ak))
    print()
    print("largest pose height in the file: %.4g units; differences above are relative to it: "
          "NumPy %.2g, pure Python %.2g" % (h, np.abs(pos_np - ref).max() / h, np.abs(pos_py - ref).max() / h))


if __name__ == "__main__":
    main()
