/* animkit — BVH motion capture files in and out.
 *
 * Reading gives a skeleton (End Sites become tip joints "<parent>_end") and a clip in the
 * file's own units, Y up: a file whose rig stands along +Z (measured, ak_clip_up_measure; or
 * ak_bvh_read_params.up) is turned to Y-up on reading, with a warning. Rotation channels compose in
 * the order listed (Zrotation Yrotation Xrotation means R = Rz*Ry*Rx); position channels are the
 * joint's whole local translation and replace its OFFSET, as Blender and Assimp read them. Errors
 * carry the 1-based line number; nothing partial is ever returned as success. */
#ifndef ANIMKIT_BVH_H
#define ANIMKIT_BVH_H

#include "clip.h"

AK_EXTERN_C_BEGIN

/* Limits applied while reading; input beyond them fails with AK_ERR_LIMIT. */
typedef struct ak_bvh_read_params {
    int32_t max_joints; /* default 1024 (End Sites included) */
    int32_t max_frames; /* default 1,000,000 */
    int64_t max_bytes;  /* default 512 MiB */
    int32_t up;         /* ak_up_axis (clip.h): AK_UP_AUTO (default) measures which axis the
                           rig stands along and turns a Z-up file to Y-up, with a warning;
                           AK_UP_Y keeps the file's axes; AK_UP_Z turns it */
} ak_bvh_read_params;

AK_API ak_bvh_read_params ak_bvh_read_defaults(void);
/* AK_OK, or AK_ERR_INVALID_ARG when a limit is not positive or `up` is not an ak_up_axis. The
 * readers validate first. */
AK_API int32_t ak_bvh_read_validate(const ak_bvh_read_params *limits, ak_error *err);

/* Reads a BVH file. `limits` may be NULL for the defaults. On success *out_skeleton and
 * *out_clip are new objects the caller destroys; on failure both are set to NULL and `err`
 * holds the status, line and reason. The clip is not looping (set clip->loop yourself).
 * Warnings: a file other readers accept is read, and `err` then holds status AK_OK with the
 * line and the reason in `message` (empty message, line 0: nothing to say). So far: more
 * frame lines than Frames: says (all are read, as Blender does; assimp's Boxing_Toes.bvh),
 * and fewer (the complete lines are read; a last line without a line break in such a file is
 * dropped, as it may be cut mid-number); a rig standing along +Z, turned to Y-up, or lying
 * along +Z and kept (line 0 when that is the only warning; after "; " otherwise: ak_up_describe).
 * No frame line at all is still an error. */
AK_API int32_t ak_bvh_read_file(const char *path, const ak_bvh_read_params *limits,
                                ak_skeleton **out_skeleton, ak_clip **out_clip, ak_error *err);
/* Same, from `size` bytes of text in memory (need not be NUL-terminated). */
AK_API int32_t ak_bvh_read_memory(const char *text, size_t size, const ak_bvh_read_params *limits,
                                  ak_skeleton **out_skeleton, ak_clip **out_clip, ak_error *err);

/* Writes skeleton + clip as BVH text with every joint's rotation channels in `order`.
 * Joints that have a translation track get 6 channels, others 3; End Sites are written as
 * End Site blocks. Angles in degrees with enough digits that reading back reproduces model-space
 * positions to 1e-5 of the skeleton height. Numbers use '.' in every C locale. `path` is
 * UTF-8; the file is replaced atomically (a temporary beside it, every write checked, fsync,
 * rename), so on any failure (AK_ERR_IO with the reason) the old file is left whole. */
AK_API int32_t ak_bvh_write_file(const char *path, const ak_skeleton *skeleton, const ak_clip *clip,
                                 ak_rot_order order, ak_error *err);
/* Writes into a malloc'ed NUL-terminated buffer the caller frees with ak_free. */
AK_API int32_t ak_bvh_write_memory(const ak_skeleton *skeleton, const ak_clip *clip,
                                   ak_rot_order order, char **out_text, size_t *out_size,
                                   ak_error *err);

/* Frees memory animkit allocated for the caller (write buffers). */
AK_API void ak_free(void *p);

AK_EXTERN_C_END

#endif
