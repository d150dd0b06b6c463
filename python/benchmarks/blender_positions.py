"""Run inside Blender: world positions of every bone head and tail of a BVH, for the benchmark.

    blender -b --factory-startup --python blender_positions.py -- IN.bvh OUT.npz

Importer settings as for the reference CSVs (tests/data/mocap/PROVENANCE.md): axis_forward 'Y',
axis_up 'Z' (the identity, so the numbers are the file's coordinates), one Blender frame per
BVH frame starting at 1. Debian's Blender 3.4 runs Python 3.11, where the importer's
open(path, 'rU') fails; the importer gets an open() that drops the 'U'. Writes heads and tails
(F, B, 3), the bone names, and the seconds spent importing and evaluating."""
import builtins
import sys
import time

import bpy
import numpy as np
from io_anim_bvh import import_bvh


def _open(path, mode="r", *args, **kwargs):
    return builtins.open(path, mode.replace("U", ""), *args, **kwargs)


import_bvh.open = _open

argv = sys.argv[sys.argv.index("--") + 1:]
src, dst = argv[0], argv[1]
t0 = time.perf_counter()
bpy.ops.import_anim.bvh(filepath=src, target="ARMATURE", global_scale=1.0, frame_start=1,
                        use_fps_scale=False, update_scene_fps=False, update_scene_duration=False,
                        use_cyclic=False, rotate_mode="NATIVE", axis_forward="Y", axis_up="Z")
t1 = time.perf_counter()
obj = bpy.context.object
action = obj.animation_data.action
first, last = (int(round(v)) for v in action.frame_range)
names = [pb.name for pb in obj.pose.bones]
heads, tails = [], []
scene = bpy.context.scene
world = obj.matrix_world
for f in range(first, last + 1):
    scene.frame_set(f)
    heads.append([tuple(world @ pb.head) for pb in obj.pose.bones])
    tails.append([tuple(world @ pb.tail) for pb in obj.pose.bones])
t2 = time.perf_counter()
np.savez(dst, names=np.array(names), heads=np.array(heads, np.float32),
         tails=np.array(tails, np.float32), first=first, import_s=t1 - t0, evaluate_s=t2 - t1)
print("blender_positions: %d frames, %d bones, import %.2f s, evaluate %.2f s"
      % (len(heads), len(names), t1 - t0, t2 - t1))
