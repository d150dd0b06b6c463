/* animkit — walk motion: walk cycles found in mocap, and a clip prepared for walking (scaled
 * to metres, cycle cut, seam blended, root motion, contacts, foot calibration). Read-only
 * after creation, so many walkers can share one. */
#ifndef ANIMKIT_WALKMOTION_H
#define ANIMKIT_WALKMOTION_H

#include "contacts.h"
#include "rootmotion.h"

AK_EXTERN_C_BEGIN

typedef struct ak_cycle {
    int32_t start, end;   /* frames: the cycle is [start, end); frame `end` repeats `start` */
    float pose_error;     /* mean per-joint rotation difference between start and end, radians */
    float velocity_error; /* mean per-joint angular velocity difference, rad/s */
    float step_length;    /* m: mean root travel per step (half the cycle's travel) */
    float speed;          /* m/s over the cycle */
} ak_cycle;

/* The cycle finder looks for locomotion. A candidate [start, end) holds, for each foot,
 * exactly one stance and one swing (two steps), with the same contact state at both ends, and
 * the root travels at least min_step_fraction * leg_length per step. Among those it prefers
 * the steadiest stretch (the two steps alike in length and turn) with the best seam (pose and
 * velocity match, root heading removed). A clip with no such stretch is refused with what was
 * measured (how far the root moves in how long). */
typedef struct ak_cycle_params {
    const ak_skeleton *skeleton; /* required, in metres (scale first) */
    const ak_clip *clip;         /* required, same units */
    const uint8_t *left, *right; /* contact flags per frame (ak_contact_run); required */
    float leg_length;            /* m, hip to ankle; 0 (default): from the humanoid map */
    float min_time, max_time;    /* cycle length range, s; defaults 0.45 and 1.8 */
    float min_step_fraction;     /* default 0.3 */
} ak_cycle_params;

AK_API ak_cycle_params ak_cycle_defaults(void);
AK_API int32_t ak_cycle_validate(const ak_cycle_params *params, ak_error *err);
/* The documented range of every float field (status.h), checked by the _validate above. */
AK_API const ak_param_table *ak_cycle_param_ranges(void);
/* AK_ERR_NOT_FOUND with the measured reason when the clip holds no locomotion. */
AK_API int32_t ak_cycle_find(const ak_cycle_params *params, ak_cycle *out, ak_error *err);

/* ---- Walk motion: a clip prepared for walking ---------------------------------------- */

/* A walk clip made ready: skeleton and clip scaled to metres, the cycle cut and its seam
 * blended, heading drift over the cycle removed (so cycles chain straight), root motion,
 * foot contacts and the foot calibration (sole height, the foot's up axis). Read-only after
 * creation, so many walkers can share one. */
typedef struct ak_walk_motion ak_walk_motion;

typedef struct ak_walk_motion_params {
    float metres_per_unit; /* 0 (default): detect from the standing height (ak_units_detect) */
    int32_t cycle_start; /* frames [cycle_start, cycle_end); both -1 (default): find automatically;
                            both 0: the clip already loops (clip->loop must be 1) */
    int32_t cycle_end;
    float seam_blend;               /* seconds of crossfade hiding the seam; default 0.1 */
    float min_cycle_time;           /* automatic search range, seconds; default 0.45 */
    float max_cycle_time;           /* default 1.8 */
    const char *humanoid_overrides; /* "slot=Joint,..." or NULL (see ak_humanoid_find) */
    ak_contact_params contacts;     /* thresholds (skeleton, clip, joints and roll_height 0 are
                                       filled in: the foot IK pins ankles, no rolling heel) */
    const uint8_t *stance_left;     /* optional, with a clip that already loops: stance flags per */
    const uint8_t *stance_right;    /* frame instead of detection (e.g. ak_walk_clip_contacts) */
    int32_t use_captured_transitions; /* 1 (default): a start (standing on both feet, root still,
                                         then the ramp into the cycle) or stop found in the clip
                                         around the cycle is kept and the walker plays it;
                                         0: procedural starts and stops only */
    float cycle_start_time; /* the cycle between two times of the clip, seconds: -1, -1 (default)
                               use cycle_start/cycle_end; else 0 <= start < end < duration. A
                               capture under 50 fps is then resampled k times finer (120 fps
                               or more: slerp/lerp between its frames) and the seam may fall
                               between the file's frames (30 fps: frame 43.75 = 1.4583 s) */
    float cycle_end_time;
    const char *root_joint; /* the joint that carries the travel: NULL (default) measures it
                               (ak_root_joint_find: the top joint, or the hips under a still
                               top joint); a name overrides. The clip is read through
                               ak_clip_root_motion_prepare, so poses keep every joint's place */
} ak_walk_motion_params;

/* What became of a captured start or stop (ak_walk_motion_info.start_check / stop_check). */
typedef enum ak_transition_use {
    AK_TRANSITION_NONE = 0,      /* the clip holds none around the cycle (no standing frames
                                    before or after it): the walker's procedural one */
    AK_TRANSITION_USED = 1,      /* found and kept: the walker plays it */
    AK_TRANSITION_DROPPED = 2,   /* found, and left out because its own frames, as played,
                                    break issue 21's bounds around the cycle's figures (`broken`
                                    says which); the walker's procedural one instead */
    AK_TRANSITION_NOT_SOUGHT = 3 /* not looked for: use_captured_transitions 0, or a clip that
                                    already loops (cycle 0:0) */
} ak_transition_use;

/* Bits of ak_transition_check.broken: the bounds a dropped start or stop breaks. */
enum {
    AK_TRANSITION_BREAKS_HIPS_FALL = 1, /* hips' acceleration below hip_accel_low_g */
    AK_TRANSITION_BREAKS_HIPS_RISE = 2, /* above hip_accel_high_g */
    AK_TRANSITION_BREAKS_KNEE = 4       /* knee_peak over knee_bound */
};

