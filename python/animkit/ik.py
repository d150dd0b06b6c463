"""Inverse kinematics on a pose: the C solvers (ik.h) over NumPy poses.

Every solver takes the skeleton, a local pose `local` (J, 7) float32 that it rewrites in place
(pass a copy to keep the original), targets in model space, and returns an IKResult. The
world pose after the solve is `skeleton.fk(local)`."""
from collections import namedtuple

import numpy as np

from ._animkit import ffi, lib
from ._core import Skeleton, _check, _need

__all__ = ["IKResult", "limb", "ccd", "fabrik", "jacobian", "aim", "look_at", "chain"]

IKResult = namedtuple("IKResult", "reached unreachable iterations error")


def _pose(skeleton, local):
    _need(skeleton, Skeleton, "skeleton")
    if not (isinstance(local, np.ndarray) and local.dtype == np.float32 and local.flags.c_contiguous
            and local.shape == (skeleton.joint_count, 7)):
        raise ValueError("local must be a C-contiguous float32 array of shape (%d, 7) "
                         "(skeleton.rest_pose() or clip.pose(f) give one)" % skeleton.joint_count)
    world = skeleton.fk(local)
    return ffi.from_buffer("ak_xform[]", local), ffi.from_buffer("ak_xform[]", world)


def _result(r):
    return IKResult(bool(r.reached), bool(r.unreachable), r.iterations, r.error)


def _run(fn, params, local_c, world_c):
    r = ffi.new("ak_ik_result *")
    err = ffi.new("ak_error *")
    _check(fn(params, local_c, world_c, r, err), err)
    return _result(r)


def chain(skeleton, root, tip):
    """Joint indices from `root` down to `tip` (names or indices), root first."""
    _need(skeleton, Skeleton, "skeleton")
    r, t = skeleton.index(root), skeleton.index(tip)
    out = ffi.new("int32_t[]", lib.AK_IK_MAX_CHAIN)
    n = lib.ak_ik_chain_from_joints(skeleton._ptr, r, t, out, lib.AK_IK_MAX_CHAIN)
    if n < 0:
        raise ValueError("%s is not below %s (or the chain is too long)" % (tip, root))
    return [out[i] for i in range(n)]


def limb(skeleton, local, upper, middle, end, target, pole=None, weight=1.0, soft_limit=0.0):
    """Analytic two-bone IK (hip-knee-ankle, shoulder-elbow-wrist)."""
    p = ffi.new("ak_limb_ik_params *", lib.ak_limb_ik_defaults())
    p.skeleton = _need(skeleton, Skeleton, "skeleton")._ptr
    p.upper, p.middle, p.end = (skeleton.index(j) for j in (upper, middle, end))
    p.target = tuple(map(float, target))
    if pole is not None:
        p.use_pole, p.pole = 1, tuple(map(float, pole))
    p.weight, p.soft_limit = float(weight), float(soft_limit)
    lc, wc = _pose(skeleton, local)
    return _run(lib.ak_limb_ik_run, p, lc, wc)


def _chain_params(skeleton, joints, target, weight, max_iterations, tolerance):
    _need(skeleton, Skeleton, "skeleton")
    idx = ffi.new("int32_t[]", [skeleton.index(j) for j in joints])
    p = ffi.new("ak_chain_ik_params *", lib.ak_chain_ik_defaults())
    p.skeleton, p.chain, p.chain_length = skeleton._ptr, idx, len(joints)
    p.target = tuple(map(float, target))
    p.weight, p.max_iterations, p.tolerance = float(weight), int(max_iterations), float(tolerance)
    return p, idx


def ccd(skeleton, local, joints, target, weight=1.0, max_iterations=100, tolerance=1e-4):
    """Cyclic coordinate descent over `joints` (root first; see chain())."""
    p, keep = _chain_params(skeleton, joints, target, weight, max_iterations, tolerance)
    lc, wc = _pose(skeleton, local)
    return _run(lib.ak_ccd_ik_run, p, lc, wc)


def fabrik(skeleton, local, joints, target, weight=1.0, max_iterations=100, tolerance=1e-4):
    """FABRIK over `joints` (root first): bone lengths stay exact."""
    p, keep = _chain_params(skeleton, joints, target, weight, max_iterations, tolerance)
    lc, wc = _pose(skeleton, local)
    return _run(lib.ak_fabrik_ik_run, p, lc, wc)


def jacobian(skeleton, local, joints, target, method="dls", weight=1.0, max_iterations=100,
             tolerance=1e-4, damping=0.05):
    """Jacobian IK over a chain: method "dls" (damped least squares) or "pinv"."""
    _need(skeleton, Skeleton, "skeleton")
    idx = ffi.new("int32_t[]", [skeleton.index(j) for j in joints])
    p = ffi.new("ak_jacobian_ik_params *", lib.ak_jacobian_ik_defaults())
    p.skeleton, p.chain, p.chain_length = skeleton._ptr, idx, len(joints)
    p.method = lib.AK_JACOBIAN_DLS if method == "dls" else lib.AK_JACOBIAN_PSEUDO_INVERSE
    p.target = tuple(map(float, target))
    p.weight, p.max_iterations = float(weight), int(max_iterations)
    p.tolerance, p.damping = float(tolerance), float(damping)
    size = lib.ak_jacobian_ik_workspace_size(len(joints) - 1, 1)
    ws = ffi.new("char[]", max(int(size), 1))
    p.workspace, p.workspace_bytes = ws, size
    lc, wc = _pose(skeleton, local)
    return _run(lib.ak_jacobian_ik_run, p, lc, wc)


def aim(skeleton, local, joint, target, forward=(0, 0, 1), up=(0, 1, 0), weight=1.0):
    """Turns `joint` so its local `forward` axis points at `target`."""
    p = ffi.new("ak_aim_ik_params *", lib.ak_aim_ik_defaults())
    p.skeleton, p.joint = _need(skeleton, Skeleton, "skeleton")._ptr, skeleton.index(joint)
    p.target, p.forward, p.up = (tuple(map(float, v)) for v in (target, forward, up))
    p.weight = float(weight)
    lc, wc = _pose(skeleton, local)
    return _run(lib.ak_aim_ik_run, p, lc, wc)


def look_at(skeleton, local, joints, target, forward=(0, 0, 1), up=(0, 1, 0), weight=1.0,
            clamp_weight=0.0):
    """Look-at spread over a chain (spine -> neck -> head), the last joint aims exactly."""
    _need(skeleton, Skeleton, "skeleton")
    idx = ffi.new("int32_t[]", [skeleton.index(j) for j in joints])
    p = ffi.new("ak_look_at_params *", lib.ak_look_at_defaults())
    p.skeleton, p.chain, p.chain_length = skeleton._ptr, idx, len(joints)
    p.target, p.forward, p.up = (tuple(map(float, v)) for v in (target, forward, up))
    p.weight, p.clamp_weight = float(weight), float(clamp_weight)
    lc, wc = _pose(skeleton, local)
    return _run(lib.ak_look_at_run, p, lc, wc)
