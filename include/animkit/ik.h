/* animkit — inverse kinematics: limb (two-bone), CCD, FABRIK, Jacobian (pseudo-inverse and
 * damped least squares), aim and look-at.
 *
 * Every solver has the same shape (ozz-animation's job pattern):
 *
 *     ak_limb_ik_params p = ak_limb_ik_defaults();
 *     p.skeleton = skel; p.upper = hip; p.middle = knee; p.end = ankle; p.target = ...;
 *     ak_ik_result r;
 *     if (ak_limb_ik_run(&p, local, model, &r, &err) < 0) ...;
 *
 * Inputs
 *   - `local`: the pose, one parent-space transform per skeleton joint.
 *   - `model`: the model-space transforms of that same pose (ak_fk(skeleton, local, model)).
 *     The solvers read positions and rotations from it and never run a full FK themselves.
 *   - Targets, poles and up vectors are model-space (the space of `model`).
 *
 * Outputs
 *   - Only the local rotations of the solved joints are written; translations never change,
 *     so bone lengths stay what the skeleton says. `model` is brought up to date for the chain
 *     root and everything below it (ak_fk_subtree); joints below the tip move rigidly with it
 *     and joints that are neither in the chain nor below it are not touched.
 *   - weight 0 leaves `local` and `model` bit-for-bit as they were; weight 1 is the full solve;
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
 * rejected with AK_ERR_DEGENERATE, and coordinates so large that squared distances overflow
 * single precision (beyond about 1e18) with AK_ERR_INVALID_ARG. On any error nothing is
 * written. */
#ifndef ANIMKIT_IK_H
#define ANIMKIT_IK_H

#include "skeleton.h"

AK_EXTERN_C_BEGIN

/* Longest chain (joints, tip included) CCD, FABRIK and the look-at chain accept. */
#define AK_IK_MAX_CHAIN 64

/* What a solve did. */
typedef struct ak_ik_result {
    int32_t reached;     /* 1 when the final error is within the tolerance */
    int32_t unreachable; /* 1 when the target lies beyond the chain's reach by more than the
                          * tolerance (the chain is straightened toward it) */
    int32_t iterations;  /* passes/steps used: 1 for the analytic solvers; 0 when an iterative
                          * solver had nothing to do (weight 0, already within tolerance,
                          * chain of one joint) */
    float error;         /* final distance end effector -> target, model-space units; for aim
                          * solvers the remaining angle in radians */
} ak_ik_result;

/* Fills out_chain with the joints from `root` down to `tip` (root first). `tip` must be
 * `root` or one of its descendants. Returns the chain length, or a negative status
 * (AK_ERR_INVALID_ARG: bad index or tip not below root; AK_ERR_LIMIT: longer than capacity). */
AK_API int32_t ak_ik_chain_from_joints(const ak_skeleton *skeleton, int32_t root, int32_t tip,
                                       int32_t *out_chain, int32_t capacity);
/* Removes, in place, every chain joint after the first whose skeleton bone length is zero
 * (it sits exactly on its parent, e.g. CMU's LHipJoint on Hips): its position adds nothing
 * the joint above cannot do, and zero-length bones are rejected by the solvers. The removed
 * joints stay rigid during solves. Returns the new length. */
AK_API int32_t ak_ik_chain_skip_zero_bones(const ak_skeleton *skeleton, int32_t *chain,
                                           int32_t length);

/* ---- Limb IK: analytic two-bone (hip-knee-ankle, shoulder-elbow-wrist) ---- */

