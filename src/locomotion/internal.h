/* Internal to src/locomotion: the walk motion's fields and the limb-IK adapter. */
#ifndef AK_LOCOMOTION_INTERNAL_H
#define AK_LOCOMOTION_INTERNAL_H

#include "animkit/locomotion.h"

struct ak_walk_motion {
    ak_skeleton *skeleton; /* metres */
    ak_clip *clip;         /* the looping cycle, metres */
    ak_root_motion *root;
    ak_humanoid humanoid;
    uint8_t *contacts[2]; /* per cycle frame */
    float metres_per_unit;
    int32_t units;
    int32_t cycle_start, cycle_end;
    float pose_error, velocity_error;
    float floor_y; /* lowest foot point of the cycle, clip space (metres) */
    float sole_height[2];
    ak_vec3 foot_up_local[2];
    ak_vec3 toe_local[2]; /* the floor point under the ball, ankle frame (has_toe) */
    int32_t has_toe[2];
    float stance_fraction[2];
    float leg_length[2];
    float stride_length;
    float travel_heading;
    /* Per cycle frame and foot: where the sole lands next (in the character frame of that
     * frame) and how far through its swing the foot is (0 at lift-off, 1 at landing; 0 in
     * stance). Lets the swing foot and the hips prepare for the ground it will land on. */
    ak_vec3 *land_rel[2];
    float *swing_phase[2];
};

/* Seam quality of the cycle [a, b) of clip c: mean per-joint angle between the poses of a and
 * b (root heading removed) and between their frame-to-frame rotations, per second. */
void ak_cycle_errors(const ak_clip *c, int32_t a, int32_t b, float *pose_error,
                     float *velocity_error);

/* Fills land_rel / swing_phase from the contacts and the calibration. */
int32_t ak_walk_motion_landings(ak_walk_motion *m, ak_error *err);

#endif
