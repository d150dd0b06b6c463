/* animkit — inverse kinematics: limb (two-bone), CCD, FABRIK, Jacobian (pseudo-inverse and
 * damped least squares), aim and look-at.
 *
 * Every solver has the same shape (ozz-animation's job pattern):
 *
 *     ak_limb_ik_params p = ak_limb_ik_defaults();
 *     p.skeleton = skel; p.upper = hip; p.middle = knee; p.end = ankle; p.target = ...;
 *     ak_ik_result r;
 *     if (ak_limb_ik_run(&p, local, world, &r, &err) < 0) ...;
 *
 * Inputs
 *   - `local`: the pose, one parent-space transform per skeleton joint.
 *   - `world`: the model-space transforms of that same pose (ak_fk(skeleton, local, world)).
 *     The solvers read positions and rotations from it and never run a full FK themselves.
 *   - Targets, poles and up vectors are model-space (the space of `world`).
 *
 * Outputs
 *   - Only the local rotations of the solved joints are written; translations never change,
 *     so bone lengths stay what the skeleton says. `world` is brought up to date for the chain
 *     root and everything below it (ak_fk_subtree); joints below the tip move rigidly with it
 *     and joints that are neither in the chain nor below it are not touched.
 *   - weight 0 leaves `local` and `world` bit-for-bit as they were; weight 1 is the full solve;
 *     in between each solved joint's local rotation is slerp(input, solved, weight).
 *   - ak_ik_result says whether the target was reached, how many iterations ran and the final
 *     distance between end effector and target.
 *
 * Tolerances are fractions of the chain length (the sum of its bone lengths), so one default
 * works for metres, centimetres and inches alike.
 *
 * No solver allocates. CCD, FABRIK and the look-at chain work on at most AK_IK_MAX_CHAIN
 * joints; the Jacobian solvers take a caller-owned workspace sized by a query.
 * For finite input no solver writes NaN/Inf or a non-unit quaternion; zero-length bones are
 * rejected with AK_ERR_DEGENERATE. */
#ifndef ANIMKIT_IK_H
#define ANIMKIT_IK_H

#include "skeleton.h"

AK_EXTERN_C_BEGIN

/* Longest chain (joints, tip included) CCD, FABRIK and the look-at chain accept. */
#define AK_IK_MAX_CHAIN 64

/* What a solve did. */
typedef struct ak_ik_result {
    int32_t reached;      /* 1 when the final error is within the tolerance */
    int32_t unreachable;  /* 1 when the target is beyond the chain's reach (chain straightened
                           * toward it) */
    int32_t iterations;   /* passes/steps used (1 for the analytic solvers, 0 for weight 0) */
    float error;          /* final distance end effector -> target, model-space units; for aim
                           * solvers the remaining angle in radians */
} ak_ik_result;

/* Fills out_chain with the joints from `root` down to `tip` (root first). `tip` must be
 * `root` or one of its descendants. Returns the chain length, or a negative status
 * (AK_ERR_INVALID_ARG: bad index or tip not below root; AK_ERR_LIMIT: longer than capacity). */
AK_API int32_t ak_ik_chain_from_joints(const ak_skeleton *skeleton, int32_t root, int32_t tip,
                                       int32_t *out_chain, int32_t capacity);

/* ---- Limb IK: analytic two-bone (hip-knee-ankle, shoulder-elbow-wrist) ---- */

typedef struct ak_limb_ik_params {
    const ak_skeleton *skeleton;  /* required */
    /* The three joints: `middle` must be a descendant of `upper` and `end` a descendant of
     * `middle` (usually direct children).
     * Bone lengths are the model-space distances upper->middle and middle->end, which for
     * direct children are the skeleton's bone lengths (rotations never change them). */
    int32_t upper, middle, end;
    /* Where the end joint should go. Model space. */
    ak_vec3 target;
    /* Pole (hint) position, model space, used when use_pole != 0: the middle joint bends
     * toward it. When the pole lies on the upper->target line (or use_pole is 0) the
     * limb keeps its current bend plane; when the limb is also straight, it bends about
     * `mid_axis`. Default: use_pole 0. */
    int32_t use_pole;
    ak_vec3 pole;
    /* Hinge axis of the middle joint in its own local space, used only when neither the pole
     * nor the current pose defines a bend plane (straight limb). The limb bends by a positive
     * rotation about it. Default (0,0,1). Must not be zero. */
    ak_vec3 mid_axis;
    /* Soft limit near full reach: 0 disables (default). s in (0,1): once the target distance
     * d exceeds s*(l1+l2) the reach approaches full extension smoothly
     * (d' = ds + (L-ds)(1-exp(-(d-ds)/(L-ds))), L = l1+l2, ds = s*L) instead of snapping
     * straight, which removes the knee "pop" at full extension. */
    float soft_limit;
    /* When match_end_rotation != 0 the end joint's model-space rotation becomes
     * end_rotation (e.g. foot flat on the ground). Default 0. */
    int32_t match_end_rotation;
    ak_quat end_rotation;
    /* Reached when |end - target| <= tolerance * (l1 + l2). Default 1e-4. */
    float tolerance;
    /* 0..1, see the header comment. Default 1. */
    float weight;
} ak_limb_ik_params;

AK_API ak_limb_ik_params ak_limb_ik_defaults(void);
/* AK_OK, or AK_ERR_INVALID_ARG with the reason in err (null skeleton, joints out of range
 * or not in parent->descendant order, non-finite input, weight outside [0,1], soft_limit
 * outside [0,1), zero mid_axis, negative tolerance). Geometry (zero-length bones) is checked
 * by the solve since it depends on the pose. */
AK_API int32_t ak_limb_ik_validate(const ak_limb_ik_params *params, ak_error *err);
/* The ozz-style form. Reads world[] of the three joints only and writes local-space
 * correction rotations: the caller applies them as
 *     local[upper].rotation  = local[upper].rotation  * upper_correction
 *     local[middle].rotation = local[middle].rotation * middle_correction
 * (both written as identity when the solve fails). `end_rotation_out` (may be NULL) gets the
 * end joint's new local rotation when match_end_rotation is set, else its current one.
 * The weight is applied to the corrections (slerp from identity). AK_ERR_DEGENERATE for a
 * zero-length bone. */
AK_API int32_t ak_limb_ik_solve(const ak_limb_ik_params *params, const ak_xform *local,
                                const ak_xform *world, ak_quat *upper_correction,
                                ak_quat *middle_correction, ak_quat *end_rotation_out,
                                ak_ik_result *result, ak_error *err);
/* Solves and writes local rotations of upper, middle (and end if match_end_rotation), then
 * refreshes world from `upper` down. `result` and `err` may be NULL. */
AK_API int32_t ak_limb_ik_run(const ak_limb_ik_params *params, ak_xform *local, ak_xform *world,
                              ak_ik_result *result, ak_error *err);

AK_EXTERN_C_END

#endif
