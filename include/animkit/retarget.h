/* animkit — retargeting: play a humanoid capture on another humanoid rig.
 *
 * Source skeleton + clip + humanoid map  ->  model-space bone directions  ->  target rig.
 *
 * How a frame is transferred (every rotation and point in model space, each rig's own):
 *   - Both rigs' rest poses are put side by side: R_align is the yaw that turns the source
 *     rest facing (left hip -> right hip axis, Y up) onto the target's, so a capture that
 *     walks along its own facing walks along the target's facing.
 *   - Per mapped bone a rest offset A_j (the swing taking the target's rest bone direction
 *     onto the source's) absorbs different rest poses (T-pose vs A-pose, CMU's zero pose)
 *     and different joint axes. A mapped target joint j with source joint s gets
 *         W_t[j] = D_s(f) * A_j * Wrest_t[j],   D_s(f) = R_align W_s[s](f) Wrest_s[s]^-1 R_align^-1
 *     i.e. the source joint's model rotation away from its rest pose, applied to the
 *     target's aligned rest. Then every mapped segment (spine->chest, upper_leg->lower_leg,
 *     upper_arm->lower_arm, ...) is swung so its model direction equals the source's exactly.
 *   - Target joints between two mapped joints (extra spine joints, CMU's LHipJoint) share the
 *     rotation between them (slerp of the two ends' rest deltas); every other unmapped joint
 *     (fingers, toes, twist bones the source lacks) keeps its rest local rotation.
 *     Joints with the same name on both rigs are mapped too (a rig onto itself is exact).
 *   - Proportions: k = scale * (target thigh + shin) / (source thigh + shin). A point p of the
 *     source's model space goes to  M(p) = (k R_align p_xz,  sole_t + k (p_y - sole_s)): horizontal
 *     travel scales by k, heights scale by k above the ankle (sole_* = ankle height above the
 *     lowest point of the rest foot), so a standing target's soles sit on the scaled floor.
 *     The target hips are placed so the midpoint of its hip (upper-leg) joints is M(source's).
 *   - Contacts (offline run only): stance feet (ak_foot_contacts_detect on the source) are
 *     pinned: during each stance run the target ankle's horizontal position is held at the
 *     run's mean of where the rotation transfer puts it (the IK then removes the skate and
 *     bends the leg bones as little as it can), its height follows M(source ankle) so the
 *     sole meets the floor, and the limb solver
 *     (knee keeps its bend plane, foot keeps its model rotation) puts it there; the pin fades
 *     in and out over fade_time outside the run (smoothstep, seconds from the run's edge),
 *     so nothing pops. Under 50 fps the detector reads the clip on a finer grid, so the runs'
 *     edges fall between the file's frames where the capture has them; a reference T-pose
 *     frame 0 is never pinned.
 *     pin_hands does the same for hands with the detector run on the wrists.
 * Units: each rig in its own units (k carries the conversion); Y up; right-handed. */
#ifndef ANIMKIT_RETARGET_H
#define ANIMKIT_RETARGET_H

#include "locomotion.h"

AK_EXTERN_C_BEGIN

typedef struct ak_retarget_params {
    const ak_skeleton *source;  /* required */
    const ak_clip *source_clip; /* required by ak_retarget_run; optional for
                                   ak_retargeter_create */
    const ak_skeleton *target;  /* required */
    /* Humanoid maps. NULL: found by name with ak_humanoid_find(skeleton, overrides). */
    const ak_humanoid *source_map;
    const ak_humanoid *target_map;
    const char *source_overrides; /* "slot=Joint,..." used when source_map is NULL */
    const char *target_overrides;
    float scale; /* user scale on top of the leg-length ratio; default 1; > 0 */
    /* Output floor height (target units). NaN (default): the source's floor carried by M
     * (no measurement needed). Finite: the target's soles stand at this height, the source's
     * floor being measured from the clip (lowest foot point over all frames). */
    float floor_height;
    int32_t contacts;  /* 1 (default): pin stance feet with limb IK (ak_retarget_run) */
    int32_t pin_hands; /* 1: pin hands too (detector run on the wrists); default 0 */
    float fade_time;   /* seconds a pin fades in before / out after its stance run; default 0.1 */
    float source_metres_per_unit; /* for the contact detector; 0 (default): detect from height */
    ak_contact_params contact;    /* detector thresholds (ak_contact_defaults) */
    const uint8_t *stance_left;   /* optional source stance flags per frame, instead of */
    const uint8_t *stance_right;  /* detection (both or neither) */
    /* The source's reference pose, where its bones are matched to the target's rest pose
     * (ak_retarget_run). -1 (default): by measure, the zero pose when it stands (hips to head
     * and hips to each foot within 37 degrees of vertical: T-, A- and CMU's zero poses), else
     * the clip's most upright frame (head over hips, both legs under them), so a rig whose zero
     * pose lies along X retargets like one that stands; >= 0: that frame of source_clip.
     * With contacts on, the reference's feet are first set flat as the capture has them in
     * flat stance (ankle: heel and toe down; ball: toe down, by the contact detector) and
     * pointing along the reference's facing, so the target's rest feet match the source's
     * flat stance whichever pose the reference is (zero pose or frame). */
    int32_t reference_frame;
    /* Or a source local pose (source joint_count transforms, the source's units) named as the
     * reference, for a live retargeter without a clip (either form takes it): NULL (default)
     * picks by measure as above; not with reference_frame >= 0. ak_retargeter_create makes the
     * same choice as ak_retarget_run: the zero pose when it stands, else the named frame or
     * pose, else the clip's most upright frame (with source_clip given); without a clip or a
     * pose the zero pose is kept as it is. Read during create only. */
    const ak_xform *reference_pose;
} ak_retarget_params;

