/* Internal to src/locomotion: the walk motion's fields and the limb-IK adapter. */
#ifndef AK_LOCOMOTION_INTERNAL_H
#define AK_LOCOMOTION_INTERNAL_H

#include "animkit/locomotion.h"

struct ak_walk_motion {
    ak_skeleton *skeleton; /* metres */
    ak_clip *clip;         /* the looping cycle, metres */
    ak_root_motion *root;
    ak_humanoid humanoid;
    uint8_t *contacts[2];  /* per cycle frame */
    float metres_per_unit;
    int32_t units;
    int32_t cycle_start, cycle_end;
    float pose_error, velocity_error;
    float floor_y;         /* lowest foot point of the cycle, clip space (metres) */
    float sole_height[2];
    ak_vec3 foot_up_local[2];
    float stance_fraction[2];
    float leg_length[2];
    float stride_length;
    float travel_heading;
};

/* Limb IK on joints upper -> lower -> end of a pose: moves `end` toward target_ws with the
 * bend in the plane toward pole_ws, at `weight`. Rewrites local[upper], local[lower] and the
 * world transforms of the upper joint's subtree. Returns 1 when the target was reached. */
int ak_loco_limb_ik(const ak_skeleton *sk, ak_xform *local, ak_xform *world, int32_t upper, int32_t lower,
                    int32_t end, ak_vec3 target_ws, ak_vec3 pole_ws, float weight);

#endif
