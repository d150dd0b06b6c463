/* animkit — skeletons, poses and forward kinematics.
 *
 * A skeleton is a joint hierarchy stored as flat arrays with every parent before its
 * children (parents[j] < j, the root has parent -1), so FK is one forward loop.
 * A pose is an array of joint_count local transforms (parent space). FK gives the model
 * pose, the array of model-space transforms model[j] = model[parents[j]] * local[j] (the
 * parameter keeps the name `model`). Model space is the skeleton's own; it is the scene's
 * model space only when local[root] carries the character's placement (locomotion does).
 * Bone lengths come from the rest pose and never from a bent pose. */
#ifndef ANIMKIT_SKELETON_H
#define ANIMKIT_SKELETON_H

#include "ak_math.h"
#include "status.h"

AK_EXTERN_C_BEGIN

#define AK_NAME_MAX 64 /* joint names are truncated to 63 bytes + NUL (parsers reject longer) */

/* BVH channel kinds, in the order a CHANNELS line names them. Values are ABI. */
typedef enum ak_channel {
    AK_CH_XPOS = 0,
    AK_CH_YPOS = 1,
    AK_CH_ZPOS = 2,
    AK_CH_XROT = 3,
    AK_CH_YROT = 4,
    AK_CH_ZROT = 5
} ak_channel;

/* Per-joint channel layout, as read from (or to be written to) a BVH file. */
typedef struct ak_channel_layout {
    uint8_t count;   /* 0, 3 or 6 (End Site tips have 0) */
    uint8_t kind[6]; /* ak_channel values, in file order */
} ak_channel_layout;

/* The skeleton. Treat every field as read-only; build one with ak_skeleton_create.
 * Arrays have joint_count entries. */
typedef struct ak_skeleton {
    int32_t joint_count;
    char (*names)[AK_NAME_MAX];  /* joint names; End Sites are "<parent>_end" */
    int32_t *parents;            /* parent index, -1 for a root; parents[j] < j */
    ak_xform *rest_local;        /* rest pose (BVH OFFSETs, identity rotations), parent space */
    float *bone_lengths;         /* |rest_local[j].translation|: length of the bone parent->j */
    ak_channel_layout *channels; /* BVH channel layout per joint */
    uint8_t *is_end_site;        /* 1 for a tip created from an End Site */
    int32_t *subtree_end;        /* joints j..subtree_end[j]-1 are j and its descendants */
} ak_skeleton;

/* Description used to build a skeleton. `channels` and `is_end_site` may be NULL. */
typedef struct ak_skeleton_desc {
    int32_t joint_count;
    const char *const *names;
    const int32_t *parents;
    const ak_xform *rest_local;
    const ak_channel_layout *channels;
    const uint8_t *is_end_site;
} ak_skeleton_desc;

/* Allocates a skeleton and copies `desc`. Fails with AK_ERR_INVALID_ARG (message in `err`)
 * when a parent index is not smaller than its child, a name is empty or too long, or
 * joint_count < 1. The joint order must be depth-first (each subtree contiguous), which is
 * what BVH files give; other orders are rejected. */
AK_API int32_t ak_skeleton_create(const ak_skeleton_desc *desc, ak_skeleton **out, ak_error *err);
AK_API void ak_skeleton_destroy(ak_skeleton *skeleton);
/* A deep copy (AK_ERR_NOMEM on failure, *out NULL). */
AK_API int32_t ak_skeleton_clone(const ak_skeleton *skeleton, ak_skeleton **out, ak_error *err);
AK_API int32_t ak_skeleton_joint_count(const ak_skeleton *skeleton);
/* Index of the joint called `name` (exact, case-sensitive), or -1. */
AK_API int32_t ak_skeleton_find(const ak_skeleton *skeleton, const char *name);
/* AK_OK when a and b are one rig: the same joint count, names and parents, joint by joint
 * (rest poses may differ: a clip's keys mean the same joints on both). Otherwise
 * AK_ERR_INVALID_ARG naming the first joint that differs. Used wherever clips of two
 * skeletons are joined or blended. */
AK_API int32_t ak_skeleton_same_rig(const ak_skeleton *a, const ak_skeleton *b, ak_error *err);

/* FK: model-space transforms of every joint from local transforms.
 * Reads local[0..n), writes model[0..n). No allocation. `local` and `model` must not alias. */
AK_API void ak_fk(const ak_skeleton *skeleton, const ak_xform *local, ak_xform *model);
/* Partial FK after an edit of local[joint]: recomputes model for `joint` and all its
 * descendants only, assuming model[] is current for every other joint. */
