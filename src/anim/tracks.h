/* Internal: giving a clip translation tracks it lacks, for steps that move a joint's place
 * (the motion database moving the travel up into the top joint, copy bones put back on their
 * feet and hands). */
#ifndef AK_ANIM_TRACKS_H
#define AK_ANIM_TRACKS_H

#include "animkit/clip.h"

/* *c with a translation track on every joint j where want[j] is set: a new track holds the
 * joint's rest offset in every frame, the other keys are copied. *c is replaced (the old clip
 * destroyed) only when a track was added; on failure it is unchanged. */
int32_t akanim_clip_add_tracks(const ak_skeleton *s, ak_clip **c, const uint8_t *want,
                               ak_error *err);

#endif
