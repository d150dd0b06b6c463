/* animkit — motion editing: clip-to-clip steps a mocap pipeline chains (what bvhacker,
 * Blender and pymo users do by hand): trim, resample, mirror, root reset, in-place (remove
 * root motion), bake root motion, change units, concatenate with a blend.
 *
 * Every step has the solver shape:
 *
 *     ak_edit_mirror_params p = ak_edit_mirror_defaults();
 *     ak_clip *mirrored = NULL;
 *     if (ak_edit_mirror_run(&p, skeleton, clip, &mirrored, &err) < 0) ...;
 *
 * `_run` validates first, never changes its inputs and returns a NEW clip (the caller
 * destroys it) with the same skeleton and the same translation-track layout; on failure the
 * output is NULL and `err` says why. Times are seconds, lengths the clip's own units,
 * headings radians about +Y (0 faces +Z, see rootmotion.h). These are offline steps: they
 * allocate. */
#ifndef ANIMKIT_EDIT_H
#define ANIMKIT_EDIT_H

#include "clip.h"
#include "rootmotion.h"

AK_EXTERN_C_BEGIN

/* ---- Trim: keep frames first..last (both included) ---------------------------------- */
typedef struct ak_edit_trim_params {
    int32_t first; /* first frame kept, 0-based; default 0 */
    int32_t last;  /* last frame kept (included); -1 (default) = the clip's last frame */
} ak_edit_trim_params;

AK_API ak_edit_trim_params ak_edit_trim_defaults(void);
/* AK_ERR_INVALID_ARG unless 0 <= first <= last < frame_count. */
AK_API int32_t ak_edit_trim_validate(const ak_edit_trim_params *params, const ak_clip *clip,
                                     ak_error *err);
/* Copies the keys of the kept frames: model-space positions of kept frames are unchanged. The
 * result does not loop. */
AK_API int32_t ak_edit_trim_run(const ak_edit_trim_params *params, const ak_clip *clip,
                                ak_clip **out, ak_error *err);

/* ---- Resample to a new frame rate ---------------------------------------------------- */
typedef struct ak_edit_resample_params {
    float frame_time; /* seconds per output frame, > 0 and finite; default 1/30 */
    int32_t interp;   /* ak_interp used to sample between keys; default AK_INTERP_LINEAR
                         (lerp translations, slerp rotations) */
} ak_edit_resample_params;

AK_API ak_edit_resample_params ak_edit_resample_defaults(void);
/* AK_ERR_INVALID_ARG for a bad frame time or interp; AK_ERR_LIMIT when the output would
 * have more than 10,000,000 frames. */
AK_API int32_t ak_edit_resample_validate(const ak_edit_resample_params *params, const ak_clip *clip,
                                         ak_error *err);
/* The documented range of every float field (status.h), checked by the _validate above. */
AK_API const ak_param_table *ak_edit_resample_param_ranges(void);
/* Output frame f is the input sampled at t = f * frame_time, for every t within the input
 * duration (floor(duration / frame_time + 1e-3) + 1 frames of a clamped clip; a looping
 * clip keeps looping and covers its loop duration). Resampling to the same frame time gives
 * the same keys. */
AK_API int32_t ak_edit_resample_run(const ak_edit_resample_params *params,
                                    const ak_skeleton *skeleton, const ak_clip *clip, ak_clip **out,
                                    ak_error *err);

/* ---- Mirror left <-> right ------------------------------------------------------------ */
typedef struct ak_edit_mirror_params {
    /* Normal of the mirror (sagittal) plane as a model axis: 0 = X, 1 = Y, 2 = Z, or -1
     * (default) to choose it from the rig: the axis along which the left and right upper legs
     * (else upper arms) of the humanoid map lie furthest apart in the rest pose. */
    int32_t axis;
    /* Humanoid map overrides ("slot=Joint,...", see ak_humanoid_find); may be NULL. */
    const char *humanoid_overrides;
} ak_edit_mirror_params;

AK_API ak_edit_mirror_params ak_edit_mirror_defaults(void);
AK_API int32_t ak_edit_mirror_validate(const ak_edit_mirror_params *params,
                                       const ak_skeleton *skeleton, ak_error *err);
