/* animkit — compressed clips with an error bound.
 *
 * ak_compress_run turns a clip into a compressed clip whose every key, once decoded, moves no
 * joint — and no point `shell_distance` metres from a joint along any of its axes (ACL's
 * "virtual vertex" measure, 3 cm by default) — by more than `tolerance` metres in model
 * space, at every frame. The error is measured after FK, so a parent's error counts at its
 * children. Each track (a joint's rotation, a joint's translation) is stored one of three
 * ways, the cheapest that keeps the bound:
 *   - constant: one value, no keys (End Sites, joints that never move, rest translations);
 *   - quantized: keys range-reduced per track and component (minimum and extent) and stored
 *     in 1..19 bits per component; rotations keep x, y, z with w >= 0 rebuilt as
 *     sqrt(1 - x^2 - y^2 - z^2);
 *   - raw: 32-bit floats, where 19 bits are not enough (e.g. a rotation through 180 degrees).
 * Keys stay uniformly spaced (one record per frame, each track at a fixed bit offset), so a
 * sample at any time reads two records directly: no search, no cursor, random seeks cost the
 * same as playback.
 *
 * The compressed clip is one block of bytes (ak_compressed_clip_data): save it as it is and
 * load it back with ak_compressed_clip_load (little-endian). Sampling matches ak_clip_sample
 * (step, linear, cubic; looping clips wrap, others clamp) and ak_clip_sample_fk_batch. */
#ifndef ANIMKIT_COMPRESS_H
#define ANIMKIT_COMPRESS_H

#include "clip.h"

AK_EXTERN_C_BEGIN

typedef struct ak_compress_params {
    float tolerance;       /* metres, > 0: the largest model-space error allowed at a joint or
                              at its virtual points, every frame. Default 0.0001 (0.1 mm) */
    float shell_distance;  /* metres, >= 0: distance of the virtual points along each joint
                              axis. Default 0.03 (ACL's) */
    float metres_per_unit; /* metres per unit of the clip and skeleton (ak_units_detect),
                              > 0. Default 1 */
} ak_compress_params;

AK_API ak_compress_params ak_compress_defaults(void);
/* AK_OK, or AK_ERR_INVALID_ARG with the field that is wrong (non-finite or out of range). */
AK_API int32_t ak_compress_validate(const ak_compress_params *params, ak_error *err);
/* The documented range of every float field (status.h), checked by the _validate above. */
AK_API const ak_param_table *ak_compress_param_ranges(void);

typedef struct ak_compressed_clip ak_compressed_clip;

/* Compresses `clip` (keys of `skeleton`, same joint count) under `params` (NULL: defaults).
 * Offline: allocates the model poses of every frame while it works. *out is NULL on error:
 * AK_ERR_INVALID_ARG (null, mismatched joint count, bad params, non-finite keys),
 * AK_ERR_LIMIT (over 16,777,216 frames x joints), AK_ERR_NOMEM. */
AK_API int32_t ak_compress_run(const ak_clip *clip, const ak_skeleton *skeleton,
                               const ak_compress_params *params, ak_compressed_clip **out,
                               ak_error *err);
AK_API void ak_compressed_clip_destroy(ak_compressed_clip *clip);

typedef struct ak_compressed_info {
    int32_t joint_count, frame_count;
    float frame_time; /* seconds */
    int32_t loop;
    uint64_t bytes;     /* the whole compressed clip (ak_compressed_clip_data's size) */
    uint64_t raw_bytes; /* frame_count * joint_count * 10 floats (rotation, translation,
                           scale: ACL's baseline) */
    float tolerance;    /* metres, as asked */
    float worst_error;  /* metres, the largest error measured over every frame and joint */
    int32_t worst_joint, worst_frame;
    int32_t constant_tracks, quantized_tracks, raw_tracks; /* 2 tracks per joint */
    float mean_bits; /* bits per component over the quantized tracks */
} ak_compressed_info;
AK_API void ak_compressed_clip_get_info(const ak_compressed_clip *clip, ak_compressed_info *info);

/* The clip's bytes (*size of them): what to save; ak_compressed_clip_load reads them back. */
AK_API const void *ak_compressed_clip_data(const ak_compressed_clip *clip, size_t *size);
/* Reads bytes written from ak_compressed_clip_data (copies them). AK_ERR_PARSE for anything
 * that is not such a block (wrong magic or version, sizes that disagree, offsets outside the
 * record, non-finite values), with the reason in err; *out NULL then. */
AK_API int32_t ak_compressed_clip_load(const void *data, size_t size, ak_compressed_clip **out,
                                       ak_error *err);

/* As ak_clip_sample: the local pose at time t (seconds), decoded directly from the compressed
 * keys. Writes local[0..joint_count); nothing for a null pointer or another joint count.
 * Cubic computes its SQUAD control points per sample (the slow path of an unprepared clip). */
AK_API void ak_compressed_clip_sample(const ak_compressed_clip *clip, const ak_skeleton *skeleton,
                                      float t, ak_interp interp, ak_xform *local);
/* As ak_clip_sample_fk_batch: for character i, samples at times[i] and runs FK in the same
 * pass, writing model[i*joint_count + j]. No allocation. AK_OK, or AK_ERR_INVALID_ARG
 * (nothing written) for a null pointer, a negative count or another joint count. */
AK_API int32_t ak_compressed_clip_sample_fk_batch(const ak_compressed_clip *clip,
                                                  const ak_skeleton *skeleton, const float *times,
                                                  int32_t count, ak_interp interp, ak_xform *model);
/* The part [begin, end) of ak_compressed_clip_sample_fk_batch, for a thread pool (see
 * ak_batch_range); the same bits as one call. AK_ERR_INVALID_ARG for a range outside
 * [0, count]. */
AK_API int32_t ak_compressed_clip_sample_fk_range(const ak_compressed_clip *clip,
                                                  const ak_skeleton *skeleton, const float *times,
                                                  int32_t count, ak_interp interp, ak_xform *model,
                                                  int32_t begin, int32_t end);
/* A plain clip of the decoded keys (for the paths that take an ak_clip: the crowd path,
 * matching databases, editing). A joint gets a translation track unless its translation is
 * constant and equal to the skeleton's rest translation. AK_ERR_INVALID_ARG for a null
 * pointer or another joint count, AK_ERR_NOMEM on failure; *out NULL then. */
AK_API int32_t ak_compressed_clip_decompress(const ak_compressed_clip *clip,
                                             const ak_skeleton *skeleton, ak_clip **out,
                                             ak_error *err);

AK_EXTERN_C_END

#endif
