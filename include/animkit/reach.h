/* animkit — reach: a hand on a fixed world point, the limb-IK weight faded in and out by
 * distance so it never pops. World metres. No allocation. */
#ifndef ANIMKIT_REACH_H
#define ANIMKIT_REACH_H

#include "skeleton.h"

AK_EXTERN_C_BEGIN

typedef struct ak_reach_params {
    const ak_skeleton *skeleton; /* required */
    int32_t upper, lower, hand;  /* shoulder (upper arm), elbow, wrist joints */
    ak_vec3 target;              /* world point to put the hand on */
    ak_vec3 pole;                /* world elbow hint (e.g. behind and below the shoulder) */
    float start_distance; /* shoulder-to-target distance where reaching starts; default 1.2 */
    float full_distance;  /* distance where the weight is 1; default 0.8 */
    float fade_rate;      /* weight change per second at most; default 3 */
} ak_reach_params;

typedef struct ak_reach_state {
    float weight; /* current 0..1 */
    int32_t reached;
    float error; /* hand-to-target distance after the solve, m */
} ak_reach_state;

AK_API ak_reach_params ak_reach_defaults(void);
AK_API int32_t ak_reach_validate(const ak_reach_params *params, ak_error *err);
/* The ranges of its float fields (status.h), checked by ak_reach_validate. */
AK_API const ak_param_table *ak_reach_param_ranges(void);
/* Fades the weight toward its distance-based goal at fade_rate, then solves the arm toward
 * the target with limb IK at that weight. Rewrites local and world (FK of the arm subtree).
 * No allocation. */
AK_API int32_t ak_reach_run(const ak_reach_params *params, ak_reach_state *state, float dt,
                            ak_xform *local, ak_xform *world, ak_error *err);

AK_EXTERN_C_END

#endif
