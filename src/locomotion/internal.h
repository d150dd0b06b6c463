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

#endif