/* The left/right partner of every joint (itself for joints on the midline): joints are
 * paired by name with the humanoid map's side rules ("LeftArm"/"RightArm", "thigh.L"/
 * "thigh.R", "LThumb"/"RThumb", "l_hand"/"r_hand"...), the humanoid map's left/right slots
 * (with overrides) win, End Sites pair through their parents. Also writes the plane normal
 * axis (params->axis, or chosen from the rig). Fails (AK_ERR_INVALID_ARG, names in the
 * message) when the pairing is not symmetric: a pair whose parents are not partners, or only
 * one side has position channels in `clip` (may be NULL to skip that check). */
AK_API int32_t ak_edit_mirror_map(const ak_edit_mirror_params *params, const ak_skeleton *skeleton,
                                  const ak_clip *clip, int32_t *partner, int32_t *axis,
                                  ak_error *err);
/* Reflects the motion through the plane and swaps left and right: joint j's keys become the
 * reflected keys of partner(j) (translation t -> M t, rotation q -> M q M with M the
 * reflection, i.e. the quaternion's component along the axis kept and the other two vector
 * components negated). Mirroring twice gives the input keys back. The skeleton is not
 * changed, so an exactly mirrored pose needs a symmetric rest pose; CMU-style subjects with
 * slightly different left and right bones come out mirrored up to that difference. */
AK_API int32_t ak_edit_mirror_run(const ak_edit_mirror_params *params, const ak_skeleton *skeleton,
                                  const ak_clip *clip, ak_clip **out, ak_error *err);

/* ---- Facing: the heading of a pose, from the rig -------------------------------------- */
/* The heading (radians about +Y) a posed character faces: the horizontal direction
 * (left_upper_leg - right_upper_leg) x up of the model pose `model`, i.e. facing +Z with its left
 * at +X gives 0. `humanoid` from ak_humanoid_find; when its upper legs are missing the upper arms
 * are used, and without those the heading of joint 0's local +Z axis. */
AK_API float ak_edit_pose_heading(const ak_humanoid *humanoid, const ak_xform *model);

/* ---- Root reset: start at the origin, facing +Z --------------------------------------- */
typedef struct ak_edit_root_reset_params {
    int32_t frame;                  /* reference frame; default 0 */
    int32_t reset_heading;          /* 1 (default): turn about +Y so the reference frame faces +Z */
    int32_t reset_height;           /* 1: the reference frame's root height goes to 0 too; default 0
                                       (the height above the floor is kept) */
    const char *humanoid_overrides; /* for the facing (ak_edit_pose_heading); may be NULL */
} ak_edit_root_reset_params;

AK_API ak_edit_root_reset_params ak_edit_root_reset_defaults(void);
/* AK_ERR_INVALID_ARG for a frame out of range or a root joint (parent -1) without a
 * translation track. */
AK_API int32_t ak_edit_root_reset_validate(const ak_edit_root_reset_params *params,
                                           const ak_skeleton *skeleton, const ak_clip *clip,
                                           ak_error *err);
/* Moves every frame rigidly (a turn about +Y and a translation, applied to every root joint)
 * so that at the reference frame the root stands at x = z = 0 facing +Z. Model-space positions of
 * every frame are the originals under that one rigid motion. */
AK_API int32_t ak_edit_root_reset_run(const ak_edit_root_reset_params *params,
                                      const ak_skeleton *skeleton, const ak_clip *clip,
                                      ak_clip **out, ak_error *err);

/* ---- In place: remove root motion ----------------------------------------------------- */
/* Every frame made in place with ak_root_motion_make_in_place (rootmotion.h): the root's
 * horizontal travel (and, with params.extract_heading, its heading) is removed, the vertical
 * bob kept. `params` are the root-motion params (root joint, facing axis...). */
AK_API int32_t ak_edit_in_place_validate(const ak_root_motion_params *params,
                                         const ak_skeleton *skeleton, const ak_clip *clip,
                                         ak_error *err);
AK_API int32_t ak_edit_in_place_run(const ak_root_motion_params *params,
                                    const ak_skeleton *skeleton, const ak_clip *clip, ak_clip **out,
                                    ak_error *err);

