/* animkit — root motion: how far and how much a clip's root travels and turns.
 *
 * A clip's root carries the character across the floor. Root motion splits that travel off
 * the pose: the character transform (position on the ground + heading about +Y) takes the
 * horizontal translation and the heading, and the pose is left "in place" (root at x = z = 0,
 * facing +Z, vertical bob kept). Recombined, world = character * in_place reproduces the
 * clip exactly. Per frame: sample -> root motion -> controller -> IK -> FK.
 *
 * Heading: psi, radians about +Y; psi = 0 faces +Z and yaw(psi) maps +Z to (sin psi, 0, cos psi).
 * The root's heading is the yaw of its facing axis (params.forward_axis) projected on XZ.
 * Loops: a looping clip of duration T continues past T from where its loop ended; the root's
 * position and heading "at T" (one frame after the last key) is given (loop_end_*) or
 * extrapolated from the mean velocity, so deltas over any interval, across any number of
 * wraps, are well defined. */
#ifndef ANIMKIT_ROOTMOTION_H
#define ANIMKIT_ROOTMOTION_H

#include "clip.h"

AK_EXTERN_C_BEGIN

typedef struct ak_root_motion ak_root_motion; /* opaque */

typedef struct ak_root_motion_params {
    int32_t root_joint;      /* the joint that travels; default 0. Must be a root (parent -1). */
    ak_vec3 forward_axis;    /* the root's facing axis in its local space; default (0,0,1) */
    int32_t extract_heading; /* 1 (default): heading goes to the character, 0: stays in the pose */
    int32_t has_loop_end;    /* 1: loop_end_* give the root at t = duration (looping clips) */
    ak_vec3 loop_end_position; /* clip space; only x and z are used */
    float loop_end_heading;    /* radians, unwrapped relative to the last key */
} ak_root_motion_params;

AK_API ak_root_motion_params ak_root_motion_defaults(void);
AK_API int32_t ak_root_motion_validate(const ak_root_motion_params *params,
                                       const ak_skeleton *skeleton, const ak_clip *clip,
                                       ak_error *err);
/* The documented range of every float field (status.h), checked by the _validate above. */
AK_API const ak_param_table *ak_root_motion_param_ranges(void);
/* Reads the clip's root track (keys of every frame) into a root-motion track. The clip is
 * not referenced afterwards. */
AK_API int32_t ak_root_motion_create(const ak_skeleton *skeleton, const ak_clip *clip,
                                     const ak_root_motion_params *params, ak_root_motion **out,
                                     ak_error *err);
AK_API void ak_root_motion_destroy(ak_root_motion *rm);

/* The root's horizontal position (clip space, y = 0) and unwrapped heading at clip time t.
 * Looping clips continue past the duration (t may be any finite time >= 0); clamped clips
 * clamp t. Linear between keys. Either output may be NULL. */
AK_API void ak_root_motion_at(const ak_root_motion *rm, float t, ak_vec3 *position, float *heading);
/* Travel from t0 to t1 (t1 >= t0, any number of loops apart) in the character's frame at t0:
 * delta_translation (x,z; y = 0) is the displacement rotated by -heading(t0), delta_heading
 * is heading(t1) - heading(t0). Either output may be NULL. No allocation. */
AK_API void ak_root_motion_delta(const ak_root_motion *rm, float t0, float t1,
                                 ak_vec3 *delta_translation, float *delta_heading);
/* Travel over one whole loop (t0 = 0, t1 = duration), character frame. */
AK_API void ak_root_motion_loop(const ak_root_motion *rm, ak_vec3 *delta_translation,
                                float *delta_heading);
/* Makes a pose sampled at clip time t "in place": the root's horizontal translation is set
 * to 0 and (with extract_heading) the heading at t is removed from the root's rotation.
 * Vertical translation (the bob) is kept. Writes local[root_joint] only. */
AK_API void ak_root_motion_make_in_place(const ak_root_motion *rm, float t, ak_xform *local);
/* The character transform at clip time t that puts an in-place pose back where the clip had
 * it: rotation yaw(heading(t)), translation (position(t).x, 0, position(t).z). */
AK_API ak_xform ak_root_motion_character(const ak_root_motion *rm, float t);
/* Clip duration the track was built for, seconds. */
AK_API float ak_root_motion_duration(const ak_root_motion *rm);

/* ---- which joint travels ----
 * Studios put the character's travel on different joints: the top joint (CMU, most BVH), the
 * hips under a top joint that never moves (joint_Root -> Hips), or a dedicated root bone
 * (Unreal's `root`) under a still top joint. ak_root_joint_find measures it; every
 * root-motion user (cycle finder, walker, motion database, retargeting, root edits, the
 * viewer's layout and camera, Python, the plugin) calls it or the clip form below, so they
 * agree. */
