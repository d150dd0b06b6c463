/* Internal: how far from the origin a skeleton + clip can place a joint.
 *
 * A world position is a sum of local translations along the joint's chain (rotations keep
 * lengths), so |position of j| <= the sum over j's chain of each joint's longest translation
 * (rest offset, or translation keys where the joint has a track). Loaders keep that sum below
 * AK_MAX_REACH = FLT_MAX / 16 so that positions, their differences and sums of a few
 * (heights, bone vectors, centroids) are finite floats. */
#ifndef AK_ANIM_REACH_H
#define AK_ANIM_REACH_H

#include <float.h>

#include "animkit/clip.h"
#include "animkit/skeleton.h"

#define AK_MAX_REACH ((double)FLT_MAX / 16.0)

/* The first joint whose chain reach exceeds `limit` (its reach in *reach), or -1 when none
 * does. `clip` may be NULL (rest pose only). -2 when out of memory. */
int32_t akanim_first_joint_beyond(const ak_skeleton *s, const ak_clip *clip, double limit,
                                  double *reach);

#endif