/* A captured start's or stop's check: its frames as played (the join's crossfade included)
 * measured as ak_walk_metrics measures a walk, against issue 21's bounds around the cycle's
 * own figures: the hips' vertical acceleration (33 ms average) within min(cycle, -1 g) - 0.25 g
 * .. max(cycle, +1 g) + 0.5 g, the peak knee flexion at most max(cycle peak, 75 deg) + 25 deg.
 * The figures are 0 unless use is USED or DROPPED. */
typedef struct ak_transition_check {
    int32_t use;       /* ak_transition_use */
    int32_t broken;    /* AK_TRANSITION_BREAKS_* bits; 0 unless DROPPED */
    int32_t frames[2]; /* source frames [first, last] found (kept or dropped); -1,-1: none */
    float hip_accel_min_g, hip_accel_max_g;  /* its frames as played, g (9.81 m/s^2) */
    float hip_accel_low_g, hip_accel_high_g; /* the bounds, g */
    float knee_peak;                         /* its frames as played, radians (0: straight) */
    float knee_bound;                        /* radians */
} ak_transition_check;

typedef struct ak_walk_motion_info {
    float metres_per_unit;
    int32_t units; /* ak_units */
    int32_t cycle_start,
        cycle_end; /* in the source clip's frames (0, frame_count for a ready loop), rounded
                      to the nearest when the cycle was cut between frames */
    float cycle_start_time, cycle_end_time; /* the same in seconds, as cut */
    float pose_error, velocity_error;       /* seam quality (ak_cycle) */
    float cycle_time;                       /* seconds */
    float stride_length;                    /* metres per cycle */
    float speed;                            /* metres per second */
    float travel_heading; /* direction of travel relative to the facing, radians */
    float sole_height[2]; /* ankle above sole, m: [0] left, [1] right */
    float stance_fraction[2];
    float leg_length[2];
    int32_t start_frames[2]; /* source frames [first, last] of the captured start; -1,-1: none */
    int32_t stop_frames[2];  /* the same for the captured stop */
    float start_join_error;  /* rad: the start's last frame against the loop's first */
    float stop_join_error;   /* rad: the stop's first frame against the loop's first */
    ak_root_joint_report root_joint; /* which joint carried the travel, and why */
    ak_transition_check start_check; /* why the captured start plays or not, with its figures */
    ak_transition_check stop_check;  /* the same for the captured stop */
} ak_walk_motion_info;

AK_API ak_walk_motion_params ak_walk_motion_defaults(void);
/* AK_OK, or AK_ERR_INVALID_ARG with the reason (negative or non-finite units, a cycle that is
 * neither -1:-1, 0:0 nor 0 <= start < end - 2, negative seam blend, unordered cycle times,
 * stance flags for one foot only or without a ready loop, bad contact thresholds).
 * ak_walk_motion_create validates first; what needs the clip (end < frame_count) it checks
 * there. */
AK_API int32_t ak_walk_motion_validate(const ak_walk_motion_params *params, ak_error *err);
/* The documented range of every float field (status.h), checked by the _validate above. */
AK_API const ak_param_table *ak_walk_motion_param_ranges(void);
AK_API int32_t ak_walk_motion_create(const ak_skeleton *skeleton, const ak_clip *clip,
                                     const ak_walk_motion_params *params, ak_walk_motion **out,
                                     ak_error *err);
AK_API void ak_walk_motion_destroy(ak_walk_motion *motion);
AK_API void ak_walk_motion_get_info(const ak_walk_motion *motion, ak_walk_motion_info *info);
/* One line saying what the walker starts (is_stop 0) or stops (1) with and why, into buf (cap
 * bytes, NUL-ended, truncated): "captured, frames A:B", "procedural (none captured around the
 * cycle)", "procedural (captured transitions off)", or "procedural (the captured stop, frames
 * A:B, left out: hips -4.23..3.89 g outside -1.25..1.50 g; knee 108.6 deg over 100.0 deg)".
 * Frames are the source clip's. The CLI's walk line and the walk summary's start_why / stop_why
 * (scenario.h). Returns the length the whole line needs (snprintf's rule). */
AK_API int32_t ak_transition_check_describe(const ak_transition_check *check, int32_t is_stop,
                                            char *buf, size_t cap);
AK_API const ak_skeleton *ak_walk_motion_skeleton(const ak_walk_motion *motion); /* metres */
AK_API const ak_clip *ak_walk_motion_clip(const ak_walk_motion *motion); /* the looping cycle */
AK_API const ak_humanoid *ak_walk_motion_humanoid(const ak_walk_motion *motion);
AK_API const ak_root_motion *ak_walk_motion_root(const ak_walk_motion *motion);
/* Stance flags per frame of the cycle clip; side 0 = left, 1 = right. */
AK_API const uint8_t *ak_walk_motion_contacts(const ak_walk_motion *motion, int32_t side);
/* Overrides the detected stance flags (clip->frame_count values per side). */
AK_API int32_t ak_walk_motion_set_contacts(ak_walk_motion *motion, const uint8_t *left,
                                           const uint8_t *right, ak_error *err);
/* The contact flag byte (AK_CONTACT_*, 0 in swing) of foot `side` (0 left, 1 right) at cycle
 * time t: ak_contact_at over the motion's contacts (nearest frame, wraps). What the walker
 * plays; the motion-level form of the one stance-at-time rule. */
AK_API uint8_t ak_walk_motion_stance_at(const ak_walk_motion *motion, int32_t side, float t);

AK_EXTERN_C_END

#endif
