/* animkit — animation clips: sampled keys per joint, sampling at any time, blending.
 *
 * A clip stores one rotation key per joint per frame (frame-major: keys of frame f are
 * rotations[f*joint_count + j]) and translation keys for the joints that have them
 * (translation tracks: the root and every joint whose BVH carries position channels).
 * A joint with no translation track keeps its rest translation. Keys are made
 * hemisphere-continuous when the clip is built (dot(q[f], q[f-1]) >= 0), so interpolation
 * never takes the long way round. Times are seconds; frame f is at t = f * frame_time. */
#ifndef ANIMKIT_CLIP_H
#define ANIMKIT_CLIP_H

#include "skeleton.h"

AK_EXTERN_C_BEGIN

typedef enum ak_interp {
    AK_INTERP_STEP = 0,   /* the key at or before t */
    AK_INTERP_LINEAR = 1, /* lerp translations, slerp rotations */
    AK_INTERP_CUBIC = 2   /* C1: Catmull-Rom translations, SQUAD-style quaternion spline */
} ak_interp;

/* Treat every field as read-only; build with ak_clip_create. */
typedef struct ak_clip {
    int32_t joint_count;
    int32_t frame_count;   /* >= 1 */
    float frame_time;      /* seconds per frame, > 0 */
    int32_t loop;          /* 1: sampling wraps at duration; 0: clamps */
    ak_quat *rotations;    /* frame_count * joint_count, frame-major */
    int32_t track_count;   /* number of translation tracks */
    int32_t *track_joint;  /* track_count: joint index of each track */
    int32_t *joint_track;  /* joint_count: track index of a joint, or -1 */
    ak_vec3 *translations; /* frame_count * track_count, frame-major */
    ak_quat *squad_points; /* cubic-mode inner control points per key (frame_count rows
                              of joint_count, neighbours clamped at the ends), then two
                              rows for a looping clip: the first and the last key's with
                              wrapped neighbours; on a CPU with AVX2 + FMA followed, in the
                              same allocation, by the eight-character batch pass's span
                              table (internal); made by ak_clip_prepare_cubic, NULL until
                              then */
} ak_clip;

/* Allocates a clip with `frame_count` frames for `joint_count` joints and translation
 * tracks for the joints where has_translation[j] != 0 (NULL: only joint 0). Keys are set
 * to identity/zero; fill them and call ak_clip_finalize. */
AK_API int32_t ak_clip_create(int32_t joint_count, int32_t frame_count, float frame_time,
                              const uint8_t *has_translation, ak_clip **out, ak_error *err);
AK_API void ak_clip_destroy(ak_clip *clip);
/* Normalises every rotation key and makes consecutive keys of each joint
 * hemisphere-continuous. Call after writing keys directly. */
AK_API void ak_clip_finalize(ak_clip *clip);
/* Precomputes the cubic (SQUAD) control points of every key so AK_INTERP_CUBIC sampling is
 * about 3x faster; without it cubic sampling computes them per sample. Call once after the
 * keys are final and before sampling from several threads (it writes the clip). Allocates
 * (frame_count + 2) * joint_count * 16 bytes, and on a CPU with AVX2 + FMA another
 * (frame_count + 3) * joint_count * 80 for the batch calls' eight-character pass (each
 * character's key, control point and slerp constants of a joint in one place);
 * AK_ERR_NOMEM on failure (sampling then stays on the slow path). */
AK_API int32_t ak_clip_prepare_cubic(ak_clip *clip);
/* Duration in seconds: (frame_count - 1) * frame_time for a clamped clip, and
 * frame_count * frame_time for a looping one (the last frame blends back to the first). */
AK_API float ak_clip_duration(const ak_clip *clip);
/* A deep copy, or NULL when out of memory. */
AK_API ak_clip *ak_clip_clone(const ak_clip *clip);

/* Samples the local pose at time t (seconds). Looping clips wrap t into [0, duration);
 * clamped clips clamp t to [0, duration]. Writes local[0..joint_count). Joints without a
 * translation track get skeleton->rest_local translation. No allocation. */
AK_API void ak_clip_sample(const ak_clip *clip, const ak_skeleton *skeleton, float t,
                           ak_interp interp, ak_xform *local);
/* The pose of frame `frame` exactly (clamped to the clip). */
AK_API void ak_clip_frame(const ak_clip *clip, const ak_skeleton *skeleton, int32_t frame,
                          ak_xform *local);

