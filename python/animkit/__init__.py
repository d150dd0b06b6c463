"""animkit: character animation for Python — BVH motion capture in and out, world positions as
NumPy arrays, motion editing, IK and the walker, all computed by the animkit C library.

    import animkit
    skeleton, clip = animkit.read_bvh("walk.bvh")
    xyz = clip.positions()                      # (frames, joints, 3) float32
    clip.trim(1).resample(fps=30).mirror().write_bvh("walk_mirrored.bvh")
"""
from ._animkit import ffi, lib
from ._core import (HUMANOID_SLOTS, INTERP, BvhWarning, Clip, Error, Humanoid, Skeleton, Units, read, read_bvh, read_fbx, read_gltf,
                    read_bvh_string, retarget, units_detect)
from . import ik
from .walker import Crowd, Walker, builtin_walk, walk_flags_help

__version__ = ffi.string(lib.ak_version()).decode()

__all__ = ["BvhWarning", "Clip", "Crowd", "Error", "Skeleton", "Walker", "builtin_walk", "walk_flags_help", "ik", "read", "read_bvh", "read_fbx", "read_gltf",
           "retarget",
           "read_bvh_string", "units_detect", "Units", "Humanoid", "HUMANOID_SLOTS", "INTERP", "ffi", "lib",
           "__version__"]
