/* animkit — walk quality, measured frame by frame from a walker's state. */
#ifndef ANIMKIT_WALKMETRICS_H
#define ANIMKIT_WALKMETRICS_H

#include "walker.h"

AK_EXTERN_C_BEGIN

/* m: a heel or toe the pose source has down this close above the ground under it (or below
 * it) is on the ground, and its horizontal speed counts as skate. */
#define AK_WALK_SKATE_HEIGHT 0.01f

/* m: a heel or toe this close above the ground under it (or below it) at both ends of a frame
 * is on the ground for the drag measure: issue 21's depth bound, 5 mm. */
#define AK_WALK_DRAG_HEIGHT 0.005f

/* m/s: the least a point's drag bound is (issue 21's planted 1 cm/s), where the source never
 * moves that point that low (a source standing still; the built-in walk cycle's bounds are its
 * touchdowns and lift-offs, 0.12-0.27 m/s). */
#define AK_WALK_DRAG_FLOOR 0.01f

/* What the walker was doing at a frame, from its state: walking (the start and the walk),
 * stopping (arrived, not yet at rest) or standing (stopped). */
typedef enum ak_walk_part {
    AK_WALK_PART_WALKING = 0,
    AK_WALK_PART_STOPPING = 1,
    AK_WALK_PART_STANDING = 2
} ak_walk_part;

/* Accumulates the walk's quality measures frame by frame from the walker's state. The contact
 * errors count a point while it is down: the heel (sole point) while the foot's contact has the
 * heel bit (or is a plain stance), the toe while it has the toe bit. Skate counts what the
 * pose source plants, held by the grounding or not: the horizontal speed over a frame of each
 * point (heel, toe) whose bit the source's contact has (ak_walker_state.source_contact: the
 * walk cycle's, the matcher's database frame's) and that is on the ground (within
 * AK_WALK_SKATE_HEIGHT of the ground under it, or below it) in both the frame and the one
 * before: a landing frame's approach is not skate. */
typedef struct ak_walk_metrics {
    int32_t frames;
    int32_t stance_samples;
    float max_penetration; /* m: worst heel or toe below the ground while down */
    float max_float;       /* m: worst heel or toe above the ground while down */
    float max_heel_penetration, max_heel_float; /* m: the heel's alone */
    float max_toe_penetration, max_toe_float;   /* m: the toe's alone */
    float skate;          /* m/s: mean horizontal speed of a heel or toe the source has down
                             and on the ground, held or not */
    float max_skate;      /* m/s: its worst frame */
    float held_skate;     /* m/s: mean horizontal speed of the point the grounding holds a
                             planted foot by (the heel, else the toe), from its second frame */
    float max_held_skate; /* m/s: its worst frame */
    float max_tilt;       /* radians: worst foot-to-normal angle with the heel down */
    float max_foot_step;  /* m: largest per-frame move of a sole point */
    float max_hip_step;   /* m: largest per-frame move of the hips joint */
    float max_hip_accel;  /* m/s^2: largest second difference of the hips' position / dt^2 */
    /* Over every frame, any phase (swing, landing, push-off, starts, stops): */
    float deepest;          /* m: deepest heel, toe or ankle below the ground (0: none below) */
    int32_t deepest_frame;  /* frame of it (-1: none below) */
    int32_t deepest_side;   /* 0 left, 1 right */
    int32_t deepest_point;  /* 0 heel (sole point), 1 toe, 2 ankle */
    int32_t deepest_stance; /* 1 when that foot was in stance, 0 in swing */
    float deepest_planted;  /* m: the same over the frames its foot is planted (in stance),
                               whichever point holds it: a heel sinking while the toe holds
                               counts here, not in max_penetration (0: none below) */
    int32_t deepest_planted_frame; /* frame of it (-1: none below) */
    int32_t deepest_planted_side;  /* 0 left, 1 right */
    int32_t deepest_planted_point; /* 0 heel (sole point), 1 toe, 2 ankle */
    float hip_accel_min_g; /* the hips' vertical acceleration, positions averaged over 33 ms, */
    float hip_accel_max_g; /* in g (9.81 m/s^2): lowest and highest over the walk */
    float knee_peak;       /* radians: peak knee flexion (pi - the hip-knee-ankle angle),
                              either leg; needs ak_walk_metrics_set_legs */
    /* Drag, over every frame, any phase: each heel (sole point) and toe, [side][0 heel, 1 toe],
     * within AK_WALK_DRAG_HEIGHT of the ground under it (or below it) at both ends of a frame,
     * held or not, whatever the source has it doing: its fastest horizontal speed over such a
     * frame (m/s). A point dragged faster than its source ever moves it that low (a swinging
     * foot held down along a tread) is drag no other measure sees: the source has that foot up
     * (no skate) and it is not below the ground. A source's figures (ak_walk_metrics_source,
     * ak_motion_db_source_metrics) hold its own fastest per point instead, measured the same
     * way: within AK_WALK_DRAG_HEIGHT at both ends of a frame of the ground the walker puts that
     * point on (the source's floor where its contact has it down: the grounding plants it on
     * the terrain the floor is mapped onto; its own lowest over the run where not: the
     * grounding holds it at its clearance over that lowest); ak_walk_metrics_drag_worst sets
     * the two side by side. */
    float drag[2][2];
    int32_t drag_frame[2][2];  /* frame of it (-1: none) */
    int32_t drag_stance[2][2]; /* 1 when that foot was planted at the frame's end */
    int32_t drag_part[2][2];   /* ak_walk_part at that frame */
    /* running sums */
    double skate_sum;
    int32_t skate_n;
    double held_skate_sum;
    int32_t held_skate_n;
    ak_vec3 prev_hold[2];      /* the holding point last frame */
    int32_t prev_hold_kind[2]; /* 1 heel, 2 toe, 0 none */
    ak_vec3 prev_sole[2];
    ak_vec3 prev_toe[2];
    int32_t prev_down[2]; /* the source's bits of the points on the ground the frame before */
    int32_t prev_stance[2];
    float prev_drag_height[2][2]; /* each point above its ground last frame (NaN: none) */
    ak_vec3 prev_hips, prev_hips2;
    int32_t has_prev;
    int32_t legs_set, upper[2], lower[2], foot[2];
    float hip_y[8];      /* the last hips heights, for the 33 ms average */
    int32_t hip_y_count; /* samples in hip_y */
    float smooth_y[3];   /* the last averaged heights */
    int32_t smooth_count;
    int32_t hip_accel_n; /* accelerations measured */
} ak_walk_metrics;