/* Many characters sharing one clip: for each i in [0,count), samples at times[i] and runs
 * FK, writing the model pose model[i*joint_count + j]. Characters run eight at a time in
 * lockstep (AVX2 + FMA where the CPU has it, chosen at run time), then four, two and one, for
 * any joint count; linear and cubic both sample inside the FK pass. No allocation.
 * Returns AK_OK; AK_ERR_INVALID_ARG (nothing written) for a null pointer, a negative count or
 * a clip of another joint count; AK_ERR_STATE for AK_INTERP_CUBIC on a clip without
 * ak_clip_prepare_cubic: the poses are written, but on the slow path that makes the control
 * points per sample (several times slower): prepare the clip once after loading.
 * Splitting [0,count) at multiples of eight (ak_batch_range) gives the same bits as one call. */
AK_API int32_t ak_clip_sample_fk_batch(const ak_clip *clip, const ak_skeleton *skeleton,
                                       const float *times, int32_t count, ak_interp interp,
                                       ak_xform *model);

/* Crowds on several threads. The library starts no thread: it splits characters into
 * ranges that any thread pool (a C# job, a Python executor, a task system) runs, each range
 * on distinct characters and outputs, with nothing allocated per frame.
 *
 * Characters the batch paths take together in lockstep: a split at multiples of this gives
 * the same bits as one call over everything. */
#define AK_BATCH_LANES 8
/* Range `part` of `parts` (0 <= part < parts) of [0, count): contiguous, in order, every
 * boundary a multiple of AK_BATCH_LANES, sizes within AK_BATCH_LANES of each other (some
 * empty when count is small). Writes [*begin, *end); AK_ERR_INVALID_ARG (and an empty range)
 * for count < 0, parts < 1 or part outside [0, parts). */
AK_API int32_t ak_batch_range(int32_t count, int32_t parts, int32_t part, int32_t *begin,
                              int32_t *end);
/* The part [begin, end) of ak_clip_sample_fk_batch(clip, skeleton, times, count, ...): reads
 * times[begin..end), writes the poses model[begin*joint_count ..end*joint_count). Ranges
 * from ak_batch_range may run at the same time on different threads (the clip and skeleton
 * are only read; prepare cubic clips first) and give the bits of one call. Same status codes
 * as ak_clip_sample_fk_batch; AK_ERR_INVALID_ARG for a range outside [0, count]. */
AK_API int32_t ak_clip_sample_fk_range(const ak_clip *clip, const ak_skeleton *skeleton,
                                       const float *times, int32_t count, ak_interp interp,
                                       ak_xform *model, int32_t begin, int32_t end);

/* The same poses in structure-of-arrays form, for engines that take them so (no transposes
 * out: the eight-lane pass stores its registers as they are). Characters go in blocks of
 * AK_BATCH_LANES; block b (characters 8b..8b+7) holds, joint after joint, the seven
 * components qx, qy, qz, qw, tx, ty, tz of the model transform, eight lanes each:
 *     model_soa[(b * joint_count + j) * AK_BATCH_SOA_JOINT_FLOATS + component * 8 + lane]
 * is component `component` of character 8b + lane's joint j. model_soa holds
 * ceil(count / 8) * joint_count * AK_BATCH_SOA_JOINT_FLOATS floats; lanes past count in the
 * last block get character count - 1's pose again. Same status codes as
 * ak_clip_sample_fk_batch; the eight-lane pass (AVX2 + FMA) gives the bits of
 * ak_clip_sample_fk_batch for full blocks, other CPUs and builds run the scalar forms
 * (within float rounding of it). Blocks are independent: threads may each run a range
 * starting at a multiple of 8 (times + begin, model_soa + begin / 8 blocks). No allocation. */
#define AK_BATCH_SOA_JOINT_FLOATS (7 * AK_BATCH_LANES)
AK_API int32_t ak_clip_sample_fk_batch_soa(const ak_clip *clip, const ak_skeleton *skeleton,
                                           const float *times, int32_t count, ak_interp interp,
                                           float *model_soa);

/* Scales every translation key by `factor` in place (see ak_skeleton_scale). */
AK_API void ak_clip_scale(ak_clip *clip, float factor);

