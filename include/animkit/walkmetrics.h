/* animkit — walk quality, measured frame by frame from a walker's state. */
#ifndef ANIMKIT_WALKMETRICS_H
#define ANIMKIT_WALKMETRICS_H

#include "walker.h"

AK_EXTERN_C_BEGIN

/* Accumulates the walk's quality measures frame by frame from the walker's state. A point
 * counts while it is down: the heel (sole point) while the foot's contact has the heel bit
 * (or is a plain stance), the toe while it has the toe bit; skate is the horizontal speed of
 * the point that holds the foot (the heel, else the toe). */
typedef struct ak_walk_metrics {
    int32_t frames;
    int32_t stance_samples;
    float max_penetration; /* m: worst heel or toe below the ground while down */
    float max_float;       /* m: worst heel or toe above the ground while down */
    float max_heel_penetration, max_heel_float; /* m: the heel's alone */
    float max_toe_penetration, max_toe_float;   /* m: the toe's alone */
    float skate;         /* m/s: mean horizontal speed of the holding point over stance */
    float max_skate;     /* m/s: its worst frame */
    float max_tilt_deg;  /* worst foot-to-normal angle with the heel down */
    float max_foot_step; /* m: largest per-frame move of a sole point */
    float max_hip_step;  /* m: largest per-frame move of the hips joint */
    float max_hip_accel; /* m/s^2: largest second difference of the hips' position / dt^2 */
    /* running sums */
    double skate_sum;
    int32_t skate_n;
    ak_vec3 prev_sole[2];
    ak_vec3 prev_hold[2];      /* the holding point last frame */
    int32_t prev_hold_kind[2]; /* 1 heel, 2 toe, 0 none */
    int32_t prev_stance[2];
    ak_vec3 prev_hips, prev_hips2;
    int32_t has_prev;
} ak_walk_metrics;

AK_API void ak_walk_metrics_reset(ak_walk_metrics *m);
/* Adds one frame: `state` from ak_walker_get_state, `world` the walker's world pose, `hips`
 * the hips joint, dt the frame time. Stance frames whose sole has no ground are skipped. */
AK_API void ak_walk_metrics_add(ak_walk_metrics *m, const ak_walker_state *state,
                                const ak_xform *world, int32_t hips, float dt);

AK_EXTERN_C_END

#endif
