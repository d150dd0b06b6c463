/* Internal helpers the motion-editing steps (edit.c, edit_root.c, edit_mirror.c) share. */
#ifndef AK_EDIT_INTERNAL_H
#define AK_EDIT_INTERNAL_H

#include "animkit/edit.h"

/* A new clip with `src`'s joint count and translation-track layout, `frame_count` frames of
 * `frame_time`, keys identity/zero, not looping. */
int32_t ak_edit_clip_like(const ak_clip *src, int32_t frame_count, float frame_time, ak_clip **out,
                          ak_error *err);
/* Copies `count` frames of keys from src (starting at src_frame) to dst (at dst_frame); both
 * clips have the same layout. */
void ak_edit_copy_frames(ak_clip *dst, int32_t dst_frame, const ak_clip *src, int32_t src_frame,
                         int32_t count);
/* Checks skeleton and clip belong together (non-null, same joint count). */
int32_t ak_edit_check_pair(const ak_skeleton *skeleton, const ak_clip *clip, ak_error *err);
/* Heading (ak_edit_pose_heading) of clip frame `frame`; allocates scratch. */
int32_t ak_edit_frame_heading(const ak_skeleton *skeleton, const ak_clip *clip, int32_t frame,
                              const char *humanoid_overrides, float *heading, ak_error *err);
/* Applies world_from_old = `motion` to every root joint's keys of frames [first, end) of
 * `clip` in place: rotation' = motion.rotation * rotation, translation' = motion * t. */
void ak_edit_move_roots(const ak_skeleton *skeleton, ak_clip *clip, int32_t first, int32_t end,
                        ak_xform motion);

#endif
