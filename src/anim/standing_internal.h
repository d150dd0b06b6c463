/* Internal: which pose of a rig stands. A zero pose may be a T-pose, an A-pose, or (another
 * studio's) every bone along X; the retargeter's reference pose and the generated body are
 * built on a pose that stands, picked here by one measure (standing.c). */
#ifndef AK_ANIM_STANDING_INTERNAL_H
#define AK_ANIM_STANDING_INTERNAL_H

#include "animkit/clip.h"

/* cos 37 degrees: how vertical hips-to-head and hips-to-each-foot must be for a pose to stand. */
#define AK_STANDS_COS 0.8f

/* The least upright of hips-to-head (up; the neck when there is no head) and hips-to-each-foot
 * (down) in a model pose, as the cosine with +Y; 1 for a pose standing straight, and 1 when
 * the map has no hips or head to measure (then any pose is taken as it is). */
float ak_pose_uprightness(const ak_humanoid *map, const ak_xform *model);

/* True when frame 0 is a reference pose rather than motion (CMU's T-pose frame): some joint
 * turns more than 20 degrees between frames 0 and 1, which no captured motion does in one
 * frame. */
int ak_clip_first_frame_is_reference(const ak_clip *clip);

/* The frame of `clip` to stand the rig on: -1 when the skeleton's zero pose stands
 * (ak_pose_uprightness >= AK_STANDS_COS) or there is no clip; else the clip's most upright
 * frame, never a reference frame 0 (ak_clip_first_frame_is_reference: its arms out stand as
 * upright as any frame). `local` and `model` are scratch of joint_count transforms each (model
 * holds the zero pose's FK on return -1). O(frames * joints); allocates nothing. */
int32_t ak_clip_standing_frame(const ak_skeleton *skeleton, const ak_clip *clip,
                               const ak_humanoid *map, ak_xform *local, ak_xform *model);

/* ---- Feet set flat: a standing pose's feet as the capture has them in flat stance ---- */

/* A foot is taken flat within 2 cm of its lowest (metres; ak_clip_lowest_up_axes's tol). */
#define AK_LOWEST_TOL_M 0.02f

/* The ankle [0, 1] and ball [2, 3] joints of the left and right foot (-1: none). */
void ak_humanoid_foot_joints(const ak_humanoid *map, int32_t j[4]);

/* Model +Y seen from joint j's own frame (the up axis of a flat foot, read in the foot). */
ak_vec3 ak_joint_up(const ak_xform *model, int32_t j);

/* For each joint of j[4] whose up[i] is still zero, its up (ak_joint_up) summed over the
 * frames it (an ankle: and its ball) is within `tol` (file units) of its lowest height, where a
 * foot in any gait lies flattest; measured on the motion. Not normalised. `local`, `model`:
 * scratch of joint_count transforms each. */
void ak_clip_lowest_up_axes(const ak_skeleton *skeleton, const ak_clip *clip, const int32_t j[4],
                            float tol, ak_xform *local, ak_xform *model, ak_vec3 up[4]);

/* The yaw Y of a pose's facing: the one taking +X to its left (right upper leg to left upper
 * leg, on XZ); identity without both legs. */
ak_quat ak_pose_facing_yaw(const ak_humanoid *map, const ak_xform *model);

/* A pose's feet made to stand as a rest pose's do (model rotations `rot` of the pose whose FK is
 * `model`, changed in place): each ankle and ball tilted so its flat-stance up axis `up` (unit,
 * ak_humanoid_foot_joints order; a zero one leaves that joint) is vertical, then both turned
 * about the vertical so the foot (ankle to ball, or to its first child) points along the pose's
 * facing (yaw * +Z). A standing zero pose has flat feet pointing forward; a walking frame has
 * one heel or toe up and the feet turned out. */
void ak_pose_flatten_feet(const ak_skeleton *skeleton, const ak_humanoid *map, const ak_vec3 up[4],
                          ak_quat yaw, const ak_xform *model, ak_quat *rot);

#endif