/* A typical standing height of the clip's character in file units: the median, over up to
 * 64 evenly spaced frames, of the body's height along Y (its highest joint minus its lowest;
 * the body is ak_clip_body_root's joint and its descendants, rootmotion.h: a still joint above
 * the hips is not counted). Feed it to ak_units_detect. Allocates scratch (offline use);
 * returns 0 on failure. */
AK_API float ak_clip_standing_height(const ak_clip *clip, const ak_skeleton *skeleton);

/* Crossfade two local poses: out = slerp/lerp(a, b, weight * (mask ? mask[j] : 1)).
 * weight 0 gives a exactly, 1 gives b exactly. `out` may alias a or b. */
AK_API void ak_pose_blend(const ak_xform *a, const ak_xform *b, int32_t joint_count, float weight,
                          const float *mask, ak_xform *out);

/* ---- Up axis ----
 * A BVH file has no up field: most stand along +Y, files from Z-up tools stand along +Z.
 * ak_clip_up_measure tells them apart from the motion itself, on the humanoid's hips, head (or
 * neck) and feet (ak_humanoid_find), over up to 64 evenly spaced frames, in model space:
 *  - the body axis: the mean of the unit vectors from the feet's midpoint to the head; the
 *    clip stands along +Y or +Z when that mean lies within 45 degrees of the axis (frames that
 *    disagree shorten it: below 0.7 nothing is said);
 *  - the travel: the extent of the hips' path along each axis. Along +Z the body may stand in a
 *    Z-up file or lie on the floor of a Y-up one. The travel tells them apart where it can: a
 *    body that travels along its own axis (Z) farther than its length, with twice less extent
 *    along Y, moves in the XZ plane, perpendicular to Y, so it lies on a Y-up floor (crawling,
 *    dragged) and is kept; otherwise (travel across Z, or too little to tell) it stands in a
 *    Z-up file. A still capture lying along +Z is therefore taken as standing: give AK_UP_Y. */
typedef enum ak_up_axis {
    AK_UP_AUTO = 0, /* measure (ak_clip_up_measure) */
    AK_UP_Y = 1,    /* the file's axes are kept */
    AK_UP_Z = 2     /* the file stands along +Z: turned to Y-up */
} ak_up_axis;

typedef enum ak_up_reason {
    AK_UP_REASON_STANDS_Y = 0, /* the body stands along +Y */
    AK_UP_REASON_NO_HUMANOID,  /* no hips, head or neck, and feet found: nothing measured */
    AK_UP_REASON_STANDS_Z,     /* the body stands along +Z and does not travel along it */
    AK_UP_REASON_LIES_ALONG_Z, /* along +Z but travelling along Z, not Y: lying on the floor */
    AK_UP_REASON_NO_AXIS,      /* neither +Y nor +Z (lying along X, upside down, frames
                                  disagreeing): the file's axes are kept */
    AK_UP_REASON_GIVEN         /* the caller chose (AK_UP_Y or AK_UP_Z) */
} ak_up_reason;

typedef struct ak_up_report {
    int32_t up;          /* ak_up_axis the clip stands along in the file: AK_UP_Y or AK_UP_Z */
    int32_t reason;      /* ak_up_reason */
    int32_t turned;      /* ak_clip_up_apply: 1 when it turned the file to Y-up */
    ak_vec3 body;        /* the mean feet-to-head unit vector, file axes (0 if not measured) */
    float body_length;   /* the mean feet-to-head distance, file units */
    ak_vec3 hips_extent; /* the hips' path: max - min along x, y, z, file units */
} ak_up_report;

/* Measures which axis the clip stands along (above). Allocates scratch (offline). AK_OK with
 * the report (reason AK_UP_REASON_NO_HUMANOID when the joints are not found); AK_ERR_NOMEM;
 * AK_ERR_INVALID_ARG for NULL arguments or a clip of another joint count. */
AK_API int32_t ak_clip_up_measure(const ak_skeleton *skeleton, const ak_clip *clip,
                                  ak_up_report *out);
/* Turns a Z-up skeleton and clip to Y-up in place: every model-space transform M becomes
 * R M R^-1 with R the rotation of -90 degrees about X (+Z to +Y, +Y to -Z), so positions turn
 * with R and every joint's local axes turn with the world (offsets R o, rotation keys
 * R q R^-1, translation keys R t). The motion is unchanged. */