/* ---- Bake root motion: character transforms into the root ----------------------------- */
typedef struct ak_edit_bake_root_params {
    /* One world_from_character transform per frame of the clip (frame_count entries), e.g.
     * ak_root_motion_character of the original or a walker's path. Required. */
    const ak_xform *character;
    int32_t count; /* entries in `character`; must equal the clip's frame_count */
} ak_edit_bake_root_params;

AK_API ak_edit_bake_root_params ak_edit_bake_root_defaults(void);
AK_API int32_t ak_edit_bake_root_validate(const ak_edit_bake_root_params *params,
                                          const ak_skeleton *skeleton, const ak_clip *clip,
                                          ak_error *err);
/* Every root joint's keys of frame f become character[f] * key: the inverse of in place. */
AK_API int32_t ak_edit_bake_root_run(const ak_edit_bake_root_params *params,
                                     const ak_skeleton *skeleton, const ak_clip *clip,
                                     ak_clip **out, ak_error *err);

/* ---- Change units --------------------------------------------------------------------- */
typedef struct ak_edit_units_params {
    /* Metres per unit of the input; 0 (default) detects it from the clip's standing height
     * (ak_clip_standing_height + ak_units_detect). */
    float from_metres_per_unit;
    float to_metres_per_unit; /* metres per unit of the output; default 1 (metres) */
} ak_edit_units_params;

AK_API ak_edit_units_params ak_edit_units_defaults(void);
AK_API int32_t ak_edit_units_validate(const ak_edit_units_params *params, ak_error *err);
/* The documented range of every float field (status.h), checked by the _validate above. */
AK_API const ak_param_table *ak_edit_units_param_ranges(void);
/* Scales the skeleton's rest translations and the clip's translation keys by
 * from / to: new skeleton and clip. *applied_factor (may be NULL) gets the factor. */
AK_API int32_t ak_edit_units_run(const ak_edit_units_params *params, const ak_skeleton *skeleton,
                                 const ak_clip *clip, ak_skeleton **out_skeleton,
                                 ak_clip **out_clip, float *applied_factor, ak_error *err);

/* ---- Concatenate two clips of one skeleton with a blend -------------------------------- */
typedef struct ak_edit_concat_params {
    /* Seconds over which the end of `a` crossfades into the start of `b` (the clips overlap
     * by round(blend_time / frame_time) frames, at most the shorter clip); default 0.2; 0
     * butts them together. Weights follow smoothstep, so the seam has no velocity jump from
     * the weights themselves. */
    float blend_time;
    /* 1 (default): `b` is moved rigidly (turn about +Y + horizontal shift) so its first frame
     * stands where `a` stands at the start of the blend, facing the same way, instead of
     * snapping back to its own start. */
    int32_t align_root;
    const char *humanoid_overrides; /* for the facing; may be NULL */
    /* The skeleton `b` was made for; required (default NULL is refused). Its joint names and
     * parents must equal `skeleton`'s (ak_skeleton_same_rig): a clip of another rig with as
     * many joints would play its rotations on the wrong joints. */
    const ak_skeleton *skeleton_b;
} ak_edit_concat_params;

AK_API ak_edit_concat_params ak_edit_concat_defaults(void);
/* AK_ERR_INVALID_ARG when the clips do not share joint count, translation tracks and frame
 * time (resample one first), skeleton_b is missing or does not fit `b`, or blend_time is
 * negative, not finite or over 1000 s. ak_edit_concat_run also checks that skeleton_b is
 * the same rig as `skeleton`. */
AK_API int32_t ak_edit_concat_validate(const ak_edit_concat_params *params, const ak_clip *a,
                                       const ak_clip *b, ak_error *err);
/* The documented range of every float field (status.h), checked by the _validate above. */
AK_API const ak_param_table *ak_edit_concat_param_ranges(void);
AK_API int32_t ak_edit_concat_run(const ak_edit_concat_params *params, const ak_skeleton *skeleton,
                                  const ak_clip *a, const ak_clip *b, ak_clip **out, ak_error *err);

AK_EXTERN_C_END

#endif
