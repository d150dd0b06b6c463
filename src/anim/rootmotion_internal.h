/* Internal to the library: root-motion queries callers make many of per frame. */
#ifndef AK_ROOTMOTION_INTERNAL_H
#define AK_ROOTMOTION_INTERNAL_H

#include "animkit/rootmotion.h"

#define AK_ROOT_MOTION_MEMO 48

/* The far ends of the last ak_root_motion_travels call: the root motion at each time asked
 * (after the loop reduction), kept for the next call. Zeroed is empty. */
typedef struct ak_root_motion_memo {
    const ak_root_motion *rm;
    int32_t n;
    float t[AK_ROOT_MOTION_MEMO];
    ak_vec3 p[AK_ROOT_MOTION_MEMO];
    float h[AK_ROOT_MOTION_MEMO];
} ak_root_motion_memo;

/* travel[i] = the horizontal length of ak_root_motion_delta(rm, t0, t1[i]) for i < n, with
 * the t0 end (its place, heading and yaw) evaluated once and each far end taken from `memo`
 * (may be NULL) when the last call asked the same time: bit for bit the n separate calls. */
void ak_root_motion_travels(const ak_root_motion *rm, float t0, const float *t1, int32_t n,
                            float *travel, ak_root_motion_memo *memo);

/* The root motion's place and heading within its period at the last two times asked (a
 * caller's own: the root motion is shared). A walker's frame asks the same times several times
 * (its travel's two ends, last frame's far end being this frame's near one, its heading's
 * wiggle, its in-place pose); each is found once. Zeroed is empty. */
typedef struct ak_root_period_memo {
    const ak_root_motion *rm;
    int32_t n, last;
    float t[2];
    ak_vec3 p[2];
    float h[2];
} ak_root_period_memo;

/* The joint whose local transform ak_root_motion_make_in_place changes (-1: none). */
int32_t ak_root_motion_joint(const ak_root_motion *rm);

/* ak_root_motion_at, _delta and _make_in_place with a memo (may be NULL): bit for bit the
 * same answers. */
void ak_root_motion_at_memo(const ak_root_motion *rm, ak_root_period_memo *memo, float t,
                            ak_vec3 *position, float *heading);
void ak_root_motion_delta_memo(const ak_root_motion *rm, ak_root_period_memo *memo, float t0,
                               float t1, ak_vec3 *dt, float *dh);
void ak_root_motion_make_in_place_memo(const ak_root_motion *rm, ak_root_period_memo *memo, float t,
                                       ak_xform *local);

#endif