/* What a retarget did. */
typedef struct ak_retarget_info {
    float scale;                    /* k: leg-length ratio times the user scale */
    float leg_ratio;                /* target (thigh + shin) / source (thigh + shin) */
    float heading_offset;           /* R_align angle, radians (target rest heading - source's) */
    float source_sole, target_sole; /* ankle height above the rest foot's lowest point */
    float source_floor;       /* source units: measured lowest foot point (NaN when not measured) */
    float target_floor;       /* target units: where the target's soles stand */
    int32_t mapped_joints;    /* target joints driven by a source joint */
    int32_t chain_joints;     /* target joints sharing the rotation between two mapped ones */
    int32_t rest_joints;      /* target joints left at their rest rotation */
    int32_t stance_frames[4]; /* source stance frames: left foot, right foot, left, right hand */
    int32_t pinned_runs;      /* stance runs pinned */
    float max_pin_error;      /* largest distance IK left between an end joint and its pin,
                                 target units (0 without contacts) */
    /* Per foot [left, right], over the source's heel-down frames (the contact detector's heel
     * or roll bit): the highest target ankle
     * above target_floor, target units, and the same of the source's ankle mapped onto the
     * target (what the capture itself does). A pin residual near 0 with a height well above
     * the source's is a foot held in the air. -INFINITY when the foot has no stance frame
     * (or contacts are off). */
    float stance_foot_height[2];
    float source_stance_foot_height[2];
    int32_t reference_frame; /* the source frame used as reference pose; -1: its zero pose,
                                -2: params.reference_pose */
} ak_retarget_info;

AK_API ak_retarget_params ak_retarget_defaults(void);
/* AK_OK, or AK_ERR_INVALID_ARG with the reason (missing skeleton, clip joint count that does
 * not match the source, scale <= 0 or non-finite, fade_time < 0, stance flags for one foot
 * only, a given map with an index out of range or without hips and legs); AK_ERR_NOT_FOUND
 * when a map found by name misses hips or a leg joint (names listed). */
AK_API int32_t ak_retarget_validate(const ak_retarget_params *params, ak_error *err);
/* The ranges of its float fields (status.h: fade_time [0, 10] s, scale [1e-6, 1000], ...),
 * checked by ak_retarget_validate. */
AK_API const ak_param_table *ak_retarget_param_ranges(void);
/* Retargets the whole source clip: a new clip on params->target (same frame count, frame
 * time and loop flag; a translation track on the target hips only) the caller destroys.
 * `info` may be NULL. Offline: allocates. On failure *out_clip is NULL. */
AK_API int32_t ak_retarget_run(const ak_retarget_params *params, ak_clip **out_clip,
                               ak_retarget_info *info, ak_error *err);

/* ---- Per-frame form (no contacts): for engines that retarget live ---- */

typedef struct ak_retargeter ak_retargeter; /* opaque; references both skeletons */

/* Prepares the mapping (allocates) on the source's reference pose, chosen as ak_retarget_run
 * chooses it (params.reference_frame / reference_pose; with source_clip and contacts on, the
 * reference's feet set flat as the capture's flat stance has them); poses still come in on
 * the source skeleton. The skeletons must outlive the retargeter. */
AK_API int32_t ak_retargeter_create(const ak_retarget_params *params, ak_retargeter **out,
                                    ak_error *err);
AK_API void ak_retargeter_destroy(ak_retargeter *retargeter);
AK_API void ak_retargeter_get_info(const ak_retargeter *retargeter, ak_retarget_info *info);
/* One frame: reads the source local pose (source joint_count), writes the target local pose
 * (target joint_count). No allocation; uses scratch inside the retargeter, so one retargeter
 * serves one thread at a time: a call made while another thread's call is in flight returns
 * AK_ERR_STATE and leaves target_local untouched (AK_OK otherwise; AK_ERR_INVALID_ARG for a
 * null argument). */
AK_API int32_t ak_retargeter_pose(ak_retargeter *retargeter, const ak_xform *source_local,
                                  ak_xform *target_local);
/* M(p): where a source model-space point lands in the target's (see the header comment). */
AK_API ak_vec3 ak_retargeter_map_point(const ak_retargeter *retargeter, ak_vec3 source_point);
/* The source joint that drives target joint `target_joint`, or -1 (chain and rest joints). */
AK_API int32_t ak_retargeter_source_joint(const ak_retargeter *retargeter, int32_t target_joint);

AK_EXTERN_C_END

#endif
