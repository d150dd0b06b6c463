/* animkit — a kinematic character controller: a vertical capsule that collides and slides
 * against the ground (any ak_ground) and axis-aligned boxes, climbs steps up to a step
 * height, refuses slopes steeper than a limit, and falls under gravity.
 *
 * Root-motion deltas go through ak_controller_move instead of being added to the position
 * blindly. World metres, Y up. The controller is a plain caller-owned struct: no allocation.
 * `position` is the capsule's bottom point (where the feet stand). */
#ifndef ANIMKIT_CONTROLLER_H
#define ANIMKIT_CONTROLLER_H

#include "ground.h"

AK_EXTERN_C_BEGIN

/* An axis-aligned box obstacle, world space. A box whose top is within step_height of the
 * feet can be stepped onto (it becomes ground); a taller one is a wall. */
typedef struct ak_box {
    ak_vec3 min, max;
} ak_box;

typedef struct ak_controller_params {
    float radius;      /* capsule radius, m; default 0.25 */
    float height;      /* capsule height, m (feet to top); default 1.7 */
    float step_height; /* highest rise climbed without jumping, m; default 0.3 */
    float max_slope;   /* steepest walkable slope, radians, (0, pi/2); default pi/4 (45 deg) */
    float gravity;     /* m/s^2, downward; default 9.81 */
    float skin;        /* clearance kept from walls, m; default 0.005 */
} ak_controller_params;

typedef struct ak_controller {
    ak_controller_params params;
    ak_vec3 position;        /* bottom of the capsule, world */
    float vertical_velocity; /* m/s, up positive */
    int32_t grounded;        /* 1 when standing on ground */
} ak_controller;

/* What one move did. */
typedef struct ak_controller_result {
    ak_vec3 moved;     /* actual displacement this call */
    int32_t hit_wall;  /* a box wall or the edge of the ground stopped part of the move */
    int32_t hit_step;  /* a rise above step_height stopped part of the move */
    int32_t hit_slope; /* a slope above max_slope stopped part of the move */
    int32_t grounded;
    ak_vec3 ground_normal;
} ak_controller_result;

AK_API ak_controller_params ak_controller_defaults(void);
AK_API int32_t ak_controller_validate(const ak_controller_params *params, ak_error *err);
/* The ranges of its float fields (status.h), checked by ak_controller_validate. */
AK_API const ak_param_table *ak_controller_param_ranges(void);
/* Initialises `c` at `position` (validates params first). */
AK_API int32_t ak_controller_init(ak_controller *c, const ak_controller_params *params,
                                  ak_vec3 position, ak_error *err);
/* Moves by the horizontal part of `desired` (x,z; world) over dt seconds: the move is cut in
 * sub-steps of at most radius/2; each sub-step that would enter a box, climb more than
 * step_height or climb a slope steeper than the limit is retried along x alone and z alone
 * (sliding), else dropped. Then gravity: within step_height above the ground the capsule
 * snaps down onto it; higher, it falls with `gravity`. `boxes` may be NULL when box_count
 * is 0. `out` may be NULL. No allocation. */
AK_API int32_t ak_controller_move(ak_controller *c, const ak_ground *ground, const ak_box *boxes,
                                  int32_t box_count, ak_vec3 desired, float dt,
                                  ak_controller_result *out);
/* Ground height under (x,z) as the controller sees it: the ground, raised to the top of
 * any box containing x,z whose top is at most `feet_y + step_height`. Returns hit. */
AK_API int32_t ak_controller_ground(const ak_controller *c, const ak_ground *ground,
                                    const ak_box *boxes, int32_t box_count, float x, float z,
                                    float feet_y, ak_ground_hit *out);

AK_EXTERN_C_END

#endif