typedef enum ak_root_joint_reason {
    AK_ROOT_JOINT_TOP_TRAVELS = 0, /* the top joint travels (or nothing travels: the top) */
    AK_ROOT_JOINT_UNDER_STILL = 1, /* the top joint is still; this joint below it travels */
    AK_ROOT_JOINT_NAMED = 2        /* the caller named it */
} ak_root_joint_reason;

typedef struct ak_root_joint_report {
    int32_t joint;    /* the joint that carries the travel */
    int32_t top;      /* the top joint above it (parent -1) */
    int32_t reason;   /* ak_root_joint_reason */
    float travel;     /* the joint's horizontal reach in model space: the largest distance
                         on XZ from its frame-0 position over the clip, file units */
    float top_travel; /* the same for the top joint */
    float height;     /* ak_clip_standing_height, file units: the body's (see `body`), the
                         scale of "still" */
    int32_t body;     /* the joint whose subtree is the body (ak_clip_body_root) */
} ak_root_joint_report;

/* Measures which joint carries the character's horizontal travel, walking down from the top
 * joint (joint 0's root): while the current joint stays within 1e-3 of the standing height
 * of its frame-0 position on XZ (still), the child below it that reaches furthest on XZ
 * becomes the candidate, if it reaches 0.25 of the standing height (a stride; the sway of an
 * idle capture is less) and has a translation track. Model space, every frame. The scale is
 * the body's standing height where the humanoid map is found by name, else every joint's
 * (the body is not known until the travelling joint is). `name`
 * (NULL or "": measure) names the joint instead; AK_ERR_NOT_FOUND when no joint has it, with
 * the message "no joint named 'NAME' to carry the root motion" (callers add where the name
 * came from: the CLI its --root-joint flag).
 * Allocates scratch (offline). */
AK_API int32_t ak_root_joint_find(const ak_skeleton *skeleton, const ak_clip *clip,
                                  const char *name, ak_root_joint_report *out, ak_error *err);
/* The joint whose subtree is the character's body, for the body's measures (the standing
 * height and the units guessed from it, the frame-0 height `animkit info` prints, the viewer's
 * framing): the lowest joint above every humanoid joint that ak_humanoid_find finds by name
 * (hips and both legs at least; the hips on the rigs it knows), else the joint that carries the
 * travel (ak_root_joint_find, measured). A joint above it is not part of the body: another
 * studio's joint_Root that never moves would add its point at y = 0, below the toes, to the
 * height (a still-top copy of CMU 02_01 measured 1.472 m against the original's 1.433), and a
 * root bone on the floor (Unreal's `root`) the same, moving or not (in the clip
 * ak_clip_travel_on_top makes, joint_Root moves with the hips and is still not the body). -1
 * for NULL arguments or a clip of another joint count. Allocates scratch when it measures
 * (offline). */
AK_API int32_t ak_clip_body_root(const ak_skeleton *skeleton, const ak_clip *clip);
/* The body's height in a model pose: ak_pose_body_height (skeleton.h). */

/* One line saying which joint travels and why, for `animkit info` and messages. */
AK_API void ak_root_joint_describe(const ak_skeleton *skeleton, const ak_root_joint_report *report,
                                   char *buf, size_t size);
/* A new clip in which the top joint carries the horizontal travel (and the turn about +Y) of
 * report->joint, every joint's model-space transform unchanged in every frame (float
 * rounding): the top joint's local transform is premultiplied by T(f) = the joint's XZ
 * position and heading about +Y (as a travelling top joint of the same capture would have
 * them), and each child hanging off the chain between them is
 * given T(f)^-1 in its parent's frame (translation tracks are added where needed). When the
 * top joint already travels, a plain copy. The clip is what every joint-0 root-motion user
 * reads; the caller destroys it. */
AK_API int32_t ak_clip_travel_on_top(const ak_skeleton *skeleton, const ak_clip *clip,
                                     const ak_root_joint_report *report, ak_clip **out,
                                     ak_error *err);

/* The one call root-motion users make on a clip they read: measures the travelling joint (or
 * takes `name`, NULL/"": measure) with ak_root_joint_find and, when it is not the top joint,
 * replaces *clip by ak_clip_travel_on_top's clip (the old one is destroyed); when the measured
 * top joint travels above the body (report->body below it: a floor bone such as Unreal's
 * `root`), the same with the body's joint, so the top joint faces where the body does.
 * `report` (may be NULL) says which joint and why. On failure *clip is unchanged. */
AK_API int32_t ak_clip_root_motion_prepare(const ak_skeleton *skeleton, ak_clip **clip,
                                           const char *name, ak_root_joint_report *report,
                                           ak_error *err);

/* Heading helpers. yaw(psi) as a quaternion, and the heading of a rotation's facing axis. */
AK_API ak_quat ak_quat_yaw(float heading);
AK_API float ak_heading_of(ak_quat rotation, ak_vec3 forward_axis);

AK_EXTERN_C_END

#endif