AK_API void ak_walk_metrics_reset(ak_walk_metrics *m);
/* The legs (hip/thigh, knee/shin and ankle joints [left, right]) whose knee flexion and ankle
 * depth count; call after ak_walk_metrics_reset. Without it knee_peak stays 0 and only the
 * heel and toe count for `deepest`. */
AK_API void ak_walk_metrics_set_legs(ak_walk_metrics *m, const int32_t upper[2],
                                     const int32_t lower[2], const int32_t foot[2]);
/* The source's own figures: hip_accel_min_g / hip_accel_max_g and knee_peak over two
 * loops of the walk motion's cycle clip (so the seam counts), the same 33 ms average, and
 * skate / max_skate over one loop and its seam (the last frame -> the first carried by the
 * cycle's travel) on the cycle's floor, measured as ak_walk_metrics_add measures the walk's
 * (the cycle's contacts), and drag, each heel's and toe's fastest over that loop and seam
 * within AK_WALK_DRAG_HEIGHT at both ends of a frame of the ground the walker puts it on (the
 * cycle's floor where its contact has it down, its lowest in the cycle where not; the heel and
 * toe by the motion's calibration, the walker's sole and toe points; travel included). The other
 * fields stay 0 (drag_frame -1). Allocates a pose buffer
 * (load-time use); AK_ERR_INVALID_ARG on NULL. */
AK_API int32_t ak_walk_metrics_source(const ak_walk_motion *motion, ak_walk_metrics *out,
                                      ak_error *err);
/* Adds one frame: `state` from ak_walker_get_state, `world` the walker's world pose, `hips`
 * the hips joint, dt the frame time. Stance frames whose sole has no ground are skipped; the
 * depth of any phase compares each point with the ground the walker found under it (heel and
 * ankle: the heel ray, toe: the toe ray). */
/* The walker's origin moved by (dx, dz) (ak_walker_shift_origin): the remembered positions
 * move with it, so the next frame's speeds do not see the jump. */
AK_API void ak_walk_metrics_shift_origin(ak_walk_metrics *m, float dx, float dz);
AK_API void ak_walk_metrics_add(ak_walk_metrics *m, const ak_walker_state *state,
                                const ak_xform *world, int32_t hips, float dt);

/* The point whose drag is farthest over its bound, or the worst against its bound when none is
 * over (the left heel when nothing was measured). */
typedef struct ak_walk_drag {
    float speed;    /* m/s: that point's drag (ak_walk_metrics.drag) */
    float bound;    /* m/s: the source's fastest for that point that low, at least
                       AK_WALK_DRAG_FLOOR */
    int32_t frame;  /* -1: none measured */
    int32_t side;   /* 0 left, 1 right */
    int32_t point;  /* 0 heel (sole point), 1 toe */
    int32_t stance; /* 1 when that foot was planted */
    int32_t part;   /* ak_walk_part */
} ak_walk_drag;

/* walk's drag against source's (NULL: every bound AK_WALK_DRAG_FLOOR) into *out: the point with
 * the largest ratio of its drag to its bound, max(source's drag of that point,
 * AK_WALK_DRAG_FLOOR). AK_ERR_INVALID_ARG on NULL walk or out. */
AK_API int32_t ak_walk_metrics_drag_worst(const ak_walk_metrics *walk,
                                          const ak_walk_metrics *source, ak_walk_drag *out);

AK_EXTERN_C_END

#endif
