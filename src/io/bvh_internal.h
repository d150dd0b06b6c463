/* Internal helpers shared by the BVH reader and writer (not part of the public API). */
#ifndef AK_IO_BVH_INTERNAL_H
#define AK_IO_BVH_INTERNAL_H

#include "animkit/bvh.h"

/* BVH is text: a NUL or a control byte other than tab, CR, LF, FF, VT within the first
 * AKBVH_TEXT_PROBE bytes means binary input (UTF-16, /dev/zero, an image), refused with
 * AK_ERR_PARSE, line and column before any parsing or further reading. */
#define AKBVH_TEXT_PROBE 1024 /* = AKIO_SNIFF_BYTES: the file reader passes this much */
int32_t akbvh_check_text(const char *data, size_t size, ak_error *err);

/* Streaming BVH output for motions of unknown length (the walk CLI): memory independent of
 * the frame count. begin writes the hierarchy (a translation channel set on the joints where
 * has_translation[j]; NULL: the root only) and the MOTION header into `out`; each frame line
 * takes one local pose (rotation of every joint, translation of the tracked joints); end fills
 * in the frame count and frees the stream (out itself is committed by the caller). A
 * non-finite pose is refused with AK_ERR_INVALID_ARG; write failures come from `out`. */
typedef struct akbvh_stream akbvh_stream;
struct akio_atomic;
int32_t akbvh_stream_begin(struct akio_atomic *out, const ak_skeleton *s,
                           const uint8_t *has_translation, ak_rot_order order, float frame_time,
                           akbvh_stream **stream, ak_error *err);
int32_t akbvh_stream_frame(akbvh_stream *w, const ak_xform *local, ak_error *err);
int32_t akbvh_stream_end(akbvh_stream *w, ak_error *err);
/* Frees a stream that will not be ended (on an error path). */
void akbvh_stream_destroy(akbvh_stream *w);

#endif