typedef struct ak_limb_ik_params {
    const ak_skeleton *skeleton; /* required */
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
/* The ranges of its float fields (status.h, src/ik/param_ranges.c), checked by the above. */
AK_API const ak_param_table *ak_limb_ik_param_ranges(void);
/* The ozz-style form. Reads model[] of the three joints only and writes local-space
 * correction rotations: the caller applies them as
 *     local[upper].rotation  = local[upper].rotation  * upper_correction
 *     local[middle].rotation = local[middle].rotation * middle_correction
 * (both written as identity when the solve fails). `end_rotation_out` (may be NULL) gets the
 * end joint's new local rotation when match_end_rotation is set, else its current one.
 * The weight is applied to the corrections (slerp from identity). AK_ERR_DEGENERATE for a
 * zero-length bone. */
AK_API int32_t ak_limb_ik_solve(const ak_limb_ik_params *params, const ak_xform *local,
                                const ak_xform *model, ak_quat *upper_correction,
                                ak_quat *middle_correction, ak_quat *end_rotation_out,
                                ak_ik_result *result, ak_error *err);
/* Solves and writes local rotations of upper, middle (and end if match_end_rotation), then
 * refreshes model from `upper` down. `result` and `err` may be NULL. */
AK_API int32_t ak_limb_ik_run(const ak_limb_ik_params *params, ak_xform *local, ak_xform *model,
                              ak_ik_result *result, ak_error *err);

/* ---- Joint limits (CCD, FABRIK) ----
 * A limit constrains a chain joint's local rotation relative to its rest rotation:
 * q_rel = conj(rest_local.rotation) * local.rotation (for BVH skeletons rest rotations are
 * identity, so q_rel is the local rotation itself). */
typedef enum ak_ik_limit_type {
    AK_IK_LIMIT_NONE = 0,
    AK_IK_LIMIT_HINGE = 1, /* q_rel is a rotation about `axis` by an angle in [min, max] */
    AK_IK_LIMIT_CONE = 2   /* q_rel = swing * twist: twist about `axis` in [min, max], swing
                            * tilting `axis` by at most cone_angle */
} ak_ik_limit_type;

typedef struct ak_ik_limit {
    int32_t type; /* ak_ik_limit_type */
    /* Joint-local unit axis. Hinge: the rotation axis (required). Cone: the bone direction
     * (the cone's centre and the twist axis); zero means "toward the next chain joint". */
    ak_vec3 axis;
    float min_angle; /* radians; hinge angle / twist angle range, min <= max, in [-pi, pi] */
    float max_angle;
    float cone_angle; /* cone: largest swing, radians in [0, pi] */
} ak_ik_limit;

AK_API ak_ik_limit ak_ik_limit_none(void);
AK_API ak_ik_limit ak_ik_limit_hinge(ak_vec3 axis, float min_angle, float max_angle);
AK_API ak_ik_limit ak_ik_limit_cone(ak_vec3 axis, float cone_angle, float twist_min,
                                    float twist_max);
/* The closest rotation to `q_rel` the limit allows (swing-twist decomposition about the axis,
 * twist clamped, swing clamped to the cone / dropped for a hinge). `bone_axis` is used when
 * a cone limit's axis is zero. Returns a unit quaternion. */
AK_API ak_quat ak_ik_limit_apply(const ak_ik_limit *limit, ak_quat q_rel, ak_vec3 bone_axis);

/* ---- CCD and FABRIK: iterative solvers over a chain ----
 * The chain lists joints root first, each a descendant of the previous one (usually its
 * child; ak_ik_chain_from_joints builds one). The tip (last joint) is the end effector; every
 * other chain joint rotates. Chain length 1..AK_IK_MAX_CHAIN; a chain of 1 cannot move and only
 * reports its error. */
typedef struct ak_chain_ik_params {
    const ak_skeleton *skeleton; /* required */
    const int32_t *chain;        /* chain_length joint indices, root first */
    int32_t chain_length;
    ak_vec3 target; /* model space */
    /* CCD only: per-joint weight w_j in [0,1] scaling each joint's rotation (chain_length
     * entries, the tip's ignored); NULL means 1 for all. FABRIK ignores it. */
    const float *joint_weights;
    /* Per-joint limits (chain_length entries, the tip's ignored); NULL means none. */
    const ak_ik_limit *limits;
    int32_t max_iterations; /* passes; default 100, >= 1 */
    float tolerance;        /* fraction of the chain length; default 1e-4 */
    float weight;           /* 0..1; default 1 */
} ak_chain_ik_params;

AK_API ak_chain_ik_params ak_chain_ik_defaults(void);
/* AK_OK or AK_ERR_INVALID_ARG (bad indices, chain not parent-to-descendant ordered, too long,
 * non-finite target, weights/limits out of range, max_iterations < 1...). */
AK_API int32_t ak_chain_ik_validate(const ak_chain_ik_params *params, ak_error *err);
/* The ranges of its float fields (status.h, src/ik/param_ranges.c), checked by the above. */
AK_API const ak_param_table *ak_chain_ik_param_ranges(void);
/* Cyclic coordinate descent: passes from the joint nearest the tip back to the root, each
 * joint turned about normalize(r_jn x r_jd) by w_j * acos(r^_jn . r^_jd) (r_jn: joint -> end
 * effector, r_jd: joint -> target), then limited. Stops when within tolerance, when a pass no
 * longer improves the error, or at max_iterations. An unreachable target straightens the
 * chain toward it in one pass (CCD alone has fixed points with the chain folded along the
 * line to the target). AK_ERR_DEGENERATE for zero-length bones. */
AK_API int32_t ak_ccd_ik_run(const ak_chain_ik_params *params, ak_xform *local, ak_xform *model,
                             ak_ik_result *result, ak_error *err);
/* FABRIK (Aristidou & Lasenby 2011): backward (tip -> root) and forward (root -> tip) passes
 * over joint positions keeping every bone length exact; an unreachable target gives the chain
 * stretched straight toward it. After each iteration each joint's rotation becomes the
 * minimal rotation from its bone's old direction to the new one (twist kept), then limited.
 * With limits, once the constrained passes stop improving, the remaining iterations are CCD
 * passes (position passes know nothing of hinges; CCD respects them joint by joint). */
AK_API int32_t ak_fabrik_ik_run(const ak_chain_ik_params *params, ak_xform *local, ak_xform *model,
                                ak_ik_result *result, ak_error *err);

/* ---- Jacobian solvers: pseudo-inverse and damped least squares ----
 * Three rotation axes per joint (model-space x, y, z through the joint). With the stacked
 * effector error e (3 rows per effector, scaled by its weight) and Jacobian J:
 *   pseudo-inverse          dtheta = J^T (J J^T)^-1 e       (LDL^T, tiny pivots dropped)
 *   damped least squares    dtheta = J^T (J J^T + lambda^2 I)^-1 e
 * Each step is scaled (direction kept) so no component exceeds max_step radians; each
 * effector's error is clamped to half the chain length per step (Buss's clamp); a step that
 * increases the weighted squared error is undone and the step limit halved (it regrows after
 * good steps), which keeps both methods from oscillating near singular poses. */
typedef enum ak_jacobian_method {
    AK_JACOBIAN_PSEUDO_INVERSE = 0,
    AK_JACOBIAN_DLS = 1
} ak_jacobian_method;

typedef struct ak_jacobian_ik_params {
    const ak_skeleton *skeleton; /* required */
    int32_t method;              /* ak_jacobian_method; default AK_JACOBIAN_DLS */
    /* Single-effector form (used when effector_count == 0): a chain as for CCD/FABRIK. */
    const int32_t *chain;
    int32_t chain_length;
    ak_vec3 target; /* model space */
    /* Multi-effector form (used when effector_count > 0): the joints allowed to rotate
     * (strictly ascending indices) and the effector joints with their model-space targets and
     * weights (NULL weights: all 1). An effector is moved by the joints it lies below. */
    const int32_t *joints;
    int32_t joint_count;
    const int32_t *effectors;
    const ak_vec3 *targets;
    const float *effector_weights;
    int32_t effector_count;
    /* DLS damping lambda as a fraction of the chain length; default 0.05 (Buss's lambda 0.6
     * on a chain of about 10 unit bones). Ignored by the pseudo-inverse. */
    float damping;
    /* Largest step, radians per axis per iteration. 0 (default) picks the method's own:
     * 0.1 for the pseudo-inverse (its step limit) and 0.5 for DLS, whose damping already
     * keeps steps well behaved near singular poses. */
    float max_step;
    int32_t max_iterations; /* default 100 */
    float tolerance;        /* fraction of the chain length; default 1e-4 */
    float weight;           /* 0..1; default 1 */
    void *workspace;        /* caller-owned, ak_jacobian_ik_workspace_size bytes */
    size_t workspace_bytes;
} ak_jacobian_ik_params;

AK_API ak_jacobian_ik_params ak_jacobian_ik_defaults(void);
/* Bytes of workspace for `joint_count` rotating joints (chain_length - 1 for a chain) and
 * `effector_count` effectors (1 for a chain). 0 for counts below 1 or absurd sizes. */
AK_API size_t ak_jacobian_ik_workspace_size(int32_t joint_count, int32_t effector_count);
AK_API int32_t ak_jacobian_ik_validate(const ak_jacobian_ik_params *params, ak_error *err);
/* The ranges of its float fields (status.h, src/ik/param_ranges.c), checked by the above. */
AK_API const ak_param_table *ak_jacobian_ik_param_ranges(void);
/* Iterates to tolerance (every effector within tolerance * the longest effector chain) or
 * max_iterations; writes the local rotations of the rotating joints and refreshes model below
 * them. result->error is the largest effector error. */
AK_API int32_t ak_jacobian_ik_run(const ak_jacobian_ik_params *params, ak_xform *local,
                                  ak_xform *model, ak_ik_result *result, ak_error *err);

/* ---- Aim and look-at ---- */

typedef struct ak_aim_ik_params {
    const ak_skeleton *skeleton; /* required */
    int32_t joint;               /* the joint to turn */
    ak_vec3 target;              /* model-space point to aim at */
    ak_vec3 forward;             /* joint-local axis that should point at the target;
                                  * default (0,0,1) */
    ak_vec3 up;                  /* joint-local axis kept as close to up_model as the aim
                                  * allows; default (0,1,0); may be zero to skip */
    ak_vec3 up_model;            /* model-space up; default (0,1,0) */
    /* Like Unity's clampWeight: 0 = unrestricted, 1 = no motion, in between the forward axis
     * turns at most (1 - clamp_weight) * pi radians toward the target. Default 0. */
    float clamp_weight;
    float tolerance; /* radians; reached when the remaining angle is below */
    float weight;    /* 0..1; default 1 */
} ak_aim_ik_params;

AK_API ak_aim_ik_params ak_aim_ik_defaults(void);
AK_API int32_t ak_aim_ik_validate(const ak_aim_ik_params *params, ak_error *err);
/* The ranges of its float fields (status.h, src/ik/param_ranges.c), checked by the above. */
AK_API const ak_param_table *ak_aim_ik_param_ranges(void);
/* ozz-style: reads model[joint] only; writes the local correction to apply as
 * local[joint].rotation = local[joint].rotation * correction (weight applied).
 * result->error is the remaining angle (radians) between forward and the target direction. */
AK_API int32_t ak_aim_ik_solve(const ak_aim_ik_params *params, const ak_xform *model,
                               ak_quat *correction, ak_ik_result *result, ak_error *err);
AK_API int32_t ak_aim_ik_run(const ak_aim_ik_params *params, ak_xform *local, ak_xform *model,
                             ak_ik_result *result, ak_error *err);

/* Look-at spread over a chain (spine -> neck -> head). From the first joint to the last, each
 * joint turns by joint_weights[i] of the rotation that would aim the last joint's forward
 * axis at the target; the last joint always takes the rest (weight 1), so it lands exactly.
 * clamp_weight limits the total angle as for aim; the last joint's up axis is kept upright. */
typedef struct ak_look_at_params {
    const ak_skeleton *skeleton; /* required */
    const int32_t *chain;        /* root first, each below the previous; 1..AK_IK_MAX_CHAIN */
    int32_t chain_length;
    const float *joint_weights; /* chain_length entries in [0,1] (last ignored); NULL: an
                                 * even spread 1/(n-i) that shares the turn equally */
    ak_vec3 target;             /* model space */
    ak_vec3 forward;            /* last joint's local forward axis; default (0,0,1) */
    ak_vec3 up;                 /* last joint's local up axis; default (0,1,0) */
    ak_vec3 up_model;           /* model-space up (as for aim); default (0,1,0) */
    float clamp_weight;         /* as for aim; default 0 */
    float tolerance;            /* radians; default 1e-3 */
    float weight;               /* 0..1; default 1 */
} ak_look_at_params;

AK_API ak_look_at_params ak_look_at_defaults(void);
AK_API int32_t ak_look_at_validate(const ak_look_at_params *params, ak_error *err);
/* The ranges of its float fields (status.h, src/ik/param_ranges.c), checked by the above. */
AK_API const ak_param_table *ak_look_at_param_ranges(void);
AK_API int32_t ak_look_at_run(const ak_look_at_params *params, ak_xform *local, ak_xform *model,
                              ak_ik_result *result, ak_error *err);

/* ---- One call for every chain solver ----
 * The CLI's `animkit ik --solver`, the viewer's solver switch, the fuzzer and the benchmark
 * pick a solver by kind (or by name) and give the common inputs once. */
typedef enum ak_ik_kind {
    AK_IK_LIMB = 0,     /* analytic two-bone: upper chain[0], middle chain[n-2], end chain[n-1] */
    AK_IK_CCD = 1,      /* ak_ccd_ik_run */
    AK_IK_FABRIK = 2,   /* ak_fabrik_ik_run */
    AK_IK_JACOBIAN = 3, /* ak_jacobian_ik_run, pseudo-inverse */
    AK_IK_DLS = 4,      /* ak_jacobian_ik_run, damped least squares */
    AK_IK_KIND_COUNT = 5
} ak_ik_kind;

typedef struct ak_ik_any_params {
    const ak_skeleton *skeleton; /* required */
    const int32_t *chain;        /* root first, tip last (ak_ik_chain_from_joints); limb: >= 3 */
    int32_t chain_length;
    ak_vec3 target;         /* model space */
    int32_t use_pole;       /* limb: bend the middle joint toward `pole` (others ignore it) */
    ak_vec3 pole;           /* model space */
    int32_t max_iterations; /* iterative solvers; default 100 */
    float tolerance;        /* fraction of the chain length; default 1e-4 */
    float weight;           /* 0..1; default 1 */
    void *workspace;        /* jacobian/dls: ak_ik_any_workspace_size bytes, caller-owned */
    size_t workspace_bytes;
} ak_ik_any_params;

AK_API ak_ik_any_params ak_ik_any_defaults(void);
/* "limb", "ccd", "fabrik", "jacobian", "dls"; "?" for anything else. */
AK_API const char *ak_ik_kind_name(ak_ik_kind kind);
/* The kind called `name`, or -1. */
AK_API int32_t ak_ik_kind_from_name(const char *name);
/* Workspace bytes `kind` needs for a chain of chain_length joints (0: none needed). */
AK_API size_t ak_ik_any_workspace_size(ak_ik_kind kind, int32_t chain_length);
/* What ak_ik_solve_any(kind, params, ...) would refuse, without solving: the chosen solver's
 * own validate on the params it would get (plus: limb needs 3+ joints, jacobian/dls a
 * workspace). AK_ERR_INVALID_ARG with the reason. */
AK_API int32_t ak_ik_any_validate(ak_ik_kind kind, const ak_ik_any_params *params, ak_error *err);
/* The ranges of its float fields (status.h, src/ik/param_ranges.c), checked by the above. */
AK_API const ak_param_table *ak_ik_any_param_ranges(void);
/* Runs solver `kind` with the solver's own defaults for everything the common params do not
 * set; validates like that solver (plus: limb needs 3+ joints, jacobian/dls a workspace). */
AK_API int32_t ak_ik_solve_any(ak_ik_kind kind, const ak_ik_any_params *params, ak_xform *local,
                               ak_xform *model, ak_ik_result *result, ak_error *err);

AK_EXTERN_C_END

#endif