AK_API void ak_clip_turn_z_up(ak_skeleton *skeleton, ak_clip *clip);
/* AK_UP_AUTO: measure, and turn to Y-up when the clip stands along +Z; AK_UP_Z: turn; AK_UP_Y:
 * nothing. `out` (may be NULL) says what was measured and done. AK_ERR_INVALID_ARG for an
 * `up` out of ak_up_axis. */
AK_API int32_t ak_clip_up_apply(ak_skeleton *skeleton, ak_clip *clip, int32_t up,
                                ak_up_report *out);
/* A warning for a report, for readers to pass on: "" when there is nothing to say (stands along
 * +Y, or chosen), else e.g. "the rig stands along +Z: read as Z-up (turned to Y-up); --up y to
 * keep the file's axes". */
AK_API void ak_up_describe(const ak_up_report *report, char *buf, size_t size);

/* ---- Bones that copy a foot or a hand ----
 * The UE4 mannequin keys ik_foot_l/r on the feet and ik_hand_gun, ik_hand_r/l on the hands in
 * every frame (beside the body, under `root`), so an engine's IK reads the feet's and hands'
 * places from them; a tool that moves the feet or hands (the walkers' foot IK, retargeting,
 * mirroring, a crossfade) leaves such bones where the old pose had them (1.2-1.8 m off the
 * feet and hands in a walk) unless it puts them back. A copy bone is a joint beside the body
 * (neither in the subtree of the lowest joint above every humanoid joint, nor above it, nor an
 * End Site) that stays within 1 % of the body's standing height of a foot or a hand of the
 * humanoid map (ak_humanoid_find) over every frame; its target is the one it stays nearest. */
#define AK_COPY_BONES_MAX 16

typedef struct ak_copy_bones {
    int32_t count;
    int32_t bone[AK_COPY_BONES_MAX];    /* the copying joints, ascending (parents first) */
    int32_t target[AK_COPY_BONES_MAX];  /* the foot or hand joint each one copies */
    ak_xform offset[AK_COPY_BONES_MAX]; /* the bone's model transform in its target's frame at
                                           the first frame (identity for an exact copy) */
    float distance[AK_COPY_BONES_MAX];  /* the farthest it came from its target, clip units */
} ak_copy_bones;

/* Finds the copy bones of `clip` on `skeleton` (above); clip NULL: of the rest pose (a rig
 * without motion: a bone that sits on its foot or hand there). count 0 without a humanoid map
 * or such bones; the first AK_COPY_BONES_MAX are kept. Allocates scratch (offline).
 * AK_ERR_INVALID_ARG for NULL or a clip of another joint count. */
AK_API int32_t ak_copy_bones_find(const ak_skeleton *skeleton, const ak_clip *clip,
                                  ak_copy_bones *out, ak_error *err);
/* Scales the offsets' translations (and distances) by `factor`: the bones found on a clip in
 * file units, applied to the same skeleton in metres. */
AK_API void ak_copy_bones_scale(ak_copy_bones *bones, float factor);
/* Puts each copy bone back on its target in a pose: model[bone] = model[target] * offset,
 * local[bone] from its parent's model transform, and the model transforms of the joints below
 * it again. `local` and `model` must agree (model = FK of local, in any frame: model or world
 * space); both are written. No allocation (per-frame use). */
AK_API void ak_copy_bones_apply(const ak_skeleton *skeleton, const ak_copy_bones *bones,
                                ak_xform *local, ak_xform *model);
/* The same on every frame of *clip, which gains a translation track on a copy bone that has
 * none (the clip is then replaced: *clip is destroyed and set to the new one). Allocates. */
AK_API int32_t ak_clip_copy_bones_apply(const ak_skeleton *skeleton, const ak_copy_bones *bones,
                                        ak_clip **clip, ak_error *err);
/* Both at once, for a step that made *clip from `source` (an edit) or onto a rig (`source`
 * NULL: the copies of the skeleton's rest pose, a retarget's target): finds the copy bones of
 * `source` and puts them back on every frame of *clip. On failure *clip is destroyed and set
 * to NULL (such a step's output is all or nothing). */
AK_API int32_t ak_clip_keep_copy_bones(const ak_skeleton *skeleton, const ak_clip *source,
                                       ak_clip **clip, ak_error *err);

AK_EXTERN_C_END

#endif
