/* animkit — the built-in walk: a procedural gait and idle for animkit's own biped, and its
 * exact contact flags. Metres, Y up, facing +Z. Create functions allocate. */
#ifndef ANIMKIT_WALKCLIP_H
#define ANIMKIT_WALKCLIP_H

#include "clip.h"

AK_EXTERN_C_BEGIN

/* A procedural gait for animkit's own biped (21 joints + 5 End Site tips, CMU-style names,
 * metres, facing +Z, left = +X). Feet follow planted/swing trajectories (stance feet do not
 * move in the world), legs are solved analytically from them, the pelvis bobs, sways and
 * rolls, arms swing against the legs. The clip loops: one cycle = two steps. */
typedef struct ak_walk_clip_params {
    float stride_length; /* metres travelled per cycle (two steps); default 1.3 */
    float cycle_time;    /* seconds per cycle; default 1.1 (109 steps/min) */
    float frame_rate;    /* frames per second; default 60 */
    float duty_factor;   /* fraction of the cycle each foot is in stance, (0.5, 0.8); default 0.6 */
    float hip_height;    /* hip joint height at double support, m; default 0.795 */
    float hip_bob;       /* extra hip height at mid-stance, m; default 0.105 (knee 17.5 deg) */
    float hip_sway;      /* lateral pelvis amplitude, m; default 0.025 */
    float step_width;    /* lateral distance between the feet, m; default 0.18 */
    float foot_clearance; /* peak ankle lift in swing, m; default 0.10 */
    float arm_swing;      /* shoulder swing amplitude, radians, [-80, 80] deg; default 16 deg */
    float pelvis_yaw;     /* pelvis rotation amplitude, radians, [-30, 30] deg; default 4 deg */
} ak_walk_clip_params;

AK_API ak_walk_clip_params ak_walk_clip_defaults(void);
AK_API int32_t ak_walk_clip_validate(const ak_walk_clip_params *params, ak_error *err);
/* The ranges of its float fields (status.h), checked by ak_walk_clip_validate. */
AK_API const ak_param_table *ak_walk_clip_param_ranges(void);
/* Builds the biped and its looping walk clip (the root travels +Z by stride_length per
 * cycle). Both outputs are new objects the caller destroys. */
AK_API int32_t ak_walk_clip_create(const ak_walk_clip_params *params, ak_skeleton **out_skeleton,
                                   ak_clip **out_clip, ak_error *err);
/* The exact contact flags of the built-in walk clip's frames (left, right: clip frame_count
 * values each): AK_CONTACT_HEEL | AK_CONTACT_TOE while the foot is planted (flat) by
 * construction, 0 in swing. */
AK_API int32_t ak_walk_clip_contacts(const ak_walk_clip_params *params, const ak_clip *clip,
                                     uint8_t *left, uint8_t *right, ak_error *err);
/* A looping standing idle (gentle breathing and weight shift) for the same biped. */
AK_API int32_t ak_idle_clip_create(const ak_walk_clip_params *params, const ak_skeleton *skeleton,
                                   ak_clip **out_clip, ak_error *err);

AK_EXTERN_C_END

#endif