AK_API void ak_fk_subtree(const ak_skeleton *skeleton, const ak_xform *local, ak_xform *model,
                          int32_t joint);
/* Copies the rest pose into local[0..n). */
AK_API void ak_pose_rest(const ak_skeleton *skeleton, ak_xform *local);
/* Scales the skeleton's rest translations and bone lengths by `factor` in place (e.g. a
 * ak_units_detect scale to work in metres). Pair with ak_clip_scale on its clips. */
AK_API void ak_skeleton_scale(ak_skeleton *skeleton, float factor);
/* Height of the rest pose's body along Y: max y - min y of the model-space rest positions of
 * the body, the lowest joint above every humanoid joint found by name (ak_humanoid_find) and
 * its descendants, as ak_clip_body_root measures a clip's (rootmotion.h): a joint above the
 * hips (another studio's still joint_Root, a root bone on the floor) is not counted. Every
 * joint when no humanoid map is found. */
AK_API float ak_skeleton_rest_height(const ak_skeleton *skeleton);
/* Height along Y of a model pose (max y - min y over every joint). */
AK_API float ak_pose_height(const ak_xform *model, int32_t joint_count);
/* Height along Y of a model pose over `body` and its descendants (ak_pose_height of
 * model[body .. subtree_end[body])): the body's height, with body = ak_clip_body_root. 0 for
 * NULL or a joint out of range. */
AK_API float ak_pose_body_height(const ak_skeleton *skeleton, const ak_xform *model, int32_t body);

/* ---- Humanoid map: the named joints the higher layers need, found by name. ---- */

typedef enum ak_humanoid_slot {
    AK_HUM_HIPS = 0,
    AK_HUM_SPINE,
    AK_HUM_CHEST,
    AK_HUM_NECK,
    AK_HUM_HEAD,
    AK_HUM_LEFT_UPPER_LEG,
    AK_HUM_LEFT_LOWER_LEG,
    AK_HUM_LEFT_FOOT,
    AK_HUM_LEFT_TOE,
    AK_HUM_RIGHT_UPPER_LEG,
    AK_HUM_RIGHT_LOWER_LEG,
    AK_HUM_RIGHT_FOOT,
    AK_HUM_RIGHT_TOE,
    AK_HUM_LEFT_SHOULDER,
    AK_HUM_LEFT_UPPER_ARM,
    AK_HUM_LEFT_LOWER_ARM,
    AK_HUM_LEFT_HAND,
    AK_HUM_RIGHT_SHOULDER,
    AK_HUM_RIGHT_UPPER_ARM,
    AK_HUM_RIGHT_LOWER_ARM,
    AK_HUM_RIGHT_HAND,
    AK_HUM_SLOT_COUNT
} ak_humanoid_slot;

/* joint index per slot, -1 where not found. */
typedef struct ak_humanoid {
    int32_t joint[AK_HUM_SLOT_COUNT];
} ak_humanoid;

/* Slot name as used in overrides and reports: "hips", "left_upper_leg", "right_hand"... */
AK_API const char *ak_humanoid_slot_name(int32_t slot);
/* Finds the humanoid joints by name across CMU, CMU-3ds Max, Blender/Rigify, Mixamo,
 * Perception Neuron and lower-case/prefixed variants. `overrides` (may be NULL) is a
 * comma-separated list "slot=JointName,..." that wins over the automatic match.
 * Returns AK_OK when hips and both legs (upper, lower, foot) are found, AK_ERR_NOT_FOUND
 * otherwise with the missing slots listed in err->message; `out` is filled either way. */
AK_API int32_t ak_humanoid_find(const ak_skeleton *skeleton, const char *overrides,
                                ak_humanoid *out, ak_error *err);

/* ---- Units ---- */

typedef enum ak_units {
    AK_UNITS_METRES = 0,
    AK_UNITS_CENTIMETRES = 1,
    AK_UNITS_CMU = 2,
    AK_UNITS_INCHES = 3,
    AK_UNITS_MILLIMETRES = 4
} ak_units;

/* Guesses the file's units from a standing height (in file units): a person is taken to be
 * 1.2-2.2 m tall. Returns the units; *metres_per_unit gets the scale to metres. A height
 * that fits no unit's span (NaN, <= 0, huge) answers metres: the Python and JS wrappers
 * refuse a height that is not finite and > 0 instead. */
AK_API ak_units ak_units_detect(float standing_height, float *metres_per_unit);
AK_API const char *ak_units_name(ak_units units);
AK_API float ak_units_metres_per_unit(ak_units units);

AK_EXTERN_C_END

#endif
